import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_MAX_PAGE_SIZE } from '../lib/api-rules.ts';
import { DEFAULT_DIALECT, type DialectName } from '../lib/dialects/index.ts';
import { datasetFromRecords, generateDataset, servingProblem, type Dataset, type GenerateOptions } from '../fixtures/dataset.ts';
import { givenCatalogue, type CatalogueInput, type GivenCatalogue } from '../fixtures/catalogue.ts';
import { DEFAULT_SEED } from '../fixtures/generate.ts';
import { BackendCatalogue, backendCatalogueReader } from './backend/catalogue.ts';
import { withCatalogueGate, withReadFirst } from './backend/catalogue-gate.ts';
import { wishlistSettings } from './writes/routes.ts';
import { seedOf } from './writes/seed.ts';
import { backendLabel } from './backend/label.ts';
import { createApp, listingAnswers } from './front/app.ts';
import { corsPolicy } from './helpers/cors-policy.ts';
import { withFastPath } from './front/fast-path.ts';
import { createOps } from './state/ops.ts';
import { installServerGuards, MAX_HEADER_BYTES } from './front/request-guards.ts';
import { frontListener } from './front/listener.ts';
import { appMessages } from './front/app-messages.ts';
import { DatasetHolder, generationOf } from './dataset/holder.ts';
import { DEFAULT_SHUTDOWN_GRACE_MS, type MockServer, type MockServerOptions } from './server-options.ts';
import type { CoordinatorFactory } from './state/coordination.ts';

/**
 * One mock server in this process, from options already checked (server.ts `startMockServer`
 * checks them, then starts this or a cluster of workers, each of which starts this).
 */

/** The dataset the options ask for: a given one, a fixtures file, or generated from the seed (over the catalogue given, if one is). */
export async function resolveDataset(options: MockServerOptions, catalogue: CatalogueInput | GivenCatalogue | undefined = options.catalogue): Promise<Dataset> {
  // The validating proxy serves no listings: its holder gets an empty dataset.
  if (options.mode === 'proxy') return generateDataset({ seed: options.seed, reviews: 0, products: 1, wishlists: 0, maxItems: 0 });
  // Loaded only for a file: its validation (zod) is not on the start-up path of a generated dataset.
  const given = options.dataset ?? (options.fixtures ? await (await import('../fixtures/file.ts')).loadFixturesFile(options.fixtures) : undefined);
  if (!given) return generateDataset(options, catalogue);
  const problem = servingProblem(given);
  if (problem) throw new RangeError(`Cannot serve ${options.dataset ? 'the dataset given' : `fixtures file ${options.fixtures}`}: ${problem}`);
  return given;
}

/**
 * One server in this process. `coordinate`: how its admin changes reach the other workers
 * of a cluster (cluster/worker.ts gives it); by default this server is on its own.
 */
export async function startInProcess(options: MockServerOptions, coordinate?: CoordinatorFactory): Promise<MockServer> {
  const { holder, backendCatalogue } = await datasetHolder(options);
  const host = options.host ?? '127.0.0.1';
  const ops = createOps({
    generation: holder.initialGeneration ?? { seed: options.seed ?? DEFAULT_SEED },
    ...(options.stateLeaseMs !== undefined ? { stateLeaseMs: options.stateLeaseMs } : {}),
    access: { token: options.adminToken, host },
    ...(options.faults ? { faults: options.faults } : {}),
    ...(options.faultSeed !== undefined ? { faultSeed: options.faultSeed } : {}),
    ...(options.journalSize !== undefined ? { journalSize: options.journalSize } : {}),
    ...(options.journalBodyBytes !== undefined ? { journalBodyBytes: options.journalBodyBytes } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
    ...(coordinate ? { coordinate } : {}),
  });
  const answers = listingAnswers(holder, {
    dialect: options.dialect ?? DEFAULT_DIALECT,
    maxPageSize: options.maxPageSize ?? DEFAULT_MAX_PAGE_SIZE,
    ...(options.publishableKeys ? { publishableKeys: options.publishableKeys } : {}),
    ...(options.medusaVersion !== undefined ? { medusaVersion: options.medusaVersion } : {}),
  });
  // Loaded only with a consumer: recording pacts is not on the start-up path of a mock.
  const pacts = options.pactConsumer !== undefined
    ? new (await import('./pacts/recorder.ts')).PactRecorder({ consumer: options.pactConsumer, dialect: options.dialect ?? DEFAULT_DIALECT, holder, ...(options.pactDir !== undefined ? { dir: options.pactDir } : {}) })
    : undefined;
  // The wishlist plugin's settings: the options', or (in front of a backend with the plugins) the backend's, once read.
  const settings = wishlistSettings(options.allowMultipleWishlists);
  // In front of a backend with the plugins, each customer's own data is read on their first request to the plugins' routes.
  // Loaded only with a backend, as the overlay.
  const { BackendCustomerData, customerDataGate, withBackendAnswers } = readsBackendCatalogue(options) ? await import('./backend/customer-data.ts') : ({} as Partial<typeof import('./backend/customer-data.ts')>);
  const customerData = BackendCustomerData && readsBackendCatalogue(options)
    ? new BackendCustomerData({ backend: options.backend!, writes: holder.writes, settings, ...(options.backendTimeoutMs !== undefined ? { timeoutMs: options.backendTimeoutMs } : {}), ...(options.pluginData ? { source: options.pluginData } : {}) })
    : undefined;
  holder.customerData = customerData;
  if (customerData) Object.defineProperty(ops.info, 'pluginData', { get: () => customerData.describe(), enumerable: true });
  const app = createApp(holder, {
    settings,
    ops,
    ...(pacts ? { pacts } : {}),
    answers,
    ...(options.allowMultipleWishlists !== undefined ? { allowMultipleWishlists: options.allowMultipleWishlists } : {}),
    ...(options.shareTokenSecret !== undefined ? { shareTokenSecret: options.shareTokenSecret } : {}),
    ...(options.corsOrigin !== undefined ? { corsOrigin: options.corsOrigin } : {}),
    ...(backendCatalogue ? { findVariant: (id: string) => backendCatalogue.findVariant(id) } : {}),
    ...(options.mode === 'proxy' ? { providerStates: false, servesData: false } : {}),
  });
  // The pacts need every listing's answer seen by Express (the recorder's tap): no fast path then.
  const fast = options.fastPath === false || pacts ? app : withFastPath(app, { answers, cors: corsPolicy(options.corsOrigin), ops });
  // Until a backend's catalogue is read, requests to the plugins' routes wait for it (read with their key).
  // (The catalogue's gate is outside the customers' data's: a backend that cannot be read fails on its catalogue first, as without the plugins.)
  // Bound once the overlay is made (below): a customer's 4.4 of a wishlist the mock does not know for them is the backend's to answer.
  let passThrough: (req: IncomingMessage, res: ServerResponse) => void = () => undefined;
  const knows = (customer: string, id: string) => {
    const view = seedOf(holder.datasetOf(customer), answers.dialect).of(customer);
    return view.indexOf(id) >= 0 || (holder.writes.of(customer)?.created.some((row) => row.id === id) ?? false);
  };
  const withCustomers =
    customerData?.active && customerDataGate && withBackendAnswers
      ? withReadFirst(withBackendAnswers(fast, customerData, { knows, hasReviewWrites: (customer) => (holder.writes.of(customer)?.reviews.length ?? 0) > 0, passThrough: (req, res) => passThrough(req, res) }), customerDataGate(customerData, backendLabel(options.backend!)), { journal: ops.journal, logger: ops.logger })
      : fast;
  const mine = backendCatalogue && !backendCatalogue.loaded ? withCatalogueGate(withCustomers, backendCatalogue, { journal: ops.journal, logger: ops.logger }) : withCustomers;
  // Loaded only with a backend: the proxy library is not on the start-up path of a mock on its own.
  const overlay = options.backend
    ? (await import('./backend/overlay.ts')).createOverlay({
        backend: options.backend,
        ...(options.backendTimeoutMs !== undefined ? { timeoutMs: options.backendTimeoutMs } : {}),
        journal: ops.journal,
        logger: ops.logger,
        onBackendAnswer: options.onBackendAnswer,
        faults: ops.faults,
      })
    : undefined;
  if (overlay) passThrough = overlay.passThrough;
  // requireHostHeader off: guardRequests answers a missing Host with JSON instead of Node's empty 400.
  // Requests and responses made on the app's prototypes: Express then moves none (front/app-messages.ts).
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES, requireHostHeader: false, ...appMessages(app) }, frontListener(mine, overlay && { mode: options.mode ?? 'serve', passThrough: overlay.passThrough }));
  installServerGuards(server);
  await listen(server, options.port ?? 0, host).catch((error: unknown) => {
    overlay?.close();
    throw error;
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  Object.assign(ops.info, { url, host, port, maxPageSize: options.maxPageSize ?? DEFAULT_MAX_PAGE_SIZE, corsOrigin: options.corsOrigin ?? '*', dialect: options.dialect ?? DEFAULT_DIALECT });
  if (answers.dialect.medusa) ops.info.medusaVersion = answers.dialect.medusa.version;
  if (overlay) Object.assign(ops.info, { backend: overlay.label, mode: options.mode ?? 'serve' });
  return {
    url,
    port,
    host,
    dataset: holder,
    app,
    server,
    ops,
    ...(pacts ? { pacts } : {}),
    close: async () => {
      // Reads still under way are stopped: the requests they hold get the 502, and the close does not wait on a backend.
      backendCatalogue?.close();
      try {
        await closeServer(server, options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS);
      } finally {
        overlay?.close();
      }
      if (pacts) {
        pacts.write();
        if (options.logger) for (const line of pacts.summaryLines(pacts.lastWritten)) options.logger.info(line);
      }
    },
  };
}

/**
 * The holder of the dataset the options ask for. In the alphabite dialect with a `backend` (and no
 * dataset, fixtures or catalogue given), the dataset is generated over the backend's catalogue
 * (backend/catalogue.ts): read now with the first publishable key, or else (with an empty dataset
 * served until then) with the key of the first request to the plugins' routes that carries one.
 */
async function datasetHolder(options: MockServerOptions): Promise<{ holder: DatasetHolder; backendCatalogue?: BackendCatalogue }> {
  const dialect = options.dialect ?? DEFAULT_DIALECT;
  if (readsBackendCatalogue(options)) {
    const holder = new DatasetHolder(datasetFromRecords({ reviews: [], wishlists: [] }), undefined);
    const { seed, reviews, wishlists, maxItems } = options;
    const backendCatalogue = new BackendCatalogue(holder, options.backend!, {
      generation: { ...(seed !== undefined ? { seed } : {}), ...(reviews !== undefined ? { reviews } : {}), ...(wishlists !== undefined ? { wishlists } : {}), ...(maxItems !== undefined ? { maxItems } : {}) },
      read: backendCatalogueReader({
        ...(options.backendTimeoutMs !== undefined ? { timeoutMs: options.backendTimeoutMs } : {}),
        ...(options.catalogueMaxVariants !== undefined ? { maxVariants: options.catalogueMaxVariants } : {}),
        ...(options.catalogueMaxBytes !== undefined ? { maxBytes: options.catalogueMaxBytes } : {}),
      }),
      ...(options.logger ? { logger: options.logger } : {}),
    });
    const key = options.publishableKeys?.[0];
    if (key !== undefined) await backendCatalogue.load(key);
    return { holder, backendCatalogue };
  }
  const catalogue = options.catalogue === undefined ? undefined : givenCatalogue(options.catalogue);
  const dataset = assertServable(await resolveDataset(options, catalogue), dialect);
  return { holder: new DatasetHolder(dataset, withMaxItems(generationOf(dataset.summary), options.maxItems), catalogue) };
}

/** Whether the options have the dataset generated over a backend's catalogue (alphabite dialect, a backend, no data given). */
export function readsBackendCatalogue(options: MockServerOptions): boolean {
  return (
    options.backend !== undefined &&
    (options.dialect ?? DEFAULT_DIALECT) === 'alphabite' &&
    options.mode !== 'proxy' &&
    options.dataset === undefined &&
    options.fixtures === undefined &&
    options.catalogue === undefined
  );
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
