import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { assertMaxPageSize, DEFAULT_MAX_PAGE_SIZE } from '../lib/api-rules.ts';
import { DEFAULT_DIALECT, type DialectName } from '../lib/dialects/index.ts';
import { generateDataset, servingProblem, type Dataset, type GenerateOptions } from '../fixtures/dataset.ts';
import { sizesProblem } from '../fixtures/generate.ts';
import { createApp, listingAnswers } from './app.ts';
import { corsPolicy } from './cors-policy.ts';
import { withFastPath } from './fast-path.ts';
import { createOps, type Ops } from './admin.ts';
import type { FaultSettings } from './faults.ts';
import type { Logger } from './logging.ts';
import { guardRequests, installServerGuards, MAX_HEADER_BYTES } from './request-guards.ts';
import { DatasetHolder, generationOf } from './dataset-holder.ts';
import { assertStateLeaseMs } from './state-lease.ts';
import type { MockCluster, MockClusterOptions } from './cluster.ts';
import type { CoordinatorFactory } from './coordination.ts';

export interface MockServerOptions extends GenerateOptions {
  /** Port to listen on; 0 (the default here) picks a free one. The CLI defaults to 9000. */
  port?: number;
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
  /** Serve this fixtures file instead of generating data (seed and sizes are then not used). */
  fixtures?: string;
  /** Serve this dataset instead of generating one. */
  dataset?: Dataset;
  /** The largest `limit` / `take` accepted (default 1000). */
  maxPageSize?: number;
  /**
   * Origins allowed by CORS on the listings (never on `/__admin`); default any (without credentials).
   * Each is exactly what a browser sends (`http://localhost:3000`: no path, no trailing slash, lower
   * case, no wildcard) or `*`; anything else throws a TypeError that says why.
   */
  corsOrigin?: string | string[];
  /** How the listings speak: `spec` (default) or `alphabite` (the published plugins, bugs included). */
  dialect?: DialectName;
  /**
   * The alphabite dialect only: the backend's publishable keys. A request with another key gets
   * Medusa's 400 `A valid publishable key is required...`; without this, any non-empty key is taken.
   */
  publishableKeys?: string[];
  /**
   * Answer kept answers in front of Express (default true): same status, headers and bytes,
   * a fraction of the CPU (mock-server/fast-path.ts). `false` sends every request through Express.
   */
  fastPath?: boolean;
  /** Fault and latency injection from the start (default: off; changeable through the admin API). */
  faults?: FaultSettings;
  /** The seed of fault draws when the settings name none (default: the dataset's seed). */
  faultSeed?: number;
  /** Bearer token of the admin API; required for it on a non-loopback host. */
  adminToken?: string;
  /** Requests the admin journal keeps (default 200; 0: none). */
  journalSize?: number;
  /** Structured logs (default: silent). */
  logger?: Logger;
  /** How long close() lets in-flight requests finish before cutting connections (default 10 s). */
  shutdownGraceMs?: number;
  /**
   * After how long without a state change a run's hold on the provider state lapses, tearing its
   * state down (default 30 000 ms; docs/operations.md, "Provider states and reseeds").
   */
  stateLeaseMs?: number;
}

export interface MockServer {
  /** Base URL, e.g. http://127.0.0.1:9000 (no trailing slash). */
  readonly url: string;
  readonly port: number;
  readonly host: string;
  /** The data being served; `replace` / `reset` change it for every client (outside the admin API's lease on provider states). */
  readonly dataset: DatasetHolder;
  readonly app: Express;
  readonly server: Server;
  /** Faults, journal, logger and admin access, as the admin API changes them. */
  readonly ops: Ops;
  /** Stops listening, ends idle keep-alive connections, resolves when closed. */
  close(): Promise<void>;
}

/** The dataset the options ask for: a given one, a fixtures file, or generated from the seed. */
export async function resolveDataset(options: MockServerOptions): Promise<Dataset> {
  // Loaded only for a file: its validation (zod) is not on the start-up path of a generated dataset.
  const given = options.dataset ?? (options.fixtures ? await (await import('../fixtures/file.ts')).loadFixturesFile(options.fixtures) : undefined);
  if (!given) return generateDataset(options);
  const problem = servingProblem(given);
  if (problem) throw new RangeError(`Cannot serve ${options.dataset ? 'the dataset given' : `fixtures file ${options.fixtures}`}: ${problem}`);
  return given;
}

/**
 * Starts the mock server in-process: `const mock = await startMockServer({ seed: 7 }); ...; await mock.close()`.
 * With `workers: N`, starts N processes (node:cluster) on one port instead: see mock-server/cluster.ts.
 */
export async function startMockServer(options?: MockServerOptions): Promise<MockServer>;
export async function startMockServer(options: MockClusterOptions): Promise<MockCluster>;
export async function startMockServer(options: MockServerOptions | MockClusterOptions = {}): Promise<MockServer | MockCluster> {
  assertMaxPageSize(options.maxPageSize ?? DEFAULT_MAX_PAGE_SIZE);
  const sizes = sizesProblem(options);
  if (sizes) throw new RangeError(`Cannot serve the dataset asked for: ${sizes}`);
  // Refuses an origin a browser never sends (`http://localhost:3000/`), before any worker starts.
  corsPolicy(options.corsOrigin);
  assertPublishableKeys(options.publishableKeys, options.dialect ?? DEFAULT_DIALECT);
  if (options.stateLeaseMs !== undefined) assertStateLeaseMs(options.stateLeaseMs);
  if ('workers' in options && options.workers !== undefined) return (await import('./cluster.ts')).startMockCluster(options);
  return startInProcess(options as MockServerOptions);
}

/**
 * One server in this process. `coordinate`: how its admin changes reach the other workers
 * of a cluster (cluster-worker.ts gives it); by default this server is on its own.
 */
export async function startInProcess(options: MockServerOptions, coordinate?: CoordinatorFactory): Promise<MockServer> {
  const dataset = assertServable(await resolveDataset(options), options.dialect ?? DEFAULT_DIALECT);
  const holder = new DatasetHolder(dataset, withMaxItems(generationOf(dataset.summary), options.maxItems));
  const host = options.host ?? '127.0.0.1';
  const ops = createOps({
    generation: holder.initialGeneration,
    ...(options.stateLeaseMs !== undefined ? { stateLeaseMs: options.stateLeaseMs } : {}),
    access: { token: options.adminToken, host },
    ...(options.faults ? { faults: options.faults } : {}),
    ...(options.faultSeed !== undefined ? { faultSeed: options.faultSeed } : {}),
    ...(options.journalSize !== undefined ? { journalSize: options.journalSize } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
    ...(coordinate ? { coordinate } : {}),
  });
  const answers = listingAnswers(holder, {
    dialect: options.dialect ?? DEFAULT_DIALECT,
    maxPageSize: options.maxPageSize ?? DEFAULT_MAX_PAGE_SIZE,
    ...(options.publishableKeys ? { publishableKeys: options.publishableKeys } : {}),
  });
  const app = createApp(holder, {
    ops,
    answers,
    ...(options.corsOrigin !== undefined ? { corsOrigin: options.corsOrigin } : {}),
  });
  const listener = options.fastPath === false ? app : withFastPath(app, { answers, cors: corsPolicy(options.corsOrigin), ops });
  // requireHostHeader off: guardRequests answers a missing Host with JSON instead of Node's empty 400.
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES, requireHostHeader: false }, guardRequests(listener));
  installServerGuards(server);
  await listen(server, options.port ?? 0, host);
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  Object.assign(ops.info, { url, host, port, maxPageSize: options.maxPageSize ?? DEFAULT_MAX_PAGE_SIZE, corsOrigin: options.corsOrigin ?? '*', dialect: options.dialect ?? DEFAULT_DIALECT });
  return {
    url,
    port,
    host,
    dataset: holder,
    app,
    server,
    ops,
    close: () => closeServer(server, options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS),
  };
}

/** Publishable keys are non-empty strings, and only the alphabite dialect reads them: refused up front otherwise. */
export function assertPublishableKeys(keys: readonly string[] | undefined, dialect: DialectName): void {
  if (keys === undefined) return;
  if (!Array.isArray(keys) || keys.some((key) => typeof key !== 'string' || !/^[\x21-\x7e]{1,256}$/.test(key))) {
    throw new TypeError('each publishable key must be 1 to 256 visible ASCII characters, without spaces');
  }
  if (keys.length > 0 && dialect !== 'alphabite') throw new TypeError('publishable keys are read by the alphabite dialect only: the spec dialect takes no key (use --dialect alphabite)');
}

/** A recording (`fixtures --from`) holds records as one dialect shows them: only that dialect can serve them. */
function assertServable(dataset: Dataset, dialect: DialectName): Dataset {
  const recordedIn = dataset.recorded?.dialect;
  if (recordedIn !== undefined && recordedIn !== dialect) {
    throw new Error(`${dataset.summary.file ?? 'the dataset'} was recorded from a backend speaking the ${recordedIn} dialect: serve it with --dialect ${recordedIn} (its records are kept as that backend returned them)`);
  }
  return dataset;
}

/** The summary does not record maxItems; the options that made the dataset do. */
function withMaxItems(generation: GenerateOptions | undefined, maxItems: number | undefined): GenerateOptions | undefined {
  return generation && maxItems !== undefined ? { ...generation, maxItems } : generation;
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') reject(new Error(`Port ${port} on ${host} is already in use: stop what uses it, or choose another with --port (0 picks a free one)`));
      else if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') reject(new Error(`Cannot listen on host ${host}: ${error.code}`));
      else if (error.code === 'EACCES') reject(new Error(`Not allowed to listen on port ${port} of ${host} (EACCES)`));
      else reject(error);
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

export const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;

/**
 * Stops accepting connections, lets requests in flight finish (closing each keep-alive
 * connection as soon as it is idle), and after `graceMs` cuts whatever is left.
 */
function closeServer(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    if (!server.listening) return resolve();
    const idle = setInterval(() => server.closeIdleConnections(), 50);
    const cut = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close((error) => {
      clearInterval(idle);
      clearTimeout(cut);
      if (error) reject(error);
      else resolve();
    });
    server.closeIdleConnections();
  });
}
