import type { EndpointName } from './api-rules.ts';
import { alphabiteDialect, PUBLISHABLE_KEY_HEADER } from './dialects/alphabite.ts';
import { alphabiteRecordSchemas } from './dialects/alphabite-schemas.ts';
import { specDialect } from './dialects/spec.ts';
import type { Dialect, DialectName } from './dialects/types.ts';
import { expectedPageFor } from './expected-page.ts';
import { listingOfPath, type ListingTarget } from './listing-paths.ts';
import { boolean, eachLike, integer, like, number, regex, v4Body, v4Headers, type V4Rules } from './pact-matchers.ts';
import { canonicalJson, interactionKey, pactFileName, pactFileText, PROVIDERS, type PactInteraction, type PactState, type ProviderName } from './pact-file.ts';
import { JSON_HEADERS, recordTemplateOf, records } from './pact-templates.ts';
import { stateByName, type StateKey } from './provider-states.ts';
import { queryPairs } from './query.ts';
import { EXAMPLE_RECORDS, recordSchemas } from './records.ts';

/**
 * A consumer's own pacts, from the requests it makes under provider states (issue 30): each
 * request a storefront makes to a listing, under a state set up through the provider-state door,
 * becomes an interaction of its pact with the listing's provider, pinned as the kit's own pacts
 * pin theirs (contracts/interactions.ts, contracts/sdk-interactions.ts): the page numbers exact and
 * the number of records, computed from the state's count and the request (lib/expected-page.ts), not
 * copied from the answer (alphabite's 4.1 answers a plugin bug), the records by type with the dialect's id
 * patterns (lib/pact-templates.ts), errors by status and `type`; in the alphabite dialect the
 * SDK's headers as matchers (any publishable key, any bearer token). A request that a provider
 * could not be set up to answer the same (no state, a state that does not fix that listing, data
 * changed since) is left out, and counted with its reason. Pure: the mock server
 * (mock-server/pacts/) and the MSW handlers record with it; they write the files.
 */

/** Which provider serves each listing. */
export const PROVIDER_OF_ENDPOINT: Readonly<Record<EndpointName, ProviderName>> = {
  reviews: 'product-reviews',
  productReviews: 'product-reviews',
  wishlists: 'wishlist',
  wishlistItems: 'wishlist',
};

/** The keys of an envelope whose integers are page numbers: pinned exactly. */
const NAVIGATION_KEYS = new Set(['count', 'offset', 'limit', 'skip', 'take', 'currentPage', 'totalPages', 'nextPage', 'prevPage', 'total_count']);

/** The example header values written (any non-empty key, any bearer token matches: contracts/sdk-interactions.ts). */
const EXAMPLE_PUBLISHABLE_KEY = 'pk_storefront_example';
const EXAMPLE_BEARER = 'Bearer customer-jwt-example';

/** One answered request, as a recorder saw it. */
export interface PactExchange {
  /** The dialect the listings speak. */
  dialect: DialectName;
  /** The provider state set up (its name and parameters, as the state-change call gave them). */
  state: PactState;
  method: string;
  /** The request target as made: path and query. */
  url: string;
  /** Which of the SDK's headers the request carried. */
  headers: { publishableKey: boolean; bearer: boolean };
  status: number;
  /** The answer's body, parsed; undefined when it was not JSON. */
  body: unknown;
}

export type PactRecording = { provider: ProviderName; interaction: PactInteraction } | { leftOut: string };

/** Reasons a recorder gives for requests it leaves out (lib/pact-recording.ts decides the others). */
export const LEFT_OUT = {
  noState: 'made under no provider state: no provider can set up the dataset the mock started with',
  notListing: 'not one of the four listings',
  write: "a write: it changes what the state set up, so no interaction pins it (a write's own contract is not this kit's)",
  changed: 'made after the data changed under the state (a write, reset, reseed or lapsed hold): no provider set up by the state alone answers the same',
} as const;

/** Whether a state fixes what a listing answers, whichever provider sets it up (lib/provider-states.ts says what each state promises). */
function stateFixes(key: StateKey, params: Record<string, unknown>, target: ListingTarget): boolean {
  switch (key) {
    case 'reviewsExist':
      return target.endpoint === 'reviews';
    case 'noReviewsExist':
      return target.endpoint === 'reviews' || target.endpoint === 'productReviews';
    case 'productHasReviews':
      return target.endpoint === 'productReviews' && target.id === params['product_id'];
    case 'wishlistsExist':
    case 'noWishlistsExist':
      return target.endpoint === 'wishlists' || (key === 'noWishlistsExist' && target.endpoint === 'wishlistItems');
    case 'wishlistHasItems':
      return target.endpoint === 'wishlistItems' && target.id === params['wishlist_id'];
  }
}

const alphabite = alphabiteDialect();
/** The dialects as the recorder reads requests with them (a page answered 200 was within the mock's page-size bound). */
const DIALECTS: Readonly<Record<DialectName, Dialect>> = { alphabite, spec: specDialect({ maxPageSize: Number.MAX_SAFE_INTEGER }) };

/** The template of one record of `endpoint` in `dialect`; a path id pinned exactly (4.2's product, 4.4's wishlist). */
function recordTemplate(dialect: DialectName, target: ListingTarget): Record<string, unknown> {
  const pinned: Record<string, string> = target.endpoint === 'productReviews' ? { product_id: target.id! } : target.endpoint === 'wishlistItems' ? { wishlist_id: target.id! } : {};
  const kind = target.endpoint === 'wishlists' ? 'wishlist' : target.endpoint === 'wishlistItems' ? 'item' : 'review';
  if (dialect === 'alphabite') return recordTemplateOf(alphabiteRecordSchemas[kind], alphabite.project[kind](EXAMPLE_RECORDS[kind]), kind, pinned);
  return recordTemplateOf(recordSchemas[kind], EXAMPLE_RECORDS[kind], kind, pinned);
}

const LEFT = Symbol('left out');

/** Any value of the example's type (a `null` is left out: Pact has no "or null"); arrays by their first element. */
function byType(value: unknown): unknown {
  if (value === null || value === undefined) return LEFT;
  if (typeof value === 'number') return Number.isInteger(value) ? integer(value) : number(value);
  if (typeof value === 'string') return like(value);
  if (typeof value === 'boolean') return boolean(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return [];
    const first = byType(value[0]);
    return first === LEFT ? [] : eachLike(first, 1);
  }
  // Entries, not assignments: a key named `__proto__` in an answer stays a key (Object.fromEntries defines it).
  const fields: Array<[string, unknown]> = [];
  for (const [key, field] of Object.entries(value as Record<string, unknown>)) {
    const t = byType(field);
    if (t !== LEFT) fields.push([key, t]);
  }
  return Object.fromEntries(fields);
}

/** The number of records a state fixes for a listing it fixes (lib/provider-states.ts): its `count`, none for the empty states. */
function stateCount(params: Record<string, unknown>): number {
  return typeof params['count'] === 'number' ? params['count'] : 0;
}

/**
 * The answer of a page, pinned as the kit's own pacts pin it: the envelope and the number of records
 * computed from the state's count and the request (lib/expected-page.ts, lib/paging.ts), not copied
 * from the answer; the records by type; the answer's other keys (4.2's rating summary) by type, its
 * `total_count` the state's count. Where the dialect emulates a bug (alphabite's 4.1, which ignores
 * paging and says `count: 0`), the pin is the page a storefront needs, and the answer does not meet it.
 */
function pageTemplate(exchange: PactExchange, target: ListingTarget, count: number, body: Record<string, unknown>): Record<string, unknown> | string {
  const { dialect } = exchange;
  // Read as the request was made (its headers by their example values: the answer was a page, so they passed).
  const headers = {
    ...(exchange.headers.publishableKey ? { [PUBLISHABLE_KEY_HEADER]: EXAMPLE_PUBLISHABLE_KEY } : {}),
    ...(exchange.headers.bearer ? { authorization: EXAMPLE_BEARER } : {}),
  };
  const request = { endpoint: target.endpoint, ...(target.id === undefined ? {} : { id: target.id }), query: queryPairs(exchange.url), headers };
  const expected = expectedPageFor(DIALECTS[dialect], request, count);
  if ('none' in expected) return expected.none;
  if (!Array.isArray(body[expected.recordsKey])) return 'answered 200 without a page of records';
  const fields: Array<[string, unknown]> = [];
  const pin = (key: string, value: unknown) => {
    if (key === expected.recordsKey) fields.push([key, records(recordTemplate(dialect, target), expected.length)]);
    else if (typeof value === 'number' && NAVIGATION_KEYS.has(key)) fields.push([key, value]);
    else {
      const t = byType(value);
      if (t !== LEFT) fields.push([key, t]);
    }
  };
  // The answer's key order, then the envelope's keys it lacks: a key the envelope has not (a next page past the last) is not pinned.
  for (const [key, value] of Object.entries(body)) {
    if (Object.hasOwn(expected.envelope, key)) pin(key, expected.envelope[key]);
    else if (key === 'total_count') pin(key, count);
    else if (!NAVIGATION_KEYS.has(key)) pin(key, value);
  }
  for (const [key, value] of Object.entries(expected.envelope)) if (!Object.hasOwn(body, key)) pin(key, value);
  return Object.fromEntries(fields);
}

/** An error answer, pinned by its status and `type`; its message (when it has one) by type. */
function errorTemplate(body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (typeof body['type'] === 'string') out['type'] = body['type'];
  if (typeof body['message'] === 'string') out['message'] = like(body['message']);
  return out;
}

const pathOf = (url: string) => {
  const at = url.indexOf('?');
  return at < 0 ? url : url.slice(0, at);
};

/** The query as made, each name's values in their order, names sorted. */
function queryOf(url: string): Array<[string, string[]]> {
  const byName = new Map<string, string[]>();
  for (const [name, value] of queryPairs(url)) {
    const values = byName.get(name);
    if (values) values.push(value);
    else byName.set(name, [value]);
  }
  return [...byName.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** A request as the left-out counts name it: method and path (no query: its values may be anything). */
export const requestName = (method: string, url: string) => `${method} ${pathOf(url).slice(0, 200)}`;

/** The interaction an exchange under a state is, or why it is none. */
export function interactionOf(exchange: PactExchange): PactRecording {
  const { method, url, status } = exchange;
  const path = pathOf(url);
  const target = method === 'GET' ? listingOfPath(path) : undefined;
  if (!target) return { leftOut: method === 'GET' || method === 'HEAD' ? LEFT_OUT.notListing : LEFT_OUT.write };
  const known = stateByName(exchange.state.name);
  if (!known) return { leftOut: `under the state '${exchange.state.name.slice(0, 100)}', which is not in the kit's vocabulary: no provider sets it up` };
  if (status >= 500) return { leftOut: `answered ${status}: a server error (an injected fault?) is no contract` };
  const body = exchange.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { leftOut: `answered ${status} without a JSON object` };
  let template: Record<string, unknown> | undefined;
  if (status >= 400) template = errorTemplate(body as Record<string, unknown>);
  else if (status === 200) {
    if (!stateFixes(known.key, exchange.state.params, target)) {
      return { leftOut: `under the state '${exchange.state.name}', which does not fix what ${target.endpoint === 'productReviews' || target.endpoint === 'wishlistItems' ? `${path.slice(0, 120)}` : path} answers: no provider set up by it answers the same` };
    }
    const page = pageTemplate(exchange, target, stateCount(exchange.state.params), body as Record<string, unknown>);
    if (typeof page === 'string') return { leftOut: page.startsWith('answered') ? page : `a page no provider state fixes: ${page}` };
    template = page;
  } else return { leftOut: `answered ${status}: only pages (200) and refusals (4xx) are pinned` };

  const query = queryOf(url);
  const headerTemplate: Record<string, unknown> = {};
  if (exchange.headers.publishableKey) headerTemplate[PUBLISHABLE_KEY_HEADER] = regex(/^\S+$/, EXAMPLE_PUBLISHABLE_KEY);
  if (exchange.headers.bearer) headerTemplate['authorization'] = regex(/^Bearer \S+$/, EXAMPLE_BEARER);
  const requestHeaders = v4Headers(headerTemplate);
  const responseHeaders = v4Headers(JSON_HEADERS);
  const answer = v4Body(template);
  const search = query.map(([name, values]) => values.map((v) => `${encodeURIComponent(name)}=${encodeURIComponent(v)}`).join('&')).join('&');
  const carried = [exchange.headers.publishableKey ? 'a publishable key' : '', exchange.headers.bearer ? 'a bearer token' : ''].filter(Boolean);
  const interaction: PactInteraction = {
    description: `${method} ${path}${search ? `?${search}` : ''}${carried.length ? ` with ${carried.join(' and ')}` : ''}`,
    pending: false,
    providerStates: [{ name: exchange.state.name, params: exchange.state.params }],
    request: {
      method,
      path,
      ...(query.length ? { query: Object.fromEntries(query) } : {}),
      ...(carried.length ? { headers: requestHeaders.headers, matchingRules: { header: requestHeaders.rules } } : {}),
    },
    response: {
      status,
      headers: responseHeaders.headers,
      body: { content: answer.content, contentType: 'application/json', encoded: false },
      matchingRules: { ...(Object.keys(answer.rules).length ? { body: answer.rules } : {}), header: responseHeaders.rules },
    },
    type: 'Synchronous/HTTP',
  };
  return { provider: PROVIDER_OF_ENDPOINT[target.endpoint], interaction };
}

/** Requests left out for one reason: how many, and the first one (method and path). */
export interface LeftOutCount {
  reason: string;
  count: number;
  first: string;
}

export interface PactBookReport {
  consumer: string;
  /** Interactions recorded for each provider (distinct ones: the same request under the same state is one). */
  interactions: Record<ProviderName, number>;
  /** Requests that became no interaction, by reason, in the order the reasons first came. */
  leftOut: LeftOutCount[];
}

/** The most distinct reasons kept (a reason names a state or path: bounded, however many requests come). */
const MAX_REASONS = 50;

/**
 * A consumer's interactions as they are recorded, for both providers, and the requests left out.
 * The same request under the same state is one interaction (the last answer's pins are kept:
 * under a state they are the same). Bounded: at most `maxInteractions` (then requests are counted as left out).
 */
export class PactBook {
  readonly consumer: string;
  readonly #interactions = new Map<ProviderName, Map<string, PactInteraction>>(PROVIDERS.map((p) => [p, new Map()]));
  readonly #leftOut = new Map<string, LeftOutCount>();
  readonly #maxInteractions: number;

  constructor(consumer: string, maxInteractions = 10_000) {
    this.consumer = consumer;
    this.#maxInteractions = maxInteractions;
  }

  /** Records an exchange made under a state: an interaction, or a request left out with its reason. */
  record(exchange: PactExchange): PactRecording {
    const recorded = interactionOf(exchange);
    if ('leftOut' in recorded) this.leaveOut(recorded.leftOut, exchange.method, exchange.url);
    else {
      const map = this.#interactions.get(recorded.provider)!;
      const key = interactionKey(recorded.interaction);
      if (!map.has(key) && this.size >= this.#maxInteractions) this.leaveOut(`past the ${this.#maxInteractions} interactions a recorder keeps`, exchange.method, exchange.url);
      else map.set(key, recorded.interaction);
    }
    return recorded;
  }

  /** Counts a request that is no interaction (`reason`: LEFT_OUT, or a recorder's own). */
  leaveOut(reason: string, method: string, url: string): void {
    const seen = this.#leftOut.get(reason);
    if (seen) seen.count += 1;
    else if (this.#leftOut.size < MAX_REASONS) this.#leftOut.set(reason, { reason, count: 1, first: requestName(method, url) });
    else {
      const other = this.#leftOut.get('other reasons') ?? { reason: 'other reasons', count: 0, first: requestName(method, url) };
      other.count += 1;
      this.#leftOut.set('other reasons', other);
    }
  }

  get size(): number {
    let n = 0;
    for (const map of this.#interactions.values()) n += map.size;
    return n;
  }

  report(): PactBookReport {
    return {
      consumer: this.consumer,
      interactions: { 'product-reviews': this.#interactions.get('product-reviews')!.size, wishlist: this.#interactions.get('wishlist')!.size },
      leftOut: [...this.#leftOut.values()].map((l) => ({ ...l })),
    };
  }

  /**
   * The pact files to write, as data (`name`, `text`), for each provider with an interaction;
   * `existing(name)` gives the text of the file already there (merged with), or undefined.
   * Throws PactFileError when a file there cannot be merged with.
   */
  files(existing: (name: string) => string | undefined): Array<{ name: string; provider: ProviderName; text: string }> {
    const out: Array<{ name: string; provider: ProviderName; text: string }> = [];
    for (const provider of PROVIDERS) {
      const interactions = [...this.#interactions.get(provider)!.values()];
      if (interactions.length === 0) continue;
      const name = pactFileName(provider, this.consumer);
      out.push({ name, provider, text: pactFileText(this.consumer, provider, interactions, existing(name), name) });
    }
    return out;
  }
}

/** One line per reason, for a banner or a log: `<count> requests <reason> (first: GET /path)`. */
export function leftOutLines(report: PactBookReport): string[] {
  return report.leftOut.map((l) => `${l.count} ${l.count === 1 ? 'request' : 'requests'} left out: ${l.reason} (first: ${l.first})`);
}

export { canonicalJson, type PactState, type V4Rules };
