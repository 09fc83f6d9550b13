/**
 * `npm run bench`: our mock side by side with two ceilings and the peers a user would pick
 * instead, on loopback, with the server and the load generator on separate cores.
 * See bench/lib/options.ts for the options, and the "How each server was set up" section of
 * bench/RESULTS.md (written by this script) for the method.
 *
 * It builds dist/ itself (what changed, as `npm start` does) rather than behind `npm run build &&`
 * in package.json: npm's signal then meets this process alone, which ends every process it started
 * (bench/lib/children.ts) on SIGINT, SIGTERM and SIGHUP, and on an error.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseBenchOptions, USAGE, type BenchOptions } from './lib/options.ts';
import { cpuCount, freePort, hasTaskset, pinSelf, startServer, stopServer, treeCpuSeconds, treeRssMiB, type RunningServer } from './lib/processes.ts';
import { runLoad, type LoadResult } from './lib/load.ts';
import { hasWrk, runWrk } from './lib/wrk.ts';
import { orderPagePaths, randomPagePaths } from './lib/random-pages.ts';
import { writePeerConfigs, REVIEWS_PATH, type PeerConfigFiles } from './lib/peer-configs.ts';
import { PEERS, ensurePeersInstalled, installedVersion, PEER_PACKAGES, type PeerDefinition } from './lib/peers.ts';
import { median } from './lib/stats.ts';
import { machineFacts } from './lib/machine.ts';
import { AT_ONCE_GROUPS, AT_ONCE_PAIRS, PASSTHROUGH_SECTION, passthroughTargets, renderPassedThrough, renderResults, renderStartup, renderSvg, spliceSection, startupTargets, type AtOnce, type Measured, type StartMeasured, type TargetInfo } from './lib/report.ts';
import { compareStartup, type StartupComparison } from './lib/startup.ts';
import { endChildren, runChild, stopOnSignals, stoppingSignal } from './lib/children.ts';
import { renderCheck, spliceCheckSection, timeCheck } from './lib/check-timing.ts';
import { DEFAULTS as CHECK_DEFAULTS } from '../properties/options.ts';
import { AGAINST_COMMIT_SECTION, besideEachOther, buildCommit, commitOfTarget, RANDOM_PAGE_BASELINE, renderAgainstCommit, type PairedCpu } from './lib/older-build.ts';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const WORK = join(ROOT, 'bench', '.work');
const PEERS_DIR = join(ROOT, 'bench', 'peers');
const CLI = join(ROOT, 'bin', 'store-listing-kit.js');
const SEED = 1;
/** The page every server answers in the main table. */
const PAGE_SIZE = 10;
const PAGE_QUERY = `limit=${PAGE_SIZE}&offset=0`;
/** Reviews in the dataset of the main table (json-server gets the same reviews). */
const MAIN_REVIEWS = 1000;
/** A path none of the mock's routes answers: `serve --backend` passes it through to the origin. */
const PASSED_THROUGH_PATH = '/store/carts/cart_01BENCH';
/** The publishable key `serve --backend` reads the origin's catalogue with (the origin takes any). */
const BENCH_PUBLISHABLE_KEY = 'pk_bench';
/** The targets of item 7 of issue 28 (the overlay's cost); `--only passthrough` selects them all. */
const PASSTHROUGH_IDS = ['proxy-lib', 'passthrough', 'passthrough-nojournal', 'ours', 'ours-backend'];
/**
 * Rounds of `--only passthrough` without `--rounds` (issue 36, item 5): its ratios are judged as the
 * median of the rounds, and a machine shared with other work moves single rounds by a quarter.
 */
const PASSTHROUGH_ROUNDS = 9;

interface Target extends TargetInfo {
  start(port: number): Promise<RunningServer>;
  paths: string[];
  /** Pick a new path for every request (uncached pages). */
  randomPaths?: () => string;
  /** Asked one after another before any load, each answered once what it needs is built (the random pages' orders). */
  readyPaths?: string[];
  /** Check one answer: undefined when it is the equivalent page, else why not. */
  check(body: string): string | undefined;
}

const log = (line: string) => process.stderr.write(`${line}\n`);

function checkReviewsPage(body: string, expectedRecords: number): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return 'answer is not JSON';
  }
  const reviews = Array.isArray(parsed) ? parsed : (parsed as { reviews?: unknown }).reviews;
  if (!Array.isArray(reviews)) return 'answer has no reviews array';
  if (reviews.length !== expectedRecords) return `answer holds ${reviews.length} reviews, expected ${expectedRecords}`;
  return undefined;
}

function oursCommand(args: string[]): { command: string; args: string[] } {
  return { command: process.execPath, args: [CLI, 'serve', '--host', '127.0.0.1', '--seed', String(SEED), ...args] };
}

async function startOurs(name: string, port: number, args: string[], core: number | undefined, readyPath: string, nodeArgs: string[] = []): Promise<RunningServer> {
  const { command, args: argv } = oursCommand(['--port', String(port), ...args]);
  return startServer({ name, command, args: [...nodeArgs, ...argv], port, core, readyPath, logFile: join(WORK, `${name}.log`), cwd: ROOT });
}

/**
 * A run of some targets alone (`--only check`, `--only passthrough`, the random targets): its
 * section goes into RESULTS.md under `outDir` (`splice` puts it into the file as it was), the rest
 * stays as the last full run left it.
 */
function writeSection(outDir: string, what: string, splice: (before: string) => string): void {
  const file = join(resolve(ROOT, outDir), 'RESULTS.md');
  let before = '';
  try {
    before = readFileSync(file, 'utf8');
  } catch {
    // none yet: the section alone
  }
  writeFileSync(file, splice(before));
  log(`wrote ${what} into ${file}`);
}

/** Node's own flags for a random target's server: --cpu-prof when `--cpu-prof <dir>` asks for profiles (Node refuses it in NODE_OPTIONS). */
function profiling(dir: string | undefined, name: string): string[] {
  if (dir === undefined) return [];
  const out = resolve(ROOT, dir);
  mkdirSync(out, { recursive: true });
  return ['--cpu-prof', `--cpu-prof-dir=${out}`, `--cpu-prof-name=${name.replace(/[^A-Za-z0-9@.-]/g, '_')}.cpuprofile`];
}

async function main(): Promise<void> {
  const parsed = parseBenchOptions(process.argv.slice(2));
  if (parsed === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const options: BenchOptions = parsed;
  mkdirSync(WORK, { recursive: true });
  // dist/ as the sources are (what changed): the CLI and the proxy ceiling run from it
  const build = await runChild(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), '--incremental'], { cwd: ROOT, output: 'inherit' });
  if (build.code !== 0) throw new Error(`the build failed (${build.error?.message ?? build.signal ?? `exit ${build.code}`})`);

  const cores = cpuCount();
  const pinning = cores >= 2 && hasTaskset();
  const serverCore = pinning ? 0 : undefined;
  if (pinning) pinSelf(1);
  else log('warning: fewer than 2 cores or no taskset: server and load generator share the CPU, numbers are not comparable');
  const startupSetup = { root: ROOT, work: WORK, cli: CLI, reviewsPath: REVIEWS_PATH, core: serverCore, rounds: Math.max(7, options.rounds), log };

  // `--only startup`: the start-up comparison alone (a minute), printed, no RESULTS.md.
  if (options.only.length > 0 && options.only.every((id) => id === 'startup')) {
    const startup = await compareStartup(startupSetup);
    const lines = [...renderStartup(startup), '| target | measured | met |', '|---|---|---|'];
    for (const c of startupTargets(startup)) lines.push(`| ${c.goal} | ${c.measured} | ${c.met ? 'yes' : '**no**'} |`);
    process.stdout.write(`${lines.join('\n')}\n`);
    return;
  }

  // `--only check`: `check`'s own timings alone (about five minutes, the code before issue 27 beside this one), printed and put in RESULTS.md.
  const checkSetup = { root: ROOT, work: WORK, cli: CLI, core: serverCore, rounds: options.quick ? 1 : Math.min(options.rounds, 3), defaultConcurrency: CHECK_DEFAULTS.concurrency, log };
  if (options.only.length > 0 && options.only.every((id) => id === 'check')) {
    const section = renderCheck(await timeCheck(checkSetup));
    process.stdout.write(`${section.join('\n')}\n`);
    if (options.outDir) writeSection(options.outDir, 'the check section', (before) => spliceCheckSection(before, section));
    return;
  }

  const generator = options.generator ?? (hasWrk() ? 'wrk' : 'autocannon');
  if (generator === 'wrk' && !hasWrk()) throw new Error('--generator wrk: wrk is not installed (apt-get install wrk)');
  log(`load generator: ${generator}`);

  // 1. Our mock at the main dataset size gives the page bytes every static peer and ceiling answers.
  const mainPath = `${REVIEWS_PATH}?${PAGE_QUERY}`;
  const probePort = await freePort();
  const probe = await startOurs('probe', probePort, ['--reviews', String(MAIN_REVIEWS)], undefined, mainPath);
  const base = `http://127.0.0.1:${probePort}`;
  const pageBytes = Buffer.from(await (await fetch(`${base}${mainPath}`)).arrayBuffer());
  const allReviews: unknown[] = [];
  for (let offset = 0; offset < MAIN_REVIEWS; offset += 1000) {
    const page = (await (await fetch(`${base}${REVIEWS_PATH}?limit=1000&offset=${offset}`)).json()) as { reviews: unknown[] };
    allReviews.push(...page.reviews);
  }
  await stopServer(probe);
  const files: PeerConfigFiles = writePeerConfigs(join(WORK, 'config'), { pageBytes, query: PAGE_QUERY, pageSize: PAGE_SIZE, reviews: allReviews });

  // 2. The targets.
  const targets: Target[] = [];
  const pageCheck = (body: string) => checkReviewsPage(body, PAGE_SIZE);
  const exactCheck = (body: string) => (body === pageBytes.toString('utf8') ? undefined : 'answer differs from our page bytes');
  targets.push({
    id: 'ours',
    label: 'store-listing-kit (ours)',
    kind: 'ours',
    group: 'main',
    setup: `\`serve --reviews ${MAIN_REVIEWS}\`, page computed from the dataset`,
    start: (port) => startOurs('ours', port, ['--reviews', String(MAIN_REVIEWS)], serverCore, mainPath),
    paths: [mainPath],
    check: exactCheck,
  });
  targets.push({
    id: 'ours-nojournal',
    label: 'ours, request journal off',
    kind: 'ours',
    group: 'main',
    setup: `\`serve --reviews ${MAIN_REVIEWS} --journal-size 0\`: what the default journal costs`,
    start: (port) => startOurs('ours-nojournal', port, ['--reviews', String(MAIN_REVIEWS), '--journal-size', '0'], serverCore, mainPath),
    paths: [mainPath],
    check: exactCheck,
  });
  targets.push({
    id: 'raw-http',
    label: 'ceiling: raw node:http',
    kind: 'ceiling',
    group: 'main',
    setup: 'constant pre-serialized bytes',
    start: (port) =>
      startServer({ name: 'raw-http', command: process.execPath, args: [join(ROOT, 'bench/ceilings/raw-http.mjs'), String(port), files.pageFile], port, core: serverCore, readyPath: mainPath, logFile: join(WORK, 'raw-http.log'), cwd: ROOT }),
    paths: [mainPath],
    check: exactCheck,
  });
  targets.push({
    id: 'express',
    label: 'ceiling: bare Express 5',
    kind: 'ceiling',
    group: 'main',
    setup: 'one route, Express defaults, constant pre-serialized bytes',
    start: (port) =>
      startServer({ name: 'express', command: process.execPath, args: [join(ROOT, 'bench/ceilings/express.mjs'), String(port), files.pageFile, REVIEWS_PATH], port, core: serverCore, readyPath: mainPath, logFile: join(WORK, 'express.log'), cwd: ROOT }),
    paths: [mainPath],
    check: exactCheck,
  });
  // The passed-through runs (issue 28, item 7): an origin standing in for Medusa, started once,
  // outside every measured process tree and pinned to the load generator's core; the proxy library
  // alone in front of it (the ceiling), and `serve --backend` in front of it.
  const only = options.only.includes('passthrough') ? [...options.only, ...PASSTHROUGH_IDS] : options.only;
  const wants = (id: string) => only.length === 0 || only.includes(id);
  // `--only passthrough` (its targets alone): no Express ceiling, which its section does not use, and more rounds.
  const passthroughAlone = only.length > 0 && only.every((id) => id === 'passthrough' || PASSTHROUGH_IDS.includes(id));
  const rounds = passthroughAlone && !options.roundsGiven ? PASSTHROUGH_ROUNDS : options.rounds;
  let origin: RunningServer | undefined;
  const originUrl = () => (origin ? `http://127.0.0.1:${origin.port}` : '');
  let originBody = '';
  const originCheck = (body: string) => (body === originBody ? undefined : "answer differs from the origin's bytes");
  const backendArgs = () => ['--dialect', 'alphabite', '--backend', originUrl(), '--publishable-key', BENCH_PUBLISHABLE_KEY];
  targets.push({
    id: 'ours-backend',
    label: 'ours, with `--backend` (an origin behind it)',
    kind: 'ours',
    group: 'main',
    setup: `\`serve --reviews ${MAIN_REVIEWS} --backend <origin>\`: the same page, answered by the mock with an overlay in front of it (the spec's dialect reads no catalogue from the backend)`,
    start: (port) => startOurs('ours-backend', port, ['--reviews', String(MAIN_REVIEWS), '--backend', originUrl()], serverCore, mainPath),
    paths: [mainPath],
    check: exactCheck,
  });
  targets.push({
    id: 'proxy-lib',
    label: 'ceiling: the proxy library alone',
    kind: 'ceiling',
    group: 'passthrough',
    setup: '`http.createServer(createProxyMiddleware(proxyOptions(origin)))`: the options and agent of `serve --backend` (mock-server/backend/proxy-options.ts), nothing else',
    start: (port) =>
      startServer({ name: 'proxy-lib', command: process.execPath, args: [join(ROOT, 'bench/ceilings/proxy.mjs'), String(port), originUrl()], port, core: serverCore, readyPath: PASSED_THROUGH_PATH, logFile: join(WORK, 'proxy-lib.log'), cwd: ROOT }),
    paths: [PASSED_THROUGH_PATH],
    check: originCheck,
  });
  targets.push({
    id: 'passthrough',
    label: 'ours, `serve --backend`, passed through',
    kind: 'ours',
    group: 'passthrough',
    setup: `\`serve --dialect alphabite --backend <origin> --publishable-key ${BENCH_PUBLISHABLE_KEY}\` (default journal of 200), \`GET ${PASSED_THROUGH_PATH}\` (not one of the mock's routes)`,
    start: (port) => startOurs('passthrough', port, backendArgs(), serverCore, PASSED_THROUGH_PATH),
    paths: [PASSED_THROUGH_PATH],
    check: originCheck,
  });
  targets.push({
    id: 'passthrough-nojournal',
    label: 'ours, `serve --backend --journal-size 0`, passed through',
    kind: 'ours',
    group: 'passthrough',
    setup: `as passthrough, with \`--journal-size 0\`: what the journal's entry and tap of a passed-through answer cost`,
    start: (port) => startOurs('passthrough-nojournal', port, [...backendArgs(), '--journal-size', '0'], serverCore, PASSED_THROUGH_PATH),
    paths: [PASSED_THROUGH_PATH],
    check: originCheck,
  });
  const skipped: { label: string; reason: string }[] = [];
  if (options.peers) {
    const wanted = PEERS.filter((p) => options.only.length === 0 || options.only.includes(p.id));
    if (wanted.length > 0) {
      if (options.install) await ensurePeersInstalled(PEERS_DIR, log);
    }
    for (const peer of wanted) {
      const reason = installedVersion(PEERS_DIR, peer.packageName) ? peer.unavailable(PEERS_DIR) : 'not installed (run without --no-install)';
      if (reason) {
        skipped.push({ label: peer.label, reason });
        continue;
      }
      targets.push(peerTarget(peer, files, serverCore, pageCheck));
    }
  }
  const deepOf = (n: number) => `${REVIEWS_PATH}?limit=${PAGE_SIZE}&offset=${n - PAGE_SIZE}`;
  for (const n of options.sizes) {
    targets.push({
      id: `deep-${n}`,
      label: `ours, ${n.toLocaleString('en-US')} reviews, last page`,
      kind: 'ours',
      group: 'deep',
      reviews: n,
      setup: `\`serve --reviews ${n}\`, \`?limit=10&offset=${n - PAGE_SIZE}\``,
      start: (port) => startOurs(`deep-${n}`, port, ['--reviews', String(n)], serverCore, `${REVIEWS_PATH}?${PAGE_QUERY}`),
      paths: [deepOf(n)],
      check: pageCheck,
    });
  }
  const largest = Math.max(...options.sizes);
  // Each random target draws the same sequence from its own generator: this build and the older commit get the same pages.
  const randomPaths = () => randomPagePaths(largest, PAGE_SIZE);
  const randomId = `random-${largest}`;
  targets.push({
    id: randomId,
    label: `ours, ${largest.toLocaleString('en-US')} reviews, a random page per request`,
    kind: 'ours',
    group: 'deep',
    reviews: largest,
    setup: `\`serve --reviews ${largest}\`, \`?limit=10&offset=<random>&order=<random>\`: mostly uncached`,
    start: (port) => startOurs(randomId, port, ['--reviews', String(largest)], serverCore, `${REVIEWS_PATH}?${PAGE_QUERY}`, profiling(options.cpuProfDir, randomId)),
    paths: [deepOf(largest)],
    randomPaths: randomPaths(),
    readyPaths: orderPagePaths(largest, PAGE_SIZE),
    check: pageCheck,
  });
  // The same random pages served by older commits (built from git), right beside this build's in every
  // round: 26a2658 by default, any other named as `random-<size>@<rev>` in --only (to bisect a cost).
  const olderRevs = options.only.length === 0 ? [RANDOM_PAGE_BASELINE] : [...new Set(options.only.map((id) => commitOfTarget(id, randomId)).filter((rev): rev is string => rev !== undefined))];
  const olderIds: { id: string; rev: string }[] = [];
  for (const rev of olderRevs) {
    const olderId = `${randomId}@${rev}`;
    const older = await buildCommit(ROOT, WORK, rev, log);
    if ('skipped' in older) {
      skipped.push({ label: `${randomId} at ${rev}`, reason: older.skipped });
      continue;
    }
    olderIds.push({ id: olderId, rev });
    targets.push({
      id: olderId,
      label: `${rev}, ${largest.toLocaleString('en-US')} reviews, a random page per request`,
      kind: 'ours',
      group: 'deep',
      reviews: largest,
      setup: `commit ${rev} built from git, \`serve --reviews ${largest}\`, the same random pages as ${randomId}`,
      start: (port) =>
        startServer({
          name: olderId,
          command: process.execPath,
          args: [...profiling(options.cpuProfDir, olderId), older.cli, 'serve', '--host', '127.0.0.1', '--seed', String(SEED), '--port', String(port), '--reviews', String(largest)],
          port,
          core: serverCore,
          readyPath: `${REVIEWS_PATH}?${PAGE_QUERY}`,
          logFile: join(WORK, `${olderId}.log`),
          cwd: older.dir,
        }),
      paths: [deepOf(largest)],
      randomPaths: randomPaths(),
      readyPaths: orderPagePaths(largest, PAGE_SIZE),
      check: pageCheck,
    });
  }
  const selected = targets.filter((t) => wants(t.id) || (t.id === 'express' && !passthroughAlone));

  // 3. Start every server once (pinned), check that each answers the equivalent page.
  const running = new Map<string, RunningServer>();
  const startMs = new Map<string, number>();
  const startRss = new Map<string, number>();
  try {
    if (selected.some((t) => t.id === 'ours-backend' || t.group === 'passthrough')) {
      const originPort = await freePort();
      origin = await startServer({ name: 'origin', command: process.execPath, args: [join(ROOT, 'bench/ceilings/origin.mjs'), String(originPort)], port: originPort, core: pinning ? 1 : undefined, readyPath: PASSED_THROUGH_PATH, logFile: join(WORK, 'origin.log'), cwd: ROOT });
      originBody = await (await fetch(`${originUrl()}${PASSED_THROUGH_PATH}`)).text();
    }
    for (const target of selected) {
      const port = await freePort();
      log(`starting ${target.id} on 127.0.0.1:${port}`);
      const server = await target.start(port);
      running.set(target.id, server);
      startMs.set(target.id, server.startMs);
      startRss.set(target.id, treeRssMiB(server.pid));
      const body = await (await fetch(`http://127.0.0.1:${server.port}${target.paths[0]}`)).text();
      const problem = target.check(body);
      if (problem) throw new Error(`${target.id}: ${problem}`);
      // Every order the random pages draw, built before the warm-up: no measured round pays for a build.
      for (const path of options.orderWait ? (target.readyPaths ?? []) : []) {
        const answer = await fetch(`http://127.0.0.1:${server.port}${path}`);
        const text = await answer.text();
        const wrong = answer.status === 200 ? target.check(text) : `answered ${answer.status} to ${path}`;
        if (wrong) throw new Error(`${target.id}: ${wrong}`);
      }
    }

    // 4. Warm every server up (JIT compilers, caches), then interleaved rounds.
    const runOnce = async (target: Target, seconds: number): Promise<LoadResult> => {
      const server = running.get(target.id) as RunningServer;
      const load = {
        url: `http://127.0.0.1:${server.port}`,
        paths: target.paths,
        ...(target.randomPaths ? { randomPath: target.randomPaths } : {}),
        connections: options.connections,
        durationSec: seconds,
      };
      return generator === 'wrk' ? runWrk(load, WORK) : runLoad(load);
    };
    for (const target of selected) {
      log(`warming up ${target.id}`);
      await runOnce(target, options.warmupSec * 2);
    }
    const samples = new Map<string, { load: LoadResult; rss: number; cpuUs: number }[]>();
    /** Per target, round by round, measured while the rest of its group was driven at the same time. */
    const atOnceSamples = new Map<string, { cpuUs: number; rps: number }[]>();
    /** The machine's 1-minute load average as each round began: other work on it shows there. */
    const roundLoads: number[] = [];
    for (let round = 0; round < rounds; round++) {
      roundLoads.push(loadavg()[0] as number);
      // rotate the order every round so that no target always runs first or last
      const rotated = selected.map((_, i) => selected[(i + round) % selected.length] as Target);
      // Our page and the random uncached page each run right beside the Express ceiling (on
      // alternating sides), so that the ratios the targets quote compare the same moment of a
      // machine that may not be quiet.
      const express = rotated.find((t) => t.id === 'express');
      const beside = rotated.filter((t) => t.id === 'ours' || t.id === randomId);
      const group = (round % 2 === 0 ? [beside[0], express, beside[1]] : [beside[1], express, beside[0]]).filter((t): t is Target => t !== undefined);
      // (Without the Express ceiling, `--only passthrough`, the order is the rotated one.)
      let order = besideEachOther(express ? rotated.flatMap((t) => (t === express ? group : group.includes(t) ? [] : [t])) : rotated, [randomId, ...olderIds.map((o) => o.id)], round);
      // The passed-through request right beside the proxy library alone (the ratio item 7 of issue 28
      // quotes) and without its journal, and our page with an overlay present right beside our page without one.
      order = besideEachOther(order, ['passthrough', 'proxy-lib', 'passthrough-nojournal'], round);
      order = besideEachOther(order, ['ours', 'ours-backend'], round);
      for (const target of order) {
        await runOnce(target, options.warmupSec);
        const pid = (running.get(target.id) as RunningServer).pid;
        const cpuBefore = treeCpuSeconds(pid);
        const load = await runOnce(target, options.durationSec);
        const cpuUs = ((treeCpuSeconds(pid) - cpuBefore) * 1e6) / Math.max(1, load.ok + load.non2xx);
        const rss = treeRssMiB(pid);
        if (load.non2xx > 0 || load.errors > 0) log(`warning: ${target.id} had ${load.non2xx} non-2xx answers and ${load.errors} errors`);
        const list = samples.get(target.id) ?? [];
        list.push({ load, rss, cpuUs });
        samples.set(target.id, list);
        log(`round ${round + 1}/${rounds} ${target.id}: ${Math.round(load.requestsPerSec)} req/s, p50 ${load.p50Ms.toFixed(3)} ms, p99 ${load.p99Ms.toFixed(3)} ms, ${cpuUs.toFixed(0)} µs CPU/request, ${rss.toFixed(0)} MiB, generator at ${Math.round(load.generatorCpuShare * 100)} % of a core`);
      }
      // The overlay's comparisons (issue 36, item 5), each group also driven at the same time, so that a
      // burst of other work on the machine meets both sides of a ratio alike (report.ts `AtOnce`).
      for (const group of AT_ONCE_GROUPS) {
        const members = group.map((id) => selected.find((t) => t.id === id)).filter((t): t is Target => t !== undefined);
        if (members.length < 2) continue;
        await Promise.all(members.map((t) => runOnce(t, options.warmupSec)));
        const pids = members.map((t) => (running.get(t.id) as RunningServer).pid);
        const cpuBefore = pids.map((pid) => treeCpuSeconds(pid));
        const loads = await Promise.all(members.map((t) => runOnce(t, options.durationSec)));
        const cpuAfter = pids.map((pid) => treeCpuSeconds(pid));
        members.forEach((target, i) => {
          const load = loads[i] as LoadResult;
          const cpuUs = (((cpuAfter[i] as number) - (cpuBefore[i] as number)) * 1e6) / Math.max(1, load.ok + load.non2xx);
          if (load.non2xx > 0 || load.errors > 0) log(`warning: ${target.id} (at once) had ${load.non2xx} non-2xx answers and ${load.errors} errors`);
          const list = atOnceSamples.get(target.id) ?? [];
          list.push({ cpuUs, rps: load.requestsPerSec });
          atOnceSamples.set(target.id, list);
        });
        log(`round ${round + 1}/${rounds} at once: ${members.map((t) => `${t.id} ${(atOnceSamples.get(t.id)?.at(-1)?.cpuUs ?? Number.NaN).toFixed(0)} µs CPU/request`).join(', ')}`);
      }
    }

    // 5. Start-up with large datasets, alone on the machine's server core (every other server stopped).
    for (const server of running.values()) await stopServer(server);
    running.clear();
    const starts: StartMeasured[] = [];
    if (options.only.length === 0 || options.only.includes('start')) {
      const largest = Math.max(...options.sizes);
      const cases = [
        { label: `\`serve --reviews ${largest}\``, args: ['--reviews', String(largest)] },
        { label: `\`serve --reviews ${largest} --wishlists ${largest}\``, args: ['--reviews', String(largest), '--wishlists', String(largest)] },
      ];
      for (const c of cases) {
        const samples: { first: number; all: number; rss: number }[] = [];
        for (let round = 0; round < Math.max(3, options.rounds); round++) {
          log(`start-up ${round + 1}: ${c.label}`);
          samples.push(await measureStart(c.args, largest, serverCore));
        }
        starts.push({
          label: c.label,
          firstAnswerMs: median(samples.map((x) => x.first)),
          allAnswersMs: median(samples.map((x) => x.all)),
          rssMiB: median(samples.map((x) => x.rss)),
          maxRssMiB: Math.max(...samples.map((x) => x.rss)),
        });
      }
    }

    // 5b. Start-up on the default dataset, side by side with a bare Express app, and the root import.
    let startup: StartupComparison | undefined;
    if (options.only.length === 0 || options.only.includes('startup')) startup = await compareStartup(startupSetup);

    // 5c. `check` against the mock, one request at a time and at the default concurrency.
    const check = options.only.length === 0 || options.only.includes('check') ? renderCheck(await timeCheck(checkSetup)) : undefined;

    // 6. Medians and the report.
    const measured: Measured[] = selected.map((target) => {
      const list = samples.get(target.id) ?? [];
      return {
        ...targetInfo(target),
        requestsPerSec: median(list.map((s) => s.load.requestsPerSec)),
        p50Ms: median(list.map((s) => s.load.p50Ms)),
        p99Ms: median(list.map((s) => s.load.p99Ms)),
        rssMiB: median(list.map((s) => s.rss)),
        cpuUsPerRequest: median(list.map((s) => s.cpuUs)),
        startMs: startMs.get(target.id) ?? Number.NaN,
        startRssMiB: startRss.get(target.id) ?? Number.NaN,
        failures: list.reduce((sum, s) => sum + s.load.non2xx + s.load.errors, 0),
        generatorCpuShare: median(list.map((s) => s.load.generatorCpuShare)),
      };
    });
    const versions: Record<string, string> = {};
    for (const name of Object.keys(PEER_PACKAGES)) {
      const version = installedVersion(PEERS_DIR, name);
      if (version) versions[name] = version;
    }
    const facts = machineFacts(ROOT, cores, versions);
    const passthroughRounds = pairedRatios(samples.get('passthrough'), samples.get('proxy-lib'));
    const pageRounds = pairedRatios(samples.get('ours-backend'), samples.get('ours'));
    const atOnce: AtOnce[] = AT_ONCE_PAIRS.flatMap(([id, reference]) => {
      const mine = atOnceSamples.get(id);
      const theirs = atOnceSamples.get(reference);
      if (!mine || !theirs) return [];
      return [{ id, reference, rounds: mine.map((m, i) => ({ cpuUs: m.cpuUs, rps: m.rps, refCpuUs: theirs[i]?.cpuUs ?? Number.NaN, refRps: theirs[i]?.rps ?? Number.NaN })) }];
    });
    // `--only passthrough` (its targets alone): its section goes into RESULTS.md, the rest stays as it was.
    if (options.only.length > 0 && selected.every((t) => t.id === 'express' || PASSTHROUGH_IDS.includes(t.id))) {
      const during = `${Math.min(...roundLoads).toFixed(1)} to ${Math.max(...roundLoads).toFixed(1)} (median ${median(roundLoads).toFixed(1)})`;
      const how = `Measured by \`npm run bench -- ${process.argv.slice(2).join(' ')}\`: medians of ${rounds} interleaved rounds (${options.warmupSec} s of warm-up, then ${options.durationSec} s measured, ${options.connections} connections, ${generator}), ${pinning ? 'server on core 0, load generator and origin on core 1' : 'NOT pinned'}; the machine's 1-minute load average ${during} as the rounds began (${cores} cores).`;
      const section = renderPassedThrough(measured, passthroughRounds, how, { atOnce, pageRounds });
      const lines = [...section, '| target | measured | met |', '|---|---|---|'];
      for (const c of passthroughTargets(measured, atOnce)) lines.push(`| ${c.goal} | ${c.measured} | ${c.met ? 'yes' : '**no**'} |`);
      process.stdout.write(`${lines.join('\n')}\n`);
      if (options.outDir) writeSection(options.outDir, 'the passed-through section', (before) => spliceSection(before, PASSTHROUGH_SECTION, section));
      return;
    }
    const pairs: PairedCpu[] = olderIds.flatMap(({ id, rev }) => {
      const olderSamples = samples.get(id);
      return olderSamples ? [{ label: `${largest.toLocaleString('en-US')} reviews, a random page per request`, rev, ours: (samples.get(randomId) ?? []).map((s) => s.cpuUs), older: olderSamples.map((s) => s.cpuUs) }] : [];
    });
    // `--only random-<size>,random-<size>@<rev>...` (those alone): their section goes into RESULTS.md, the rest stays as it was.
    if (options.only.length > 0 && pairs.length > 0 && selected.every((t) => t.id === 'express' || t.id === randomId || olderIds.some((o) => o.id === t.id))) {
      const load = loadavg().map((l) => l.toFixed(1)).join(', ');
      const how = `Measured on its own by \`npm run bench -- ${process.argv.slice(2).join(' ')}\`: ${rounds} interleaved rounds (${options.warmupSec} s of warm-up, then ${options.durationSec} s measured, ${options.connections} connections, ${generator}), ${pinning ? 'servers on core 0, load generator on core 1' : 'NOT pinned'}; load average ${load} at the end (${cores} cores). The other sections are from the full run above.`;
      const section = renderAgainstCommit(pairs, how);
      process.stdout.write(`${section.join('\n')}\n`);
      if (options.outDir) writeSection(options.outDir, 'the older-commit section', (before) => spliceSection(before, AGAINST_COMMIT_SECTION, section));
      return;
    }
    const results = renderResults({ options, generator, measured, starts, ...(startup ? { startup } : {}), skipped, facts, pinned: pinning, pageBytes: pageBytes.length, passthroughRounds, pageRounds, atOnce });
    const withOlder = pairs.length > 0 ? `${results.trimEnd()}\n\n${renderAgainstCommit(pairs).join('\n')}` : results;
    const markdown = check ? spliceCheckSection(withOlder, check) : withOlder;
    process.stdout.write(markdown);
    if (options.outDir) {
      const out = resolve(ROOT, options.outDir);
      mkdirSync(out, { recursive: true });
      writeFileSync(join(out, 'RESULTS.md'), markdown);
      writeFileSync(join(out, 'results.svg'), renderSvg(measured));
      log(`wrote ${join(out, 'RESULTS.md')} and ${join(out, 'results.svg')}`);
    }
  } finally {
    for (const server of running.values()) await stopServer(server);
    if (origin) await stopServer(origin);
  }
}

/**
 * One cold start: from spawning `serve` to the first 200 answer of the first reviews page,
 * then a deep page of every listing (each order of reviews builds its index on first use).
 */
async function measureStart(args: string[], size: number, core: number | undefined): Promise<{ first: number; all: number; rss: number }> {
  const port = await freePort();
  const started = performance.now();
  const server = await startOurs('start', port, args, core, `${REVIEWS_PATH}?${PAGE_QUERY}`);
  const first = performance.now() - started;
  try {
    const base = `http://127.0.0.1:${port}`;
    const deep = Math.max(0, size - PAGE_SIZE);
    for (const order of ['-created_at', 'updated_at', '-rating']) await (await fetch(`${base}${REVIEWS_PATH}?limit=${PAGE_SIZE}&offset=${deep}&order=${order}`)).arrayBuffer();
    const firstWishlists = (await (await fetch(`${base}/store/wishlists?take=1`)).json()) as { count: number; data: { id: string }[] };
    await (await fetch(`${base}/store/wishlists?take=${PAGE_SIZE}&skip=${Math.max(0, firstWishlists.count - PAGE_SIZE)}`)).arrayBuffer();
    const all = performance.now() - started;
    return { first, all, rss: treeRssMiB(server.pid) };
  } finally {
    await stopServer(server);
  }
}

/** `a[i] / b[i]` for the rounds both ran (each pair measured right beside each other). */
function pairedRatios(a: { cpuUs: number }[] | undefined, b: { cpuUs: number }[] | undefined): number[] {
  if (!a || !b) return [];
  return a.map((s, i) => s.cpuUs / (b[i]?.cpuUs ?? Number.NaN)).filter(Number.isFinite);
}

function targetInfo(target: Target): TargetInfo {
  return {
    id: target.id,
    label: target.label,
    kind: target.kind,
    group: target.group,
    setup: target.setup,
    ...(target.reviews !== undefined ? { reviews: target.reviews } : {}),
  };
}

function peerTarget(peer: PeerDefinition, files: PeerConfigFiles, core: number | undefined, check: (body: string) => string | undefined): Target {
  const path = peer.path(PAGE_QUERY, PAGE_SIZE);
  return {
    id: peer.id,
    label: peer.label,
    kind: 'peer',
    group: 'main',
    setup: peer.setup,
    start: (port) => {
      const { command, args } = peer.command(PEERS_DIR, port, files);
      return startServer({ name: peer.id, command, args, port, core, readyPath: path, logFile: join(WORK, `${peer.id}.log`), cwd: WORK });
    },
    paths: [path],
    check,
  };
}

stopOnSignals(log);
main().then(endChildren, async (error: unknown) => {
  // a signal's stop makes what was under way fail: its handler ends the bench (130, 143, 129)
  if (stoppingSignal()) return;
  log(`bench failed: ${error instanceof Error ? error.message : String(error)}`);
  await endChildren();
  process.exitCode = 1;
});
