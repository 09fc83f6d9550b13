import { Command, InvalidArgumentError, Option } from 'commander';
import { DEFAULT_MAX_PAGE_SIZE, MAX_MAX_PAGE_SIZE, MIN_MAX_PAGE_SIZE, PATHS } from '../lib/api-rules.ts';
import { createDialect, DEFAULT_DIALECT, DIALECT_NAMES, MEDUSA_VERSION_RANGE, medusaVersionProblem, type DialectName } from '../lib/dialects/index.ts';
import { NEWEST_MEDUSA_VERSION } from '../lib/dialects/medusa-versions.ts';
import { describeDataset, type DatasetSummary } from '../fixtures/dataset.ts';
import { corsOriginProblem, corsPolicy, describeCors } from '../mock-server/helpers/cors-policy.ts';
import { DEFAULT_SHUTDOWN_GRACE_MS, MAX_BACKEND_TIMEOUT_MS, startMockServer } from '../mock-server/server.ts';
import { MAX_WORKERS, type MockClusterOptions } from '../mock-server/cluster/start-cluster.ts';
import { adminAccessMode } from '../mock-server/admin/access.ts';
import { ADMIN_WRITE_HEADER } from '../lib/admin-paths.ts';
import { formatLatency, parseLatency, faultSettings, MAX_DELAY_MS, type LatencyRange } from '../mock-server/state/faults.ts';
import { DEFAULT_JOURNAL_SIZE, MAX_JOURNAL_BODY_BYTES, MAX_JOURNAL_SIZE } from '../mock-server/journal/journal.ts';
import { CLI_LOG_LEVEL, LOG_LEVELS, createLogger, type LogLevel } from '../mock-server/helpers/logging.ts';
import { exitGracefullyOnSignals } from '../mock-server/front/shutdown.ts';
import { MOCK_SHARE_TOKEN_SECRET } from '../mock-server/writes/share-token.ts';
import { cannotRun } from './program.ts';
import { OWN_PACT_DIR } from '../lib/pact-file.ts';
import { watchWrapperFromNow, type WrapperWatch } from './wrapper-watch.ts';
import { MAX_SEED, datasetOptions, generateOptionsFrom, integerIn, type DatasetFlags } from './options.ts';
import { sizeIn } from './arguments.ts';
import { sizeText } from '../client/sizes.ts';
import { DEFAULT_CATALOGUE_MAX_BYTES, DEFAULT_CATALOGUE_MAX_VARIANTS, MAX_CATALOGUE_MAX_BYTES, MAX_CATALOGUE_MAX_VARIANTS, MIN_CATALOGUE_MAX_BYTES } from '../fixtures/catalogue-limits.ts';

export const DEFAULT_PORT = 9000;
export const DEFAULT_HOST = '127.0.0.1';

interface ServeFlags extends DatasetFlags {
  port: number;
  host: string;
  fixtures?: string;
  maxPageSize: number;
  corsOrigin?: string[];
  dialect: DialectName;
  publishableKey?: string[];
  medusaVersion?: string;
  allowMultipleWishlists?: boolean;
  pluginData?: 'backend' | 'generated';
  shareTokenSecret?: string;
  latency?: LatencyRange;
  errorRate: number;
  errorStatus: number;
  faultHeaders: boolean;
  faultSeed?: number;
  adminToken?: string;
  logLevel: LogLevel;
  journalSize: number;
  journalBodyBytes?: number;
  shutdownGrace: number;
  workers: number;
  backend?: string;
  backendTimeout?: number;
  catalogueMaxVariants?: number;
  catalogueMaxBytes?: number;
  pactConsumer?: string;
  pactDir?: string;
}

/** The default of --backend-timeout: mock-server/backend/proxy-options.ts's DEFAULT_BACKEND_TIMEOUT_MS, without loading the proxy library to read it. */
export const DEFAULT_BACKEND_TIMEOUT_MS = 30_000;

function latencyArg(value: string): LatencyRange {
  const range = parseLatency(value);
  if (!range) throw new InvalidArgumentError(`expected '<ms>' or '<min>-<max>' in milliseconds within 0-${MAX_DELAY_MS}, got '${value}'.`);
  return range;
}

function rateArg(value: string): number {
  const rate = /^(?:[0-9]*\.)?[0-9]+$/.test(value) ? Number(value) : Number.NaN;
  if (!(rate >= 0 && rate <= 1)) throw new InvalidArgumentError(`expected a share from 0 to 1 (0.05 fails one request in twenty), got '${value}'.`);
  return rate;
}

/** `--cors-origin a,b`: each an origin exactly as a browser sends it, or `*` (mock-server/helpers/cors-policy.ts). */
function corsOriginsArg(value: string): string[] {
  const origins = value.split(',').map((o) => o.trim()).filter(Boolean);
  if (origins.length === 0) throw new InvalidArgumentError("expected one or more origins, such as 'http://localhost:3000', or '*'.");
  for (const origin of origins) {
    const problem = corsOriginProblem(origin);
    if (problem !== undefined) throw new InvalidArgumentError(`'${origin}' is not an origin a browser sends: ${problem}.`);
  }
  return origins;
}

/** `--publishable-key <key>`, repeatable: the keys so far with this one added. */
function publishableKeyArg(value: string, previous: string[] | undefined): string[] {
  if (!/^[\x21-\x7e]{1,256}$/.test(value)) throw new InvalidArgumentError('expected a key of 1 to 256 visible ASCII characters, without spaces, such as pk_01H....');
  return [...(previous ?? []), value];
}

/** `--medusa-version <x.y.z>`: a Medusa version the alphabite dialect can answer as (lib/dialects/medusa-behaviour.ts). */
export function medusaVersionArg(value: string): string {
  const problem = medusaVersionProblem(value);
  if (problem) throw new InvalidArgumentError(`${problem}.`);
  return value;
}

/** `--backend <url>`: an http(s) URL without credentials (startMockServer checks it again, for the API). */
export function backendArg(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError(`expected an http:// or https:// URL, such as http://localhost:9000, got '${value.slice(0, 200)}'.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidArgumentError(`expected an http:// or https:// URL, such as http://localhost:9000, got '${value.slice(0, 200)}'.`);
  if (url.username !== '' || url.password !== '') throw new InvalidArgumentError('the URL must not hold credentials (user:password@): the mock would pass them on with every request.');
  return value;
}

export function tokenArg(value: string): string {
  if (!/^[\x21-\x7e]{8,256}$/.test(value)) throw new InvalidArgumentError('expected 8 to 256 visible ASCII characters, without spaces.');
  return value;
}

export function registerServeCommand(program: Command): void {
  const command = program
    .command('serve')
    .description('start the mock server for the four listing endpoints (Ctrl-C stops it)')
    .addOption(
      new Option('--port <n>', 'port to listen on; 0 picks a free one')
        .env('PORT')
        .argParser(integerIn(0, 65535))
        .default(DEFAULT_PORT),
    )
    .addOption(new Option('--host <host>', 'interface to listen on (0.0.0.0 for every interface)').default(DEFAULT_HOST))
    .addOption(new Option('--fixtures <file>', 'serve the records of a fixtures file (from `fixtures`) instead of generating them').conflicts(['seed', 'reviews', 'products', 'wishlists', 'maxItems']))
    .addOption(new Option('--max-page-size <n>', `largest limit/take accepted (${MIN_MAX_PAGE_SIZE}, the default limit, to ${MAX_MAX_PAGE_SIZE}, the records one answer may hold)`).argParser(integerIn(MIN_MAX_PAGE_SIZE, MAX_MAX_PAGE_SIZE)).default(DEFAULT_MAX_PAGE_SIZE))
    .addOption(new Option('--cors-origin <origins>', "comma-separated origins allowed by CORS on the listings, each as a browser sends it ('http://localhost:3000': no path, no trailing slash, lower case), or '*' (default: any origin); never on /__admin").argParser(corsOriginsArg))
    .addOption(new Option('--latency <ms>', "delay every request but /__admin (with --backend, those passed to it too, before they go): '300' or a range '100-400' (ms), drawn per request from the seed").argParser(latencyArg))
    .addOption(new Option('--error-rate <share>', 'answer this share of requests (0-1) with --error-status (with --backend, those passed to it too, in place of forwarding them)').argParser(rateArg).default(0))
    .addOption(new Option('--error-status <code>', 'status of injected errors (400-599), with the documented JSON body').argParser(integerIn(400, 599)).default(500))
    .addOption(new Option('--fault-headers', 'honour the per-request headers x-mock-delay: <ms> and x-mock-status: <code>').default(false))
    .addOption(new Option('--fault-seed <n>', 'seed of the fault draws (default: the dataset seed)').argParser(integerIn(0, MAX_SEED)))
    .addOption(new Option('--admin-token <token>', 'bearer token for /__admin (required for it on a non-loopback --host)').env('MOCK_ADMIN_TOKEN').argParser(tokenArg))
    .addOption(new Option('--log-level <level>', 'pino log level; info logs one line per request').choices(LOG_LEVELS).env('LOG_LEVEL').default(CLI_LOG_LEVEL))
    .addOption(new Option('--journal-size <n>', 'recent requests kept for GET /__admin/journal and the dashboard (0: none)').argParser(integerIn(0, MAX_JOURNAL_SIZE)).default(DEFAULT_JOURNAL_SIZE))
    .addOption(new Option('--journal-body-bytes <n>', 'bytes the journal keeps of each answer and request body (0: none, only their lengths; default 65536, less for a journal of more than about 7,600 entries)').argParser(integerIn(0, MAX_JOURNAL_BODY_BYTES)))
    .addOption(new Option('--workers <n>', 'serve from n processes (node:cluster) on one port, to use n cores; same bytes as one').argParser(integerIn(1, MAX_WORKERS)).default(1))
    .addOption(new Option('--shutdown-grace <ms>', 'on SIGINT/SIGTERM, how long requests in flight may take to finish').argParser(integerIn(0, 600_000)).default(DEFAULT_SHUTDOWN_GRACE_MS))
    .addOption(
      new Option('--dialect <name>', "how the listings speak: 'spec' (the listing spec) or 'alphabite' (the published @alphabite plugins that @alphabite/medusa-sdk talks to, bugs included; see docs/dialects.md)")
        .choices(DIALECT_NAMES)
        .default(DEFAULT_DIALECT),
    )
    .addOption(new Option('--publishable-key <key>', "with --dialect alphabite: a publishable key the backend has (repeatable); a request with another key gets Medusa's 400 (default: any key is taken)").argParser(publishableKeyArg))
    .addOption(
      new Option(
        '--medusa-version <version>',
        `with --dialect alphabite: which Medusa the plugins run on, ${MEDUSA_VERSION_RANGE}, such as 2.15.0 (default ${NEWEST_MEDUSA_VERSION}); the answers that differ between Medusa versions follow it: validation wording, the relations limit in fields, fields through relations the records lack, body-parser errors (docs/dialects.md)`,
      ).argParser(medusaVersionArg),
    )
    .addOption(new Option('--allow-multiple-wishlists', "with --dialect alphabite: the wishlist plugin's setting allow_multiple_wishlists (default off, a fresh install's: POST /store/wishlists answers a customer's first wishlist instead of a second; docs/writes.md)"))
    .addOption(
      new Option(
        '--share-token-secret <secret>',
        `with --dialect alphabite: the wishlist plugin's option shareTokenSecret, which signs the share tokens and verifies them on import (default '${MOCK_SHARE_TOKEN_SECRET}'; '' emulates the option left out: share answers 500, import 401; docs/writes.md)`,
      ),
    )
    .addOption(
      new Option(
        '--backend <url>',
        "a real backend (a Medusa) behind the mock: every request but the plugins' routes, /__admin and /openapi.json goes there and back unchanged (kept-alive connections; only Host names the backend; the target normalised first, as the backend reads it: \\, #..., // and dot segments; ambiguous escapes such as %2F refused with 400); one it cannot reach answers 502; with --dialect alphabite, reviews and wishlist items are of its catalogue (GET /store/products, read with the first --publishable-key before listening, or else with the key of the first request to the plugins' routes; docs/operations.md)",
      ).argParser(backendArg),
    )
    .addOption(
      new Option(
        '--plugin-data <source>',
        "with --backend and --dialect alphabite: where the plugins' data comes from. 'backend' (the default): each customer's own wishlists with their items, and the reviews, read from the backend's plugin routes with the customer's own credentials on their first request, their writes then kept in the mock only (a backend without the plugins falls back to generated data); 'generated': generated over the backend's catalogue (docs/operations.md)",
      ).choices(['backend', 'generated']),
    )
    .addOption(new Option('--backend-timeout <ms>', `with --backend: how long the backend may stay silent before an answer's head (then 504) or while sending it (then the connection is cut)`).argParser(integerIn(1, MAX_BACKEND_TIMEOUT_MS)).default(DEFAULT_BACKEND_TIMEOUT_MS))
    .addOption(
      new Option(
        '--catalogue-max-variants <n>',
        `with --backend and --dialect alphabite: the most variants the backend's catalogue may bring, over all its pages (default ${DEFAULT_CATALOGUE_MAX_VARIANTS}): past it serve exits 2 before listening, or the requests waiting for the read get a 502`,
      ).argParser(integerIn(1, MAX_CATALOGUE_MAX_VARIANTS)),
    )
    .addOption(
      new Option(
        '--catalogue-max-bytes <size>',
        `with --backend and --dialect alphabite: the most bytes of all the pages of the backend's catalogue, after decompression (e.g. 1GiB; default ${sizeText(DEFAULT_CATALOGUE_MAX_BYTES)}): past it, as --catalogue-max-variants`,
      ).argParser(sizeIn(MIN_CATALOGUE_MAX_BYTES, MAX_CATALOGUE_MAX_BYTES)),
    )
    .addOption(
      new Option(
        '--pact-consumer <name>',
        "record this consumer's pacts: every listing request made under a provider state (POST /__admin/provider-states) becomes an interaction with its provider, written on POST /__admin/pacts and at stop (docs/contracts.md, \"Your own pacts\")",
      ),
    )
    .addOption(new Option('--pact-dir <dir>', `with --pact-consumer: where the pact files go, merged with those there for the same consumer and provider (verify --consumer <name> reads them there by default)`).default(OWN_PACT_DIR));
  for (const option of datasetOptions()) command.addOption(option);
  command.action(async (flags: ServeFlags, cmd: Command) => {
    // commander reports a conflict only for options given on the command line; defaults never conflict.
    const fromFlags = { ...generateOptionsFrom(flags) };
    if (flags.allowMultipleWishlists && flags.dialect !== 'alphabite') cannotRun('--allow-multiple-wishlists is a setting of the wishlist plugin, read by the alphabite dialect only: add --dialect alphabite');
    if (flags.shareTokenSecret !== undefined && flags.dialect !== 'alphabite') cannotRun('--share-token-secret is an option of the wishlist plugin, read by the alphabite dialect only: add --dialect alphabite');
    if (flags.pactConsumer !== undefined && flags.workers > 1) cannotRun('--pact-consumer records from one process, which sees the provider state and the answers together: leave out --workers');
    if (flags.pactConsumer === undefined && cmd.getOptionValueSource('pactDir') === 'cli') cannotRun('--pact-dir is where the pacts of --pact-consumer go: give --pact-consumer <name> too');
    if (flags.backend && flags.workers > 1) cannotRun('--backend cannot be served from several worker processes yet: leave out --workers');
    if (flags.medusaVersion !== undefined && flags.dialect !== 'alphabite') cannotRun('--medusa-version is the Medusa the published plugins run on, read by the alphabite dialect only (the spec dialect has none): add --dialect alphabite');
    if (flags.publishableKey && flags.dialect !== 'alphabite') cannotRun(`--publishable-key is read by the alphabite dialect only (the ${flags.dialect} dialect takes no key): add --dialect alphabite`);
    // In the alphabite dialect a backend's catalogue gives the products (mock-server/backend/catalogue.ts).
    const backendCatalogue = flags.backend !== undefined && flags.dialect === 'alphabite' && !flags.fixtures;
    if (backendCatalogue && cmd.getOptionValueSource('products') === 'cli') cannotRun(`--products cannot go with --backend in the alphabite dialect: the products are those of the backend's catalogue (${flags.backend})`);
    if (backendCatalogue) delete fromFlags.products;
    if (flags.pluginData !== undefined && !backendCatalogue) cannotRun("--plugin-data says where the plugins' data comes from in front of a backend: add --backend <url> and --dialect alphabite (without --fixtures)");
    for (const [flag, value] of [['--catalogue-max-variants', flags.catalogueMaxVariants], ['--catalogue-max-bytes', flags.catalogueMaxBytes]] as const) {
      if (value !== undefined && !backendCatalogue) cannotRun(`${flag} bounds the catalogue read from --backend in the alphabite dialect: add --backend <url> and --dialect alphabite (without --fixtures)`);
    }
    const logger = createLogger(flags.logLevel);
    const faults = faultSettings({ latency: flags.latency ?? null, errorRate: flags.errorRate, errorStatus: flags.errorStatus, headers: flags.faultHeaders });
    const serverOptions = {
      ...(flags.fixtures ? { fixtures: flags.fixtures } : fromFlags),
      port: flags.port,
      host: flags.host,
      maxPageSize: flags.maxPageSize,
      ...(flags.corsOrigin ? { corsOrigin: flags.corsOrigin } : {}),
      faults,
      ...(flags.faultSeed !== undefined ? { faultSeed: flags.faultSeed } : {}),
      ...(flags.adminToken ? { adminToken: flags.adminToken } : {}),
      journalSize: flags.journalSize,
      ...(flags.journalBodyBytes !== undefined ? { journalBodyBytes: flags.journalBodyBytes } : {}),
      shutdownGraceMs: flags.shutdownGrace,
      dialect: flags.dialect,
      ...(flags.publishableKey ? { publishableKeys: flags.publishableKey } : {}),
      ...(flags.medusaVersion !== undefined ? { medusaVersion: flags.medusaVersion } : {}),
      ...(flags.allowMultipleWishlists ? { allowMultipleWishlists: true } : {}),
      ...(flags.shareTokenSecret !== undefined ? { shareTokenSecret: flags.shareTokenSecret } : {}),
      ...(flags.backend ? { backend: flags.backend, backendTimeoutMs: flags.backendTimeout ?? DEFAULT_BACKEND_TIMEOUT_MS } : {}),
      ...(flags.pluginData !== undefined ? { pluginData: flags.pluginData } : {}),
      ...(flags.catalogueMaxVariants !== undefined ? { catalogueMaxVariants: flags.catalogueMaxVariants } : {}),
      ...(flags.catalogueMaxBytes !== undefined ? { catalogueMaxBytes: flags.catalogueMaxBytes } : {}),
      ...(flags.pactConsumer !== undefined ? { pactConsumer: flags.pactConsumer, pactDir: flags.pactDir ?? OWN_PACT_DIR } : {}),
    };
    // Watched from before the start: a signal the wrapper caught while the server started is not lost.
    const wrapper = watchWrapperFromNow();
    if (flags.workers > 1) return serveWorkers({ ...serverOptions, workers: flags.workers, logLevel: flags.logLevel }, cmd, wrapper);
    // The catalogue of a backend is read before listening, which can take a while: a stop then ends it at once.
    const starting = backendCatalogue && flags.publishableKey ? exitWhenStoppedWhileStarting(`while reading the catalogue of the backend ${flags.backend}`, wrapper) : undefined;
    const mock = await startMockServer({ ...serverOptions, logger }).catch((error: Error) => cannotRun(error.message));
    starting?.();
    const lines = banner({
      heading: `store-listing-kit mock server listening on ${mock.url}`,
      url: mock.url,
      summary: mock.dataset.current.summary,
      catalogue: catalogueBanner(mock.dataset.current.summary, mock.dataset.awaitedCatalogue, flags.backend, flags.dialect),
      dialect: flags.dialect,
      medusaVersion: flags.medusaVersion,
      publishableKeys: flags.publishableKey,
      cors: serverOptions.corsOrigin,
      admin: adminBanner(adminAccessMode(mock.ops.access), mock.url),
      faults: mock.ops.faults.active ? `latency ${formatLatency(faults.latency)}, error rate ${faults.errorRate} (status ${faults.errorStatus}), per-request headers ${faults.headers ? 'on' : 'off'}` : 'off',
      backend: mock.ops.info.backend as string | undefined,
      wishlists: wishlistsBanner(flags.dialect, mock.ops.info.backend as string | undefined, flags.pluginData, flags.fixtures !== undefined),
    });
    const pacts = mock.pacts;
    if (pacts) lines.push(`pacts: the requests of '${pacts.book.consumer}' under provider states, into ${pacts.dir} at stop and on POST ${mock.url}/__admin/pacts (what is left out and why: GET /__admin/pacts)`);
    process.stdout.write(`${lines.join('\n')}\n`);
    if (!pacts) return void wrapper.onStop(exitGracefullyOnSignals(mock, logger));
    // With pacts, the stop writes them: where they went and what was left out, or the one sentence why they could not be written (exit 2).
    let failure: Error | undefined;
    const writing = { server: mock.server, close: () => mock.close().catch((error: Error) => void (failure = error)) };
    const verdict = {
      stopped: () => {
        if (failure) {
          process.stderr.write(`error: ${failure.message}\n`);
          return 2;
        }
        process.stdout.write(`${pacts.summaryLines(pacts.lastWritten).join('\n')}\n`);
        return 0;
      },
      cut: () => 1,
    };
    wrapper.onStop(exitGracefullyOnSignals(writing, logger, undefined, verdict));
  });
}

/**
 * Until the server listens: the first SIGINT or SIGTERM, or the end of the npm process that started
 * it (cli/wrapper-watch.ts), ends `serve` at once with exit 2 and one sentence naming what it was
 * doing (`what`); nothing was served, and nothing is left behind. Returns the function that ends
 * this watch, once the server listens (its graceful stop takes over).
 */
function exitWhenStoppedWhileStarting(what: string, wrapper: WrapperWatch): () => void {
  const stop = (sentence: string) => {
    process.stderr.write(`error: ${sentence}\n`);
    process.exit(2);
  };
  const onSignal = (signal: NodeJS.Signals) => stop(`stopped by ${signal} before listening, ${what}`);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  wrapper.onStop((cause) => stop(`stopped before listening, ${what}: ${cause}`));
  return () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
}

/**
 * The banner's line on the catalogue: a given or backend's one (how large, from where), one still to
 * be read from a backend, or the generated one beside a backend in the spec dialect; none otherwise.
 */
function catalogueBanner(summary: DatasetSummary, awaited: string | undefined, backend: string | undefined, dialect: DialectName): string | undefined {
  if (summary.catalogue) return `${summary.catalogue.products} products, ${summary.catalogue.variants} variants from ${summary.catalogue.from}`;
  if (awaited !== undefined) return `from ${awaited}, read with the publishable key of the first request to the plugins' routes, which waits for it (the dataset is empty until then)`;
  if (backend !== undefined && dialect !== 'alphabite') return "generated from the seed (the spec dialect takes no publishable key, so the backend's catalogue is not read)";
  return undefined;
}

/**
 * The banner's line on whose wishlists a customer sees (the alphabite dialect: their own, docs/writes.md),
 * and, in front of a backend, where the plugins' data comes from (docs/operations.md).
 */
export function wishlistsBanner(dialect: DialectName, backend: string | undefined, pluginData: 'backend' | 'generated' | undefined, fixtures: boolean): string | undefined {
  if (dialect !== 'alphabite') return undefined;
  if (backend !== undefined && !fixtures && pluginData !== 'generated') {
    return `each customer's own, and the reviews, read from ${backend}'s plugin routes with the customer's own credentials on their first request; their writes stay in the mock (nothing is written to the backend; POST /__admin/reset reads again). A backend without the plugins: generated over its catalogue`;
  }
  const generated = backend !== undefined && !fixtures ? " (--plugin-data generated: over the backend's catalogue)" : '';
  return `each customer's own: those the dataset names as theirs, or else one seeded wishlist picked by their id${generated}; their writes are theirs alone (docs/writes.md)`;
}

/** The start-up banner: where, what data, which dialect, the endpoints, CORS, admin and faults. */
function banner(facts: { heading: string; url: string; summary: DatasetSummary; catalogue?: string | undefined; dialect: DialectName; medusaVersion: string | undefined; publishableKeys: string[] | undefined; cors: string | string[] | undefined; admin: string; faults: string; backend?: string | undefined; wishlists?: string | undefined }): string[] {
  const keys = facts.publishableKeys;
  const dialect = createDialect(facts.dialect, { maxPageSize: DEFAULT_MAX_PAGE_SIZE, ...(facts.medusaVersion !== undefined ? { medusaVersion: facts.medusaVersion } : {}) });
  return [
    facts.heading,
    `dataset: ${describeDataset(facts.summary)}`,
    ...(facts.catalogue !== undefined ? [`catalogue: ${facts.catalogue}`] : []),
    `dialect: ${facts.dialect}: ${dialect.summary}`,
    ...(keys ? [`publishable keys: ${keys.length} known (${keys.join(', ')}); any other key is refused`] : []),
    ...(facts.wishlists !== undefined ? [`wishlists: ${facts.wishlists}`] : []),
    ...Object.values(PATHS).map((path) => `  GET ${facts.url}${path}`),
    `cors: ${describeCors(corsPolicy(facts.cors))}`,
    `admin: ${facts.admin}`,
    `faults: ${facts.faults}`,
    ...(facts.backend ? [`backend: ${facts.backend}: every request but the plugins' routes, /__admin and /openapi.json goes there (keep-alive)`] : []),
  ];
}

export function adminBanner(mode: ReturnType<typeof adminAccessMode>, url: string): string {
  if (mode === 'off') return 'off (non-loopback host without --admin-token)';
  return `dashboard and API at ${url}/__admin/ (${mode === 'token' ? 'bearer token required' : `loopback clients only; changes need Content-Type: application/json or ${ADMIN_WRITE_HEADER}`})`;
}

/** `serve --workers n`: the same banner, then the primary stops every worker on SIGINT/SIGTERM. */
async function serveWorkers(options: MockClusterOptions, cmd: Command, wrapper: WrapperWatch): Promise<void> {
  const mock = await startMockServer(options).catch((error: Error) => cannotRun(error.message));
  const lines = banner({
    heading: `store-listing-kit mock server listening on ${mock.url} (${mock.workers} worker processes)`,
    url: mock.url,
    summary: mock.summary,
    dialect: options.dialect ?? DEFAULT_DIALECT,
    medusaVersion: options.medusaVersion,
    publishableKeys: options.publishableKeys,
    cors: options.corsOrigin,
    admin: `${adminBanner(mock.status.adminMode as ReturnType<typeof adminAccessMode>, mock.url)}; every worker applies a change before it answers`,
    faults: mock.status.faultsActive ? 'on (one sequence of draws for all workers)' : 'off',
    wishlists: wishlistsBanner(options.dialect ?? DEFAULT_DIALECT, undefined, undefined, options.fixtures !== undefined),
  });
  process.stdout.write(`${lines.join('\n')}\n`);
  let stopping = false;
  const stop = () => {
    if (stopping) process.exit(1);
    stopping = true;
    void mock.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  wrapper.onStop(() => stopping || stop());
}
