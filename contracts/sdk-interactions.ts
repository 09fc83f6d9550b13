import { MatchersV3 } from '@pact-foundation/pact';
import { PATHS } from '../lib/api-rules.ts';
import { ALPHABITE_DEFAULT_LIMIT, ALPHABITE_DEFAULT_OFFSET, alphabiteDialect, PUBLISHABLE_KEY_HEADER } from '../lib/dialects/alphabite.ts';
import { alphabiteRecordSchemas } from '../lib/dialects/alphabite-schemas.ts';
import type { EndpointName } from '../lib/dialects/types.ts';
import { expectedPageOf } from '../lib/expected-page.ts';
import { pageLength, pageStart } from '../lib/paging.ts';
import { given, type GivenState } from '../lib/provider-states.ts';
import { EXAMPLE_RECORDS } from '../lib/records.ts';
import { CONTRACT_PRODUCT_ID, CONTRACT_WISHLIST_ID } from './interactions.ts';
import type { ProviderName } from './names.ts';
import { recordTemplateOf, records } from './templates.ts';

/**
 * The interactions of a storefront built on `@alphabite/medusa-sdk` 0.7.11 with the published
 * plugins (consumer `alphabite-sdk-storefront`): each is one call of the SDK (`call`), the request
 * it sends (limit/offset, the publishable key, the customer's bearer token on the wishlists), and
 * what the storefront reads from the answer, in the plugins' envelopes (`data`, `count`, the page
 * size and start echoed as `take`/`skip`, `currentPage`, `totalPages`; docs/dialects.md).
 *
 * The numbers are the alphabite dialect's own envelope (lib/dialects/alphabite.ts) for the state's
 * `count` and the request, so they follow the plugins where the plugins are consistent (a
 * `totalPages` of 1 when empty, say). Where a plugin breaks what a storefront needs (4.1 ignores
 * paging and says `count: 0`), the interaction pins the need and names the break in `brokenBy`:
 * those interactions fail against the published plugins, and each says so in its description.
 *
 * Not pinned: `nextPage`/`prevPage` (the SDK's types say 0 at the ends, the plugins clamp them; a
 * storefront pages by `currentPage` and `totalPages`, docs/dialects.md), and fields that may be
 * `null`. test/contracts-sdk.test.ts makes each call through the real SDK against Pact's mock.
 */

export type SdkMethod = 'reviews.list' | 'reviews.listProductReviews' | 'wishlist.list' | 'wishlist.listItems';

/** One call of `sdk.alphabite.<method>(input)`. */
export interface SdkCall {
  method: SdkMethod;
  input: Record<string, string | number | boolean>;
}

export interface SdkInteraction {
  provider: ProviderName;
  description: string;
  state: GivenState;
  call: SdkCall;
  /** What the SDK sends for `call`; header values are matchers (any key, any bearer token). */
  request: { path: string; query?: Record<string, string>; headers: Record<string, unknown> };
  response: { status: number; body: Record<string, unknown> };
  /** Set when the published plugins break this expectation: why, with the rows of docs/dialects.md. */
  brokenBy?: string;
}

/** The example values of the headers in the pacts (any non-empty key, any bearer token matches). */
export const SDK_EXAMPLE_PUBLISHABLE_KEY = 'pk_storefront_example';
export const SDK_EXAMPLE_BEARER = 'Bearer customer-jwt-example';

/** What the SDK's `wishlist.list` and `wishlist.listItems` send when the storefront gives no page (their defaults). */
export const SDK_WISHLIST_DEFAULT_LIMIT = 10;
export const SDK_WISHLIST_DEFAULT_OFFSET = 0;

const { regex } = MatchersV3;
const KEY_HEADER = { [PUBLISHABLE_KEY_HEADER]: regex(/^\S+$/, SDK_EXAMPLE_PUBLISHABLE_KEY) };
const CUSTOMER_HEADERS = { ...KEY_HEADER, authorization: regex(/^Bearer \S+$/, SDK_EXAMPLE_BEARER) };

const SIZE = 5;
const COUNT = 12;
const DEFAULTS_COUNT = 25;
const PAGES = [
  { name: 'the first page', start: pageStart(1, SIZE) },
  { name: 'a middle page', start: pageStart(2, SIZE) },
  { name: 'the last page', start: pageStart(3, SIZE) },
] as const;

/** The keys of the plugins' envelope a storefront reads. */
const READ_KEYS = ['count', 'take', 'skip', 'currentPage', 'totalPages'] as const;

const dialect = alphabiteDialect();

/**
 * The plugins' envelope of `endpoint` for `count` records read at `start` with `size`: the keys a storefront reads, and
 * exactly the page's records; for 4.1, which ignores paging, the page a storefront needs (lib/expected-page.ts, which the
 * recorder of a consumer's own pacts pins too).
 */
function pageBody(endpoint: EndpointName, record: Record<string, unknown>, count: number, start: number, size: number): Record<string, unknown> {
  const page = expectedPageOf(dialect, endpoint, count, { window: { start, size }, order: { field: 'id', descending: false }, filters: {}, aggregates: false });
  return { data: records(record, page.length), ...Object.fromEntries(READ_KEYS.map((key) => [key, page.envelope[key]])) };
}

const review = (productId?: string) =>
  recordTemplateOf(alphabiteRecordSchemas.review, dialect.project.review(EXAMPLE_RECORDS.review), 'review', productId === undefined ? {} : { product_id: productId });
const wishlist = () => recordTemplateOf(alphabiteRecordSchemas.wishlist, dialect.project.wishlist(EXAMPLE_RECORDS.wishlist), 'wishlist');
const item = (wishlistId: string) => recordTemplateOf(alphabiteRecordSchemas.item, dialect.project.item(EXAMPLE_RECORDS.item), 'item', { wishlist_id: wishlistId });

const q = (params: Record<string, number | string | boolean>): Record<string, string> => Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)]));

/** The request the SDK sends for `call` (its paths, and its query: the input without the path id). */
export function sdkRequest(call: SdkCall): { path: string; query?: Record<string, string> } {
  const { product_id, id, ...rest } = call.input;
  const path =
    call.method === 'reviews.list' ? PATHS.reviews
    : call.method === 'reviews.listProductReviews' ? PATHS.productReviews.replace(':product_id', String(product_id))
    : call.method === 'wishlist.list' ? PATHS.wishlists
    : PATHS.wishlistItems.replace(':id', String(id));
  // wishlist.list and listItems always send limit and offset, with their own defaults.
  const query = call.method.startsWith('wishlist.') ? { limit: SDK_WISHLIST_DEFAULT_LIMIT, offset: SDK_WISHLIST_DEFAULT_OFFSET, ...rest } : rest;
  return Object.keys(query).length ? { path, query: q(query) } : { path };
}

/** The call as a storefront writes it; a path id by its name only (the state says which). */
function show(call: SdkCall): string {
  const args = Object.entries(call.input).map(([key, value]) => (key === 'product_id' || key === 'id' ? key : `${key}: ${String(value)}`));
  return `${call.method}(${args.length ? `{ ${args.join(', ')} }` : '{}'})`;
}

function interaction(provider: ProviderName, state: GivenState, call: SdkCall, needs: string, body: Record<string, unknown>, brokenBy?: string): SdkInteraction {
  return {
    provider,
    description: `${show(call)}: ${needs}${brokenBy ? ` [the published plugins break this: ${brokenBy}]` : ''}`,
    state,
    call,
    request: { ...sdkRequest(call), headers: provider === 'wishlist' ? CUSTOMER_HEADERS : KEY_HEADER },
    response: { status: 200, body },
    ...(brokenBy ? { brokenBy } : {}),
  };
}

/** 4.1 ignores limit, offset and order and answers `count: 0` (docs/dialects.md rows 7 and 8). */
const REVIEWS_IGNORE_PAGING = '4.1 answers every review and count 0 (docs/dialects.md rows 7, 8)';

function reviewsInteractions(): SdkInteraction[] {
  const provider = 'product-reviews';
  const list: SdkInteraction[] = [];
  const reviews = given('reviewsExist', { count: COUNT });
  // 4.1: the route never passes the pagination on, so there is no envelope of its own to follow;
  // what a storefront needs is the reviews plugin's envelope of 4.2 for the same page (lib/expected-page.ts).
  for (const page of PAGES.slice(0, 2)) {
    const call: SdkCall = { method: 'reviews.list', input: { limit: SIZE, offset: page.start } };
    list.push(interaction(provider, reviews, call, `${page.name} of reviews, ${SIZE} of the ${COUNT}, with their count`, pageBody('reviews', review(), COUNT, page.start, SIZE), REVIEWS_IGNORE_PAGING));
  }
  {
    const call: SdkCall = { method: 'reviews.list', input: {} };
    const body = pageBody('reviews', review(), DEFAULTS_COUNT, ALPHABITE_DEFAULT_OFFSET, ALPHABITE_DEFAULT_LIMIT);
    list.push(interaction(provider, given('reviewsExist', { count: DEFAULTS_COUNT }), call, `the default page of reviews, ${ALPHABITE_DEFAULT_LIMIT} of the ${DEFAULTS_COUNT}, with their count`, body, REVIEWS_IGNORE_PAGING));
  }
  {
    const call: SdkCall = { method: 'reviews.list', input: { limit: SIZE, offset: 0 } };
    list.push(interaction(provider, given('noReviewsExist', {}), call, 'an empty page when there are no reviews', pageBody('reviews', review(), 0, 0, SIZE)));
  }

  // 4.2
  const productReviews = given('productHasReviews', { product_id: CONTRACT_PRODUCT_ID, count: COUNT });
  for (const page of PAGES) {
    const call: SdkCall = { method: 'reviews.listProductReviews', input: { product_id: CONTRACT_PRODUCT_ID, limit: SIZE, offset: page.start } };
    const shown = pageLength(COUNT, page.start, SIZE);
    list.push(interaction(provider, productReviews, call, `${page.name} of a product's reviews, ${shown} of the ${COUNT}, with their count and page numbers`, pageBody('productReviews', review(CONTRACT_PRODUCT_ID), COUNT, page.start, SIZE)));
  }
  {
    const call: SdkCall = { method: 'reviews.listProductReviews', input: { product_id: CONTRACT_PRODUCT_ID, limit: SIZE, offset: 0 } };
    const state = given('productHasReviews', { product_id: CONTRACT_PRODUCT_ID, count: 0 });
    list.push(interaction(provider, state, call, 'an empty page for a product without reviews', pageBody('productReviews', review(CONTRACT_PRODUCT_ID), 0, 0, SIZE)));
  }
  {
    const call: SdkCall = { method: 'reviews.listProductReviews', input: { product_id: CONTRACT_PRODUCT_ID } };
    const state = given('productHasReviews', { product_id: CONTRACT_PRODUCT_ID, count: DEFAULTS_COUNT });
    list.push(interaction(provider, state, call, `the default page of a product's reviews, ${ALPHABITE_DEFAULT_LIMIT} of the ${DEFAULTS_COUNT}`, pageBody('productReviews', review(CONTRACT_PRODUCT_ID), DEFAULTS_COUNT, ALPHABITE_DEFAULT_OFFSET, ALPHABITE_DEFAULT_LIMIT)));
  }
  {
    const call: SdkCall = { method: 'reviews.listProductReviews', input: { product_id: CONTRACT_PRODUCT_ID, limit: SIZE, offset: 0, include_aggregated_counts: true } };
    const body = {
      ...pageBody('productReviews', review(CONTRACT_PRODUCT_ID), COUNT, 0, SIZE),
      // The rating summary a product page shows: the average, the total and one count per rating, 5 down to 1.
      average: MatchersV3.number(4.25),
      total_count: COUNT,
      counts: MatchersV3.constrainedArrayLike({ rating: MatchersV3.integer(5), count: MatchersV3.integer(3) }, 5, 5, 5),
    };
    list.push(interaction(provider, productReviews, call, "a product's first page with its rating summary (average, total, a count per rating)", body));
  }
  return list;
}

function wishlistInteractions(): SdkInteraction[] {
  const provider = 'wishlist';
  const list: SdkInteraction[] = [];

  // 4.3: the customer's wishlists (the state's wishlists belong to the customer of the bearer token).
  const wishlists = given('wishlistsExist', { count: COUNT });
  for (const page of PAGES) {
    const call: SdkCall = { method: 'wishlist.list', input: { limit: SIZE, offset: page.start } };
    const shown = pageLength(COUNT, page.start, SIZE);
    list.push(interaction(provider, wishlists, call, `${page.name} of the customer's wishlists, ${shown} of the ${COUNT}, with their count and page numbers`, pageBody('wishlists', wishlist(), COUNT, page.start, SIZE)));
  }
  list.push(interaction(provider, given('noWishlistsExist', {}), { method: 'wishlist.list', input: { limit: SIZE, offset: 0 } }, 'an empty page when the customer has no wishlist', pageBody('wishlists', wishlist(), 0, 0, SIZE)));
  list.push(
    interaction(
      provider,
      given('wishlistsExist', { count: DEFAULTS_COUNT }),
      { method: 'wishlist.list', input: {} },
      `the SDK's default page of wishlists, ${SDK_WISHLIST_DEFAULT_LIMIT} of the ${DEFAULTS_COUNT}`,
      pageBody('wishlists', wishlist(), DEFAULTS_COUNT, SDK_WISHLIST_DEFAULT_OFFSET, SDK_WISHLIST_DEFAULT_LIMIT),
    ),
  );

  // 4.4
  const items = given('wishlistHasItems', { wishlist_id: CONTRACT_WISHLIST_ID, count: COUNT });
  for (const page of PAGES) {
    const call: SdkCall = { method: 'wishlist.listItems', input: { id: CONTRACT_WISHLIST_ID, limit: SIZE, offset: page.start } };
    const shown = pageLength(COUNT, page.start, SIZE);
    list.push(interaction(provider, items, call, `${page.name} of a wishlist's items, ${shown} of the ${COUNT}, with their count and page numbers`, pageBody('wishlistItems', item(CONTRACT_WISHLIST_ID), COUNT, page.start, SIZE)));
  }
  list.push(
    interaction(
      provider,
      given('wishlistHasItems', { wishlist_id: CONTRACT_WISHLIST_ID, count: 0 }),
      { method: 'wishlist.listItems', input: { id: CONTRACT_WISHLIST_ID, limit: SIZE, offset: 0 } },
      'an empty page for an empty wishlist',
      pageBody('wishlistItems', item(CONTRACT_WISHLIST_ID), 0, 0, SIZE),
    ),
  );
  list.push(
    interaction(
      provider,
      given('wishlistHasItems', { wishlist_id: CONTRACT_WISHLIST_ID, count: DEFAULTS_COUNT }),
      { method: 'wishlist.listItems', input: { id: CONTRACT_WISHLIST_ID } },
      `the SDK's default page of a wishlist's items, ${SDK_WISHLIST_DEFAULT_LIMIT} of the ${DEFAULTS_COUNT}`,
      pageBody('wishlistItems', item(CONTRACT_WISHLIST_ID), DEFAULTS_COUNT, SDK_WISHLIST_DEFAULT_OFFSET, SDK_WISHLIST_DEFAULT_LIMIT),
    ),
  );
  return list;
}

/** All interactions of the SDK storefront with one provider, in a fixed order. */
export function sdkInteractionsOf(provider: ProviderName): SdkInteraction[] {
  return provider === 'product-reviews' ? reviewsInteractions() : wishlistInteractions();
}
