/**
 * How long a default `check` takes: against our mock on loopback at `--concurrency 1` (one request
 * at a time, as before the option existed) and at the default concurrency, interleaved and
 * repeated; and against `serve --latency 200` at the default concurrency. At latency 200 one request
 * at a time would take about 20 minutes: that figure is extrapolated from one property's 100
 * runs (its time per request, times the requests of the whole run), and the report says so.
 * The checker runs as its own process on the load generator's core; its CPU time is its own
 * (process.cpuUsage at exit), the server's is read from /proc.
 */

import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { median } from './stats.ts';
import { freePort, startServer, stopServer, treeCpuSeconds } from './processes.ts';
import { keep, runChild, temporary } from './children.ts';

export interface CheckRun {
  wallMs: number;
  /** The checker's CPU time (user + system). */
  cpuMs: number;
  serverCpuMs: number;
  requests: number;
  verdict: string;
  /** The report as printed, less the time and the base URL (to compare runs). */
  report: string;
}

export interface CheckTiming {
  rounds: number;
  defaultConcurrency: number;
  local: { one: CheckRun[]; many: CheckRun[] };
  /** The code as issue 27 found it (BEFORE), run in the same rounds; why not, when it could not be built. */
  before: { rev: string; runs: CheckRun[] } | { rev: string; skipped: string };
  latency: {
    ms: number;
    many: CheckRun;
    /** One property at --concurrency 1, for the extrapolation. */
    oneProperty: CheckRun & { property: string; endpoint: string };
  };
}

export interface CheckSetup {
  root: string;
  work: string;
  cli: string;
  core: number | undefined;
  rounds: number;
  defaultConcurrency: number;
  log(line: string): void;
}

const SEED = 1;
/**
 * The code as issue 27 found it (its answers read by properties/plain-http.ts, a reader of its own
 * over plain sockets): "check's default run against the local mock stays within 1.5x of today's
 * time" now that answers are read through undici is measured against it, built from git into the
 * bench's work folder and run in the same rounds as this build, at its default concurrency too.
 */
const BEFORE = { rev: 'b7bb446', what: 'the code before issue 27', how: "answers read by its own plain-socket reader, properties/plain-http.ts" };
/** The most the default run may take, as a share of BEFORE's. */
const BEFORE_TARGET = 1.5;
const LATENCY_MS = 200;
const ONE_PROPERTY = { property: 'page-length', endpoint: 'reviews' };
/** Writes the process's CPU time to the file $BENCH_CPU_FILE as it exits (a preload, so that the CLI is run as shipped). */
const CPU_ON_EXIT = `data:text/javascript,${encodeURIComponent("import{writeFileSync}from'node:fs';process.on('exit',()=>{const u=process.cpuUsage();writeFileSync(process.env.BENCH_CPU_FILE,String((u.user+u.system)/1000))})")}`;

/**
 * The CLI of BEFORE, built once into the work folder (git archive of that commit, this checkout's
 * node_modules, its own build script), or why it cannot be (no git history, say, in a package).
 */
async function buildBefore(setup: CheckSetup): Promise<{ cli: string } | { skipped: string }> {
  const dir = join(setup.work, `check-before-${BEFORE.rev}`);
  const cli = join(dir, 'bin', 'store-listing-kit.js');
  if (existsSync(join(dir, '.built'))) return { cli };
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(temporary(dir), { recursive: true });
  const archive = await runChild('sh', ['-c', `git -C "$0" archive --format=tar ${BEFORE.rev} | tar -x -C "$1"`, setup.root, dir]);
  if (archive.code !== 0) return { skipped: `git could not give commit ${BEFORE.rev} (${archive.stderr.trim().split('\n')[0] || `exit ${archive.signal ?? archive.code}`})` };
  symlinkSync(join(setup.root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  const build = await runChild(process.execPath, ['scripts/build.mjs'], { cwd: dir });
  if (build.code !== 0) return { skipped: `the build of ${BEFORE.rev} failed (${build.stderr.trim().split('\n')[0] || `exit ${build.signal ?? build.code}`})` };
  writeFileSync(join(dir, '.built'), `${BEFORE.rev}\n`);
  keep(dir);
  return { cli };
}

async function runCheck(setup: CheckSetup, baseUrl: string, serverPid: number, args: string[], cli = setup.cli): Promise<CheckRun> {
  const cpuFile = temporary(join(setup.work, `check-cpu-${process.pid}.txt`));
  rmSync(cpuFile, { force: true });
  const serverBefore = treeCpuSeconds(serverPid);
  const began = performance.now();
  const { code, stdout, stderr } = await runChild(process.execPath, ['--import', CPU_ON_EXIT, cli, 'check', '--base-url', baseUrl, '--seed', String(SEED), ...args], {
    cwd: setup.root,
    env: { ...process.env, BENCH_CPU_FILE: cpuFile, NO_COLOR: '1' },
  });
  const wallMs = performance.now() - began;
  const serverCpuMs = (treeCpuSeconds(serverPid) - serverBefore) * 1000;
  const summary = /^(OK|FAILED|NOTHING CHECKED): .* · (\d+) requests? in /m.exec(stdout);
  if (code !== 0 || !summary) throw new Error(`check ${args.join(' ')} ended ${code}: ${stderr.trim() || stdout.slice(-400)}`);
  const report = stdout.split(baseUrl).join('<base-url>').replace(/ in \d+(\.\d+)?s · /, ' in <time> · ');
  return { wallMs, cpuMs: Number(readFileSync(cpuFile, 'utf8')), serverCpuMs, requests: Number(summary[2]), verdict: summary[1]!, report };
}

async function startMock(setup: CheckSetup, name: string, args: string[]) {
  const port = await freePort();
  return startServer({
    name,
    command: process.execPath,
    args: [setup.cli, 'serve', '--host', '127.0.0.1', '--port', String(port), '--seed', String(SEED), ...args],
    port,
    core: setup.core,
    readyPath: '/store/products/reviews?limit=1',
    logFile: join(setup.work, `${name}.log`),
    cwd: setup.root,
  });
}

export async function timeCheck(setup: CheckSetup): Promise<CheckTiming> {
  const many = String(setup.defaultConcurrency);
  const local = { one: [] as CheckRun[], many: [] as CheckRun[] };
  const beforeRuns: CheckRun[] = [];
  setup.log(`check: building ${BEFORE.what} (${BEFORE.rev}) to time it side by side`);
  const beforeBuild = await buildBefore(setup);
  if ('skipped' in beforeBuild) setup.log(`  not timed: ${beforeBuild.skipped}`);
  const mock = await startMock(setup, 'check-mock', []);
  try {
    const url = `http://127.0.0.1:${mock.port}`;
    setup.log('check: warm-up run against the mock');
    await runCheck(setup, url, mock.pid, ['--concurrency', many]);
    type Kind = 'before' | 'one' | 'many';
    const kinds: Kind[] = 'cli' in beforeBuild ? ['before', 'one', 'many'] : ['one', 'many'];
    for (let round = 0; round < setup.rounds; round++) {
      // rotate which goes first, so that none always meets the machine in the same state
      const order = kinds.map((_, i) => kinds[(i + round) % kinds.length]!);
      for (const kind of order) {
        const run =
          kind === 'before' && 'cli' in beforeBuild
            ? await runCheck(setup, url, mock.pid, [], beforeBuild.cli)
            : await runCheck(setup, url, mock.pid, ['--concurrency', kind === 'one' ? '1' : many]);
        (kind === 'before' ? beforeRuns : local[kind]).push(run);
        const label = kind === 'before' ? `${BEFORE.what} (${BEFORE.rev})` : `--concurrency ${kind === 'one' ? '1' : many}`;
        setup.log(`check round ${round + 1}/${setup.rounds}, ${label}: ${(run.wallMs / 1000).toFixed(2)} s, ${run.requests} requests, checker ${(run.cpuMs / run.requests).toFixed(3)} ms CPU/request`);
      }
    }
  } finally {
    await stopServer(mock);
  }
  const before = 'cli' in beforeBuild ? { rev: BEFORE.rev, runs: beforeRuns } : { rev: BEFORE.rev, skipped: beforeBuild.skipped };
  const slow = await startMock(setup, 'check-mock-latency', ['--latency', String(LATENCY_MS)]);
  try {
    const url = `http://127.0.0.1:${slow.port}`;
    setup.log(`check against serve --latency ${LATENCY_MS}, --concurrency ${many} (about a minute and a half)`);
    const manyRun = await runCheck(setup, url, slow.pid, ['--concurrency', many]);
    setup.log(`  ${(manyRun.wallMs / 1000).toFixed(1)} s, ${manyRun.requests} requests`);
    setup.log(`check against serve --latency ${LATENCY_MS}, --concurrency 1, ${ONE_PROPERTY.property} on ${ONE_PROPERTY.endpoint} only`);
    const oneRun = await runCheck(setup, url, slow.pid, ['--concurrency', '1', '--properties', ONE_PROPERTY.property, '--endpoints', ONE_PROPERTY.endpoint]);
    setup.log(`  ${(oneRun.wallMs / 1000).toFixed(1)} s, ${oneRun.requests} requests`);
    return { rounds: setup.rounds, defaultConcurrency: setup.defaultConcurrency, local, before, latency: { ms: LATENCY_MS, many: manyRun, oneProperty: { ...oneRun, ...ONE_PROPERTY } } };
  } finally {
    await stopServer(slow);
  }
}

/** Whether every local run printed the same report (the same verdicts, counterexamples and request counts). */
export const sameReports = (t: CheckTiming): boolean => new Set([...t.local.one, ...t.local.many].map((r) => r.report)).size === 1;

const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const perRequest = (runs: CheckRun[], pick: (r: CheckRun) => number) => median(runs.map((r) => pick(r) / r.requests));

export const CHECK_SECTION = '## The property suite: `check`';

/** The section of RESULTS.md (and its targets). */
export function renderCheck(t: CheckTiming): string[] {
  const one = median(t.local.one.map((r) => r.wallMs));
  const many = median(t.local.many.map((r) => r.wallMs));
  const requests = t.local.many[0]?.requests ?? Number.NaN;
  const slowPerRequest = t.latency.oneProperty.wallMs / t.latency.oneProperty.requests;
  const extrapolated = slowPerRequest * t.latency.many.requests;
  const beforeRuns = 'runs' in t.before ? t.before.runs : [];
  const before = beforeRuns.length > 0 ? median(beforeRuns.map((r) => r.wallMs)) : Number.NaN;
  // Pair by pair: each round ran both, one right after the other.
  const pairs = beforeRuns.map((b, i) => (t.local.many[i]?.wallMs ?? Number.NaN) / b.wallMs).filter(Number.isFinite);
  const row = (label: string, runs: CheckRun[]) =>
    `| ${label} | ${secs(median(runs.map((r) => r.wallMs)))} | ${runs[0]?.requests ?? ''} | ${perRequest(runs, (r) => r.cpuMs).toFixed(3)} ms | ${perRequest(runs, (r) => r.serverCpuMs).toFixed(3)} ms |`;
  return [
    CHECK_SECTION,
    '',
    `A default \`check --seed ${SEED}\` (100 runs per property, the spec's rules, all four endpoints) against \`serve --seed ${SEED}\`, the checker on the load generator's core, the mock on the server's. ` +
      `Medians of ${t.rounds} interleaved round(s) after a warm-up run. ` +
      (sameReports(t)
        ? 'Every run against the local mock printed the same report, word for word but for its time (`--concurrency` changes only how many requests are in flight).'
        : '**The runs against the local mock did not all print the same report.**'),
    '',
    '| run | wall time | requests | checker CPU / request | mock CPU / request |',
    '|---|---|---|---|---|',
    ...(beforeRuns.length > 0 ? [row(`local mock, ${BEFORE.what} (${t.before.rev}: the default concurrency, ${BEFORE.how})`, beforeRuns)] : []),
    row('local mock, `--concurrency 1` (one request at a time, as before the option, with this version\'s HTTP client)', t.local.one),
    row(`local mock, \`--concurrency ${t.defaultConcurrency}\` (the default)`, t.local.many),
    `| \`serve --latency ${t.latency.ms}\`, \`--concurrency ${t.defaultConcurrency}\` | ${secs(t.latency.many.wallMs)} | ${t.latency.many.requests} | ${(t.latency.many.cpuMs / t.latency.many.requests).toFixed(3)} ms | |`,
    `| \`serve --latency ${t.latency.ms}\`, \`--concurrency 1\`: **extrapolated** | about ${(extrapolated / 60_000).toFixed(0)} min | ${t.latency.many.requests} | | |`,
    '',
    `The last line is not measured whole: \`${t.latency.oneProperty.property}\` on ${t.latency.oneProperty.endpoint} alone at \`--concurrency 1\` took ${secs(t.latency.oneProperty.wallMs)} for ${t.latency.oneProperty.requests} requests (${slowPerRequest.toFixed(0)} ms each), times the ${t.latency.many.requests} requests of the whole run.`,
    '',
    '| target | measured | met |',
    '|---|---|---|',
    'skipped' in t.before
      ? `| local mock: the default takes at most ${BEFORE_TARGET}× the time of ${BEFORE.what} | not measured: ${t.before.skipped} | |`
      : `| local mock: the default takes at most ${BEFORE_TARGET}× the time of ${BEFORE.what} (${t.before.rev}) | ${(many / before).toFixed(2)}× (medians ${secs(many)} vs ${secs(before)}, ${Number.isFinite(requests) ? `${requests} requests` : ''}; pair by pair ${pairs.map((r) => r.toFixed(2)).join(', ')}) | ${many <= before * BEFORE_TARGET ? 'yes' : '**no**'} |`,
    `| local mock: the default vs one request at a time with this version | ${(many / one).toFixed(2)} of it (${secs(many)} vs ${secs(one)}) | |`,
    `| \`serve --latency ${t.latency.ms}\`: the default concurrency vs one request at a time | ${(t.latency.many.wallMs / extrapolated).toFixed(3)} of it | |`,
    `| \`serve --latency ${t.latency.ms}\`: at most 2 minutes | ${secs(t.latency.many.wallMs)} | ${t.latency.many.wallMs <= 120_000 ? 'yes' : '**no**'} |`,
    '',
  ];
}

/** RESULTS.md with its check section replaced (or added before "## Targets of this run", else at the end). */
export function spliceCheckSection(markdown: string, section: string[]): string {
  const lines = markdown.split('\n');
  const start = lines.indexOf(CHECK_SECTION);
  if (start >= 0) {
    let end = lines.findIndex((l, i) => i > start && l.startsWith('## '));
    if (end < 0) end = lines.length;
    return [...lines.slice(0, start), ...section, ...lines.slice(end)].join('\n');
  }
  const before = lines.indexOf('## Targets of this run');
  if (before >= 0) return [...lines.slice(0, before), ...section, ...lines.slice(before)].join('\n');
  return [...lines, '', ...section].join('\n');
}
