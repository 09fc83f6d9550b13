/**
 * One load run with wrk (a native load generator, Debian's `wrk` package), when it is installed:
 * it drives a server several times harder per core than autocannon, so the fast servers are
 * measured, not the generator. Every path of a run (or a fixed random sequence) is cycled by a
 * Lua script; latency percentiles come from wrk's own histogram (`--latency`).
 */
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LoadOptions, LoadResult } from './load.ts';
import { keep, startChild, temporary } from './children.ts';

/** Runs so far: each has a script file of its own (several run at once: the pairs of `--only passthrough`). */
let scripts = 0;

export function hasWrk(): boolean {
  return spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined;
}

/**
 * Paths drawn per second of a random run: more than any server here answers a random page per
 * second on one core (about 8,000 at a million reviews), so that a page comes twice within a run
 * only by the chance of being drawn twice (about 1 % of a 6 s run's 150,000 draws, from six million
 * pages), as it would for a client paging at random. (A cycle of 20,000 paths did repeat pages once a
 * server passed 3,333 req/s in a 6 s round: the second ask made the page again and kept it, the
 * third was answered by the fast path, so a faster server was measured on a different mix.)
 */
export const RANDOM_PATHS_PER_SECOND = 25_000;

/** How many paths a random run of `durationSec` seconds draws (at least 20,000). */
export function randomCycle(durationSec: number): number {
  return Math.max(20_000, Math.ceil(durationSec * RANDOM_PATHS_PER_SECOND));
}

/** A Lua table of the paths a run cycles through (a random run: `randomCycle` of them, drawn once). */
export function wrkScript(paths: string[]): string {
  const list = paths.map((p) => `  ${JSON.stringify(p)},`).join('\n');
  return `local paths = {\n${list}\n}\nlocal n = 0\nrequest = function()\n  n = n % #paths + 1\n  return wrk.format("GET", paths[n])\nend\n`;
}

function seconds(text: string): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(text.trim());
  if (!m) return Number.NaN;
  const v = Number(m[1]);
  return m[2] === 'us' ? v / 1e6 : m[2] === 'ms' ? v / 1e3 : m[2] === 'm' ? v * 60 : v;
}

/** Parses wrk's report (with --latency), and bash's `times` line of the child's CPU. */
export function parseWrk(output: string, durationSec: number): LoadResult {
  const requests = Number(/(\d+) requests in/.exec(output)?.[1] ?? Number.NaN);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0);
  const errors = [...output.matchAll(/(?:connect|read|write|timeout) (\d+)/g)].reduce((sum, m) => sum + Number(m[1]), 0);
  const percentile = (p: string) => seconds(new RegExp(`^\\s+${p}%\\s+(\\S+)`, 'm').exec(output)?.[1] ?? '') * 1000;
  // bash's `times`: the shell's own user/sys, then its children's (wrk's) on the second line.
  const times = [...output.matchAll(/(\d+)m([\d.]+)s (\d+)m([\d.]+)s/g)];
  const child = times[times.length - 1];
  const cpu = child ? Number(child[1]) * 60 + Number(child[2]) + Number(child[3]) * 60 + Number(child[4]) : Number.NaN;
  const elapsed = seconds(/requests in ([\d.]+\w+),/.exec(output)?.[1] ?? `${durationSec}s`);
  return {
    requestsPerSec: Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1] ?? Number.NaN) * ((requests - non2xx) / Math.max(1, requests)),
    p50Ms: percentile('50'),
    p99Ms: percentile('99'),
    ok: requests - non2xx,
    non2xx,
    errors,
    generatorCpuShare: cpu / Math.max(elapsed, 1e-9),
  };
}

export async function runWrk(options: LoadOptions, workDir: string): Promise<LoadResult> {
  const paths = options.randomPath ? Array.from({ length: randomCycle(options.durationSec) }, () => (options.randomPath as () => string)()) : options.paths;
  const file = temporary(join(workDir, `wrk-${process.pid}-${++scripts}.lua`));
  writeFileSync(file, wrkScript(paths));
  const command = `wrk -t1 -c${options.connections} -d${options.durationSec}s --latency -s ${file} ${options.url}; times`;
  const output = await new Promise<string>((resolve, reject) => {
    // bash and wrk in a group of their own, ended with the bench
    const child = startChild('bash', ['-c', command], { stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout!.on('data', (chunk: Buffer) => (text += chunk));
    child.stderr!.on('data', (chunk: Buffer) => (text += chunk));
    child.on('error', reject);
    child.on('close', () => resolve(text));
  });
  rmSync(file, { force: true });
  keep(file);
  const result = parseWrk(output, options.durationSec);
  if (!Number.isFinite(result.requestsPerSec)) throw new Error(`could not read wrk's report: ${output.slice(0, 400)}`);
  return result;
}
