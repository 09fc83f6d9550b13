/**
 * The benchmark's results as Markdown (printed and written to bench/RESULTS.md, byte for byte
 * the same) and as an SVG bar chart (bench/results.svg) for the README.
 */
import type { BenchOptions } from './options.ts';
import type { StartupComparison } from './startup.ts';
import type { MachineFacts } from './machine.ts';
import { median, ratio } from './stats.ts';

export interface TargetInfo {
  id: string;
  label: string;
  kind: 'ours' | 'ceiling' | 'peer';
  /**
   * `main`: the page of 10 reviews on every server; `deep`: ours at several dataset sizes;
   * `passthrough`: a request the mock does not answer, passed to an origin (issue 28, item 7).
   */
  group: 'main' | 'deep' | 'passthrough';
  setup: string;
  /** Dataset size (reviews), for the deep-page runs. */
  reviews?: number;
}

export interface Measured extends TargetInfo {
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  /** Resident memory of the server's process tree right after a measured run (median). */
  rssMiB: number;
  /** CPU time (user + system, whole process tree) per request served (median). */
  cpuUsPerRequest: number;
  /** From spawn to the first 200 answer. */
  startMs: number;
  startRssMiB: number;
  /** Non-2xx answers and connection errors over all measured runs. */
  failures: number;
  /** The load generator's own CPU, as a share of one core (median): near 1, it set the pace. */
  generatorCpuShare: number;
}

/** A cold start of our mock with a large dataset (medians of a few starts). */
export interface StartMeasured {
  label: string;
  /** Spawn to the first 200 answer of the first reviews page. */
  firstAnswerMs: number;
  /** Spawn to the last of: deep reviews pages in three more orders and the last wishlists page. */
  allAnswersMs: number;
  /** Resident memory after those answers (median, and the largest of the starts). */
  rssMiB: number;
  maxRssMiB: number;
}

export interface ReportInput {
  options: BenchOptions;
  /** The load generator that measured the tables. */
  generator: 'wrk' | 'autocannon';
  measured: Measured[];
  starts?: StartMeasured[];
  startup?: StartupComparison;
  skipped: { label: string; reason: string }[];
  facts: MachineFacts;
  pinned: boolean;
  pageBytes: number;
  /** passthrough / proxy-lib CPU, round by round (issue 28, item 7). */
  passthroughRounds?: number[];
  /** ours-backend / ours CPU, round by round, each measured right beside the other. */
  pageRounds?: number[];
  /** The overlay's comparisons, each pair driven at the same time in every round (issue 36, item 5). */
  atOnce?: AtOnce[];
}

/**
 * One of the overlay's comparisons (issue 36, item 5), measured with both servers driven at the same
 * time (their loads on the generator's core, the servers on theirs) in every round, so that whatever
 * else the machine does meets both alike: the ratio of their CPU per request is then steady from round
 * to round where one server after the other moved by a quarter.
 */
export interface AtOnce {
  /** The target compared and its reference: `passthrough` / `proxy-lib`, `passthrough-nojournal` / `proxy-lib`, `ours-backend` / `ours`. */
  id: string;
  reference: string;
  /** Per round, during the same seconds: each one's CPU µs per request and req/s. */
  rounds: { cpuUs: number; rps: number; refCpuUs: number; refRps: number }[];
}

/** The groups driven at the same time in every round, and the comparisons read from them (the reference first). */
export const AT_ONCE_GROUPS: readonly (readonly string[])[] = [
  ['proxy-lib', 'passthrough', 'passthrough-nojournal'],
  ['ours', 'ours-backend'],
];
export const AT_ONCE_PAIRS: readonly (readonly [id: string, reference: string])[] = [
  ['passthrough', 'proxy-lib'],
  ['passthrough-nojournal', 'proxy-lib'],
  ['ours-backend', 'ours'],
];

/** A comparison's ratio round by round (its CPU over the reference's), and their median: the number the targets judge. */
export function atOnceRatios(pair: AtOnce): { rounds: number[]; median: number } {
  const rounds = pair.rounds.map((r) => ratio(r.cpuUs, r.refCpuUs)).filter(Number.isFinite);
  return { rounds, median: median(rounds) };
}

/** The generator's share of its core and its ceiling; generator-bound when within 10 % of it. */
function generatorNote(m: Measured): string {
  if (!Number.isFinite(m.generatorCpuShare)) return 'n/a';
  const ceiling = m.requestsPerSec / Math.max(m.generatorCpuShare, 1e-9);
  return `${Math.round(m.generatorCpuShare * 100)} %, ceiling ${int(ceiling)} req/s${m.generatorCpuShare >= 0.9 ? ' (**generator-bound**)' : ''}`;
}

const int = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'n/a');
const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(3) : 'n/a');
const times = (n: number) => (Number.isFinite(n) ? `${n.toFixed(2)}×` : 'n/a');
const mib = (n: number) => (Number.isFinite(n) ? n.toFixed(0) : 'n/a');
const sec = (n: number) => (Number.isFinite(n) ? (n / 1000).toFixed(2) : 'n/a');

export interface TargetCheck {
  goal: string;
  measured: string;
  met: boolean;
}

/** The issue's targets, judged on this run's medians. */
export function checkTargets(measured: Measured[], starts: StartMeasured[] = [], startup?: StartupComparison, atOnce: AtOnce[] = []): TargetCheck[] {
  const byId = new Map(measured.map((m) => [m.id, m]));
  const ours = byId.get('ours');
  const express = byId.get('express');
  const checks: TargetCheck[] = [];
  if (ours && express) {
    const r = ratio(ours.requestsPerSec, express.requestsPerSec);
    checks.push({ goal: 'our page at least 0.8 of the bare-Express ceiling (req/s)', measured: times(r), met: r >= 0.8 });
    const c = ratio(ours.cpuUsPerRequest, express.cpuUsPerRequest);
    checks.push({ goal: 'the same in CPU per request: at most 1.25× the bare-Express ceiling (1 / 0.8)', measured: times(c), met: c <= 1.25 });
  }
  const pact = byId.get('pact-stub');
  if (ours && pact) {
    const c = ratio(ours.cpuUsPerRequest, pact.cpuUsPerRequest);
    checks.push({ goal: 'CPU per request at most the Pact stub server\'s', measured: `${times(c)} its CPU µs/req (${int(ours.cpuUsPerRequest)} vs ${int(pact.cpuUsPerRequest)})`, met: c <= 1 });
    const r = ratio(ours.requestsPerSec, pact.requestsPerSec);
    checks.push({ goal: 'req/s at least the Pact stub server\'s', measured: `${times(r)} its req/s`, met: r >= 1 });
  }
  const raw = byId.get('raw-http');
  if (ours && raw) {
    const c = ratio(ours.cpuUsPerRequest, raw.cpuUsPerRequest);
    checks.push({ goal: 'CPU per request within 1.5× raw node:http\'s', measured: times(c), met: c <= 1.5 });
  }
  const quiet = byId.get('ours-nojournal');
  if (ours && quiet) {
    const r = ratio(ours.requestsPerSec, quiet.requestsPerSec);
    checks.push({ goal: 'defaults cost nothing: req/s with the journal on (default) within 10 % of `--journal-size 0`', measured: `${times(r)} (CPU µs/req ${int(ours.cpuUsPerRequest)} vs ${int(quiet.cpuUsPerRequest)})`, met: r >= 0.9 });
  }
  for (const m of measured.filter((x) => x.id.startsWith('random-') && !x.id.includes('@') && (x.reviews ?? 0) >= 1_000_000)) {
    if (express) {
      const c = ratio(m.cpuUsPerRequest, express.cpuUsPerRequest);
      checks.push({ goal: `${m.label}: CPU per request at most 1.5× the bare-Express route's`, measured: `${times(c)} (${int(m.cpuUsPerRequest)} vs ${int(express.cpuUsPerRequest)} µs)`, met: c <= 1.5 });
    }
    checks.push({ goal: `${m.label}: resident memory under 512 MiB`, measured: `${mib(Math.max(m.rssMiB, m.startRssMiB))} MiB`, met: Math.max(m.rssMiB, m.startRssMiB) < 512 });
  }
  if (ours) {
    for (const id of ['json-server', 'prism-static', 'prism-dynamic', 'mockoon', 'wiremock']) {
      const peer = byId.get(id);
      if (!peer) continue;
      const r = ratio(ours.requestsPerSec, peer.requestsPerSec);
      checks.push({ goal: `ahead of ${peer.label} (req/s)`, measured: `${times(r)} its req/s`, met: r > 1 });
    }
  }
  const deep = measured.filter((m) => m.id.startsWith('deep-') && m.reviews !== undefined).sort((a, b) => (a.reviews as number) - (b.reviews as number));
  const smallest = deep[0];
  const largest = deep[deep.length - 1];
  if (smallest && largest && smallest !== largest) {
    const r = ratio(largest.p50Ms, smallest.p50Ms);
    checks.push({
      goal: `p50 of the last page at ${int(largest.reviews as number)} reviews within 1.2× of the same at ${int(smallest.reviews as number)}`,
      measured: times(r),
      met: r <= 1.2,
    });
  }
  for (const s of starts) {
    checks.push({ goal: `${s.label}: first answer within 3 s of start`, measured: `${sec(s.firstAnswerMs)} s`, met: s.firstAnswerMs <= 3000 });
    checks.push({ goal: `${s.label}: resident memory under 1 GiB`, measured: `${mib(s.maxRssMiB)} MiB`, met: s.maxRssMiB < 1024 });
  }
  checks.push(...passthroughTargets(measured, atOnce));
  if (startup) checks.push(...startupTargets(startup));
  for (const m of measured.filter((x) => x.kind === 'ours' && (x.reviews ?? 0) >= 1_000_000)) {
    checks.push({ goal: `${m.label}: resident memory under 1 GiB`, measured: `${mib(Math.max(m.rssMiB, m.startRssMiB))} MiB`, met: Math.max(m.rssMiB, m.startRssMiB) < 1024 });
  }
  return checks;
}

/** The budget of a passed-through request: its CPU at most this many times the proxy library's alone. */
export const PASSTHROUGH_BUDGET = 1.3;
/** The mock's own page with an overlay present: its CPU within this many times the page's without one. */
export const OVERLAY_PAGE_BUDGET = 1.1;

/**
 * Issue 28, item 7, and issue 36, item 5: a passed-through request costs at most 1.3× the CPU of the
 * same request through the proxy library alone, and the mock's own answers cost no more with
 * `--backend` set (within 10 %, the noise of side-by-side runs), each as the median of the rounds.
 * With `atOnce` (each pair driven at the same time in every round) that median is what is judged;
 * without, the ratio of the two medians.
 */
export function passthroughTargets(measured: Measured[], atOnce: AtOnce[] = []): TargetCheck[] {
  const byId = new Map(measured.map((m) => [m.id, m]));
  const checks: TargetCheck[] = [];
  const judged = (id: string, reference: string, goal: string, budget: number) => {
    const pair = atOnce.find((p) => p.id === id && p.reference === reference && p.rounds.length > 0);
    if (pair) {
      const { rounds, median: c } = atOnceRatios(pair);
      const us = median(pair.rounds.map((r) => r.cpuUs));
      const refUs = median(pair.rounds.map((r) => r.refCpuUs));
      checks.push({ goal: `${goal} (median of the rounds, both driven at once)`, measured: `${times(c)} (${rounds.map((r) => r.toFixed(2)).join(', ')}; ${int(us)} vs ${int(refUs)} µs)`, met: c <= budget });
      return;
    }
    const m = byId.get(id);
    const ref = byId.get(reference);
    if (!m || !ref) return;
    const c = ratio(m.cpuUsPerRequest, ref.cpuUsPerRequest);
    checks.push({ goal, measured: `${times(c)} (${int(m.cpuUsPerRequest)} vs ${int(ref.cpuUsPerRequest)} µs)`, met: c <= budget });
  };
  judged('passthrough', 'proxy-lib', `a passed-through request: CPU at most ${PASSTHROUGH_BUDGET.toFixed(1)}× the proxy library's alone`, PASSTHROUGH_BUDGET);
  judged('ours-backend', 'ours', `our page with \`--backend\` set: CPU within ${OVERLAY_PAGE_BUDGET.toFixed(1)}× the same page without`, OVERLAY_PAGE_BUDGET);
  return checks;
}

export const PASSTHROUGH_SECTION = '## Passed through';

/**
 * The "Passed through" section: the proxy library alone and `serve --backend` passing the same
 * request to the same origin, side by side, and the ratio item 7 quotes as one line
 * (`passthrough / proxy-lib = x.xx (target ≤ 1.30): met|not met`). `rounds`: the ratio round by
 * round, when known; `how`: a line on how the section was measured, when it is run alone. Empty
 * when either did not run.
 */
export function renderPassedThrough(measured: Measured[], rounds: number[] = [], how?: string, more: { atOnce?: AtOnce[]; pageRounds?: number[] } = {}): string[] {
  const rows = measured.filter((m) => m.group === 'passthrough');
  const lib = rows.find((m) => m.id === 'proxy-lib');
  const passed = rows.find((m) => m.id === 'passthrough');
  if (!lib || !passed) return [];
  const lines = [PASSTHROUGH_SECTION, ''];
  lines.push(
    "A request none of the mock's routes answers (`GET /store/carts/cart_01BENCH`), passed to an origin that stands in for Medusa (bench/ceilings/origin.mjs: raw node:http, keep-alive, a 2 KB JSON answer; outside the measured process tree, on the load generator's core). The ceiling is the proxy library alone with the very options and agent `serve --backend` uses (bench/ceilings/proxy.mjs). CPU µs/req is the server process tree's only.",
    '',
  );
  if (how) lines.push(how, '');
  lines.push('| server | CPU µs/req | × proxy library | req/s | p99 ms |', '|---|---:|---:|---:|---:|');
  for (const m of rows) lines.push(`| ${m.label} | ${int(m.cpuUsPerRequest)} | ${times(ratio(m.cpuUsPerRequest, lib.cpuUsPerRequest))} | ${int(m.requestsPerSec)} | ${ms(m.p99Ms)} |`);
  const atOnce = more.atOnce ?? [];
  const passedAtOnce = atOnce.find((p) => p.id === 'passthrough' && p.reference === 'proxy-lib' && p.rounds.length > 0);
  const r = passedAtOnce ? atOnceRatios(passedAtOnce).median : ratio(passed.cpuUsPerRequest, lib.cpuUsPerRequest);
  const how2 = passedAtOnce ? `median of ${passedAtOnce.rounds.length} rounds driven at once; ` : '';
  lines.push('', `passthrough / proxy-lib = ${Number.isFinite(r) ? r.toFixed(2) : 'n/a'} (${how2}target ≤ ${PASSTHROUGH_BUDGET.toFixed(2)}): ${r <= PASSTHROUGH_BUDGET ? 'met' : 'not met'}`);
  if (rounds.length > 0) lines.push('', `Round by round (each pair measured right beside each other): ${rounds.map((x) => x.toFixed(2)).join(', ')}.`);
  const ours = measured.find((m) => m.id === 'ours');
  const overlaid = measured.find((m) => m.id === 'ours-backend');
  if (ours && overlaid) {
    const pageRounds = more.pageRounds ?? [];
    const byRound = pageRounds.length > 0 ? ` Round by round: ${pageRounds.map((x) => x.toFixed(2)).join(', ')} (median ${median(pageRounds).toFixed(2)}).` : '';
    lines.push('', `Our own page (\`/store/products/reviews?limit=10&offset=0\`) with \`--backend\` set: ${int(overlaid.cpuUsPerRequest)} µs CPU/request against ${int(ours.cpuUsPerRequest)} without (${times(ratio(overlaid.cpuUsPerRequest, ours.cpuUsPerRequest))}); ${int(overlaid.requestsPerSec)} against ${int(ours.requestsPerSec)} req/s.${byRound}`);
  }
  lines.push('');
  lines.push(...renderAtOnce(measured, atOnce));
  return lines;
}

const AT_ONCE_LABELS: Record<string, string> = {
  'passthrough/proxy-lib': 'a passed-through request / the proxy library alone',
  'passthrough-nojournal/proxy-lib': 'the same with `--journal-size 0` / the proxy library alone',
  'ours-backend/ours': 'our page with `--backend` set / without',
};
const AT_ONCE_BUDGETS: Record<string, number> = { 'passthrough/proxy-lib': PASSTHROUGH_BUDGET, 'ours-backend/ours': OVERLAY_PAGE_BUDGET };

/**
 * The comparisons measured with both servers driven at the same time (issue 36, item 5): their CPU µs
 * per request and req/s (medians of the rounds; each server had the server core for part of those
 * seconds only, so req/s are lower than alone), and the ratio round by round with its median, which
 * the targets judge. Empty without such rounds.
 */
export function renderAtOnce(measured: Measured[], atOnce: AtOnce[]): string[] {
  const pairs = atOnce.filter((p) => p.rounds.length > 0);
  if (pairs.length === 0) return [];
  const label = (id: string) => measured.find((m) => m.id === id)?.label ?? id;
  const lines = ['### Each pair driven at the same time', ''];
  lines.push(
    `The ratios the targets judge. In every round each group (${AT_ONCE_GROUPS.map((g) => g.join(', ')).join('; ')}) is also loaded at the same time, one load generator per server on the generator's core, the servers on theirs, after a warm-up at once: whatever else the machine does then meets both sides alike. Their req/s are those of servers sharing the server core, lower than alone; their CPU per request is what is compared. The ratio is taken in each round, then the median of the rounds.`,
    '',
  );
  lines.push('| comparison | CPU µs/req | reference CPU µs/req | req/s | reference req/s | × reference, median of rounds | round by round | target |', '|---|---:|---:|---:|---:|---:|---|---|');
  for (const pair of pairs) {
    const key = `${pair.id}/${pair.reference}`;
    const { rounds, median: m } = atOnceRatios(pair);
    const budget = AT_ONCE_BUDGETS[key];
    const target = budget === undefined ? '' : `≤ ${budget.toFixed(2)}: ${m <= budget ? 'met' : '**not met**'}`;
    lines.push(
      `| ${AT_ONCE_LABELS[key] ?? `${label(pair.id)} / ${label(pair.reference)}`} | ${int(median(pair.rounds.map((x) => x.cpuUs)))} | ${int(median(pair.rounds.map((x) => x.refCpuUs)))} | ${int(median(pair.rounds.map((x) => x.rps)))} | ${int(median(pair.rounds.map((x) => x.refRps)))} | **${times(m)}** | ${rounds.map((x) => x.toFixed(2)).join(', ')} | ${target} |`,
    );
  }
  lines.push('');
  return lines;
}

/** `markdown` with the section that starts with `heading` replaced by `section` (or put before the targets, or at the end). */
export function spliceSection(markdown: string, heading: string, section: string[]): string {
  const lines = markdown.split('\n');
  const start = lines.indexOf(heading);
  if (start >= 0) {
    let end = lines.findIndex((l, i) => i > start && l.startsWith('## '));
    if (end < 0) end = lines.length;
    return [...lines.slice(0, start), ...section, ...lines.slice(end)].join('\n');
  }
  const before = lines.indexOf('## Targets of this run');
  if (before >= 0) return [...lines.slice(0, before), ...section, ...lines.slice(before)].join('\n');
  return [...lines, '', ...section].join('\n');
}

/** The start-up targets: serve's first answer within 2× a bare Express app's, the root entry imported in under 0.3 s. */
export function startupTargets(startup: StartupComparison): TargetCheck[] {
  const r = ratio(startup.serveMs, startup.expressMs);
  return [
    { goal: '`serve` (default dataset): first answer within 2× a bare Express app started the same way', measured: `${times(r)} (${sec(startup.serveMs)} s vs ${sec(startup.expressMs)} s)`, met: r <= 2 },
    { goal: "`import('store-listing-kit')` (the root entry) under 0.3 s", measured: `${sec(startup.importRootMs)} s`, met: startup.importRootMs < 300 },
  ];
}

/** The start-up comparison as a table (in RESULTS.md, and alone for `npm run bench -- --only startup`). */
export function renderStartup(startup: StartupComparison): string[] {
  return [
    '## Start-up, default dataset, side by side',
    '',
    `A node process spawned on the server core, timed from spawn to its first 200 answer on the reviews path; the two alternate, medians of ${startup.rounds} rounds. The import is timed inside a fresh process, from the build.`,
    '',
    '| what | first answer s | × bare Express |',
    '|---|---:|---:|',
    `| bare Express 5 app (bench/ceilings/express.mjs) | ${sec(startup.expressMs)} | 1.00× |`,
    `| \`store-listing-kit serve\` (default dataset) | ${sec(startup.serveMs)} | ${times(ratio(startup.serveMs, startup.expressMs))} |`,
    `| \`import('store-listing-kit')\` (root entry, import only) | ${sec(startup.importRootMs)} | |`,
    '',
  ];
}

export function renderResults(input: ReportInput): string {
  const { options, measured, skipped, facts } = input;
  const express = measured.find((m) => m.id === 'express');
  const main = measured.filter((m) => m.group === 'main');
  const deep = measured.filter((m) => m.group === 'deep');
  const lines: string[] = [];
  lines.push('# Benchmark results', '');
  lines.push(
    `Produced by \`npm run bench${options.quick ? ' -- --quick' : ''}\`. ` +
      `Medians of ${options.rounds} interleaved round(s) (our page and the random uncached page each right beside the Express ceiling in each); each run ${options.warmupSec} s of warm-up, then ${options.durationSec} s measured ` +
      `with ${options.connections} connections (${input.generator === 'wrk' ? 'wrk, one thread' : 'autocannon'}, HTTP/1.1 keep-alive, no pipelining; this generator measured every table below). ` +
      (input.pinned ? 'Server pinned to core 0, load generator to core 1 (taskset).' : 'NOT pinned: server and load generator shared the CPU.'),
  );
  if (options.quick) lines.push('', '**Quick run**: one short round, for a smoke test only; do not quote these numbers.');
  lines.push('');
  lines.push('## Machine', '');
  lines.push('| | |', '|---|---|');
  lines.push(`| CPU | ${facts.cpu}, ${facts.cores} cores |`);
  lines.push(`| memory | ${facts.memoryGiB} GiB |`);
  lines.push(`| OS | ${facts.os} |`);
  lines.push(`| Node.js | ${facts.node} |`);
  lines.push(`| Java (WireMock) | ${facts.java} |`);
  for (const [name, version] of Object.entries(facts.versions)) lines.push(`| ${name} | ${version} |`);
  lines.push('');

  lines.push(`## The same page of 10 reviews on every server`, '');
  lines.push(`Every server answers \`GET /store/products/reviews?limit=10&offset=0\` (json-server: its own paging of the same reviews) with the page our mock serves, ${int(input.pageBytes)} bytes. Ratios are to the bare-Express ceiling (for latency and memory, lower is better).`, '');
  lines.push('| server | req/s | × Express | p50 ms | × Express | p99 ms | × Express | RSS MiB | × Express | CPU µs/req | × Express | generator |');
  lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const m of main) {
    const e = express;
    lines.push(
      `| ${m.label} | ${int(m.requestsPerSec)} | ${times(ratio(m.requestsPerSec, e?.requestsPerSec ?? NaN))} | ${ms(m.p50Ms)} | ${times(ratio(m.p50Ms, e?.p50Ms ?? NaN))} | ${ms(m.p99Ms)} | ${times(ratio(m.p99Ms, e?.p99Ms ?? NaN))} | ${mib(m.rssMiB)} | ${times(ratio(m.rssMiB, e?.rssMiB ?? NaN))} | ${int(m.cpuUsPerRequest)} | ${times(ratio(m.cpuUsPerRequest, e?.cpuUsPerRequest ?? NaN))} | ${generatorNote(m)} |`,
    );
  }
  lines.push('', 'CPU µs/req: CPU time (user + system) the server process tree used during a measured run, divided by the requests it answered. Unlike req/s it barely moves when other work shares the machine; at one saturated core, req/s ≈ 1,000,000 / CPU µs/req.');
  lines.push('', `generator: the load generator's own CPU during the run, as a share of its core, and the req/s it could reach at all (req/s ÷ that share). A result within 10 % of that ceiling is **generator-bound**: it says how fast the generator is, not the server; compare those servers by CPU µs/req.`);
  lines.push('');

  if (deep.length > 0) {
    const smallest = deep.filter((m) => m.id.startsWith('deep-')).sort((a, b) => (a.reviews ?? 0) - (b.reviews ?? 0))[0];
    lines.push('## Our mock as the dataset grows', '');
    lines.push('First answer: from spawning `store-listing-kit serve` to the first 200 answer of `?limit=10&offset=0`. "× first" compares with the smallest dataset.', '');
    lines.push('| run | first answer s | RSS at start MiB | req/s | p50 ms | × first | p99 ms | × first | RSS under load MiB |');
    lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const m of deep) {
      lines.push(
        `| ${m.label} | ${sec(m.startMs)} | ${mib(m.startRssMiB)} | ${int(m.requestsPerSec)} | ${ms(m.p50Ms)} | ${times(ratio(m.p50Ms, smallest?.p50Ms ?? NaN))} | ${ms(m.p99Ms)} | ${times(ratio(m.p99Ms, smallest?.p99Ms ?? NaN))} | ${mib(m.rssMiB)} |`,
      );
    }
    lines.push('');
  }

  const starts = input.starts ?? [];
  if (starts.length > 0) {
    lines.push('## Start-up with large datasets', '');
    lines.push('Each command started alone, pinned to the server core; medians of several cold starts. "All orders" adds a deep page of reviews in three more orders (each order builds its index on first use) and the last page of wishlists.', '');
    lines.push('| command | first answer s | all orders s | RSS MiB (largest) |', '|---|---:|---:|---:|');
    for (const s of starts) lines.push(`| ${s.label} | ${sec(s.firstAnswerMs)} | ${sec(s.allAnswersMs)} | ${mib(s.rssMiB)} (${mib(s.maxRssMiB)}) |`);
    lines.push('');
  }

  if (input.startup) lines.push(...renderStartup(input.startup));

  lines.push(...renderPassedThrough(measured, input.passthroughRounds, undefined, { ...(input.atOnce ? { atOnce: input.atOnce } : {}), ...(input.pageRounds ? { pageRounds: input.pageRounds } : {}) }));

  const checks = checkTargets(measured, starts, input.startup, input.atOnce);
  if (checks.length > 0) {
    lines.push('## Targets of this run', '');
    lines.push('| target | measured | met |', '|---|---|---|');
    for (const c of checks) lines.push(`| ${c.goal} | ${c.measured} | ${c.met ? 'yes' : '**no**'} |`);
    lines.push('');
  }

  const failed = measured.filter((m) => m.failures > 0);
  if (failed.length > 0 || skipped.length > 0) {
    lines.push('## Caveats of this run', '');
    for (const m of failed) lines.push(`- ${m.label}: ${m.failures} non-2xx answers or connection errors during the measured runs.`);
    for (const s of skipped) lines.push(`- ${s.label}: skipped, ${s.reason}.`);
    lines.push('');
  }

  lines.push('## How each server was set up', '');
  lines.push('| server | setup |', '|---|---|');
  for (const m of measured) lines.push(`| ${m.label} | ${m.setup} |`);
  lines.push('');
  lines.push('Latencies are computed from every response time autocannon reports (its own histogram rounds to whole milliseconds). Requests per second count 2xx answers over the measured wall time. RSS is the resident memory of the server process and any process it spawned, read from /proc.', '');
  return lines.join('\n');
}

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A horizontal bar chart of requests per second for the main table, sorted fastest first. */
export function renderSvg(measured: Measured[]): string {
  const express = measured.find((m) => m.id === 'express');
  const rows = measured.filter((m) => m.group === 'main' && Number.isFinite(m.requestsPerSec)).sort((a, b) => b.requestsPerSec - a.requestsPerSec);
  const colour = { ours: '#2f9e44', ceiling: '#adb5bd', peer: '#4c6ef5' } as const;
  const width = 900;
  const labelWidth = 210;
  const valueWidth = 270;
  const barArea = width - labelWidth - valueWidth - 20;
  const rowHeight = 30;
  const top = 56;
  const height = top + rows.length * rowHeight + 40;
  const max = Math.max(1, ...rows.map((r) => r.requestsPerSec));
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="-apple-system, Segoe UI, Helvetica, Arial, sans-serif" font-size="13">`);
  out.push(`<rect width="${width}" height="${height}" fill="#ffffff"/>`);
  out.push(`<text x="12" y="24" font-size="16" font-weight="600" fill="#212529">Requests per second, one page of 10 reviews (higher is better)</text>`);
  out.push(`<text x="12" y="44" fill="#495057">one server core, one load-generator core; median of interleaved runs; ratio to the bare Express 5 ceiling</text>`);
  rows.forEach((r, i) => {
    const y = top + i * rowHeight;
    const w = Math.max(1, (r.requestsPerSec / max) * barArea);
    const rel = express ? ratio(r.requestsPerSec, express.requestsPerSec) : Number.NaN;
    out.push(`<text x="${labelWidth - 8}" y="${y + 19}" text-anchor="end" fill="#212529"${r.kind === 'ours' ? ' font-weight="600"' : ''}>${escapeXml(r.label)}</text>`);
    out.push(`<rect x="${labelWidth}" y="${y + 5}" width="${w.toFixed(1)}" height="${rowHeight - 10}" rx="3" fill="${colour[r.kind]}"/>`);
    out.push(`<text x="${(labelWidth + w + 8).toFixed(1)}" y="${y + 19}" fill="#212529">${escapeXml(`${int(r.requestsPerSec)} req/s${Number.isFinite(rel) ? ` (${times(rel)})` : ''}, p99 ${Number.isFinite(r.p99Ms) ? r.p99Ms.toFixed(1) : 'n/a'} ms`)}</text>`);
  });
  const legendY = top + rows.length * rowHeight + 22;
  const legend: [string, string][] = [
    ['store-listing-kit', colour.ours],
    ['ceilings (constant bytes)', colour.ceiling],
    ['peers', colour.peer],
  ];
  let x = labelWidth;
  for (const [name, fill] of legend) {
    out.push(`<rect x="${x}" y="${legendY - 11}" width="12" height="12" rx="2" fill="${fill}"/>`);
    out.push(`<text x="${x + 18}" y="${legendY}" fill="#495057">${escapeXml(name)}</text>`);
    x += 30 + name.length * 7;
  }
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
