import { assertMaxPageSize, DEFAULT_MAX_PAGE_SIZE } from '../lib/api-rules.ts';
import { assertMedusaVersion, DEFAULT_DIALECT } from '../lib/dialects/index.ts';
import { sizesProblem } from '../fixtures/generate.ts';
import { catalogueMaxBytesProblem, catalogueMaxVariantsProblem } from '../fixtures/catalogue-limits.ts';
import { corsPolicy } from './helpers/cors-policy.ts';
import { assertStateLeaseMs } from './state/state-lease.ts';
import { defaultJournalBodyBytes, DEFAULT_JOURNAL_SIZE, journalProblem } from './journal/journal.ts';
import type { MockCluster, MockClusterOptions } from './cluster/start-cluster.ts';
import type { MockServer, MockServerOptions } from './server-options.ts';
import { assertPublishableKeys, readsBackendCatalogue, startInProcess } from './process.ts';
import { consumerNameProblem } from '../lib/pact-file.ts';

export { DEFAULT_SHUTDOWN_GRACE_MS, type MockServer, type MockServerOptions } from './server-options.ts';
export { resolveDataset } from './process.ts';

/** The longest backendTimeoutMs (`--backend-timeout`) taken: ten minutes. */
export const MAX_BACKEND_TIMEOUT_MS = 600_000;

/**
 * Starts the mock server in-process: `const mock = await startMockServer({ seed: 7 }); ...; await mock.close()`.
 * With `workers: N`, starts N processes (node:cluster) on one port instead: see mock-server/cluster/start-cluster.ts.
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
  assertMedusaVersion(options.medusaVersion, options.dialect ?? DEFAULT_DIALECT);
  if (options.allowMultipleWishlists !== undefined && (options.dialect ?? DEFAULT_DIALECT) !== 'alphabite') {
    throw new TypeError('allowMultipleWishlists is a setting of the wishlist plugin, read by the alphabite dialect only (use --dialect alphabite)');
  }
  if (options.shareTokenSecret !== undefined && ((options.dialect ?? DEFAULT_DIALECT) !== 'alphabite' || typeof options.shareTokenSecret !== 'string')) {
    throw new TypeError('shareTokenSecret is an option of the wishlist plugin, read by the alphabite dialect only: a string (use --dialect alphabite)');
  }
  if (options.pluginData !== undefined) {
    if (options.pluginData !== 'backend' && options.pluginData !== 'generated') throw new TypeError(`pluginData is 'backend' or 'generated', got ${JSON.stringify(String(options.pluginData).slice(0, 40))}`);
    if (!readsBackendCatalogue(options)) throw new TypeError("pluginData says where the plugins' data comes from in front of a backend: give backend too, with dialect 'alphabite' (and no dataset, fixtures or catalogue)");
  }
  if (options.stateLeaseMs !== undefined) assertStateLeaseMs(options.stateLeaseMs);
  const journalSize = options.journalSize ?? DEFAULT_JOURNAL_SIZE;
  const journal = journalProblem(journalSize, options.journalBodyBytes ?? defaultJournalBodyBytes(journalSize));
  if (journal) throw new RangeError(`Cannot keep the journal asked for: ${journal}`);
  assertBackendOptions(options);
  assertCatalogueOptions(options);
  assertPactOptions(options);
  if ('workers' in options && options.workers !== undefined) return (await import('./cluster/start-cluster.ts')).startMockCluster(options);
  return startInProcess(options as MockServerOptions);
}

/** The pact options (issue 30: `serve --pact-consumer`), refused up front with one sentence each. */
function assertPactOptions(options: MockServerOptions | MockClusterOptions): void {
  if (options.pactConsumer === undefined) {
    if (options.pactDir !== undefined) throw new TypeError('pactDir is where the pacts of pactConsumer go: give pactConsumer too (--pact-consumer <name>)');
    return;
  }
  const problem = consumerNameProblem(options.pactConsumer);
  if (problem) throw new TypeError(problem);
  if (options.pactDir !== undefined && (typeof options.pactDir !== 'string' || options.pactDir.trim() === '')) throw new TypeError('pactDir must name a directory');
  if (options.mode === 'proxy') throw new TypeError('the validating proxy serves no provider states: record pacts with serve (leave out mode proxy)');
  if ('workers' in options && options.workers !== undefined && options.workers > 1) throw new RangeError('pacts are recorded by one process, which sees the provider state and the answers together: leave out workers');
}

/**
 * A catalogue (given, or a backend's in the alphabite dialect) is what a generated dataset's reviews
 * and items point at: it cannot go with a dataset or fixtures given, nor with `products` (the
 * catalogue's products are the products), nor yet with several workers (each would need it).
 */
function assertCatalogueOptions(given: MockServerOptions | MockClusterOptions): void {
  const options = given as MockServerOptions & { workers?: number };
  const workers = options.workers !== undefined && options.workers > 1;
  const caps = (['catalogueMaxVariants', 'catalogueMaxBytes'] as const).filter((name) => options[name] !== undefined);
  if (caps.length > 0 && !readsBackendCatalogue(options)) {
    throw new TypeError(`${caps.join(' and ')} bound the catalogue read from a backend in the alphabite dialect: give a backend and dialect 'alphabite' (and no dataset, fixtures or catalogue)`);
  }
  if (options.catalogue !== undefined) {
    const other = options.dataset !== undefined ? 'dataset' : options.fixtures !== undefined ? 'fixtures' : options.products !== undefined ? 'products' : undefined;
    if (other) throw new TypeError(`'catalogue' and '${other}' cannot be given together: over a catalogue the dataset is generated, and its products are the catalogue's`);
    if (workers) throw new TypeError("'catalogue' cannot be given with more than one worker yet: serve it from one process");
    return;
  }
  if (!readsBackendCatalogue(options)) return;
  const variants = options.catalogueMaxVariants === undefined ? undefined : catalogueMaxVariantsProblem(options.catalogueMaxVariants);
  if (variants) throw new RangeError(`catalogueMaxVariants ${variants}`);
  const bytes = options.catalogueMaxBytes === undefined ? undefined : catalogueMaxBytesProblem(options.catalogueMaxBytes);
  if (bytes) throw new RangeError(`catalogueMaxBytes ${bytes}`);
  // (Several workers with a backend are refused by assertBackendOptions.)
  if (options.products !== undefined) throw new TypeError(`'products' cannot be given with a backend in the alphabite dialect: the products are the catalogue of ${options.backend}`);
}

/** The backend options (issue 28: `serve --backend`, `proxy`), refused up front with one sentence each. */
function assertBackendOptions(options: MockServerOptions | MockClusterOptions): void {
  const { backend, mode } = options;
  if (mode !== undefined && mode !== 'serve' && mode !== 'proxy') throw new TypeError(`mode must be 'serve' or 'proxy', got ${JSON.stringify(mode)}`);
  if (backend === undefined) {
    if (mode === 'proxy') throw new TypeError("mode 'proxy' passes every request to a backend: give one (backend: 'http://localhost:9000')");
    if (options.backendTimeoutMs !== undefined || options.onBackendAnswer !== undefined) throw new TypeError('backendTimeoutMs and onBackendAnswer apply to a backend: give one (backend)');
    return;
  }
  let url: URL | undefined;
  try {
    url = typeof backend === 'string' ? new URL(backend) : undefined;
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw new TypeError(`the backend must be an http:// or https:// URL, such as http://localhost:9000, got ${JSON.stringify(String(backend).slice(0, 200))}`);
  if (url.username !== '' || url.password !== '') throw new TypeError('the backend URL must not hold credentials (user:password@): the mock would pass them on with every request; give the backend its credentials another way');
  const timeout = options.backendTimeoutMs;
  if (timeout !== undefined && !(Number.isInteger(timeout) && timeout >= 1 && timeout <= MAX_BACKEND_TIMEOUT_MS)) throw new RangeError(`backendTimeoutMs must be a whole number of milliseconds from 1 to ${MAX_BACKEND_TIMEOUT_MS}, got ${timeout}`);
  if (options.onBackendAnswer !== undefined && typeof options.onBackendAnswer !== 'function') throw new TypeError('onBackendAnswer must be a function');
  if ('workers' in options && options.workers !== undefined) {
    if (options.workers > 1) throw new RangeError('a backend cannot be served from several worker processes yet: serve it from one (leave out workers)');
    if (options.onBackendAnswer !== undefined) throw new TypeError('onBackendAnswer cannot reach a worker process: leave out workers');
  }
}
