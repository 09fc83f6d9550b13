/**
 * In front of the real Medusa with the published plugins (`npm run test:medusa`), each customer's own
 * data (issue 36): `serve --dialect alphabite --backend <Medusa>` reads a customer's wishlists with
 * their items, and the reviews, from Medusa's plugin routes with the customer's own token on their
 * first request, answers from them byte for byte as Medusa does, keeps the customer's writes in the
 * mock only, and reads again after POST /__admin/reset.
 *
 * The reads are those the plugin authors' Postman collections make (alphabite-dev/medusa-wishlist
 * "Alphabite Wishlist.postman_collection.json", alphabite-dev/medusa-reviews "Alphabite
 * Reviews.postman_collection.json"), with their query strings as published; the differential matrix
 * through `serve --backend` is in differential.medusa.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLISHABLE_KEY_HEADER } from '../../lib/dialects/index.ts';
import { startMockServer, type MockServer } from '../../mock-server/server.ts';
import { medusaFacts, medusaVersionOption, variantIdsByTitle } from '../support/medusa-backend.ts';

const facts = medusaFacts();
const customers = facts.customers;

interface Answer {
  status: number;
  type: string | null;
  body: string;
}

const headersOf = (token: string | undefined): Record<string, string> => ({ [PUBLISHABLE_KEY_HEADER]: facts.publishableKey, ...(token ? { authorization: `Bearer ${token}` } : {}) });

async function ask(base: string, path: string, token?: string, init: { method?: string; body?: unknown } = {}): Promise<Answer> {
  const res = await fetch(`${base}${path}`, {
    method: init.method ?? 'GET',
    headers: { ...headersOf(token), ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    signal: AbortSignal.timeout(30_000),
  });
  return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
}

/** The reads of the plugin authors' Postman collections, for one customer: their wishlists' ids fill the path variables. */
function postmanReads(wishlistIds: string[]): string[] {
  const products = facts.products.map((p) => p.id);
  return [
    // Alphabite Wishlist: List Wishlists, Retrieve Wishlist, Wishlists Total Items Count, List Wishlist Items
    '/store/wishlists?limit=5&offset=0&order=created_at',
    '/store/wishlists/total-items-count',
    ...wishlistIds.flatMap((id) => [`/store/wishlists/${id}`, `/store/wishlists/${id}/items?limit=5&offset=0`]),
    // Alphabite Reviews: List Reviews, List Product Reviews, Aggregate Counts
    '/store/products/reviews?include_product=true&fields=&rating=5&limit=5&offset=0&order=desc&sort_by=created_at',
    ...products.flatMap((id) => [`/store/reviews/product/${id}?rating=5&verified_purchase_only=true&limit=5&offset=0&order=asc&sort_by=created_at`, `/store/reviews/product/${id}/aggregate-counts`]),
    // and the plain forms a storefront sends
    '/store/wishlists',
    '/store/products/reviews',
    '/store/products/reviews?my_reviews_only=true',
    '/store/wishlists/settings',
  ];
}

const wishlistsOf = (customerId: string) => facts.wishlists.filter((w) => w.customer_id === customerId).map((w) => w.id);

/** What Medusa itself holds for a customer: their wishlists with items, and their reviews (compared before and after writes through the mock). */
async function medusaState(token: string): Promise<string> {
  const wishlists = await ask(facts.baseUrl, '/store/wishlists?limit=100', token);
  const ids = (JSON.parse(wishlists.body) as { data: Array<{ id: string }> }).data.map((w) => w.id);
  const items = await Promise.all(ids.map((id) => ask(facts.baseUrl, `/store/wishlists/${id}/items?limit=100`, token)));
  const reviews = await ask(facts.baseUrl, '/store/products/reviews?my_reviews_only=true', token);
  return JSON.stringify([wishlists.body, items.map((a) => a.body), reviews.body]);
}

describe("serve --dialect alphabite --backend <Medusa>: each customer's own data, read from Medusa", () => {
  let mock: MockServer;

  beforeAll(async () => {
    mock = await startMockServer({ dialect: 'alphabite', backend: facts.baseUrl, ...medusaVersionOption(facts) });
  }, 60_000);

  afterAll(async () => {
    await mock?.close();
  });

  it('answers every read of the plugin authors\' Postman collections as Medusa does, byte for byte, for every seeded customer', async () => {
    const differ: string[] = [];
    let compared = 0;
    for (const customer of customers) {
      for (const path of postmanReads(wishlistsOf(customer.id))) {
        const [real, mocked] = [await ask(facts.baseUrl, path, customer.token), await ask(mock.url, path, customer.token)];
        compared++;
        if (real.status !== mocked.status || real.type !== mocked.type || real.body !== mocked.body) differ.push(`${customer.email} GET ${path}\n  real: ${real.status} ${real.body.slice(0, 300)}\n  mock: ${mocked.status} ${mocked.body.slice(0, 300)}`);
      }
    }
    expect(compared).toBeGreaterThan(40);
    expect(differ, differ.join('\n')).toEqual([]);
  }, 300_000);

  it("two customers never see each other's wishlists: each lists exactly their own, as Medusa lists them", async () => {
    const [shopper, ada] = customers as [(typeof customers)[0], (typeof customers)[0]];
    const listed = async (token: string) => (JSON.parse((await ask(mock.url, '/store/wishlists?limit=100', token)).body) as { data: Array<{ id: string; customer_id: string }> }).data;
    const [mine, theirs] = [await listed(shopper.token), await listed(ada.token)];
    expect(mine.map((w) => w.id).sort()).toEqual(wishlistsOf(shopper.id).sort());
    expect(theirs.map((w) => w.id).sort()).toEqual(wishlistsOf(ada.id).sort());
    expect(new Set(mine.map((w) => w.customer_id))).toEqual(new Set([shopper.id]));
    expect(mine.some((w) => theirs.some((t) => t.id === w.id))).toBe(false);
    // the other's wishlist, by id: Medusa's own answer (the plugin refuses another customer's items)
    const foreign = wishlistsOf(ada.id).find((id) => (facts.wishlists.find((w) => w.id === id)?.itemIds.length ?? 0) > 0)!;
    const [real, mocked] = [await ask(facts.baseUrl, `/store/wishlists/${foreign}/items`, shopper.token), await ask(mock.url, `/store/wishlists/${foreign}/items`, shopper.token)];
    expect({ status: mocked.status, body: mocked.body }).toEqual({ status: real.status, body: real.body });
    expect(mocked.status).toBe(500);
  });

  it("keeps a customer's writes in the mock only: Medusa's data is unchanged, and a reset reads it again", async () => {
    const shopper = customers[0]!;
    const before = await medusaState(shopper.token);
    const [own] = wishlistsOf(shopper.id);
    const mug = facts.products.find((p) => p.handle === 'kit-mug')!;
    const variants = await variantIdsByTitle(facts, mug.id);
    const listedItems = async (base: string) => (JSON.parse((await ask(base, `/store/wishlists/${own}/items?limit=100`, shopper.token)).body) as { data: Array<{ id: string; product_variant_id: string }> }).data;
    const seeded = await listedItems(mock.url);
    const fresh = variants.find((v) => !seeded.some((i) => i.product_variant_id === v))!;

    // a storefront's writes: add an item, remove one of the real ones, rename, create another wishlist, review
    const added = await ask(mock.url, `/store/wishlists/${own}/add-item`, shopper.token, { method: 'POST', body: { product_variant_id: fresh } });
    expect(added.status).toBe(201);
    const removed = await ask(mock.url, `/store/wishlists/${own}/items/${seeded[0]!.id}`, shopper.token, { method: 'DELETE' });
    expect(removed.status).toBe(200);
    expect((await ask(mock.url, `/store/wishlists/${own}`, shopper.token, { method: 'PUT', body: { name: 'Renamed in the mock' } })).status).toBe(200);
    expect((await ask(mock.url, '/store/wishlists', shopper.token, { method: 'POST', body: { name: 'Mock only', sales_channel_id: facts.salesChannelId } })).status).toBeLessThan(300);
    expect((await ask(mock.url, '/store/reviews', shopper.token, { method: 'POST', body: { content: 'Mock only', rating: 4, product_id: mug.id } })).status).toBe(201);

    // the mock shows them to the shopper
    const after = await listedItems(mock.url);
    expect(after.map((i) => i.id)).not.toContain(seeded[0]!.id);
    expect(after.map((i) => i.product_variant_id)).toContain(fresh);
    const retrieved = JSON.parse((await ask(mock.url, `/store/wishlists/${own}`, shopper.token)).body) as { name: string };
    expect(retrieved.name).toBe('Renamed in the mock');

    // Medusa holds exactly what it held
    expect(await medusaState(shopper.token)).toBe(before);

    // a reset drops the writes and reads Medusa again: the mock answers as Medusa does once more
    const reset = await fetch(`${mock.url}/__admin/reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(reset.status).toBe(200);
    for (const path of postmanReads([own!])) {
      const [real, mocked] = [await ask(facts.baseUrl, path, shopper.token), await ask(mock.url, path, shopper.token)];
      expect({ path, status: mocked.status, body: mocked.body }).toEqual({ path, status: real.status, body: real.body });
    }
  }, 120_000);

  it('passes a token Medusa refuses its own 401 on the wishlist listing, and answers the reviews as to a guest', async () => {
    const token = 'not-a-token';
    for (const path of ['/store/wishlists', '/store/products/reviews']) {
      const [real, mocked] = [await ask(facts.baseUrl, path, token), await ask(mock.url, path, token)];
      expect({ path, status: mocked.status, body: mocked.body }).toEqual({ path, status: real.status, body: real.body });
    }
  });

  it("says where the data comes from: /__admin/config's server.pluginData", async () => {
    const config = (await (await fetch(`${mock.url}/__admin/config`)).json()) as { server: { pluginData: { source: string; plugins: boolean; customersRead: number } } };
    expect(config.server.pluginData).toMatchObject({ source: 'backend', plugins: true });
    expect(config.server.pluginData.customersRead).toBeGreaterThan(0);
  });
});

describe('serve --dialect alphabite --backend <Medusa> --plugin-data generated', () => {
  let mock: MockServer;

  beforeAll(async () => {
    mock = await startMockServer({ dialect: 'alphabite', backend: facts.baseUrl, pluginData: 'generated', ...medusaVersionOption(facts) });
  }, 60_000);

  afterAll(async () => {
    await mock?.close();
  });

  it("answers from data generated over Medusa's catalogue, not the customer's own", async () => {
    const shopper = customers[0]!;
    const listed = JSON.parse((await ask(mock.url, '/store/wishlists?limit=100', shopper.token)).body) as { data: Array<{ id: string }> };
    expect(listed.data.map((w) => w.id).some((id) => wishlistsOf(shopper.id).includes(id))).toBe(false);
    const config = (await (await fetch(`${mock.url}/__admin/config`)).json()) as { server: { pluginData: { source: string } } };
    expect(config.server.pluginData.source).toBe('generated');
  });
});
