/**
 * `npm run soak`: a bounded load run against `store-listing-kit serve` on loopback.
 *
 * Starts the server as a child process (the same CLI users run), warms it up, then drives
 * it for SOAK_SECONDS (default 60) with autocannon over a rotating mix of valid requests to
 * all four endpoints, sampling the server's resident memory through GET /__admin/health.
 * Reports requests served, errors and memory at start and end, and exits non-zero if any
 * request failed (connection error, timeout or a non-2xx answer) or if resident memory
 * grew by more than 10% from the start of the run (after the warm-up) to its end; each of
 * those two readings is the RSS floor over 20 one-second samples, since RSS swings with every GC.
 *
 * Environment: SOAK_SECONDS (60), SOAK_WARMUP_SECONDS (10), SOAK_CONNECTIONS (10).
 * Not part of `npm test`.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import autocannonModule from 'autocannon';

interface AutocannonResult {
  requests: { total: number; average: number };
  latency: { p50: number; p99: number; max: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  '2xx': number;
  duration: number;
}
type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;
const autocannon = autocannonModule as unknown as Autocannon;

const SECONDS = positive('SOAK_SECONDS', 60);
const WARMUP_SECONDS = positive('SOAK_WARMUP_SECONDS', 10);
const CONNECTIONS = positive('SOAK_CONNECTIONS', 10);
const MAX_GROWTH = 0.1;
const CLI = join(import.meta.dirname, '..', 'bin', 'store-listing-kit.js');

function positive(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a whole number of at least 1, got '${raw}'`);
  return n;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function startServer(): Promise<{ url: string; stop: () => Promise<number | string> }> {
  const child = spawn(process.execPath, [CLI, 'serve', '--host', '127.0.0.1', '--port', '0', '--log-level', 'warn'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<number | string>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) resolve(match[1] as string);
    });
    void exited.then((code) => reject(new Error(`the server exited (${code}) before listening:\n${out}`)));
  });
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

async function json(url: string): Promise<any> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

const rss = async (url: string): Promise<number> => (await json(`${url}/__admin/health`)).memory.rss;
const SAMPLE_EVERY_MS = 1000;
/**
 * RSS swings by tens of MB with every GC cycle, so one reading says little. The start and end
 * readings are the RSS floor (lowest sample: the memory still held after collection, which is
 * what a leak raises) over the first and the last WINDOW samples of the run.
 */
const WINDOW = 20;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/** A rotating mix of valid requests: every endpoint, several page sizes, offsets and orders. */
async function requestMix(url: string): Promise<{ method: 'GET'; path: string }[]> {
  const reviews = (await json(`${url}/store/products/reviews?limit=1000`)).reviews as { product_id: string }[];
  const products = [...new Set(reviews.map((r) => r.product_id))];
  const wishlists = (await json(`${url}/store/wishlists?take=1000`)).data as { id: string }[];
  const paths: string[] = [];
  const orders = ['created_at', '-created_at', 'updated_at', '-updated_at', 'rating', '-rating'];
  for (let i = 0; i < 60; i++) {
    const size = [1, 5, 20, 50, 100][i % 5] as number;
    paths.push(`/store/products/reviews?limit=${size}&offset=${(i * 7) % 320}&order=${orders[i % orders.length]}`);
    paths.push(`/store/reviews/product/${products[i % products.length]}?limit=${size}&offset=${i % 40}`);
    paths.push(`/store/wishlists?skip=${i % 50}&take=${[1, 10, 25][i % 3]}`);
    const wishlist = wishlists[i % wishlists.length] as { id: string };
    paths.push(`/store/wishlists/${wishlist.id}/items?skip=${i % 10}&take=${[1, 5, 10][i % 3]}${i % 4 === 0 ? `&id=${wishlist.id}` : ''}`);
  }
  paths.push('/store/products/reviews', '/store/wishlists', `/store/reviews/product/prod_unknown`);
  return paths.map((path) => ({ method: 'GET', path }));
}

async function load(url: string, seconds: number, requests: { method: 'GET'; path: string }[], samples?: number[]): Promise<AutocannonResult> {
  const sampler = samples ? setInterval(() => void rss(url).then((v) => samples.push(v), () => {}), SAMPLE_EVERY_MS) : undefined;
  try {
    return await autocannon({ url, connections: CONNECTIONS, duration: seconds, requests, timeout: 10 });
  } finally {
    if (sampler) clearInterval(sampler);
  }
}

async function main(): Promise<void> {
  const server = await startServer();
  let failed = false;
  try {
    const idle = await rss(server.url);
    const requests = await requestMix(server.url);
    console.log(`soak: ${server.url}, ${CONNECTIONS} connections, ${requests.length} distinct requests; warm-up ${WARMUP_SECONDS} s, then ${SECONDS} s`);
    const warm = await load(server.url, WARMUP_SECONDS, requests);
    const samples: number[] = [await rss(server.url)];
    const run = await load(server.url, SECONDS, requests, samples);
    samples.push(await rss(server.url));
    const window = Math.max(1, Math.min(WINDOW, Math.floor(samples.length / 2)));
    const first = samples.slice(0, window);
    const last = samples.slice(-window);
    const start = Math.min(...first);
    const end = Math.min(...last);
    const growth = (end - start) / start;
    const errors = run.errors + run.timeouts + run.non2xx + warm.errors + warm.timeouts + warm.non2xx;

    console.log('');
    console.log(`requests served      ${run.requests.total} in ${SECONDS} s (${Math.round(run.requests.average)} req/s), plus ${warm.requests.total} in the warm-up`);
    console.log(`latency              p50 ${run.latency.p50} ms, p99 ${run.latency.p99} ms, max ${run.latency.max} ms`);
    console.log(`errors               ${errors} (connection errors ${run.errors + warm.errors}, timeouts ${run.timeouts + warm.timeouts}, non-2xx ${run.non2xx + warm.non2xx})`);
    console.log(`resident memory      idle ${mb(idle)}; start ${mb(start)}; end ${mb(end)}; growth ${(growth * 100).toFixed(1)}% (limit ${MAX_GROWTH * 100}%)`);
    console.log(`                     (start/end: RSS floor, the lowest of the first/last ${window} samples, one every ${SAMPLE_EVERY_MS / 1000} s under load after the warm-up;`);
    console.log(`                     medians of those windows ${mb(median(first))} and ${mb(median(last))}; first sample ${mb(samples[0] as number)}, last ${mb(samples.at(-1) as number)}, max ${mb(Math.max(...samples))})`);
    console.log(`memory samples       ${samples.map((v) => (v / 1024 / 1024).toFixed(0)).join(' ')} (MB)`);
    if (errors > 0) {
      console.error(`FAIL: ${errors} request(s) failed`);
      failed = true;
    }
    if (growth > MAX_GROWTH) {
      console.error(`FAIL: resident memory grew by ${(growth * 100).toFixed(1)}%, more than ${MAX_GROWTH * 100}%`);
      failed = true;
    }
  } finally {
    const code = await server.stop();
    console.log(`server stopped on SIGTERM with exit code ${code}`);
    if (code !== 0) failed = true;
  }
  if (failed) process.exitCode = 1;
  else console.log('PASS');
}

await main();
