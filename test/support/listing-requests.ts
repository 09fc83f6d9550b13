/**
 * Listing requests for comparing two mocks and for checking answers against the OpenAPI
 * document: the property suite's own window generators (properties/generators.ts: page sizes
 * and starts at the edges) on each endpoint, in the dialect's paging parameters, mixed with
 * what each dialect refuses (bad, repeated and unknown parameters, the other dialect's paging
 * names, unknown ids, missing key or token) so the refusals are compared too.
 */
import fc from 'fast-check';
import { REVIEW_ORDER_VALUES, type EndpointName } from '../../lib/api-rules.ts';
import { PUBLISHABLE_KEY_HEADER, type DialectName } from '../../lib/dialects/index.ts';
import { openApiPath } from '../../lib/openapi/index.ts';
import { sizeArb, startArb } from '../../properties/generators.ts';
import type { Dataset } from '../../fixtures/dataset.ts';

export interface ListingRequestSpec {
  endpoint: EndpointName;
  /** Path and query, as sent. */
  target: string;
  headers: Record<string, string>;
}

const PAGING: Record<DialectName, Record<EndpointName, { size: string; start: string }>> = {
  spec: { reviews: { size: 'limit', start: 'offset' }, productReviews: { size: 'limit', start: 'offset' }, wishlists: { size: 'take', start: 'skip' }, wishlistItems: { size: 'take', start: 'skip' } },
  alphabite: { reviews: { size: 'limit', start: 'offset' }, productReviews: { size: 'limit', start: 'offset' }, wishlists: { size: 'limit', start: 'offset' }, wishlistItems: { size: 'limit', start: 'offset' } },
};

const KEY = { [PUBLISHABLE_KEY_HEADER]: 'pk_test' };
const HEADERS: Record<DialectName, fc.Arbitrary<Record<string, string>>> = {
  spec: fc.constant({}),
  alphabite: fc.oneof(
    { weight: 6, arbitrary: fc.constant({ ...KEY, authorization: 'Bearer token' }) },
    { weight: 1, arbitrary: fc.constant({}) },
    { weight: 1, arbitrary: fc.constant(KEY) },
    { weight: 1, arbitrary: fc.constant({ ...KEY, cookie: 'connect.sid=s' }) },
  ),
};

const ODD_VALUES = ['', '0', '-1', '1.5', '2.7', '1e3', 'abc', '5abc', ' 1', '9007199254740992'];
const ORDERS = [...REVIEW_ORDER_VALUES, 'id', '-id', 'desc', 'title'];

/** What makes a request odd, if anything: a pair added to the query, or a path id the dataset lacks. */
const oddity = (paging: { size: string; start: string }) =>
  fc.oneof(
    { weight: 8, arbitrary: fc.constant<[string, string][]>([]) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(paging.size, paging.start), fc.constantFrom(...ODD_VALUES)).map((pair) => [pair]) },
    { weight: 1, arbitrary: fc.constantFrom<[string, string][]>([['page', '2']], [['skip', '1']], [['take', '1']], [['limit', '5']], [['offset', '3']], [['id', 'wl_other']], [['product_ids', 'prod_x']], [['rating', '5']], [['include_aggregated_counts', 'true']]) },
    { weight: 1, arbitrary: fc.constantFrom(...ORDERS).map((order): [string, string][] => [['order', order]]) },
  );

function counts(dataset: Dataset, endpoint: EndpointName): number {
  if (endpoint === 'reviews') return dataset.reviews.source.count;
  if (endpoint === 'wishlists') return dataset.wishlists.count;
  return endpoint === 'productReviews' ? Math.ceil(dataset.reviews.source.count / Math.max(1, dataset.summary.products)) : 15;
}

/** Requests to the four listings of `dataset` in `dialect`, pages no larger than `maxSize`. */
export function listingRequests(dialect: DialectName, dataset: Dataset, maxSize: number): fc.Arbitrary<ListingRequestSpec> {
  const productIds = [...new Set(Array.from({ length: Math.min(dataset.reviews.source.count, 40) }, (_, i) => dataset.reviews.source.review(i).product_id))];
  const wishlistIds = Array.from({ length: Math.min(dataset.wishlists.count, 10) }, (_, i) => dataset.wishlists.source.wishlist(i).id);
  const endpoint = fc.constantFrom<EndpointName>('reviews', 'productReviews', 'wishlists', 'wishlistItems');
  return endpoint.chain((name) => {
    const paging = PAGING[dialect][name];
    const count = counts(dataset, name);
    const id = name === 'productReviews' ? fc.constantFrom(...productIds, 'prod_unknown') : fc.constantFrom(...wishlistIds, 'wl_unknown');
    return fc
      .record({
        size: fc.option(sizeArb(count, maxSize), { nil: undefined, freq: 5 }),
        start: sizeArb(count, maxSize).chain((size) => fc.option(startArb(size, { count }), { nil: undefined, freq: 5 })),
        odd: oddity(paging),
        id,
        headers: HEADERS[dialect],
      })
      .map(({ size, start, odd, id: pathId, headers }) => {
        const query: [string, string][] = [...(size === undefined ? [] : [[paging.size, String(size)] as [string, string]]), ...(start === undefined ? [] : [[paging.start, String(start)] as [string, string]]), ...odd];
        const path = openApiPath(name).replace(/\{[^}]+\}/, encodeURIComponent(pathId));
        const qs = query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
        return { endpoint: name, target: qs ? `${path}?${qs}` : path, headers };
      });
  });
}
