/**
 * A storefront's own test suite that writes its own pacts (docs/contracts.md, "Your own pacts"): the
 * published SDK, `@alphabite/medusa-sdk`, makes its list calls as the storefront's pages do, against the
 * kit's mock in the plugins' dialect; each test sets the provider state it relies on first, as a Pact
 * consumer test does. When the mock stops, every request made under a state is an interaction of
 * `example-storefront`'s pacts with `product-reviews` and `wishlist`, written into $PACT_DIR
 * (default ./pacts beside this file), the same bytes every run.
 *
 * In your own repository, import from the package: `from 'store-listing-kit/mock-server'`.
 */
import { join } from 'node:path';
import { AlphabiteMedusaSdk, reviewsPlugin, wishlistPlugin } from '@alphabite/medusa-sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../mock-server/index.ts';

export const CONSUMER = 'example-storefront';
/** The product page and the wishlist page of the storefront; any ids a provider's state route can set up. */
export const PRODUCT_ID = 'prod_01EXAMPLESTOREFRONT0000001';
export const WISHLIST_ID = 'wl_01EXAMPLESTOREFRONT00000001';

const pactDir = process.env.PACT_DIR ?? join(import.meta.dirname, 'pacts');

let mock: MockServer;
let sdk: ReturnType<typeof storefrontSdk>;

/** The SDK as the storefront builds it: a publishable key, and the signed-in customer's token. */
function storefrontSdk(baseUrl: string) {
  return new AlphabiteMedusaSdk({ baseUrl, publishableKey: 'pk_example_storefront', auth: { type: 'jwt', jwtTokenStorageMethod: 'nostore' } }, [reviewsPlugin, wishlistPlugin] as const, {
    getAuthHeader: () => ({ authorization: 'Bearer example-customer-token' }),
  });
}

/** What a provider must hold for the test: POSTed to the mock's provider-state door, as `verify` does to yours. */
async function given(state: string, params: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${mock.url}/__admin/provider-states`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ state, params }) });
  if (response.status !== 200) throw new Error(`the provider state '${state}' was refused: ${response.status} ${await response.text()}`);
  await response.text();
}

beforeAll(async () => {
  mock = await startMockServer({ dialect: 'alphabite', pactConsumer: CONSUMER, pactDir });
  sdk = storefrontSdk(mock.url);
});

afterAll(async () => {
  // close() writes the pacts (and rejects when it cannot)
  await mock?.close();
});

describe('the reviews page', () => {
  beforeEach(() => given('reviews exist', { count: 12 }));

  it('shows the latest reviews, five at a time', async () => {
    const page = await sdk.alphabite.reviews.list({ limit: 5, offset: 0 });
    expect(page.data.length).toBeGreaterThan(0);
    expect(page.data.every((review) => review.id.startsWith('rev_'))).toBe(true);
  });
});

describe('the product page', () => {
  beforeEach(() => given('product has reviews', { product_id: PRODUCT_ID, count: 7 }));

  it("lists the product's reviews, five at a time, and offers the second page", async () => {
    const first = await sdk.alphabite.reviews.listProductReviews({ product_id: PRODUCT_ID, limit: 5, offset: 0 });
    expect(first).toMatchObject({ count: 7, currentPage: 1, totalPages: 2, nextPage: 2 });
    expect(first.data.every((review) => review.product_id === PRODUCT_ID)).toBe(true);
    const second = await sdk.alphabite.reviews.listProductReviews({ product_id: PRODUCT_ID, limit: 5, offset: 5 });
    expect(second).toMatchObject({ count: 7, currentPage: 2, totalPages: 2, prevPage: 1 });
    expect(second.data).toHaveLength(2);
  });
});

describe('the wishlist page', () => {
  beforeEach(() => given('wishlist has items', { wishlist_id: WISHLIST_ID, count: 3 }));

  it('shows the items of the wishlist on one page', async () => {
    const items = await sdk.alphabite.wishlist.listItems({ id: WISHLIST_ID, limit: 10, offset: 0 });
    expect(items).toMatchObject({ count: 3, currentPage: 1, totalPages: 1 });
    expect(items.data).toHaveLength(3);
  });
});
