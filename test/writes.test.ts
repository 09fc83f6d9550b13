/**
 * The write routes of the alphabite dialect (mock-server/writes, docs/writes.md): each route's happy
 * path and error kinds as the published plugins answer them, the customers' isolation, the bounds,
 * the resets, the same answers from every worker of a cluster, the spec dialect's 405, and a hostile
 * property (fast-check): nothing crashes, and no customer's writes change another's listings.
 */
import { request } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../mock-server/server.ts';
import type { MockCluster } from '../mock-server/cluster/start-cluster.ts';
import { WRITE_LIMITS } from '../mock-server/writes/store.ts';
import { MOCK_SHARE_TOKEN_SECRET } from '../mock-server/writes/share-token.ts';
import { createHmac } from 'node:crypto';
import { runCli, startServe } from './support/cli-process.ts';
import { customerToken, namedCustomer } from './support/customer-token.ts';
import { generateDataset } from '../fixtures/dataset.ts';

interface Answer {
  status: number;
  type: string | undefined;
  text: string;
  json: any;
}

const KEY = { 'x-publishable-api-key': 'pk_test' };

/** One request on a new connection (a cluster hands each new connection to the next worker). */
function send(base: string, method: string, path: string, options: { token?: string; body?: unknown; raw?: { type?: string; text: string }; headers?: Record<string, string> } = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...KEY, ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let payload: string | undefined;
  if (options.raw) {
    if (options.raw.type) headers['content-type'] = options.raw.type;
    payload = options.raw.text;
  } else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(options.body);
  }
  // Framed explicitly: Node's client sends a DELETE's body unframed (no Content-Length, not chunked).
  if (payload !== undefined) headers['content-length'] = String(Buffer.byteLength(payload));
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, agent: false, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        let parsed: unknown;
        try {
          parsed = text ? JSON.parse(text) : undefined;
        } catch {
          parsed = undefined;
        }
        resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], text, json: parsed });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

const admin = (base: string, path: string, body?: unknown) =>
  send(base, 'POST', path, body === undefined ? { headers: { 'x-requested-by': 'writes.test' } } : { body });

const EMPTY_500 = { status: 500, text: '' };

/**
 * The reader: the customer the default dataset (every server here serves it) names as the owner of a wishlist
 * holding three variants or more, which they see; to anyone else it is another customer's (each customer sees
 * their own wishlists). A bearer token naming them (lib/customers.ts reads a JWT's actor_id).
 */
const READER = (() => {
  const dataset = generateDataset();
  const { source } = dataset.wishlists;
  const variantsOf = (w: number) => new Set(Array.from({ length: source.itemCount(w) }, (_, k) => source.item(w, k).product_variant.id));
  return customerToken(namedCustomer(dataset, (w) => variantsOf(w).size >= 3).id);
})();

/** The reader's wishlist, its items, and their variants (the catalogue add-item knows). */
async function seedFacts(base: string) {
  const wishlists = (await send(base, 'GET', '/store/wishlists?limit=3', { token: READER })).json.data as Array<{ id: string }>;
  const items = (await send(base, 'GET', `/store/wishlists/${wishlists[0]!.id}/items?limit=100`, { token: READER })).json.data as Array<{ id: string; product_variant_id: string }>;
  const review = (await send(base, 'GET', '/store/products/reviews')).json.data[0] as { product_id: string };
  const variants = [...new Set(items.map((i) => i.product_variant_id))];
  // The flows below add three distinct variants.
  expect(variants.length).toBeGreaterThanOrEqual(3);
  return { wishlistIds: wishlists.map((w) => w.id), items, variants, productId: review.product_id };
}

/** How many wishlists a customer lists (4.3's count). */
const wishlistCount = async (base: string, token: string) => (await send(base, 'GET', '/store/wishlists?limit=1', { token })).json.count as number;

/** What another customer's listings look like: compared before and after someone else writes. */
async function listingsOf(base: string, token: string, facts: Awaited<ReturnType<typeof seedFacts>>): Promise<string[]> {
  const paths = [
    '/store/wishlists',
    '/store/wishlists?limit=5&offset=40&order=-created_at',
    `/store/wishlists/${facts.wishlistIds[0]}/items?limit=7&offset=2`,
    '/store/products/reviews?my_reviews_only=true&product_ids=' + facts.productId,
    `/store/reviews/product/${facts.productId}?limit=5&order=-rating`,
    '/store/wishlists/total-items-count',
  ];
  const out: string[] = [];
  for (const path of paths) out.push(`${path} ${(await send(base, 'GET', path, { token })).text}`);
  return out;
}

describe('the write routes (alphabite dialect)', () => {
  let mock: MockServer;
  let facts: Awaited<ReturnType<typeof seedFacts>>;
  beforeAll(async () => {
    mock = await startMockServer({ dialect: 'alphabite', allowMultipleWishlists: true });
    facts = await seedFacts(mock.url);
  });
  afterAll(() => mock.close());

  it('a storefront flow: create, add three items, list, remove one, retrieve, count, rename, share, and a review', async () => {
    const base = mock.url;
    const seededWishlists = await wishlistCount(base, 'flow');
    const created = await send(base, 'POST', '/store/wishlists', { token: 'flow', body: { name: 'Favourites', sales_channel_id: 'sc_test' } });
    expect(created.status).toBe(201);
    expect(Object.keys(created.json)).toEqual(['id', 'name', 'customer_id', 'sales_channel_id', 'created_at', 'updated_at', 'deleted_at', 'items', 'items_count']);
    expect(created.json).toMatchObject({ name: 'Favourites', sales_channel_id: 'sc_test', deleted_at: null, items: [], items_count: 0 });
    expect(created.json.created_at).toBe(created.json.updated_at);
    const id = created.json.id as string;
    const added = [];
    for (const variant of facts.variants.slice(0, 3)) {
      const res = await send(base, 'POST', `/store/wishlists/${id}/add-item`, { token: 'flow', body: { product_variant_id: variant } });
      expect(res.status).toBe(201);
      expect(Object.keys(res.json)).toEqual(['id', 'wishlist_id', 'product_variant_id', 'product_variant']);
      expect(Object.keys(res.json.product_variant)).toEqual(['id', 'title', 'product_id', 'product']);
      added.push(res.json.id as string);
    }
    const listed = await send(base, 'GET', `/store/wishlists/${id}/items`, { token: 'flow' });
    expect(listed.json.data.map((i: { id: string }) => i.id)).toEqual(added);
    expect(listed.json).toMatchObject({ count: 3, skip: 0, take: 20, totalPages: 1 });
    // the page arithmetic of the listings: a page of 2 from offset 1
    const page = await send(base, 'GET', `/store/wishlists/${id}/items?limit=2&offset=1&order=-created_at`, { token: 'flow' });
    expect(page.json.data.map((i: { id: string }) => i.id)).toEqual([added[1], added[0]]);
    expect(page.json).toMatchObject({ count: 3, skip: 1, take: 2 });
    expect(await send(base, 'DELETE', `/store/wishlists/${id}/items/${added[1]}`, { token: 'flow' })).toMatchObject({ status: 200, json: { id: added[1] } });
    const retrieved = await send(base, 'GET', `/store/wishlists/${id}`, { token: 'flow' });
    expect(Object.keys(retrieved.json)).toEqual(['id', 'name', 'customer_id', 'sales_channel_id', 'items_count', 'items']);
    expect(retrieved.json.items.map((i: { id: string }) => i.id)).toEqual([added[0], added[2]]);
    // over all their wishlists: their seeded one's items and the two left here
    const seededItems = (await send(base, 'GET', `/store/wishlists/${(await send(base, 'GET', '/store/wishlists?limit=1', { token: 'flow' })).json.data[0].id}/items?limit=0`, { token: 'flow' })).json.count as number;
    expect((await send(base, 'GET', '/store/wishlists/total-items-count', { token: 'flow' })).json).toEqual({ total_items_count: seededItems + 2 });
    expect((await send(base, 'GET', `/store/wishlists/total-items-count?wishlist_id=${id}`, { token: 'flow' })).json).toEqual({ total_items_count: 2 });
    expect((await send(base, 'GET', `/store/wishlists/total-items-count?wishlist_id=${id}`, { token: 'other' })).json).toEqual({ total_items_count: 0 });
    const renamed = await send(base, 'PUT', `/store/wishlists/${id}`, { token: 'flow', body: { name: 'Birthday' } });
    expect(renamed.status).toBe(200);
    expect(Object.keys(renamed.json)).toEqual(['id', 'name', 'customer_id', 'sales_channel_id', 'created_at', 'updated_at', 'deleted_at']);
    // the new wishlist is the last of the customer's listing 4.3 (ids and times after the seed's)
    const all = await send(base, 'GET', '/store/wishlists?limit=100', { token: 'flow' });
    expect(all.json.data.at(-1)).toEqual(renamed.json);
    expect(all.json.count).toBe(seededWishlists + 1);
    // share signs a token (the mock's secret); a token that is none is the plugin's 401 (more in 'share and import')
    expect(await send(base, 'POST', `/store/wishlists/${id}/share`, { token: 'flow' })).toMatchObject({ status: 200, json: { share_token: expect.stringMatching(/^eyJ/) } });
    expect(await send(base, 'POST', '/store/wishlists/import', { token: 'flow', body: { share_token: 'anything' } })).toMatchObject({ status: 401, json: { type: 'unauthorized', message: 'Invalid share token' } });
    // a wishlist that holds items cannot be deleted (the cascade fails); emptied, it can
    expect(await send(base, 'DELETE', `/store/wishlists/${id}`, { token: 'flow' })).toMatchObject(EMPTY_500);
    for (const item of [added[0], added[2]]) await send(base, 'DELETE', `/store/wishlists/${id}/items/${item}`, { token: 'flow' });
    expect(await send(base, 'DELETE', `/store/wishlists/${id}`, { token: 'flow' })).toMatchObject({ status: 200, json: { id } });
    expect((await send(base, 'GET', '/store/wishlists?limit=100', { token: 'flow' })).json.count).toBe(seededWishlists);

    // a review: pending, listed for its author (4.1 with my_reviews_only, 4.2), deleted by its author only
    const review = await send(base, 'POST', '/store/reviews', { token: 'flow', body: { product_id: facts.productId, rating: '2.6', content: 'Good cap.', image_urls: ['https://example.test/a.png'] } });
    expect(review.status).toBe(201);
    expect(Object.keys(review.json)).toEqual(['id', 'title', 'content', 'rating', 'status', 'product_id', 'customer_id', 'image_urls', 'is_verified_purchase', 'created_at', 'updated_at', 'deleted_at', 'customer']);
    expect(review.json).toMatchObject({ rating: 3, status: 'pending', title: null, is_verified_purchase: false });
    const mine = await send(base, 'GET', '/store/products/reviews?my_reviews_only=true', { token: 'flow' });
    expect(mine.json.data.map((r: { id: string }) => r.id)).toEqual([review.json.id]);
    const product = await send(base, 'GET', `/store/reviews/product/${facts.productId}?limit=1000`, { token: 'flow' });
    const seeded = await send(base, 'GET', `/store/reviews/product/${facts.productId}?limit=1000`, { token: 'someone-else' });
    expect(product.json.count).toBe(seeded.json.count + 1);
    expect(product.json.data.at(-1).id).toBe(review.json.id);
    // by rating: the 3 goes where the seed's 3s end (ties by id)
    const byRating = await send(base, 'GET', `/store/reviews/product/${facts.productId}?limit=1000&order=rating`, { token: 'flow' });
    const ratings = byRating.json.data.map((r: { rating: number }) => r.rating);
    expect(ratings).toEqual([...ratings].sort((a: number, b: number) => a - b));
    const at = byRating.json.data.findIndex((r: { id: string }) => r.id === review.json.id);
    expect(byRating.json.data[at + 1]?.rating ?? 4).toBeGreaterThan(3);
    expect(await send(base, 'DELETE', `/store/reviews/${review.json.id}`, { token: 'someone-else' })).toMatchObject(EMPTY_500);
    expect(await send(base, 'DELETE', `/store/reviews/${review.json.id}`, { token: 'flow' })).toMatchObject({ status: 200, json: { id: review.json.id } });
    expect(await send(base, 'DELETE', `/store/reviews/${review.json.id}`, { token: 'flow' })).toMatchObject(EMPTY_500);
    // the aggregate counts the seeded (approved) reviews only, whatever the customer wrote
    const aggregate = await send(base, 'GET', `/store/reviews/product/${facts.productId}/aggregate-counts?foo=1`);
    expect(Object.keys(aggregate.json)).toEqual(['average', 'total_count', 'product_id', 'counts']);
    expect(aggregate.json.total_count).toBe(seeded.json.count);
  });

  it('answers each error kind as the plugins do', async () => {
    const base = mock.url;
    const W = '/store/wishlists';
    const cases: Array<[string, string, Parameters<typeof send>[3], number, unknown]> = [
      ['POST', W, { body: { name: 'x', sales_channel_id: 'sc' } }, 401, { type: 'unauthorized', message: 'Guest wishlists are not allowed' }],
      ['POST', W, { body: { name: 1 } }, 400, { type: 'invalid_data', message: "Invalid request: Expected type: 'string' for field 'name', got: '1'; Field 'sales_channel_id' is required" }],
      ['POST', W, { token: 'e', body: { name: null, sales_channel_id: 'sc' } }, 400, { type: 'invalid_data', message: "Invalid request: Expected type: 'string' for field 'name', got: 'null'" }],
      ['POST', W, { token: 'e', body: { name: 'x', sales_channel_id: 'sc', customer_id: 'c', foo: 1 } }, 400, { type: 'invalid_data', message: "Invalid request: Unrecognized fields: 'customer_id, foo'" }],
      ['POST', W, { token: 'e', raw: { type: 'application/json', text: '[1,2]' } }, 400, { type: 'invalid_data', message: "Invalid request: Field '' is required" }],
      ['POST', W, { token: 'e', raw: { type: 'text/plain', text: '{"name":"x"}' } }, 400, { type: 'invalid_data', message: "Invalid request: Field '' is required" }],
      ['POST', W, { token: 'e', raw: { type: 'application/json', text: '{"name":' } }, 400, { message: 'Unexpected end of JSON input', type: 'invalid_data' }],
      ['POST', W, { token: 'e', body: { name: 'x'.repeat(150_000), sales_channel_id: 'sc' } }, 413, { message: 'request entity too large', type: 'unknown_error' }],
      ['POST', W, { token: 'e', headers: { 'x-publishable-api-key': '' }, body: {} }, 400, { type: 'not_allowed', message: 'Publishable API key required in the request header: x-publishable-api-key. You can manage your keys in settings in the dashboard.' }],
      ['PUT', `${W}/${'wl_x'}`, { body: { name: 'x' } }, 401, { message: 'Unauthorized' }],
      ['PUT', `${W}/wl_x`, { token: 'e', body: { sales_channel_id: 'x' } }, 400, { type: 'invalid_data', message: "Invalid request: Unrecognized fields: 'sales_channel_id'" }],
      ['DELETE', `${W}/wl_x`, {}, 401, { message: 'Unauthorized' }],
      ['DELETE', `${W}/wl_unknown`, { token: 'e' }, 200, { id: 'wl_unknown' }],
      ['GET', `${W}/wl_x`, {}, 401, { type: 'unauthorized', message: 'Guest wishlists are now allowed' }],
      ['GET', `${W}/wl_x?foo=1`, { token: 'e' }, 400, { type: 'invalid_data', message: "Invalid request: Unrecognized fields: 'foo'" }],
      ['POST', `${W}/wl_x/add-item`, { body: { product_variant_id: 'v' } }, 401, { type: 'unauthorized', message: 'Guest wishlists are not allowed' }],
      ['POST', `${W}/wl_x/add-item`, { token: 'e', body: {} }, 400, { type: 'invalid_data', message: "Invalid request: Field 'product_variant_id' is required" }],
      ['POST', `${W}/wl_x/add-item?foo=1`, { token: 'e', body: { product_variant_id: 'v' } }, 400, { type: 'invalid_data', message: "Invalid request: Unrecognized fields: 'foo'" }],
      ['DELETE', `${W}/wl_x/items/wli_x`, {}, 401, { type: 'unauthorized', message: 'Guest wishlists are now allowed' }],
      ['DELETE', `${W}/wl_x/items/wli_unknown`, { token: 'e' }, 200, { id: 'wli_unknown' }],
      ['POST', `${W}/wl_x/share`, {}, 401, { type: 'unauthorized', message: 'Guest wishlists are now allowed' }],
      ['POST', `${W}/wl_x/transfer`, {}, 401, { message: 'Unauthorized' }],
      ['POST', `${W}/import`, { token: 'e', body: { share_token: '' } }, 400, { type: 'invalid_data', message: "Invalid request: Value for field 'share_token' too small, expected at least: '1'" }],
      ['POST', `${W}/import`, { body: { share_token: 'x' } }, 401, { type: 'unauthorized', message: 'Guest wishlists are not allowed' }],
      ['GET', `${W}/settings`, {}, 200, { allow_guest_wishlist: false, allow_multiple_wishlists: true }],
      ['GET', `${W}/total-items-count`, {}, 200, { total_items_count: 0 }],
      ['GET', `${W}/total-items-count?foo=1`, {}, 400, { type: 'invalid_data', message: "Invalid request: Unrecognized fields: 'foo'" }],
      ['POST', '/store/reviews', { body: { product_id: 'p', rating: 4, content: 'x' } }, 401, { message: 'Unauthorized' }],
      ['POST', '/store/reviews', { token: 'e', body: {} }, 400, { type: 'invalid_data', message: "Invalid request: Field 'content' is required; Field 'rating' is required; Field 'product_id' is required" }],
      ['POST', '/store/reviews', { token: 'e', body: { product_id: 'p', rating: 0.4, content: 'x' } }, 400, { type: 'invalid_data', message: "Invalid request: Value for field 'rating' too small, expected at least: '1'" }],
      ['POST', '/store/reviews', { token: 'e', body: { product_id: 'p', rating: 'abc', content: 'x' } }, 400, { type: 'invalid_data', message: "Invalid request: Expected type: 'number' for field 'rating', got: 'abc'" }],
      ['POST', '/store/reviews', { token: 'e', body: { product_id: 'p', rating: 5, content: 'x', status: 'approved' } }, 400, { type: 'invalid_data', message: "Invalid request: Unrecognized fields: 'status'" }],
      ['POST', '/store/reviews', { token: 'e', body: { product_id: 'p', rating: 5, content: 'x', image_urls: 'a.png' } }, 400, { type: 'invalid_data', message: "Invalid request: Expected type: 'array' for field 'image_urls', got: 'a.png'" }],
      ['DELETE', '/store/reviews/rev_x', {}, 401, { message: 'Unauthorized' }],
      ['POST', '/store/reviews/files/images/upload', {}, 200, []],
    ];
    for (const [method, path, options, status, body] of cases) {
      const res = await send(base, method, path, options);
      expect({ request: `${method} ${path}`, status: res.status, body: res.json }).toEqual({ request: `${method} ${path}`, status, body });
      expect(res.type).toBe('application/json; charset=utf-8');
    }
    // unknown and foreign ids: the plugins' 500 with an empty body
    for (const [method, path, body] of [
      ['GET', '/store/wishlists/wl_unknown', undefined],
      ['PUT', '/store/wishlists/wl_unknown', { name: 'x' }],
      ['POST', '/store/wishlists/wl_unknown/add-item', { product_variant_id: facts.variants[0] }],
      ['POST', '/store/wishlists/wl_unknown/transfer', undefined],
      ['POST', `/store/wishlists/${facts.wishlistIds[0]}/add-item`, { product_variant_id: facts.variants[0] }],
    ] as const) {
      expect(await send(base, method, path, { token: 'e', ...(body ? { body } : {}) }), `${method} ${path}`).toMatchObject(EMPTY_500);
    }
    // a review of up to 10 MB is taken (the route's own limit); the 400 past the mock's memory bound says so
    const long = await send(base, 'POST', '/store/reviews', { token: 'long', body: { product_id: 'p', rating: 5, content: 'y'.repeat(200_000) } });
    expect(long.status).toBe(201);
    const huge = await send(base, 'POST', '/store/reviews', { token: 'long', body: { product_id: 'p', rating: 5, content: 'y'.repeat(5_000_000) } });
    expect(huge.status).toBe(400);
    expect(huge.json.type).toBe('not_allowed');
    expect(huge.json.message).toMatch(/at most .* characters of JSON per customer.*POST \/__admin\/reset/);
    const tooHuge = await send(base, 'POST', '/store/reviews', { token: 'long', body: { product_id: 'p', rating: 5, content: 'y'.repeat(11_000_000) } });
    expect(tooHuge).toMatchObject({ status: 413, json: { message: 'request entity too large', type: 'unknown_error' } });
  });

  it("another customer's seeded wishlist: refused until a transfer gives the taker a copy, in their own view; its owner keeps theirs unchanged", async () => {
    const base = mock.url;
    const seeded = facts.wishlistIds[0]!;
    const known = facts.variants[0]!;
    const ownerBefore = [(await send(base, 'GET', `/store/wishlists/${seeded}`, { token: READER })).text, (await send(base, 'GET', `/store/wishlists/${seeded}/items?limit=100`, { token: READER })).text];
    // the reader's, to the taker: the plugin's 500s
    expect(await send(base, 'GET', `/store/wishlists/${seeded}`, { token: 'taker' })).toMatchObject(EMPTY_500);
    expect(await send(base, 'GET', `/store/wishlists/${seeded}/items`, { token: 'taker' })).toMatchObject(EMPTY_500);
    expect(await send(base, 'POST', `/store/wishlists/${seeded}/transfer`, { token: 'taker' })).toMatchObject({ status: 200, json: { id: seeded } });
    // the variant is already in the (copied) wishlist: the unique index's 500
    expect(await send(base, 'POST', `/store/wishlists/${seeded}/add-item`, { token: 'taker', body: { product_variant_id: known } })).toMatchObject(EMPTY_500);
    // the taker removes an item of the copy: gone for them, there for the reader
    const item = facts.items[0]!.id;
    expect(await send(base, 'DELETE', `/store/wishlists/${seeded}/items/${item}`, { token: 'taker' })).toMatchObject({ status: 200, json: { id: item } });
    const theirs = await send(base, 'GET', `/store/wishlists/${seeded}/items?limit=100`, { token: 'taker' });
    const owners = await send(base, 'GET', `/store/wishlists/${seeded}/items?limit=100`, { token: READER });
    expect(theirs.json.count).toBe(owners.json.count - 1);
    expect(theirs.json.data.map((i: { id: string }) => i.id)).toEqual(owners.json.data.map((i: { id: string }) => i.id).filter((id: string) => id !== item));
    const retrieved = await send(base, 'GET', `/store/wishlists/${seeded}`, { token: 'taker' });
    expect(retrieved.json.customer_id).toMatch(/^cus_mock_/);
    const readers = await send(base, 'GET', `/store/wishlists/${seeded}`, { token: READER });
    expect(retrieved.json.customer_id).not.toBe(readers.json.customer_id);
    // the owner's wishlist is as it was, byte for byte
    expect([readers.text, owners.text]).toEqual(ownerBefore);
  });

  it('two customers writing at once, interleaved, never see each other; a third without writes gets the bytes of before', async () => {
    const base = mock.url;
    await admin(base, '/__admin/reset');
    const before = await listingsOf(base, 'third', facts);
    const flow = async (token: string) => {
      const ids: string[] = [];
      for (let k = 0; k < 4; k++) {
        const wl = await send(base, 'POST', '/store/wishlists', { token, body: { name: `${token} ${k}`, sales_channel_id: 'sc' } });
        ids.push(wl.json.id);
        await send(base, 'POST', `/store/wishlists/${wl.json.id}/add-item`, { token, body: { product_variant_id: facts.variants[k % facts.variants.length] } });
        await send(base, 'POST', '/store/reviews', { token, body: { product_id: facts.productId, rating: 1 + k, content: token } });
      }
      return ids;
    };
    const [alice, bob] = await Promise.all([flow('alice'), flow('bob')]);
    const names = async (token: string) => ((await send(base, 'GET', '/store/wishlists?limit=100', { token })).json.data as Array<{ id: string; name: string }>).slice(-4);
    expect((await names('alice')).map((w) => w.id)).toEqual(alice);
    expect((await names('bob')).map((w) => w.id)).toEqual(bob);
    for (const id of alice) expect(await send(base, 'GET', `/store/wishlists/${id}`, { token: 'bob' })).toMatchObject(EMPTY_500);
    const aliceReviews = (await send(base, 'GET', '/store/products/reviews?my_reviews_only=true', { token: 'alice' })).json.data;
    expect(aliceReviews.map((r: { content: string }) => r.content)).toEqual(['alice', 'alice', 'alice', 'alice']);
    expect(await listingsOf(base, 'third', facts)).toEqual(before);
    // the third's listings are kept answers again: the fast path's bytes are those of a server nobody wrote to
    const fresh = await startMockServer({ dialect: 'alphabite' });
    try {
      expect(await listingsOf(fresh.url, 'third', facts)).toEqual(before);
    } finally {
      await fresh.close();
    }
  });

  it('POST /__admin/reset forgets one customer ({ "customer": id }) or all (no body); a reseed forgets all', async () => {
    const base = mock.url;
    const count = (token: string) => wishlistCount(base, token);
    // each customer's own seeded wishlists (one each, for customers the dataset does not name)
    const seeded = await count('one');
    expect(await count('two')).toBe(seeded);
    await send(base, 'POST', '/store/wishlists', { token: 'one', body: { sales_channel_id: 'sc' } });
    await send(base, 'POST', '/store/wishlists', { token: 'two', body: { sales_channel_id: 'sc' } });
    expect([await count('one'), await count('two')]).toEqual([seeded + 1, seeded + 1]);
    const one = (await send(base, 'GET', '/store/wishlists?limit=1&order=-created_at', { token: 'one' })).json.data[0].customer_id as string;
    const forgot = await admin(base, '/__admin/reset', { customer: one });
    expect(forgot.status).toBe(200);
    expect(forgot.json).toMatchObject({ customer: one, forgotten: true });
    expect([await count('one'), await count('two')]).toEqual([seeded, seeded + 1]);
    expect((await admin(base, '/__admin/reset', { customer: 1 })).status).toBe(400);
    expect((await admin(base, '/__admin/reset', { who: 'x' })).status).toBe(400);
    expect((await admin(base, '/__admin/reset')).status).toBe(200);
    expect(await count('two')).toBe(seeded);
    await send(base, 'POST', '/store/wishlists', { token: 'two', body: { sales_channel_id: 'sc' } });
    expect((await send(base, 'POST', '/__admin/dataset', { body: { seed: 1 } })).status).toBe(200);
    expect(await count('two')).toBe(seeded);
  });

  it('past a bound: a 400 not_allowed that names the bound and the reset', async () => {
    const base = mock.url;
    let last: Answer | undefined;
    for (let k = 0; k <= WRITE_LIMITS.wishlists; k++) last = await send(base, 'POST', '/store/wishlists', { token: 'bounded', body: { sales_channel_id: 'sc' } });
    expect(last!.status).toBe(400);
    expect(last!.json).toEqual({ type: 'not_allowed', message: expect.stringContaining(`at most ${WRITE_LIMITS.wishlists} wishlists per customer`) });
    await admin(base, '/__admin/reset', { customer: (await send(base, 'GET', '/store/wishlists?limit=1&order=-created_at', { token: 'bounded' })).json.data[0].customer_id });
    expect((await send(base, 'POST', '/store/wishlists', { token: 'bounded', body: { sales_channel_id: 'sc' } })).status).toBe(201);
  });

  it('one wishlist per customer unless the settings say otherwise: a second create answers the first', async () => {
    // No seeded wishlists: a fresh customer has none, so their first create makes one.
    const single = await startMockServer({ dialect: 'alphabite', wishlists: 0 });
    try {
      expect((await send(single.url, 'GET', '/store/wishlists/settings')).json).toEqual({ allow_guest_wishlist: false, allow_multiple_wishlists: false });
      const first = await send(single.url, 'POST', '/store/wishlists', { token: 's', body: { name: 'First', sales_channel_id: 'sc' } });
      expect(first.status).toBe(201);
      const second = await send(single.url, 'POST', '/store/wishlists', { token: 's', body: { name: 'Second', sales_channel_id: 'sc' } });
      expect(second.status).toBe(200);
      expect(second.json.id).toBe(first.json.id);
      expect(Object.keys(second.json).slice(-2)).toEqual(['items_count', 'items']);
    } finally {
      await single.close();
    }
  });
});

describe('the spec dialect', () => {
  it('answers every write on the plugins\' paths with a 4xx (405 on a listing) that says to use --dialect alphabite', async () => {
    const mock = await startMockServer({});
    try {
      for (const [method, path] of [['POST', '/store/wishlists'], ['PUT', '/store/wishlists/wl_1'], ['DELETE', '/store/reviews/rev_1'], ['POST', '/store/reviews'], ['POST', '/store/wishlists/wl_1/add-item']]) {
        const res = await send(mock.url, method!, path!, { token: 't', body: {} });
        const listing = path === '/store/wishlists';
        expect(res.status, `${method} ${path}`).toBe(listing ? 405 : 404);
        expect(res.json.type).toBe(listing ? 'not_allowed' : 'not_found');
        expect(res.json.message).toMatch(/spec shows no writes.*--dialect alphabite/);
      }
    } finally {
      await mock.close();
    }
  });
});

describe('--workers 2', () => {
  let cluster: MockCluster;
  beforeAll(async () => {
    cluster = await startMockServer({ dialect: 'alphabite', allowMultipleWishlists: true, workers: 2 });
  }, 60_000);
  afterAll(() => cluster?.close());

  it('writes land on every worker in one order: the same answers whichever worker answers', async () => {
    const base = cluster.url;
    const facts = await seedFacts(base);
    const seeded = await wishlistCount(base, 'w0');
    const ids: string[] = [];
    for (let k = 0; k < 4; k++) {
      const res = await send(base, 'POST', '/store/wishlists', { token: `w${k % 2}`, body: { name: `list ${k}`, sales_channel_id: 'sc' } });
      expect(res.status).toBe(201);
      ids.push(res.json.id);
    }
    const item = await send(base, 'POST', `/store/wishlists/${ids[0]}/add-item`, { token: 'w0', body: { product_variant_id: facts.variants[0] } });
    expect(item.status).toBe(201);
    for (let round = 0; round < 4; round++) {
      const answers = await Promise.all([
        send(base, 'GET', `/store/wishlists?limit=3&offset=${seeded - 1}`, { token: 'w0' }),
        send(base, 'GET', `/store/wishlists/${ids[0]}/items`, { token: 'w0' }),
        send(base, 'GET', `/store/wishlists/${ids[0]}`, { token: 'w0' }),
        send(base, 'GET', `/store/wishlists/${ids[1]}`, { token: 'w1' }),
      ]);
      // their last seeded wishlist, then the two they made
      expect(answers[0]!.json.data.map((w: { id: string }) => w.id).slice(1)).toEqual([ids[0], ids[2]]);
      expect(answers[0]!.json.count).toBe(seeded + 2);
      expect(answers[1]!.json.data.map((i: { id: string }) => i.id)).toEqual([item.json.id]);
      expect(answers[2]!.json.items_count).toBe(1);
      expect(answers[3]!.status).toBe(200);
      if (round > 0) expect(answers.map((a) => a.text)).toEqual(previous);
      previous = answers.map((a) => a.text);
    }
    expect((await admin(base, '/__admin/reset')).status).toBe(200);
    for (let round = 0; round < 2; round++) expect(await send(base, 'GET', `/store/wishlists/${ids[0]}`, { token: 'w0' })).toMatchObject(EMPTY_500);
  }, 60_000);
});
let previous: string[] = [];

describe('hostile writes (fast-check)', () => {
  let mock: MockServer;
  let facts: Awaited<ReturnType<typeof seedFacts>>;
  beforeAll(async () => {
    mock = await startMockServer({ dialect: 'alphabite', allowMultipleWishlists: true });
    facts = await seedFacts(mock.url);
  });
  afterAll(() => mock.close());

  it('bad bodies, huge bodies, foreign ids, missing tokens, other content types: a documented answer, and the watcher\'s listings never change', async () => {
    const watcherWl = (await send(mock.url, 'POST', '/store/wishlists', { token: 'watcher', body: { name: 'mine', sales_channel_id: 'sc' } })).json.id as string;
    await send(mock.url, 'POST', `/store/wishlists/${watcherWl}/add-item`, { token: 'watcher', body: { product_variant_id: facts.variants[0] } });
    await send(mock.url, 'POST', '/store/reviews', { token: 'watcher', body: { product_id: facts.productId, rating: 3, content: 'w' } });
    const watched = async () => [...(await listingsOf(mock.url, 'watcher', facts)), (await send(mock.url, 'GET', `/store/wishlists/${watcherWl}`, { token: 'watcher' })).text];
    const before = await watched();
    const id = fc.oneof(fc.constant(watcherWl), fc.constantFrom(...facts.wishlistIds), fc.constant('wl_unknown'), fc.string({ maxLength: 20 }).map((s) => encodeURIComponent(s) || 'x'));
    const path = fc.oneof(
      fc.constant('/store/wishlists'),
      id.map((i) => `/store/wishlists/${i}`),
      id.map((i) => `/store/wishlists/${i}/add-item`),
      id.map((i) => `/store/wishlists/${i}/share`),
      id.map((i) => `/store/wishlists/${i}/transfer`),
      fc.tuple(id, fc.constantFrom('wli_x', ...facts.items.map((i) => i.id))).map(([w, i]) => `/store/wishlists/${w}/items/${i}`),
      fc.constant('/store/wishlists/import'),
      fc.constant('/store/reviews'),
      fc.constantFrom('/store/reviews/rev_x', `/store/reviews/product/${facts.productId}/aggregate-counts`, '/store/reviews/files/images/upload'),
    );
    const value = fc.oneof(fc.string({ maxLength: 30 }), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }), fc.constantFrom(...facts.variants));
    const body = fc.oneof(
      fc.dictionary(fc.constantFrom('name', 'sales_channel_id', 'product_variant_id', 'share_token', 'content', 'rating', 'product_id', 'image_urls', 'title', 'status', '__proto__', 'constructor'), value, { maxKeys: 5 }).map((b) => ({ json: b })),
      fc.string({ maxLength: 40 }).map((text) => ({ raw: { type: 'application/json', text } })),
      fc.string({ maxLength: 40 }).map((text) => ({ raw: { type: 'text/plain', text } })),
      fc.constantFrom('application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml').map((type) => ({ raw: { type, text: 'name=x&sales_channel_id=sc' } })),
      fc.constant({ raw: { type: 'application/json', text: JSON.stringify({ name: 'x'.repeat(120_000), sales_channel_id: 'sc' }) } }),
      fc.constant(undefined),
    );
    const token = fc.constantFrom(undefined, 'hostile', 'hostile-2', 'a.b.c', 'eyJhbGciOiJIUzI1NiJ9.eyJhY3Rvcl9pZCI6ImN1c19ob3N0aWxlIn0.x');
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('GET', 'POST', 'PUT', 'DELETE'), path, body, token, async (method, target, b, tok) => {
        const withBody = b !== undefined;
        const res = await send(mock.url, method, target, { ...(tok ? { token: tok } : {}), ...(!withBody ? {} : 'json' in b ? { body: b.json } : { raw: b.raw }) });
        if (res.status === 500) {
          // only the plugins' own 500s: an empty body (their catch), or Medusa's for a deep key (not sent here)
          expect(res.text).toBe('');
        } else {
          expect(res.status).toBeLessThan(500);
          expect(res.type).toBe('application/json; charset=utf-8');
          expect(res.json).toBeDefined();
          if (res.status >= 400) expect(typeof res.json.message).toBe('string');
        }
      }),
      { numRuns: Number(process.env.HOSTILE_RUNS ?? 300), seed: 20261123 },
    );
    expect(await watched()).toEqual(before);
  }, 120_000);
});

/** A JWT as jsonwebtoken makes it: header, claims (in this order), HMAC signature. */
function jwt(claims: object, secret: string, alg: 'HS256' | 'HS384' | 'HS512' | 'none' = 'HS256'): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${part({ alg, typ: 'JWT' })}.${part(claims)}`;
  if (alg === 'none') return `${unsigned}.`;
  return `${unsigned}.${createHmac(`sha${alg.slice(2)}`, secret).update(unsigned).digest('base64url')}`;
}
const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;

describe('share and import (alphabite dialect; notes/alphabite-writes.md 1.9, 1.10)', () => {
  let mock: MockServer;
  let facts: Awaited<ReturnType<typeof seedFacts>>;
  beforeAll(async () => {
    mock = await startMockServer({ dialect: 'alphabite', allowMultipleWishlists: true });
    facts = await seedFacts(mock.url);
  });
  afterAll(() => mock.close());
  const INVALID = { status: 401, json: { type: 'unauthorized', message: 'Invalid share token' } };

  it('share signs {wishlist_id, iat, exp} with HS256 and the secret, for any id; another customer imports a copy; bad tokens get the plugin\'s answers', async () => {
    const base = mock.url;
    const { json: list } = await send(base, 'POST', '/store/wishlists', { token: 'sharer', body: { name: 'Gifts', sales_channel_id: 'sc_1' } });
    const added: string[] = [];
    for (const variant of facts.variants.slice(0, 3)) added.push((await send(base, 'POST', `/store/wishlists/${list.id}/add-item`, { token: 'sharer', body: { product_variant_id: variant } })).json.id);
    await send(base, 'DELETE', `/store/wishlists/${list.id}/items/${added[1]}`, { token: 'sharer' });
    const before = (await send(base, 'GET', `/store/wishlists/${list.id}/items`, { token: 'sharer' })).text;

    const shared = await send(base, 'POST', `/store/wishlists/${list.id}/share`, { token: 'sharer', body: { ignored: true } });
    expect(shared.status).toBe(200);
    expect(Object.keys(shared.json)).toEqual(['share_token']);
    const token = shared.json.share_token as string;
    const [header, , signature] = token.split('.');
    expect(JSON.parse(Buffer.from(header!, 'base64url').toString('utf8'))).toEqual({ alg: 'HS256', typ: 'JWT' });
    const claims = claimsOf(token);
    expect(Object.keys(claims)).toEqual(['wishlist_id', 'iat', 'exp']);
    expect(claims.wishlist_id).toBe(list.id);
    expect(claims.exp).toBe((claims.iat as number) + 7 * 24 * 3600);
    expect(Math.abs((claims.iat as number) - Date.now() / 1000)).toBeLessThan(600);
    expect(signature).toBe(createHmac('sha256', MOCK_SHARE_TOKEN_SECRET).update(token.split('.').slice(0, 2).join('.')).digest('base64url'));
    // any id, anyone's or none (no check), but not for a guest
    expect(claimsOf((await send(base, 'POST', '/store/wishlists/wl_unknown/share', { token: 'other' })).json.share_token).wishlist_id).toBe('wl_unknown');
    expect(await send(base, 'POST', `/store/wishlists/${list.id}/share`)).toMatchObject({ status: 401, json: { message: 'Guest wishlists are now allowed' } });

    // another customer imports: a new wishlist of theirs, the live items copied (new ids), 200
    const importerItems = (await send(base, 'GET', '/store/wishlists/total-items-count', { token: 'importer' })).json.total_items_count as number;
    const copy = await send(base, 'POST', '/store/wishlists/import', { token: 'importer', body: { share_token: token } });
    expect(copy.status).toBe(200);
    expect(Object.keys(copy.json)).toEqual(['id', 'name', 'customer_id', 'sales_channel_id', 'created_at', 'updated_at', 'deleted_at', 'items', 'items_count']);
    expect(copy.json).toMatchObject({ name: 'Gifts', sales_channel_id: 'sc_1', deleted_at: null, items_count: 2 });
    expect(copy.json.id).not.toBe(list.id);
    expect(copy.json.customer_id).not.toBe(list.customer_id);
    expect(copy.json.created_at).toBe(copy.json.updated_at);
    expect(copy.json.items.map((i: { product_variant_id: string; wishlist_id: string }) => [i.wishlist_id, i.product_variant_id])).toEqual([[copy.json.id, facts.variants[0]], [copy.json.id, facts.variants[2]]]);
    expect(copy.json.items.map((i: { id: string }) => i.id)).not.toContain(added[0]);
    // the copy is the importer's: last of their listing, its items listed, counted; the source is unchanged, and the sharer does not see the copy
    const theirs = await send(base, 'GET', '/store/wishlists?limit=200', { token: 'importer' });
    expect(theirs.json.data.at(-1).id).toBe(copy.json.id);
    expect((await send(base, 'GET', `/store/wishlists/${copy.json.id}/items`, { token: 'importer' })).json.count).toBe(2);
    expect((await send(base, 'GET', '/store/wishlists/total-items-count', { token: 'importer' })).json).toEqual({ total_items_count: importerItems + 2 });
    expect((await send(base, 'GET', `/store/wishlists/${list.id}/items`, { token: 'sharer' })).text).toBe(before);
    expect(await send(base, 'GET', `/store/wishlists/${copy.json.id}`, { token: 'sharer' })).toMatchObject(EMPTY_500);
    // every import makes another copy, the sharer's own import too
    const again = await send(base, 'POST', '/store/wishlists/import', { token: 'importer', body: { share_token: token } });
    expect(again.json.id).not.toBe(copy.json.id);
    expect((await send(base, 'POST', '/store/wishlists/import', { token: 'sharer', body: { share_token: token } })).json).toMatchObject({ name: 'Gifts', items_count: 2 });

    // tokens the plugin refuses
    const now = Math.floor(Date.now() / 1000);
    const refused: Array<[string, string, object]> = [
      ['not a JWT', 'not-a-share-token', INVALID],
      ['three parts, not JSON', 'a.b.c', INVALID],
      ['one character appended', `${token}x`, INVALID],
      ['another secret', jwt({ wishlist_id: list.id, iat: now, exp: now + 60 }, 'another-secret'), INVALID],
      ['expired', jwt({ wishlist_id: list.id, iat: now - 7200, exp: now - 3600 }, MOCK_SHARE_TOKEN_SECRET), INVALID],
      ['not yet active', jwt({ wishlist_id: list.id, nbf: now + 3600 }, MOCK_SHARE_TOKEN_SECRET), INVALID],
      ['alg none', jwt({ wishlist_id: list.id }, '', 'none'), INVALID],
      ['exp not a number', jwt({ wishlist_id: list.id, exp: 'soon' }, MOCK_SHARE_TOKEN_SECRET), INVALID],
      ['no wishlist_id', jwt({ foo: 1 }, MOCK_SHARE_TOKEN_SECRET), { status: 404, json: { type: 'not_found', message: 'Wishlist not found for the provided share token' } }],
      ['an unknown wishlist', jwt({ wishlist_id: 'wl_unknown' }, MOCK_SHARE_TOKEN_SECRET), EMPTY_500],
    ];
    for (const [what, shareToken, expected] of refused) expect(await send(base, 'POST', '/store/wishlists/import', { token: 'importer', body: { share_token: shareToken } }), what).toMatchObject(expected);
    // HS384 and HS512 signed with the secret, no exp: taken
    for (const alg of ['HS384', 'HS512'] as const) expect((await send(base, 'POST', '/store/wishlists/import', { token: 'importer', body: { share_token: jwt({ wishlist_id: list.id }, MOCK_SHARE_TOKEN_SECRET, alg) } })).status, alg).toBe(200);
    // a guest, even with a valid token
    expect(await send(base, 'POST', '/store/wishlists/import', { body: { share_token: token } })).toMatchObject({ status: 401, json: { message: 'Guest wishlists are not allowed' } });
    // a deleted wishlist's token: the 500
    const empty = (await send(base, 'POST', '/store/wishlists', { token: 'sharer', body: { sales_channel_id: 'sc_1' } })).json;
    const emptyToken = (await send(base, 'POST', `/store/wishlists/${empty.id}/share`, { token: 'sharer' })).json.share_token;
    expect((await send(base, 'POST', '/store/wishlists/import', { token: 'importer', body: { share_token: emptyToken } })).json).toMatchObject({ name: null, items: [], items_count: 0 });
    await send(base, 'DELETE', `/store/wishlists/${empty.id}`, { token: 'sharer' });
    expect(await send(base, 'POST', '/store/wishlists/import', { token: 'importer', body: { share_token: emptyToken } })).toMatchObject(EMPTY_500);
  });

  it('a seeded wishlist is copied as its seeded owner sees it', async () => {
    const base = mock.url;
    const seeded = (await send(base, 'GET', `/store/wishlists/${facts.wishlistIds[0]}/items?limit=100`, { token: READER })).json;
    const token = (await send(base, 'POST', `/store/wishlists/${facts.wishlistIds[0]}/share`, { token: 'someone' })).json.share_token;
    const copy = await send(base, 'POST', '/store/wishlists/import', { token: 'seed-importer', body: { share_token: token } });
    expect(copy.status).toBe(200);
    expect(copy.json.items.map((i: { product_variant_id: string }) => i.product_variant_id)).toEqual(seeded.data.map((i: { product_variant_id: string }) => i.product_variant_id));
    expect(copy.json.items_count).toBe(seeded.count);
  });

  it('single mode (allow_multiple_wishlists off): an importer who has a wishlist gets its items replaced by the source\'s', async () => {
    // No seeded wishlists: each customer here has only what they make.
    const single = await startMockServer({ dialect: 'alphabite', wishlists: 0 });
    try {
      const base = single.url;
      const source = (await send(base, 'POST', '/store/wishlists', { token: 'src', body: { name: 'Source', sales_channel_id: 'sc_1' } })).json;
      for (const variant of facts.variants.slice(0, 2)) await send(base, 'POST', `/store/wishlists/${source.id}/add-item`, { token: 'src', body: { product_variant_id: variant } });
      const token = (await send(base, 'POST', `/store/wishlists/${source.id}/share`, { token: 'src' })).json.share_token;
      // no wishlist yet: a copy, as in multi mode
      const fresh = await send(base, 'POST', '/store/wishlists/import', { token: 'new-one', body: { share_token: token } });
      expect(fresh.json).toMatchObject({ name: 'Source', items_count: 2 });
      // one wishlist with another item: replaced, same wishlist, `items_count` last
      const own = (await send(base, 'POST', '/store/wishlists', { token: 'has-one', body: { name: 'Mine', sales_channel_id: 'sc_2' } })).json;
      await send(base, 'POST', `/store/wishlists/${own.id}/add-item`, { token: 'has-one', body: { product_variant_id: facts.variants[2] } });
      const replaced = await send(base, 'POST', '/store/wishlists/import', { token: 'has-one', body: { share_token: token } });
      expect(replaced.status).toBe(200);
      expect(Object.keys(replaced.json)).toEqual(['id', 'name', 'customer_id', 'sales_channel_id', 'created_at', 'updated_at', 'deleted_at', 'items', 'items_count']);
      expect(replaced.json).toMatchObject({ id: own.id, name: 'Mine', sales_channel_id: 'sc_2', items_count: 2 });
      expect(replaced.json.items.map((i: { product_variant_id: string }) => i.product_variant_id)).toEqual(facts.variants.slice(0, 2));
      const listed = await send(base, 'GET', `/store/wishlists/${own.id}/items`, { token: 'has-one' });
      expect(listed.json.data.map((i: { product_variant_id: string }) => i.product_variant_id)).toEqual(facts.variants.slice(0, 2));
      // still their one wishlist
      expect((await send(base, 'GET', '/store/wishlists?limit=200', { token: 'has-one' })).json.count).toBe(1);
    } finally {
      await single.close();
    }
  });

  it('shareTokenSecret: another secret signs and verifies; \'\' emulates the option left out (share 500, import 401); the spec dialect refuses it', async () => {
    const other = await startMockServer({ dialect: 'alphabite', shareTokenSecret: 'my-backend-secret' });
    const none = await startMockServer({ dialect: 'alphabite', shareTokenSecret: '' });
    try {
      const list = (await send(other.url, 'POST', '/store/wishlists', { token: 'a', body: { sales_channel_id: 'sc' } })).json;
      const token = (await send(other.url, 'POST', `/store/wishlists/${list.id}/share`, { token: 'a' })).json.share_token as string;
      expect(token.split('.')[2]).toBe(createHmac('sha256', 'my-backend-secret').update(token.split('.').slice(0, 2).join('.')).digest('base64url'));
      expect((await send(other.url, 'POST', '/store/wishlists/import', { token: 'b', body: { share_token: token } })).status).toBe(200);
      expect(await send(mock.url, 'POST', '/store/wishlists/import', { token: 'b', body: { share_token: token } })).toMatchObject(INVALID);
      const noneList = (await send(none.url, 'POST', '/store/wishlists', { token: 'a', body: { sales_channel_id: 'sc' } })).json;
      expect(await send(none.url, 'POST', `/store/wishlists/${noneList.id}/share`, { token: 'a' })).toMatchObject(EMPTY_500);
      expect(await send(none.url, 'POST', '/store/wishlists/import', { token: 'b', body: { share_token: jwt({ wishlist_id: noneList.id }, '') } })).toMatchObject(INVALID);
    } finally {
      await Promise.all([other.close(), none.close()]);
    }
    await expect(startMockServer({ shareTokenSecret: 'x' })).rejects.toThrow(/alphabite dialect only/);
  });

  it('serve --share-token-secret signs with it; without --dialect alphabite it cannot run (exit 2, one sentence)', async () => {
    const serve = await startServe(['--dialect', 'alphabite', '--share-token-secret', 'cli-secret']);
    try {
      const list = (await send(serve.url, 'POST', '/store/wishlists', { token: 'a', body: { sales_channel_id: 'sc' } })).json;
      const token = (await send(serve.url, 'POST', `/store/wishlists/${list.id}/share`, { token: 'a' })).json.share_token as string;
      expect(token.split('.')[2]).toBe(createHmac('sha256', 'cli-secret').update(token.split('.').slice(0, 2).join('.')).digest('base64url'));
    } finally {
      serve.child.kill('SIGTERM');
      await serve.exited;
    }
    const refused = await runCli(['serve', '--port', '0', '--share-token-secret', 'x']);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim()).toBe('error: --share-token-secret is an option of the wishlist plugin, read by the alphabite dialect only: add --dialect alphabite');
  });
});
