/**
 * `store-listing-kit/msw`: the mock as MSW request handlers, for a browser (a service worker),
 * vitest or Storybook, answering with exactly the status and bytes the HTTP mock answers for the
 * same requests and seed: the same dataset, the same dialect, the same answer core
 * (mock-server/listings/page-bodies.ts), the same refusals and, when asked, the same fault headers
 * (lib/fault-headers.ts). `createListingHandlers`: the four listings. `createStoreHandlers`: the
 * listings and the plugins' write routes, with the same state model as the HTTP mock (the writes
 * core, mock-server/writes/; docs/writes.md). No Node built-ins: it runs in a browser bundle.
 *
 *   import { setupWorker } from 'msw/browser';
 *   import { createStoreHandlers } from 'store-listing-kit/msw';
 *   await setupWorker(...createStoreHandlers({ dialect: 'alphabite', baseUrl: 'http://localhost:9000' })).start();
 *
 * With `catalogue` (the app's products and variants, or a backend's: `fetchCatalogue`), reviews are
 * of those products and wishlist items hold those variants, as `startMockServer({ catalogue })`.
 */
import { delay, http, HttpResponse, type HttpHandler } from 'msw';
import { DEFAULT_MAX_PAGE_SIZE, ENDPOINT_NAMES, PATHS, assertMaxPageSize, type EndpointName } from '../lib/api-rules.ts';
import { assertMedusaVersion, createDialect, DEFAULT_DIALECT, type DialectName, type ListingRequest } from '../lib/dialects/index.ts';
import { invalidData } from '../lib/dialects/spec.ts';
import { faultBody, readFaultHeaders, retryAfter, UNKNOWN_ERROR_BODY } from '../lib/fault-headers.ts';
import { QueryError, queryPairs } from '../lib/query.ts';
import { givenCatalogue, type CatalogueInput } from '../fixtures/catalogue.ts';
import { generateDataset, servingProblem, type Dataset } from '../fixtures/dataset.ts';
import { sizesProblem, type DatasetSizes } from '../fixtures/generate.ts';
import { answerListing, PageBodies, type ListingAnswer } from '../mock-server/listings/page-bodies.ts';
import { isPluginPath, routeWrite, specWriteRefusal, wishlistSettings, type WriteContext } from '../mock-server/writes/routes.ts';
import { seedOf } from '../mock-server/writes/seed.ts';
import { MOCK_SHARE_TOKEN_SECRET } from '../mock-server/writes/share-token.ts';
import { WriteStore } from '../mock-server/writes/store.ts';
import type { WriteAnswer } from '../mock-server/writes/types.ts';
import { customerOf } from '../lib/customers.ts';
import { REASON_HEADER } from '../lib/write-reason.ts';
import type { PactRecording } from './pact.ts';

export { createPactRecording, PactRecording } from './pact.ts';

export interface ListingHandlersOptions extends Partial<DatasetSizes> {
  /** The dataset's seed (default 1, as `serve`); ignored when `dataset` is given. */
  seed?: number;
  /** Serve this dataset instead of generating one from `seed` and the sizes. */
  dataset?: Dataset;
  /**
   * Generate the dataset over these products and variants (the app's, or a backend's read by
   * `fetchCatalogue`) instead of generated ones: reviews are of its products, wishlist items hold its
   * variants, and add-item takes any of them. Its products are the dataset's: not with `products`, nor `dataset`.
   */
  catalogue?: CatalogueInput;
  /** `spec` (default) or `alphabite` (the published plugins, bugs included). */
  dialect?: DialectName;
  /** The alphabite dialect only: the backend's publishable keys; another key is refused as Medusa does (default: any key). */
  publishableKeys?: string[];
  /**
   * The alphabite dialect only: the Medusa version the plugins run on, x.y.z from 2.13.6 to the newest the
   * kit is tested on (the default), as `serve --medusa-version`; any other value throws a RangeError naming the range.
   */
  medusaVersion?: string;
  /** The origin (and any path prefix) the storefront calls, e.g. `http://localhost:9000`; default any origin. */
  baseUrl?: string;
  /** The largest `limit`/`take` the spec dialect accepts (default 1000). */
  maxPageSize?: number;
  /** Honour `x-mock-delay: <ms>` and `x-mock-status: <4xx|5xx>` per request, as `serve --fault-headers` does. */
  faultHeaders?: boolean;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * An answer as MSW sends it: the status, the mock's reason when it has one (REASON_HEADER), and the
 * JSON bytes with the HTTP mock's Content-Type (none for an empty body).
 */
function respond({ status, body, reason }: ListingAnswer, extraHeaders: Record<string, string> = {}): HttpResponse<string> {
  const headers = reason === undefined ? extraHeaders : { ...extraHeaders, [REASON_HEADER]: reason };
  return new HttpResponse(body, { status, headers: body === null ? headers : { 'Content-Type': JSON_TYPE, ...headers } });
}

/** A fault asked for by the request's headers, as mock-server/state/faults.ts injects it; undefined when none. */
async function headerFault(headers: ListingRequest['headers']): Promise<HttpResponse<string> | undefined> {
  let asked;
  try {
    asked = readFaultHeaders(headers);
  } catch (error) {
    if (!(error instanceof QueryError)) throw error;
    return respond({ status: 400, body: JSON.stringify(invalidData(error.message).body) });
  }
  if (asked.delay) await delay(asked.delay);
  if (asked.status === undefined) return undefined;
  const after = retryAfter(asked.status);
  return respond({ status: asked.status, body: JSON.stringify(faultBody(asked.status)) }, after === undefined ? {} : { 'Retry-After': after });
}

export interface StoreHandlersOptions extends ListingHandlersOptions {
  /** The alphabite dialect's wishlist setting `allow_multiple_wishlists` (default false, a fresh install's), as `serve --allow-multiple-wishlists`. */
  allowMultipleWishlists?: boolean;
  /** The wishlist plugin's option `shareTokenSecret` (default the mock's, as `serve`; '': left out), as `serve --share-token-secret`. */
  shareTokenSecret?: string;
  /**
   * (issue 30) Record a consumer's pacts: each listing answers from the dataset of the provider state
   * `pact.given(...)` set up, and every request under it becomes an interaction (`createPactRecording`;
   * docs/contracts.md, "Your own pacts"). `pact.files()` gives the files to write.
   */
  pact?: PactRecording;
}

/** The MSW handlers of the four listings (GET), over one dataset in one dialect. */
export function createListingHandlers(options: ListingHandlersOptions = {}): HttpHandler[] {
  return handlers(options, undefined);
}

/**
 * The four listings and, in the alphabite dialect, every other route of the plugins under `/store`
 * (writes, and the reads around them) answered as `serve --dialect alphabite` answers them, over one
 * in-memory state per call: each customer's writes, seen by that customer only (docs/writes.md). In
 * the spec dialect a write on the plugins' paths gets the spec's refusal, as from `serve`. Requests
 * the mock has no route for are left to MSW (unhandled), where `serve` answers its 404.
 */
export function createStoreHandlers(options: StoreHandlersOptions = {}): HttpHandler[] {
  if ((options.allowMultipleWishlists !== undefined || options.shareTokenSecret !== undefined) && options.dialect !== 'alphabite') {
    throw new TypeError('allowMultipleWishlists and shareTokenSecret are settings of the wishlist plugin, read by the alphabite dialect only (dialect: "alphabite")');
  }
  return handlers(options, new WriteStore());
}

function handlers(options: StoreHandlersOptions, store: WriteStore | undefined): HttpHandler[] {
  const maxPageSize = options.maxPageSize ?? DEFAULT_MAX_PAGE_SIZE;
  assertMaxPageSize(maxPageSize);
  assertMedusaVersion(options.medusaVersion, options.dialect ?? DEFAULT_DIALECT);
  const { catalogue } = options;
  // The same rule, in the same words, as startMockServer's (mock-server/server.ts).
  const other = catalogue === undefined ? undefined : options.dataset !== undefined ? 'dataset' : options.products !== undefined ? 'products' : undefined;
  if (other) throw new TypeError(`'catalogue' and '${other}' cannot be given together: over a catalogue the dataset is generated, and its products are the catalogue's`);
  const sizes = options.dataset ? undefined : sizesProblem(options);
  if (sizes) throw new RangeError(`Cannot serve the dataset asked for: ${sizes}`);
  const dataset = options.dataset ?? generateDataset(options, catalogue);
  const problem = options.dataset ? servingProblem(options.dataset) : undefined;
  if (problem) throw new RangeError(`Cannot serve the dataset given: ${problem}`);
  const { publishableKeys, medusaVersion } = options;
  const bodies = new PageBodies(dataset, createDialect(options.dialect ?? DEFAULT_DIALECT, { maxPageSize, ...(publishableKeys ? { publishableKeys } : {}), ...(medusaVersion !== undefined ? { medusaVersion } : {}) }));
  const base = (options.baseUrl ?? '*').replace(/\/+$/, '');
  // The path prefix of the base URL (`http://host/api` serves `/api/store/...`), which the routes do not see.
  const pathPrefix = options.baseUrl ? new URL(base.includes('://') ? base : `http://x${base.startsWith('/') ? '' : '/'}${base}`).pathname.replace(/\/+$/, '') : '';

  const pact = options.pact;
  // Under a provider state (pact.given), the listings answer from its dataset: one answer core per dataset.
  let stateBodies: PageBodies | undefined;
  // The catalogue a state's records are drawn over, as the mock's door draws them (its holder's given catalogue).
  const stateCatalogue = pact && catalogue !== undefined ? givenCatalogue(catalogue) : undefined;
  const bodiesNow = (): PageBodies => {
    const stateDataset = pact?.datasetOver(stateCatalogue);
    if (!stateDataset) return bodies;
    if (stateBodies?.dataset !== stateDataset) stateBodies = new PageBodies(stateDataset, bodies.dialect);
    return stateBodies;
  };
  /** A request's path (without the base URL's prefix) and query, as a pact has it. */
  const targetOf = (request: Request) => {
    const url = new URL(request.url);
    return `${url.pathname.slice(pathPrefix.length)}${url.search}`;
  };

  const handler = (endpoint: EndpointName) =>
    http.get(`${base}${PATHS[endpoint]}`, async ({ request, params }) => {
      const headers = Object.fromEntries(request.headers);
      if (options.faultHeaders) {
        const fault = await headerFault(headers);
        if (fault) return fault;
      }
      const id = params.product_id ?? params.id;
      try {
        const writes = store && !store.empty ? customerWrites(headers) : undefined;
        const answer = answerListing(bodiesNow(), { endpoint, ...(typeof id === 'string' ? { id } : {}), query: queryPairs(request.url), headers }, writes, store);
        pact?.recordListing(bodies.dialect.name, targetOf(request), headers, answer.status, answer.body);
        return respond(answer);
      } catch {
        // A fault of the mock's own: the documented 500, without details, as the HTTP mock's error handler answers.
        return respond({ status: 500, body: JSON.stringify(UNKNOWN_ERROR_BODY) });
      }
    });

  const customerWrites = (headers: Record<string, string>) => {
    const customer = customerOf(headers);
    return customer && store?.of(customer.id);
  };
  const listings = ENDPOINT_NAMES.map(handler);
  if (!store) return listings;
  const dialect = bodies.dialect;
  store.dialect = dialect;
  const settings = wishlistSettings(options.allowMultipleWishlists);
  const ctx: WriteContext = { dataset, dialect, store, settings, aggregate: (id) => bodies.aggregateOf(id), shareTokenSecret: options.shareTokenSecret ?? MOCK_SHARE_TOKEN_SECRET, now: Date.now };
  const listingPatterns = ENDPOINT_NAMES.map((endpoint) => new RegExp(`^${PATHS[endpoint].replace(/:[a-z_]+/g, '[^/]+')}/?$`));
  const writesHandler = http.all(`${base}/store/*`, async ({ request }) => {
    const url = new URL(request.url);
    const path = url.pathname.slice(pathPrefix.length);
    const method = request.method;
    if (dialect.name !== 'alphabite') {
      if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS' || !isPluginPath(path)) return undefined;
      const refusal = specWriteRefusal(method, path, listingPatterns.some((pattern) => pattern.test(path)));
      pact?.recordWrite(method, targetOf(request), refusal.status);
      return respond(refusal, refusal.headers);
    }
    if (method === 'OPTIONS') return undefined;
    const headers = Object.fromEntries(request.headers);
    if (options.faultHeaders) {
      const fault = await headerFault(headers);
      if (fault) return fault;
    }
    try {
      const bytes = new Uint8Array(await request.arrayBuffer());
      const body = bytes.length === 0 ? undefined : { text: new TextDecoder().decode(bytes), contentType: request.headers.get('content-type') ?? undefined, bytes: bytes.length };
      const outcome = await routeWrite(ctx, { method, path, query: queryPairs(request.url), headers, body });
      if (!outcome) return undefined;
      const answer: WriteAnswer = 'answer' in outcome ? outcome.answer : store.apply(outcome.command, Date.now(), seedOf(dataset, dialect));
      pact?.recordWrite(method, targetOf(request), answer.status);
      return respond(answer);
    } catch {
      return respond({ status: 500, body: JSON.stringify(UNKNOWN_ERROR_BODY) });
    }
  });
  return [...listings, writesHandler];
}

export { CatalogueFetchError, fetchCatalogue, type FetchCatalogueOptions } from './fetch-catalogue.ts';
export type { CatalogueInput, CatalogueProductInput, CatalogueVariantInput } from '../fixtures/catalogue.ts';
export type { Dataset, DatasetSizes, DialectName };
