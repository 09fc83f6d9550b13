import { strict as assert } from 'node:assert';
import { MatchersV3 } from '@pact-foundation/pact';
import { PATHS, REVIEWS_DEFAULT_LIMIT, REVIEWS_DEFAULT_OFFSET, WISHLIST_DEFAULT_SKIP, WISHLIST_DEFAULT_TAKE } from '../lib/api-rules.ts';
import { pageStart } from '../lib/paging.ts';
import { StorefrontApiError, type StorefrontClient } from './client.ts';
import { given, type GivenState } from '../lib/provider-states.ts';
import type { ProviderName } from './names.ts';
import { JSON_HEADERS, errorBody, reviewTemplate, reviewsBody, wishlistBody, wishlistItemTemplate, wishlistTemplate } from './templates.ts';

/**
 * Every interaction the storefront has with the two providers. Each one says what the
 * storefront sends (through its client, contracts/client.ts), in which provider state,
 * and what it needs back; `exercise` makes the call and checks what the client made of
 * the answer.
 */

export { CONSUMER, PROVIDERS, type ProviderName } from './names.ts';

export interface ContractInteraction {
  provider: ProviderName;
  description: string;
  state?: GivenState;
  request: { path: string; query?: Record<string, string> };
  response: { status: number; body: Record<string, unknown> };
  /** Calls the endpoint through the storefront client (pointed at Pact's mock) and checks the result. */
  exercise(client: StorefrontClient): Promise<void>;
}

/** The ids the states give the records the interactions ask for by id. */
export const CONTRACT_PRODUCT_ID = 'prod_01CONTRACTPRODUCT0000000001';
export const CONTRACT_WISHLIST_ID = 'wl_01CONTRACTWISHLIST000000001';
export const UNKNOWN_WISHLIST_ID = 'wl_01CONTRACTUNKNOWN0000000000';

/** Page size of the paged interactions, and how many records the states create: three pages, the last one short. */
const SIZE = 5;
const COUNT = 12;
/** Enough records for the default page size to fill a page with more to come. */
const DEFAULTS_COUNT = 25;
/** The pages every endpoint is asked for, by `start`: first, middle, last, one past the end. */
const PAGES = [
  { name: 'the first page', start: pageStart(1, SIZE) },
  { name: 'a middle page', start: pageStart(2, SIZE) },
  { name: 'the last page', start: pageStart(3, SIZE) },
  { name: 'a page past the end', start: pageStart(5, SIZE) },
] as const;

/** The client's result must be the answer the contract promises (the examples, matchers resolved). */
const expectBody = (expected: Record<string, unknown>) => (actual: unknown) => assert.deepStrictEqual(actual, MatchersV3.reify(expected));

async function expectApiError(call: Promise<unknown>, status: number, type: string): Promise<void> {
  await assert.rejects(call, (error: unknown) => {
    assert.ok(error instanceof StorefrontApiError, `expected a StorefrontApiError, got ${String(error)}`);
    assert.equal(error.status, status);
    assert.equal(error.type, type);
    assert.ok(error.message.length > 0);
    return true;
  });
}

const q = (params: Record<string, number | string>): Record<string, string> => Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)]));

function reviewsInteractions(): ContractInteraction[] {
  const provider = 'product-reviews';
  const list: ContractInteraction[] = [];
  const allReviews = given('reviewsExist', { count: COUNT });

  // 4.1
  for (const page of PAGES) {
    const body = reviewsBody(reviewTemplate(), COUNT, page.start, SIZE);
    list.push({
      provider,
      description: `a request for ${page.name} of reviews (limit ${SIZE}, offset ${page.start})`,
      state: allReviews,
      request: { path: PATHS.reviews, query: q({ limit: SIZE, offset: page.start }) },
      response: { status: 200, body },
      exercise: async (client) => expectBody(body)(await client.listReviews({ limit: SIZE, offset: page.start })),
    });
  }
  {
    const body = reviewsBody(reviewTemplate(), 0, 0, SIZE);
    list.push({
      provider,
      description: 'a request for reviews when there are none',
      state: given('noReviewsExist', {}),
      request: { path: PATHS.reviews, query: q({ limit: SIZE, offset: 0 }) },
      response: { status: 200, body },
      exercise: async (client) => expectBody(body)(await client.listReviews({ limit: SIZE, offset: 0 })),
    });
  }
  {
    const body = reviewsBody(reviewTemplate(), DEFAULTS_COUNT, REVIEWS_DEFAULT_OFFSET, REVIEWS_DEFAULT_LIMIT);
    list.push({
      provider,
      description: 'a request for reviews without paging parameters (the defaults)',
      state: given('reviewsExist', { count: DEFAULTS_COUNT }),
      request: { path: PATHS.reviews },
      response: { status: 200, body },
      exercise: async (client) => expectBody(body)(await client.listReviews()),
    });
  }
  for (const order of ['created_at', '-created_at']) {
    const body = reviewsBody(reviewTemplate(), COUNT, 0, SIZE);
    list.push({
      provider,
      description: `a request for reviews ordered by ${order} (${order.startsWith('-') ? 'newest' : 'oldest'} first)`,
      state: allReviews,
      request: { path: PATHS.reviews, query: q({ limit: SIZE, offset: 0, order }) },
      response: { status: 200, body },
      exercise: async (client) => expectBody(body)(await client.listReviews({ limit: SIZE, offset: 0, order })),
    });
  }
  list.push({
    provider,
    description: 'a request for reviews with a negative limit',
    state: allReviews,
    request: { path: PATHS.reviews, query: q({ limit: -5 }) },
    response: { status: 400, body: errorBody('invalid_data', 'limit', "Invalid request: 'limit' must be an integer from 1 to 1000, got '-5'") },
    exercise: (client) => expectApiError(client.listReviews({ limit: -5 }), 400, 'invalid_data'),
  });

  // 4.2
  const productPath = PATHS.productReviews.replace(':product_id', CONTRACT_PRODUCT_ID);
  const productReviews = given('productHasReviews', { product_id: CONTRACT_PRODUCT_ID, count: COUNT });
  for (const page of PAGES) {
    const body = reviewsBody(reviewTemplate(CONTRACT_PRODUCT_ID), COUNT, page.start, SIZE);
    list.push({
      provider,
      description: `a request for ${page.name} of a product's reviews (limit ${SIZE}, offset ${page.start})`,
      state: productReviews,
      request: { path: productPath, query: q({ limit: SIZE, offset: page.start }) },
      response: { status: 200, body },
      exercise: async (client) => expectBody(body)(await client.listProductReviews(CONTRACT_PRODUCT_ID, { limit: SIZE, offset: page.start })),
    });
  }
  {
    const body = reviewsBody(reviewTemplate(CONTRACT_PRODUCT_ID), 0, 0, SIZE);
    list.push({
      provider,
      description: "a request for the reviews of a product that has none",
      state: given('productHasReviews', { product_id: CONTRACT_PRODUCT_ID, count: 0 }),
      request: { path: productPath, query: q({ limit: SIZE, offset: 0 }) },
      response: { status: 200, body },
      exercise: async (client) => expectBody(body)(await client.listProductReviews(CONTRACT_PRODUCT_ID, { limit: SIZE, offset: 0 })),
    });
  }
  {
    const body = reviewsBody(reviewTemplate(CONTRACT_PRODUCT_ID), DEFAULTS_COUNT, REVIEWS_DEFAULT_OFFSET, REVIEWS_DEFAULT_LIMIT);
    list.push({
      provider,
      description: "a request for a product's reviews without paging parameters (the defaults)",
      state: given('productHasReviews', { product_id: CONTRACT_PRODUCT_ID, count: DEFAULTS_COUNT }),
      request: { path: productPath },
      response: { status: 200, body },
      exercise: async (client) => expectBody(body)(await client.listProductReviews(CONTRACT_PRODUCT_ID)),
    });
  }
  list.push({
    provider,
    description: "a request for a product's reviews with a negative offset",
    state: productReviews,
    request: { path: productPath, query: q({ offset: -1 }) },
    response: { status: 400, body: errorBody('invalid_data', 'offset', "Invalid request: 'offset' must be an integer from 0 to 9007199254740991, got '-1'") },
    exercise: (client) => expectApiError(client.listProductReviews(CONTRACT_PRODUCT_ID, { offset: -1 }), 400, 'invalid_data'),
  });
  return list;
}

function wishlistInteractions(): ContractInteraction[] {
  const provider = 'wishlist';
  const list: ContractInteraction[] = [];

  // 4.3
  const wishlists = given('wishlistsExist', { count: COUNT });
  for (const page of PAGES) {
    const body = wishlistBody(wishlistTemplate(), COUNT, page.start, SIZE);
    list.push({
      provider,
      description: `a request for ${page.name} of wishlists (skip ${page.start}, take ${SIZE})`,
      state: wishlists,
      request: { path: PATHS.wishlists, query: q({ skip: page.start, take: SIZE }) },
      response: { status: 200, body },
      exercise: async (client) => expectBody(body)(await client.listWishlists({ skip: page.start, take: SIZE })),
    });
  }
  {
    const body = wishlistBody(wishlistTemplate(), 0, 0, SIZE);
    list.push({
      provider,
      description: 'a request for wishlists when there are none',
      state: given('noWishlistsExist', {}),
      request: { path: PATHS.wishlists, query: q({ skip: 0, take: SIZE }) },
      response: { status: 200, body },
      exercise: async (client) => expectBody(body)(await client.listWishlists({ skip: 0, take: SIZE })),
    });
  }
  {
    const body = wishlistBody(wishlistTemplate(), DEFAULTS_COUNT, WISHLIST_DEFAULT_SKIP, WISHLIST_DEFAULT_TAKE);
    list.push({
      provider,
      description: 'a request for wishlists without paging parameters (the defaults)',
      state: given('wishlistsExist', { count: DEFAULTS_COUNT }),
      request: { path: PATHS.wishlists },
      response: { status: 200, body },
      exercise: async (client) => expectBody(body)(await client.listWishlists()),
    });
  }
  list.push({
    provider,
    description: 'a request for wishlists with a negative take',
    state: wishlists,
    request: { path: PATHS.wishlists, query: q({ take: -1 }) },
    response: { status: 400, body: errorBody('invalid_data', 'take', "Invalid request: 'take' must be an integer from 1 to 1000, got '-1'") },
    exercise: (client) => expectApiError(client.listWishlists({ take: -1 }), 400, 'invalid_data'),
  });

  // 4.4
  const itemsPath = PATHS.wishlistItems.replace(':id', CONTRACT_WISHLIST_ID);
  const items = given('wishlistHasItems', { wishlist_id: CONTRACT_WISHLIST_ID, count: COUNT });
  for (const page of PAGES) {
    const body = wishlistBody(wishlistItemTemplate(CONTRACT_WISHLIST_ID), COUNT, page.start, SIZE);
    list.push({
      provider,
      description: `a request for ${page.name} of a wishlist's items (skip ${page.start}, take ${SIZE})`,
      state: items,
      request: { path: itemsPath, query: q({ skip: page.start, take: SIZE }) },
      response: { status: 200, body },
      exercise: async (client) => expectBody(body)(await client.listWishlistItems(CONTRACT_WISHLIST_ID, { skip: page.start, take: SIZE })),
    });
  }
  {
    const body = wishlistBody(wishlistItemTemplate(CONTRACT_WISHLIST_ID), COUNT, 0, SIZE);
    list.push({
      provider,
      description: "a request for a wishlist's items that passes the wishlist id again as ?id=",
      state: items,
      request: { path: itemsPath, query: q({ id: CONTRACT_WISHLIST_ID, skip: 0, take: SIZE }) },
      response: { status: 200, body },
      exercise: async (client) => expectBody(body)(await client.listWishlistItems(CONTRACT_WISHLIST_ID, { skip: 0, take: SIZE, idInQuery: true })),
    });
  }
  {
    const body = wishlistBody(wishlistItemTemplate(CONTRACT_WISHLIST_ID), 0, 0, SIZE);
    list.push({
      provider,
      description: 'a request for the items of an empty wishlist',
      state: given('wishlistHasItems', { wishlist_id: CONTRACT_WISHLIST_ID, count: 0 }),
      request: { path: itemsPath, query: q({ skip: 0, take: SIZE }) },
      response: { status: 200, body },
      exercise: async (client) => expectBody(body)(await client.listWishlistItems(CONTRACT_WISHLIST_ID, { skip: 0, take: SIZE })),
    });
  }
  {
    const body = wishlistBody(wishlistItemTemplate(CONTRACT_WISHLIST_ID), DEFAULTS_COUNT, WISHLIST_DEFAULT_SKIP, WISHLIST_DEFAULT_TAKE);
    list.push({
      provider,
      description: "a request for a wishlist's items without paging parameters (the defaults)",
      state: given('wishlistHasItems', { wishlist_id: CONTRACT_WISHLIST_ID, count: DEFAULTS_COUNT }),
      request: { path: itemsPath },
      response: { status: 200, body },
      exercise: async (client) => expectBody(body)(await client.listWishlistItems(CONTRACT_WISHLIST_ID)),
    });
  }
  list.push({
    provider,
    description: "a request for a wishlist's items with a negative skip",
    state: items,
    request: { path: itemsPath, query: q({ skip: -1 }) },
    response: { status: 400, body: errorBody('invalid_data', 'skip', "Invalid request: 'skip' must be an integer from 0 to 9007199254740991, got '-1'") },
    exercise: (client) => expectApiError(client.listWishlistItems(CONTRACT_WISHLIST_ID, { skip: -1 }), 400, 'invalid_data'),
  });
  list.push({
    provider,
    description: 'a request for the items of a wishlist that does not exist',
    state: given('noWishlistsExist', {}),
    request: { path: PATHS.wishlistItems.replace(':id', UNKNOWN_WISHLIST_ID) },
    response: { status: 404, body: errorBody('not_found', UNKNOWN_WISHLIST_ID, `Wishlist with id: ${UNKNOWN_WISHLIST_ID} was not found`) },
    exercise: (client) => expectApiError(client.listWishlistItems(UNKNOWN_WISHLIST_ID), 404, 'not_found'),
  });
  return list;
}

/** All interactions of one provider, in a fixed order. */
export function interactionsOf(provider: ProviderName): ContractInteraction[] {
  return provider === 'product-reviews' ? reviewsInteractions() : wishlistInteractions();
}
