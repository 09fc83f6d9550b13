/**
 * Listing requests for comparing two mocks and for checking answers against the OpenAPI
 * document: the property suite's own window generators (properties/generators.ts: page sizes
 * and starts at the edges) on each endpoint, in the dialect's paging parameters, mixed with
 * what each dialect refuses (bad, repeated and unknown parameters, the other dialect's paging
 * names, unknown ids, missing key or token) so the refusals are compared too. In the alphabite dialect,
 * where each customer sees their own wishlists, most requests ask as a customer the dataset names (a JWT
 * naming a wishlist's `customer_id`), whose own wishlists 4.4 lists, and as others, to whom those are
 * another customer's.
 */
import fc from 'fast-check';
import { REVIEW_ORDER_VALUES, type EndpointName } from '../../lib/api-rules.ts';
import { PUBLISHABLE_KEY_HEADER, type DialectName } from '../../lib/dialects/index.ts';
import { openApiPath } from '../../lib/openapi/index.ts';
import { sizeArb, startArb } from '../../properties/generators.ts';
import type { Dataset } from '../../fixtures/dataset.ts';
import { namedCustomer, type NamedCustomer } from './customer-token.ts';

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

/** Who asks, and the wishlists they own (4.4 lists only those; none for a guest or a customer the dataset does not name). */
function askers(dialect: DialectName, owner: NamedCustomer | undefined): fc.Arbitrary<{ headers: Record<string, string>; own: string[] }> {
  if (dialect === 'spec') return fc.constant({ headers: {}, own: [] });
  const as = (headers: Record<string, string>, own: string[] = []) => fc.constant({ headers, own });
  return fc.oneof(
    ...(owner ? [{ weight: 4, arbitrary: as({ ...KEY, authorization: owner.authorization }, owner.wishlistIds) }] : []),
    { weight: owner ? 2 : 6, arbitrary: as({ ...KEY, authorization: 'Bearer token' }) },
    { weight: 1, arbitrary: as({}) },
    { weight: 1, arbitrary: as(KEY) },
    { weight: 1, arbitrary: as({ ...KEY, cookie: 'connect.sid=s' }) },
  );
}

/** The customer the dataset names as the owner of a wishlist with items (or of any), if any wishlist names one. */
function ownerOf(dataset: Dataset): NamedCustomer | undefined {
  const { source } = dataset.wishlists;
  for (const where of [(w: number) => source.itemCount(w) > 0, () => true]) {
    try {
      return namedCustomer(dataset, where);
    } catch {
      // none fits: the next, or nobody
    }
  }
  return undefined;
}

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
  const asker = askers(dialect, dialect === 'alphabite' ? ownerOf(dataset) : undefined);
  const endpoint = fc.constantFrom<EndpointName>('reviews', 'productReviews', 'wishlists', 'wishlistItems');
  return endpoint.chain((name) => {
    const paging = PAGING[dialect][name];
    const count = counts(dataset, name);
    return fc
      .record({
        size: fc.option(sizeArb(count, maxSize), { nil: undefined, freq: 5 }),
        start: sizeArb(count, maxSize).chain((size) => fc.option(startArb(size, { count }), { nil: undefined, freq: 5 })),
        odd: oddity(paging),
        who: asker.chain(({ headers, own }) =>
          (name === 'productReviews'
            ? fc.constantFrom(...productIds, 'prod_unknown')
            : fc.oneof(...(own.length > 0 ? [{ weight: 3, arbitrary: fc.constantFrom(...own) }] : []), { weight: 2, arbitrary: fc.constantFrom(...wishlistIds, 'wl_unknown') })
          ).map((id) => ({ headers, id })),
        ),
      })
      .map(({ size, start, odd, who: { id: pathId, headers } }) => {
        const query: [string, string][] = [...(size === undefined ? [] : [[paging.size, String(size)] as [string, string]]), ...(start === undefined ? [] : [[paging.start, String(start)] as [string, string]]), ...odd];
        const path = openApiPath(name).replace(/\{[^}]+\}/, encodeURIComponent(pathId));
        const qs = query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
        return { endpoint: name, target: qs ? `${path}?${qs}` : path, headers };
      });
  });
}
