import cluster, { type Worker } from 'node:cluster';
import { fileURLToPath } from 'node:url';
import type { DatasetSummary } from '../../fixtures/dataset.ts';
import { ClusterBroker } from './broker.ts';
import type { LogLevel } from '../helpers/logging.ts';
import { DEFAULT_SHUTDOWN_GRACE_MS, type MockServerOptions } from '../server-options.ts';

/**
 * `--workers N`: the mock server on N processes (node:cluster) sharing one port, to use
 * more cores. Each worker builds the same dataset from the same options (seed and sizes,
 * or the fixtures file), so every worker answers the same bytes as a single server.
 *
 * They stay one server at run time: the worker that receives an admin change (or a
 * provider state) validates it and passes it to this primary, which has every worker
 * apply it before the call answers (cluster-broker.ts); the journal and the config answer
 * for all workers, and fault draws follow one count, as in a single server.
 */

/** Options a worker can be given: plain data only (a Dataset or a logger cannot cross processes). */
export interface MockClusterOptions extends Omit<MockServerOptions, 'dataset' | 'logger'> {
  /** Number of worker processes (1 or more). */
  workers: number;
  /** Each worker logs at this level to its stdout/stderr (default: silent). */
  logLevel?: LogLevel;
}

export interface MockCluster {
  /** Base URL, e.g. http://127.0.0.1:9000 (no trailing slash). */
  readonly url: string;
  readonly port: number;
  readonly host: string;
  readonly workers: number;
  /** The dataset every worker serves. */
  readonly summary: DatasetSummary;
  /** What the first worker reported about its admin API and faults, for a start-up banner. */
  readonly status: WorkerStatus;
  /** The workers' process ids. */
  readonly pids: readonly number[];
  /** Asks every worker to finish its requests and stop; resolves when all have exited. */
  close(): Promise<void>;
}

/** Messages between the primary and its workers. */
export const WORKER_OPTIONS_ENV = 'STORE_LISTING_KIT_WORKER_OPTIONS';
export interface WorkerStatus {
  adminMode: string;
  faultsActive: boolean;
}
export type WorkerMessage =
  | { type: 'listening'; url: string; port: number; summary: DatasetSummary; status: WorkerStatus }
  | { type: 'failed'; message: string };
export const SHUTDOWN_MESSAGE = { type: 'shutdown' } as const;

export const MAX_WORKERS = 64;

/**
 * The worker's module beside this one: the compiled `.js` in the package, or the `.ts` source when
 * the kit itself runs from its sources (its own tests), where the worker needs the TypeScript
 * loader (tsx, a devDependency) unless the primary already runs with one.
 */
function workerModule(): { exec: string; execArgv: string[] } {
  const fromSource = import.meta.url.endsWith('.ts');
  const exec = fileURLToPath(new URL(fromSource ? './worker.ts' : './worker.js', import.meta.url));
  if (!fromSource || process.execArgv.some((arg) => arg.includes('tsx'))) return { exec, execArgv: process.execArgv };
  return { exec, execArgv: [...process.execArgv, '--import', import.meta.resolve('tsx')] };
}

function waitForWorker(worker: Worker): Promise<Extract<WorkerMessage, { type: 'listening' }>> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: WorkerMessage) => {
      if (message?.type === 'listening') {
        cleanup();
        resolve(message);
      } else if (message?.type === 'failed') {
        cleanup();
        reject(new Error(message.message));
      }
    };
    const onExit = (code: number | null, signal: string | null) => {
      cleanup();
      reject(new Error(`worker ${worker.process.pid} exited (${signal ?? code}) before listening`));
    };
    const cleanup = () => {
      worker.off('message', onMessage);
      worker.off('exit', onExit);
    };
    worker.on('message', onMessage);
    worker.on('exit', onExit);
  });
}

function stopWorker(worker: Worker, graceMs: number): Promise<void> {
  if (worker.isDead()) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => worker.process.kill('SIGKILL'), graceMs + 2000);
    worker.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    try {
      worker.send(SHUTDOWN_MESSAGE);
    } catch {
      worker.process.kill('SIGTERM');
    }
  });
}

/** Starts `workers` processes serving one port; resolves when every one of them listens. */
export async function startMockCluster(options: MockClusterOptions): Promise<MockCluster> {
  if (!cluster.isPrimary) throw new Error('startMockCluster must be called from the primary process');
  const count = options.workers;
  if (!Number.isSafeInteger(count) || count < 1 || count > MAX_WORKERS) throw new RangeError(`workers must be a whole number from 1 to ${MAX_WORKERS}, got ${count}`);
  if ((options as MockServerOptions).dataset !== undefined) throw new TypeError('a cluster cannot serve a Dataset object: give a seed and sizes, or a fixtures file');
  cluster.setupPrimary(workerModule());
  const env = { [WORKER_OPTIONS_ENV]: JSON.stringify({ ...options, port: options.port ?? 0 }) };
  const workers: Worker[] = [];
  let closing = false;
  const graceMs = options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS;
  const broker = new ClusterBroker(options.stateLeaseMs);
  const fork = () => {
    const worker = cluster.fork(env);
    broker.attach(worker);
    return worker;
  };
  const stopAll = () => Promise.all(workers.map((w) => stopWorker(w, graceMs))).then(() => undefined);
  try {
    // The first worker binds the port; the others listen with the same options and the
    // primary hands them the same socket (with port 0 too: the free port it picked).
    const first = fork();
    workers.push(first);
    const ready = await waitForWorker(first);
    const rest = Array.from({ length: count - 1 }, fork);
    workers.push(...rest);
    await Promise.all(rest.map(waitForWorker));
    broker.start(workers);
    for (const worker of workers) {
      worker.on('exit', (code, signal) => {
        if (!closing) process.stderr.write(`store-listing-kit: worker ${worker.process.pid} exited (${signal ?? code}); ${workers.filter((w) => !w.isDead()).length} of ${count} left\n`);
      });
    }
    return {
      url: ready.url,
      port: ready.port,
      host: options.host ?? '127.0.0.1',
      workers: count,
      summary: ready.summary,
      status: ready.status,
      pids: workers.map((w) => w.process.pid ?? 0),
      close: () => {
        closing = true;
        return stopAll();
      },
    };
  } catch (error) {
    closing = true;
    await stopAll();
    throw error;
  }
}
