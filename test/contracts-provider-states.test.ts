import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATES, STATE_NAMES } from '../lib/provider-states.ts';
import { DEFAULT_REVIEW_ORDER } from '../lib/api-rules.ts';
import { strictRecordSchemas } from '../lib/records.ts';
import type { Dataset } from '../fixtures/index.ts';
import { PROVIDER_STATES_PATH } from '../lib/provider-states.ts';
import { pactStateHandlers, STATE_DATASETS } from '../mock-server/state/provider-states.ts';
import { startMockServer, type MockServer } from '../mock-server/server.ts';

// The provider states: pure datasets with exactly what each state promises (and valid
// records), installed and torn down over HTTP with JSON errors for bad calls.

function allRecords(dataset: Dataset) {
  const reviews = dataset.reviews.page(DEFAULT_REVIEW_ORDER, 0, Math.max(1, dataset.reviews.count)).records;
  const wishlists = dataset.wishlists.page(0, Math.max(1, dataset.wishlists.count)).records;
  return { reviews, wishlists };
}

function expectValidRecords(dataset: Dataset): void {
  const { reviews, wishlists } = allRecords(dataset);
  for (const r of reviews) expect(strictRecordSchemas.review.safeParse(r).error).toBeUndefined();
  for (const w of wishlists) expect(strictRecordSchemas.wishlist.safeParse(w).error).toBeUndefined();
}

describe('state datasets', () => {
  it('reviews exist { count }: exactly count reviews, no wishlists', () => {
    for (const count of [0, 1, 12, 25]) {
      const dataset = STATE_DATASETS.reviewsExist({ count });
      expect(dataset.reviews.count).toBe(count);
      expect(dataset.wishlists.count).toBe(0);
      expectValidRecords(dataset);
    }
  });

  it('product has reviews { product_id, count }: exactly count reviews of that product, and reviews of others', () => {
    for (const count of [0, 12]) {
      const dataset = STATE_DATASETS.productHasReviews({ product_id: 'prod_01TEST', count });
      const page = dataset.reviews.productPage('prod_01TEST', DEFAULT_REVIEW_ORDER, 0, 1000);
      expect(page.count).toBe(count);
      expect(page.records.every((r) => r.product_id === 'prod_01TEST')).toBe(true);
      expect(dataset.reviews.count).toBeGreaterThan(count);
      expectValidRecords(dataset);
    }
  });

  it('wishlist has items { wishlist_id, count }: that wishlist with exactly count items, beside others', () => {
    for (const count of [0, 12, 25]) {
      const dataset = STATE_DATASETS.wishlistHasItems({ wishlist_id: 'wl_01TEST', count });
      const index = dataset.wishlists.indexOf('wl_01TEST');
      expect(index).toBeGreaterThanOrEqual(0);
      const items = dataset.wishlists.itemsPage(index, 0, 1000);
      expect(items.count).toBe(count);
      expect(items.records.every((i) => i.wishlist_id === 'wl_01TEST')).toBe(true);
      expect(dataset.wishlists.count).toBeGreaterThan(1);
      expectValidRecords(dataset);
    }
  });

  it('wishlists exist { count } and the empty states', () => {
    const some = STATE_DATASETS.wishlistsExist({ count: 12 });
    expect(some.wishlists.count).toBe(12);
    expectValidRecords(some);
    expect(STATE_DATASETS.noWishlistsExist({}).wishlists.count).toBe(0);
    expect(STATE_DATASETS.noReviewsExist({}).reviews.count).toBe(0);
  });

  it('the same state builds the same records every time', () => {
    const a = allRecords(STATE_DATASETS.productHasReviews({ product_id: 'prod_01TEST', count: 7 }));
    const b = allRecords(STATE_DATASETS.productHasReviews({ product_id: 'prod_01TEST', count: 7 }));
    expect(a).toEqual(b);
  });
});

describe("Pact state handlers (pactStateHandlers)", () => {
  it("hold the kit's states and nothing else: a pact's state named constructor or toString finds no handler", async () => {
    const mock = await startMockServer({ seed: 1 });
    try {
      const handlers = pactStateHandlers(mock.dataset);
      expect(Object.keys(handlers).sort()).toEqual([...STATE_NAMES].sort());
      for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) expect(handlers[name], name).toBeUndefined();
    } finally {
      await mock.close();
    }
  });
});

describe(`POST ${PROVIDER_STATES_PATH}`, () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ seed: 1 });
  });
  afterAll(() => mock.close());

  const post = async (body: unknown, contentType = 'application/json') => {
    const res = await fetch(`${mock.url}${PROVIDER_STATES_PATH}`, { method: 'POST', headers: { 'content-type': contentType }, body: typeof body === 'string' ? body : JSON.stringify(body) });
    return { status: res.status, contentType: res.headers.get('content-type'), json: (await res.json()) as Record<string, unknown> };
  };
  const getJson = async (path: string) => (await (await fetch(`${mock.url}${path}`)).json()) as Record<string, unknown>;

  it('sets a state up (the listing then shows it) and tears it down (back to the server\'s own data)', async () => {
    const before = await getJson('/store/products/reviews?limit=1');
    const setup = await post({ state: 'product has reviews', params: { product_id: 'prod_01HTTP', count: 7 }, action: 'setup' });
    expect(setup.status).toBe(200);
    expect(setup.json).toEqual({ product_id: 'prod_01HTTP', count: 7 });
    expect(await getJson('/store/reviews/product/prod_01HTTP?limit=5')).toMatchObject({ count: 7, totalPages: 2, nextPage: 2 });
    const teardown = await post({ state: 'product has reviews', params: { product_id: 'prod_01HTTP', count: 7 }, action: 'teardown' });
    expect(teardown.status).toBe(200);
    expect(await getJson('/store/products/reviews?limit=1')).toEqual(before);
    expect(mock.dataset.current).toBe(mock.dataset.initial);
  });

  it('treats a missing action as setup, and a state without params as having none', async () => {
    expect((await post({ state: 'no wishlists exist' })).status).toBe(200);
    expect(await getJson('/store/wishlists')).toMatchObject({ count: 0, totalPages: 0 });
    expect((await post({ state: 'no wishlists exist', action: 'teardown' })).status).toBe(200);
  });

  it('answers 400 invalid_data, naming the known states, for an unknown state', async () => {
    const res = await post({ state: 'reviews are plentiful', action: 'setup' });
    expect(res.status).toBe(400);
    expect(res.contentType).toMatch(/^application\/json/);
    expect(res.json.type).toBe('invalid_data');
    expect(res.json.message).toContain("'reviews are plentiful'");
    for (const name of STATE_NAMES) expect(res.json.message).toContain(`'${name}'`);
  });

  it.each([
    [{ state: STATES.reviewsExist.name, params: {} }, "'count'"],
    [{ state: STATES.reviewsExist.name, params: { count: -1 } }, "'count'"],
    [{ state: STATES.reviewsExist.name, params: { count: '3' } }, "'count'"],
    [{ state: STATES.reviewsExist.name, params: { count: 1.5 } }, "'count'"],
    [{ state: STATES.reviewsExist.name, params: { count: 3, colour: 'red' } }, "'colour'"],
    [{ state: STATES.wishlistHasItems.name, params: { wishlist_id: 'list-1', count: 3 } }, "'wishlist_id'"],
    [{ state: STATES.productHasReviews.name, params: { product_id: 'prod_1' } }, "'count'"],
    [{ state: STATES.reviewsExist.name, params: { count: 3 }, action: 'reset' }, "'action'"],
    [{ params: { count: 3 } }, "'state'"],
  ])('answers 400 invalid_data for bad params or body %j', async (body, names) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(res.json.type).toBe('invalid_data');
    expect(res.json.message).toContain(names);
    expect(mock.dataset.current).toBe(mock.dataset.initial);
  });

  it('answers 400 invalid_data for a body that is not JSON', async () => {
    const res = await post('{"state": ', 'application/json');
    expect(res.status).toBe(400);
    expect(res.json.type).toBe('invalid_data');
  });
});
