/**
 * The published clients against the mock: @alphabite/medusa-sdk (on @medusajs/js-sdk) in both
 * dialects, and an infinite list with @tanstack/query-core's InfiniteQueryObserver driven by the
 * envelope's nextPage, as storefronts write it. The alphabite flows live in
 * support/real-client-flows.ts, shared with the run against a real Medusa backend.
 */
import { FetchError } from '@medusajs/js-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLISHABLE_KEY_HEADER } from '../lib/dialects/index.ts';
import { startMockServer, type MockServer } from '../mock-server/server.ts';
import {
  allReviewsIgnorePaging,
  byId,
  everyListMethodAnswers,
  ids,
  infiniteList,
  infiniteListNeverEnds,
  recordsOf,
  refusesWhatThePluginsRefuse,
  sdkFor,
  walksVisitEveryRecordOnce,
  type ListingBackend,
} from './support/real-client-flows.ts';
import { namedCustomer } from './support/customer-token.ts';
import { generateDataset } from '../fixtures/dataset.ts';

const KEY = 'pk_test_storefront';
/** The customer seed 1's dataset names as its first wishlist's owner: they see it (each customer sees their own wishlists). */
const OWNER = namedCustomer(generateDataset({ seed: 1 }), (w) => w === 0);
const TOKEN = OWNER.authorization;
/** How many wishlists the owner makes in beforeAll, besides the seeded one: a 4.3 of several pages. */
const MADE = 11;

/** The SDK against the spec dialect (which speaks none of the plugins' paging). */
function specSdk() {
  return sdkFor({ ...mockBackend(), baseUrl: spec.url });
}

let spec: MockServer;
let alphabite: MockServer;
/** The owner's wishlists, in id order: the seeded one, then those they made. */
let ownWishlistIds: string[];
beforeAll(async () => {
  [spec, alphabite] = await Promise.all([startMockServer({ seed: 1 }), startMockServer({ seed: 1, dialect: 'alphabite', allowMultipleWishlists: true })]);
  const made: string[] = [];
  for (let k = 0; k < MADE; k++) {
    const res = await fetch(`${alphabite.url}/store/wishlists`, { method: 'POST', headers: { [PUBLISHABLE_KEY_HEADER]: KEY, authorization: TOKEN, 'content-type': 'application/json' }, body: JSON.stringify({ name: `List ${k}`, sales_channel_id: 'sc_storefront' }) });
    expect(res.status).toBe(201);
    made.push(((await res.json()) as { id: string }).id);
  }
  ownWishlistIds = byId([...OWNER.wishlistIds, ...made]);
});
afterAll(async () => {
  await Promise.all([spec?.close(), alphabite?.close()]);
});

/** Ids of a whole listing, from the spec dialect with one large page (the reference). */
async function referenceIds(path: string, sizeParam: 'limit' | 'take'): Promise<string[]> {
  const body = (await (await fetch(`${spec.url}${path}${path.includes('?') ? '&' : '?'}${sizeParam}=1000`)).json()) as { reviews?: Array<{ id: string }>; data?: Array<{ id: string }> };
  return ids(body.reviews ?? body.data ?? []);
}

const wishlistId = OWNER.wishlistIds[0]!;
const productId = 'prod_0000000000DG0Z6FHNZDXQTW3V';

/**
 * The alphabite mock as a backend for the shared flows; what it holds comes from the spec dialect (same seed), in id
 * order, but for the wishlists: the owner's own (4.3 lists the caller's only).
 */
function mockBackend(): ListingBackend {
  return {
    baseUrl: alphabite.url,
    publishableKey: KEY,
    authorization: TOKEN,
    productId,
    wishlistId,
    allReviewIds: async () => byId(await referenceIds('/store/products/reviews', 'limit')),
    productReviewIds: async (id) => byId(await referenceIds(`/store/reviews/product/${id}`, 'limit')),
    // the mock's reviews are all approved
    approvedReviewCount: async (id) => (await referenceIds(`/store/reviews/product/${id}`, 'limit')).length,
    wishlistIds: async () => ownWishlistIds,
    itemIds: async (id) => byId(await referenceIds(`/store/wishlists/${id}/items`, 'take')),
  };
}

// The same flows run against a real Medusa backend with the plugins in test/medusa/real-clients.medusa.test.ts.
describe('@alphabite/medusa-sdk against the alphabite dialect', () => {
  it('every list method answers 200 with the plugins\' envelope', async () => {
    const backend = mockBackend();
    await everyListMethodAnswers(backend);
    // the owner's wishlists: the seeded one and the 11 they made, 2 pages of 10
    expect(await sdkFor(backend).alphabite.wishlist.list({})).toMatchObject({ count: OWNER.wishlistIds.length + MADE, totalPages: 2, nextPage: 2 });
  });

  it('4.1 ignores paging, as the plugin does: one call lists every review once, whatever limit/offset say', async () => {
    await allReviewsIgnorePaging(mockBackend());
  });

  it('walking 4.2, 4.3 and 4.4 by limit/offset visits every record once', async () => {
    await walksVisitEveryRecordOnce(mockBackend());
  });

  it('refuses what the plugins refuse: no publishable key, no customer token on 4.3', async () => {
    await refusesWhatThePluginsRefuse(mockBackend());
  });
});

describe('@alphabite/medusa-sdk against the spec dialect', () => {
  it('the reviews methods work', async () => {
    const sdk = specSdk();
    const reviews = (await sdk.alphabite.reviews.list({ limit: 5, offset: 5, order: '-created_at' as 'desc' })) as unknown as { reviews: unknown[]; limit: number };
    expect(reviews.reviews).toHaveLength(5);
    const product = (await sdk.alphabite.reviews.listProductReviews({ product_id: 'prod_0000000000DG0Z6FHNZDXQTW3V', limit: 3 })) as unknown as { reviews: unknown[] };
    expect(product.reviews).toHaveLength(3);
  });

  it('the wishlist methods get a 400 that says why and what to do', async () => {
    const sdk = specSdk();
    for (const call of [() => sdk.alphabite.wishlist.list({}), () => sdk.alphabite.wishlist.listItems({ id: 'wl_0000000000CQN6QG3QXJQ55NPW' })]) {
      const error = await call().then(
        () => undefined,
        (e: unknown) => e,
      );
      // the SDK bundles its own copy of @medusajs/js-sdk: its FetchError, by shape
      expect(error).toMatchObject({ name: 'Error', status: 400, statusText: 'Bad Request' });
      expect(Object.keys(new FetchError('m', 'Bad Request', 400))).toEqual(Object.keys(error as object));
      expect((error as Error).message).toMatch(/unknown query parameter 'limit'; accepted parameters: skip, take.*wishlists page with 'skip' and 'take'.*@alphabite\/medusa-sdk.*--dialect alphabite/);
    }
  });
});

describe('an infinite list (@tanstack/query-core) by nextPage', () => {
  it('spec: stops exactly at the last page of each endpoint, every record once', async () => {
    const cases = [
      { path: '/store/products/reviews', size: 'limit', start: 'offset', per: 20 },
      { path: `/store/reviews/product/${productId}`, size: 'limit', start: 'offset', per: 20 },
      { path: '/store/wishlists', size: 'take', start: 'skip', per: 10 },
      { path: `/store/wishlists/${wishlistId}/items`, size: 'take', start: 'skip', per: 10 },
    ] as const;
    for (const c of cases) {
      const { pages, hasNextPage } = await infiniteList((page) => `${spec.url}${c.path}?${c.size}=${c.per}&${c.start}=${(page - 1) * c.per}`, {}, 100);
      expect(hasNextPage, c.path).toBe(false);
      expect(pages.length, c.path).toBe(pages[0]!.totalPages);
      expect(recordsOf(pages), c.path).toEqual(await referenceIds(c.path, c.size));
    }
  });

  it('alphabite: nextPage never runs out, so the list repeats its last page until the storefront stops it', async () => {
    await infiniteListNeverEnds(mockBackend());
    // 4.1 on the seeded mock: 300 reviews on every page
    const { pages } = await infiniteList((page) => `${alphabite.url}/store/products/reviews?limit=10&offset=${(page - 1) * 10}`, { [PUBLISHABLE_KEY_HEADER]: KEY, authorization: TOKEN }, 1);
    expect(pages[0]!.data).toHaveLength(300);
  });
});
