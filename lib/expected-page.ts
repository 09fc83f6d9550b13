import { askedAlphabiteWindow } from './dialects/alphabite.ts';
import { isRefusal, type Dialect, type EndpointName, type ListingQuery, type ListingRequest } from './dialects/types.ts';
import { pageLength } from './paging.ts';

/**
 * The page a storefront needs, as the kit's own pacts pin it (contracts/sdk-interactions.ts,
 * contracts/interactions.ts; issue 30): the dialect's envelope for a known number of records and
 * the window the request asks for, and how many records that page holds (lib/paging.ts). Not what
 * a server answered: where the published plugins break what a storefront needs (4.1 ignores paging
 * and says `count: 0`, docs/dialects.md rows 7 and 8) the need is the dialect's envelope of a
 * listing that pages, 4.2's for the same page, so an interaction pinned from it fails on the
 * plugins (and on the mock, which keeps their bug) as the kit's SDK pacts do.
 */

/** The listing whose envelope a storefront needs for `endpoint`: its own, or 4.2's when it ignores paging (alphabite's 4.1). */
export function pagedEndpointOf(dialect: Dialect, endpoint: EndpointName): EndpointName {
  return dialect.name === 'alphabite' && endpoint === 'reviews' ? 'productReviews' : endpoint;
}

export interface ExpectedPage {
  /** The envelope, its records array empty, in the dialect's key order (`null`/absent where there is no next/previous page), as JSON carries it. */
  envelope: Record<string, unknown>;
  /** The records key of the envelope. */
  recordsKey: 'reviews' | 'data';
  /** How many records the page holds. */
  length: number;
}

/** The needed page of `count` records read with `query` (the dialect's reading of a request, with a window). */
export function expectedPageOf(dialect: Dialect, endpoint: EndpointName, count: number, query: ListingQuery & { window: { start: number; size: number; listFrom?: number } }): ExpectedPage {
  const rules = dialect.endpoints[pagedEndpointOf(dialect, endpoint)];
  const { start, size, listFrom } = query.window;
  // `limit=0` (the plugins accept it) is an empty page; an offset past 2^53 - 1 lists from `listFrom`.
  const length = size < 1 ? 0 : pageLength(count, listFrom ?? start, size);
  // As the wire carries it: the plugins' numbers for `limit=0` are Infinity/NaN, which JSON writes as `null`.
  const envelope = Object.fromEntries(Object.entries(rules.envelope({ count, query })).map(([key, value]) => [key, typeof value === 'number' && !Number.isFinite(value) ? null : value]));
  return { envelope, recordsKey: rules.recordsKey, length };
}

/**
 * The needed page for a request (its listing, path id, query and headers) when `count` records match, or why
 * there is none: the dialect refuses the request, or it filters the records (then the number of
 * records that match is not the count a provider state fixes).
 */
export function expectedPageFor(dialect: Dialect, request: ListingRequest, count: number): ExpectedPage | { none: string } {
  const { endpoint, query: pairs } = request;
  const read = dialect.endpoints[endpoint].read(request);
  if (isRefusal(read)) return { none: `the ${dialect.name} dialect refuses it (${read.status})` };
  const filters = Object.keys(read.filters);
  if (filters.length) return { none: `it filters the records (${filters.join(', ')}): a provider state fixes how many records there are, not how many match` };
  // 4.1 in the alphabite dialect lists 'all' whatever it is asked: the need is the page asked for.
  const window = read.window === 'all' ? askedAlphabiteWindow(endpoint, pairs) : read.window;
  if (!window) return { none: `the ${dialect.name} dialect refuses it` };
  return expectedPageOf(dialect, endpoint, count, { ...read, window });
}
