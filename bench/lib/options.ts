/** Command-line options of `npm run bench` (parsed with node:util, no extra dependency). */
import { parseArgs } from 'node:util';

export interface BenchOptions {
  rounds: number;
  /** Whether `--rounds` was given (`--only passthrough` runs more rounds than the default unless it was). */
  roundsGiven: boolean;
  durationSec: number;
  warmupSec: number;
  connections: number;
  /** Dataset sizes (reviews) of the deep-page runs. */
  sizes: number[];
  /** Only these target ids (all when empty). */
  only: string[];
  peers: boolean;
  install: boolean;
  /** Where RESULTS.md and results.svg go; undefined prints only. */
  outDir: string | undefined;
  quick: boolean;
  /** The load generator: wrk when it is installed (it drives a server harder per core), else autocannon. */
  generator: 'wrk' | 'autocannon' | undefined;
  /** Where the random targets (this build's and the older commits') write V8 CPU profiles (\`--cpu-prof\`); undefined: none. */
  cpuProfDir: string | undefined;
  /** Ask one page of each order the random pages draw before the warm-up (default); false: the load meets the builds, as a client right after start does. */
  orderWait: boolean;
}

export const USAGE = `npm run bench -- [options]

Runs our mock, its ceilings (raw node:http, bare Express 5, the proxy library alone) and the
peers side by side on loopback, server and load generator on separate cores, interleaved and
repeated; prints the tables and writes bench/RESULTS.md and bench/results.svg. Builds what
changed into dist/ first. Ctrl-C (SIGINT), SIGTERM or SIGHUP stops every process it started and
exits 130, 143 or 129 (no RESULTS.md).

  --quick              one short round (about 2 minutes): a smoke run, not for publishing
  --rounds <n>         interleaved rounds; medians are reported (default 5)
  --duration <s>       measured seconds per run (default 6)
  --warmup <s>         unmeasured seconds before each run (default 2)
  --connections <n>    concurrent connections (default 10)
  --sizes <a,b,c>      review counts of the deep-page runs (default 1000,100000,1000000)
  --only <ids>         only these, comma-separated (the Express ceiling always runs): ours, ours-nojournal,
                       raw-http, express, json-server, prism-static, prism-dynamic, mockoon, wiremock,
                       pact-stub, deep-<size>, random-<largest size>, random-<largest size>@<commit>
                       (the same random pages served by that commit, built from git into
                       bench/.work/, right beside random-<largest size> in every round; several
                       may be named, to bisect; a full run has @26a2658; the random targets
                       alone put their section into RESULTS.md), start (the start-up table),
                       startup (serve on the default dataset vs bare Express, and the root
                       import; alone, it runs by itself in about a minute and prints only),
                       check (a default \`check\` against the mock at --concurrency 1 and at the
                       default, and against serve --latency 200; alone, it runs by itself in
                       about three minutes and puts its section into RESULTS.md),
                       passthrough (a request \`serve --backend\` passes to an origin, beside the
                       proxy library alone: proxy-lib, passthrough, passthrough-nojournal; and
                       our page with --backend set beside it without: ours, ours-backend; each
                       group also driven at the same time in every round; alone, 9 rounds
                       unless --rounds is given, about nine minutes, and it puts its section
                       into RESULTS.md)
  --generator <name>   wrk or autocannon (default: wrk when it is installed, else autocannon)
  --cpu-prof <dir>     the random uncached page's servers (this build's and each older commit's) run
                       with node --cpu-prof, writing a profile into <dir> when stopped (start-up,
                       warm-up and every round included; compare self-time per request)
  --no-order-wait      the random targets start their load without first asking one page of each
                       order (the load then meets the orders' builds, as a client right after start does)
  --no-peers           skip the peers (no install needed)
  --no-install         never run npm install for the peers; skip those missing
  --out <dir>          where RESULTS.md and results.svg go (default bench/); --out - prints only
  --help               this text`;

export function parseBenchOptions(argv: string[]): BenchOptions | 'help' {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean', default: false },
      generator: { type: 'string' },
      rounds: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      sizes: { type: 'string' },
      only: { type: 'string' },
      'no-peers': { type: 'boolean', default: false },
      'no-order-wait': { type: 'boolean', default: false },
      'no-install': { type: 'boolean', default: false },
      out: { type: 'string' },
      'cpu-prof': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) return 'help';
  const quick = values.quick ?? false;
  const positive = (name: string, raw: string | undefined, fallback: number): number => {
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!/^[0-9]+(\.[0-9]+)?$/.test(raw) || !(n > 0)) throw new Error(`--${name} must be a positive number, got '${raw}'`);
    return n;
  };
  const sizes = (values.sizes ?? '1000,100000,1000000').split(',').map((s) => positive('sizes', s.trim(), 0));
  if (sizes.some((s) => !Number.isInteger(s) || s < 10)) throw new Error('--sizes must be whole numbers of at least 10');
  if (values.generator !== undefined && values.generator !== 'wrk' && values.generator !== 'autocannon') throw new Error(`--generator must be wrk or autocannon, got '${values.generator}'`);
  return {
    quick,
    generator: values.generator as BenchOptions['generator'],
    rounds: Math.round(positive('rounds', values.rounds, quick ? 1 : 5)),
    roundsGiven: values.rounds !== undefined,
    durationSec: positive('duration', values.duration, quick ? 3 : 6),
    warmupSec: positive('warmup', values.warmup, quick ? 1 : 2),
    connections: Math.round(positive('connections', values.connections, 10)),
    sizes,
    only: values.only ? values.only.split(',').map((s) => s.trim()).filter(Boolean) : [],
    peers: !values['no-peers'],
    install: !values['no-install'],
    outDir: values.out === '-' ? undefined : (values.out ?? 'bench'),
    cpuProfDir: values['cpu-prof'],
    orderWait: !values['no-order-wait'],
  };
}
