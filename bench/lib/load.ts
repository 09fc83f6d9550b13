/**
 * One load run with autocannon (already a devDependency), measured precisely.
 *
 * autocannon's own latency histogram has a resolution of 1 ms, too coarse for servers that answer
 * in a fraction of a millisecond, so each response time (a float from process.hrtime) is kept
 * here and the percentiles are computed exactly from them. Requests per second are counted the
 * same way: successful (2xx) responses divided by the measured wall time.
 */
import autocannon from 'autocannon';
import { percentile } from './stats.ts';

export interface LoadOptions {
  url: string;
  /** One path, or several visited in turn by every connection. */
  paths: string[];
  /** When given, every request goes to a new path from this function instead. */
  randomPath?: () => string;
  connections: number;
  durationSec: number;
}

export interface LoadResult {
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  ok: number;
  non2xx: number;
  errors: number;
  /**
   * CPU time the load generator itself used, as a share of one core over the run. Near 1 the
   * generator, not the server, set the pace: the result is within 10 % of what the generator
   * can do at all (its ceiling is about requestsPerSec / generatorCpuShare).
   */
  generatorCpuShare: number;
}

/** The generator's own ceiling, from a run: the req/s it would reach with a whole core to itself. */
export const generatorCeiling = (r: LoadResult) => r.requestsPerSec / Math.max(r.generatorCpuShare, 1e-9);
/** Within 10 % of the generator's ceiling: the number says more about the generator than the server. */
export const generatorBound = (r: LoadResult) => r.generatorCpuShare >= 0.9;

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  let latencies = new Float64Array(1 << 16);
  let ok = 0;
  let non2xx = 0;
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const instance = autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.durationSec,
    pipelining: 1,
    requests: options.randomPath
      ? [{ method: 'GET', path: options.paths[0], setupRequest: (req: Record<string, unknown>) => ({ ...req, path: (options.randomPath as () => string)() }) }]
      : options.paths.map((path) => ({ method: 'GET', path })),
  });
  instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    if (statusCode < 200 || statusCode > 299) {
      non2xx++;
      return;
    }
    if (ok === latencies.length) {
      const grown = new Float64Array(latencies.length * 2);
      grown.set(latencies);
      latencies = grown;
    }
    latencies[ok++] = responseTime;
  });
  const result = await instance;
  const elapsedSec = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const sorted = latencies.subarray(0, ok).sort();
  return {
    requestsPerSec: ok / Math.max(elapsedSec, result.duration),
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
    ok,
    non2xx,
    errors: result.errors,
    generatorCpuShare: (cpu.user + cpu.system) / 1e6 / elapsedSec,
  };
}
