/**
 * `store-listing-kit/msw`: the four listings as MSW request handlers, for a browser (a service
 * worker), vitest or Storybook, answering with exactly the status and bytes the HTTP mock
 * answers for the same URL and seed: the same dataset, the same dialect, the same answer core
 * (mock-server/listings/page-bodies.ts), the same refusals and, when asked, the same fault headers
 * (lib/fault-headers.ts). No Node built-ins: it runs in a browser bundle.
 *
 *   import { setupWorker } from 'msw/browser';
 *   import { createListingHandlers } from 'store-listing-kit/msw';
 *   await setupWorker(...createListingHandlers({ seed: 1, baseUrl: 'http://localhost:9000' })).start();
 */
import { delay, http, HttpResponse, type HttpHandler } from 'msw';
import { DEFAULT_MAX_PAGE_SIZE, ENDPOINT_NAMES, PATHS, assertMaxPageSize, type EndpointName } from '../lib/api-rules.ts';
import { createDialect, DEFAULT_DIALECT, type DialectName, type ListingRequest } from '../lib/dialects/index.ts';
import { invalidData } from '../lib/dialects/spec.ts';
import { faultBody, readFaultHeaders, retryAfter, UNKNOWN_ERROR_BODY } from '../lib/fault-headers.ts';
import { QueryError, queryPairs } from '../lib/query.ts';
import { generateDataset, servingProblem, type Dataset } from '../fixtures/dataset.ts';
import { sizesProblem, type DatasetSizes } from '../fixtures/generate.ts';
import { answerListing, PageBodies, type ListingAnswer } from '../mock-server/listings/page-bodies.ts';

export interface ListingHandlersOptions extends Partial<DatasetSizes> {
  /** The dataset's seed (default 1, as `serve`); ignored when `dataset` is given. */
  seed?: number;
  /** Serve this dataset instead of generating one from `seed` and the sizes. */
  dataset?: Dataset;
  /** `spec` (default) or `alphabite` (the published plugins, bugs included). */
  dialect?: DialectName;
  /** The alphabite dialect only: the backend's publishable keys; another key is refused as Medusa does (default: any key). */
  publishableKeys?: string[];
  /** The origin (and any path prefix) the storefront calls, e.g. `http://localhost:9000`; default any origin. */
  baseUrl?: string;
  /** The largest `limit`/`take` the spec dialect accepts (default 1000). */
  maxPageSize?: number;
  /** Honour `x-mock-delay: <ms>` and `x-mock-status: <4xx|5xx>` per request, as `serve --fault-headers` does. */
  faultHeaders?: boolean;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** An answer as MSW sends it: the status, and the JSON bytes with the HTTP mock's Content-Type (none for an empty body). */
function respond({ status, body }: ListingAnswer, extraHeaders: Record<string, string> = {}): HttpResponse<string> {
  return new HttpResponse(body, { status, headers: body === null ? extraHeaders : { 'Content-Type': JSON_TYPE, ...extraHeaders } });
}

/** A fault asked for by the request's headers, as mock-server/admin/faults.ts injects it; undefined when none. */
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

/** The MSW handlers of the four listings (GET), over one dataset in one dialect. */
export function createListingHandlers(options: ListingHandlersOptions = {}): HttpHandler[] {
  const maxPageSize = options.maxPageSize ?? DEFAULT_MAX_PAGE_SIZE;
  assertMaxPageSize(maxPageSize);
  const sizes = options.dataset ? undefined : sizesProblem(options);
  if (sizes) throw new RangeError(`Cannot serve the dataset asked for: ${sizes}`);
  const dataset = options.dataset ?? generateDataset(options);
  const problem = options.dataset ? servingProblem(options.dataset) : undefined;
  if (problem) throw new RangeError(`Cannot serve the dataset given: ${problem}`);
  const { publishableKeys } = options;
  const bodies = new PageBodies(dataset, createDialect(options.dialect ?? DEFAULT_DIALECT, { maxPageSize, ...(publishableKeys ? { publishableKeys } : {}) }));
  const base = (options.baseUrl ?? '*').replace(/\/+$/, '');

  const handler = (endpoint: EndpointName) =>
    http.get(`${base}${PATHS[endpoint]}`, async ({ request, params }) => {
      const headers = Object.fromEntries(request.headers);
      if (options.faultHeaders) {
        const fault = await headerFault(headers);
        if (fault) return fault;
      }
      const id = params.product_id ?? params.id;
      try {
        return respond(answerListing(bodies, { endpoint, ...(typeof id === 'string' ? { id } : {}), query: queryPairs(request.url), headers }));
      } catch {
        // A fault of the mock's own: the documented 500, without details, as the HTTP mock's error handler answers.
        return respond({ status: 500, body: JSON.stringify(UNKNOWN_ERROR_BODY) });
      }
    });

  return ENDPOINT_NAMES.map(handler);
}

export type { Dataset, DatasetSizes, DialectName };
