/**
 * The collector's counts per 10,000 requests of the random uncached page, for one or more builds:
 * `npx tsx bench/gc-counts.ts <cli.js> [<cli.js> ...]` (e.g. bin/store-listing-kit.js and
 * bench/.work/build-26a2658/bin/store-listing-kit.js). Each server is started with `--trace-gc-nvp`
 * (`serve --reviews 1000000`, extra serve options from GC_SERVE_ARGS) and driven as the bench drives
 * its random target: wrk, one thread, 10 connections, each run cycling the next `randomCycle` paths of the
 * bench's generator. After a warm-up it counts, over three measured runs, scavenges, full collections
 * (Mark-Compact), bytes promoted and kept alive by young collections, and the heap left after each
 * full collection. These are facts of the heap, not of the clock: unlike CPU per request, a loaded
 * machine hardly moves them, so they can compare builds (or bisect commits) one run each.
 * GC_IDLE_MS puts a pause between measured runs (the bench's other targets run there; V8's memory
 * reducer then shrinks the heap, which raises the full collections of every build alike).
 * GC_ORDERS_FIRST=1 asks one page of each order the random pages draw before the load (as the bench
 * does unless --no-order-wait), so that no order is built under load.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { orderPagePaths, randomPagePaths } from './lib/random-pages.ts';
import { randomCycle, wrkScript } from './lib/wrk.ts';
import { freePort } from './lib/processes.ts';

const REVIEWS = 1_000_000;
const PAGE_SIZE = 10;

function field(line: string, key: string): number {
  return Number(new RegExp(`\\b${key}=([\\d.]+)`).exec(line)?.[1] ?? 0);
}

async function countsOf(cli: string, dir: string): Promise<string> {
  const port = await freePort();
  const extra = (process.env.GC_SERVE_ARGS ?? '').split(' ').filter(Boolean);
  const server = spawn(process.execPath, ['--trace-gc-nvp', cli, 'serve', '--host', '127.0.0.1', '--seed', '1', '--port', String(port), '--reviews', String(REVIEWS), ...extra], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let trace = '';
  server.stdout.on('data', (chunk: Buffer) => (trace += chunk.toString()));
  try {
    for (let tries = 0; ; tries++) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/store/products/reviews?limit=10`)).ok) break;
      } catch {
        if (tries > 600) throw new Error(`${cli} did not answer within 3 minutes`);
      }
      await sleep(300);
    }
    if (process.env.GC_ORDERS_FIRST === '1') {
      for (const path of orderPagePaths(REVIEWS, PAGE_SIZE)) await (await fetch(`http://127.0.0.1:${port}${path}`)).text();
    }
    const next = randomPagePaths(REVIEWS, PAGE_SIZE);
    const wrk = (seconds: number): number => {
      const file = join(dir, 'cycle.lua');
      writeFileSync(file, wrkScript(Array.from({ length: randomCycle(seconds) }, next)));
      const out = spawnSync('wrk', ['-t1', '-c10', `-d${seconds}s`, '-s', file, `http://127.0.0.1:${port}/`], { encoding: 'utf8' }).stdout;
      return Number(/(\d+) requests in/.exec(out)?.[1] ?? Number.NaN);
    };
    wrk(6);
    wrk(3);
    const lines: string[] = [];
    let requests = 0;
    for (let run = 0; run < 3; run++) {
      const mark = trace.length;
      requests += wrk(4);
      await sleep(Number(process.env.GC_IDLE_MS ?? 200));
      lines.push(...trace.slice(mark).split('\n').filter((l) => l.includes('pause=')));
    }
    const scavenges = lines.filter((l) => / gc=s /.test(l));
    const fulls = lines.filter((l) => / gc=mc /.test(l));
    const per = 10_000 / requests;
    const sum = (ls: string[], key: string) => ls.reduce((s, l) => s + field(l, key), 0);
    const liveAfterFull = fulls.map((l) => field(l, 'total_size_after') / 1e6).sort((a, b) => a - b);
    const medianLive = liveAfterFull[Math.floor(liveAfterFull.length / 2)];
    return [
      `${cli}: ${requests} requests; per 10,000: ${(scavenges.length * per).toFixed(1)} scavenges, ${(fulls.length * per).toFixed(2)} mark-compacts,`,
      `  ${((sum(scavenges, 'promoted') * per) / 1e6).toFixed(1)} MB promoted, ${((sum(scavenges, 'allocated') * per) / 1e6).toFixed(1)} MB allocated;`,
      `  each scavenge keeps ${(sum(scavenges, 'new_space_survived') / scavenges.length / 1e6).toFixed(2)} of ${(sum(scavenges, 'allocated') / scavenges.length / 1e6).toFixed(1)} MB alive;`,
      `  heap after a full collection ${medianLive === undefined ? '-' : medianLive.toFixed(1)} MB (median)`,
    ].join('\n');
  } finally {
    server.kill('SIGTERM');
  }
}

const clis = process.argv.slice(2).map((p) => resolve(p));
if (clis.length === 0) {
  process.stderr.write('usage: tsx bench/gc-counts.ts <cli.js> [<cli.js> ...]\n');
  process.exit(2);
}
const dir = mkdtempSync(join(tmpdir(), 'gc-counts-'));
try {
  for (const cli of clis) process.stdout.write(`${await countsOf(cli, dir)}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
