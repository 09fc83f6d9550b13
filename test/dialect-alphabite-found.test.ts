/**
 * What the differential test (test/medusa/differential.medusa.test.ts) found the real backend
 * answering otherwise than `serve --dialect alphabite`, now emulated (docs/dialects.md, "Not
 * emulated", the paragraph after the list): known publishable keys, `fields` that leave the
 * wishlist out on 4.4, dotted parameter names, offsets beyond 2^53 - 1, `product_variant.product_id`
 * on generated items. Over HTTP, without Medusa.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDialect } from '../lib/dialects/index.ts';
import { startMockServer, type MockServer } from '../mock-server/server.ts';
import { startServe } from './support/cli-process.ts';
import { namedCustomer } from './support/customer-token.ts';
import { get } from './support/http.ts';

const KEYS = ['pk_store', 'pk_other_channel'];
/** The customer asking: the one the dataset names as the owner of the wishlist read here (each customer sees their own). */
let authorization: string;
const AS = (key: string | null, token = true) => ({ ...(key === null ? {} : { 'x-publishable-api-key': key }), ...(token ? { authorization } : {}) });
const UNKNOWN_KEY = { type: 'not_allowed', message: 'A valid publishable key is required to proceed with the request' };

let keyed: MockServer;
let open: MockServer;
let productId: string;
let wishlistId: string;
let itemCount: number;
let paths: string[];
beforeAll(async () => {
  [keyed, open] = await Promise.all([startMockServer({ seed: 1, dialect: 'alphabite', publishableKeys: KEYS }), startMockServer({ seed: 1, dialect: 'alphabite' })]);
  const { reviews, wishlists } = keyed.dataset.current;
  productId = reviews.source.productId(0);
  const owner = namedCustomer(keyed.dataset.current, (i) => wishlists.source.itemCount(i) >= 3);
  authorization = owner.authorization;
  wishlistId = owner.wishlistIds[0]!;
  itemCount = wishlists.source.itemCount(owner.wishlists[0]!);
  paths = ['/store/products/reviews', `/store/reviews/product/${productId}`, '/store/wishlists', `/store/wishlists/${wishlistId}/items`];
});
afterAll(async () => {
  await Promise.all([keyed?.close(), open?.close()]);
});

describe('--publishable-key (startMockServer({ publishableKeys }))', () => {
  it('a key the server was given is served; any other is Medusa\'s 400, on every listing, before the token and the query are read', async () => {
    for (const path of paths) {
      for (const key of KEYS) expect((await get(keyed.url, path, { headers: AS(key) })).status, `${path} ${key}`).toBe(200);
      for (const [query, token] of [['', true], ['?foo=1', true], ['', false]] as const) {
        const answer = await get(keyed.url, `${path}${query}`, { headers: AS('pk_not_a_key', token) });
        expect([answer.status, answer.contentType, answer.json], `${path}${query}`).toEqual([400, 'application/json; charset=utf-8', UNKNOWN_KEY]);
      }
      // a missing key is still the missing-key answer
      expect((await get(keyed.url, path, { headers: AS(null) })).json.message, path).toContain('Publishable API key required');
    }
  });

  it('an answer kept for a known key (the fast path answers it) is not given to an unknown key', async () => {
    const path = `/store/reviews/product/${productId}?limit=3`;
    for (let i = 0; i < 3; i++) expect((await get(keyed.url, path, { headers: AS(KEYS[0]!) })).status).toBe(200);
    expect(keyed.ops.stats.fastPathAnswers).toBeGreaterThan(0);
    const answer = await get(keyed.url, path, { headers: AS('pk_not_a_key') });
    expect([answer.status, answer.json]).toEqual([400, UNKNOWN_KEY]);
  });

  it('without keys, any non-empty key is taken, as before', async () => {
    for (const path of paths) expect((await get(open.url, path, { headers: AS('pk_not_a_key') })).status, path).toBe(200);
  });

  it('keys with the spec dialect, or keys that are no header value, are refused up front', async () => {
    await expect(startMockServer({ publishableKeys: ['pk_x'] })).rejects.toThrow(/alphabite dialect only/);
    await expect(startMockServer({ dialect: 'alphabite', publishableKeys: ['pk x'] })).rejects.toThrow(/visible ASCII/);
    expect(() => createDialect('spec', { maxPageSize: 100, publishableKeys: ['pk_x'] })).toThrow(/alphabite dialect only/);
  });
});

describe('serve --publishable-key', () => {
  it('names the keys in its banner and refuses any other (repeatable)', async () => {
    const serve = await startServe(['--dialect', 'alphabite', '--publishable-key', 'pk_a', '--publishable-key', 'pk_b']);
    try {
      expect(serve.stdout()).toContain('publishable keys: 2 known (pk_a, pk_b); any other key is refused');
      expect((await get(serve.url, '/store/products/reviews', { headers: AS('pk_b') })).status).toBe(200);
      expect((await get(serve.url, '/store/products/reviews', { headers: AS('pk_c') })).json).toEqual(UNKNOWN_KEY);
    } finally {
      serve.child.kill('SIGTERM');
      await serve.exited;
    }
  });
});

describe('fields on 4.4: the route reads the first record\'s wishlist', () => {
  const items = (query: string, id = wishlistId) => get(open.url, `/store/wishlists/${id}/items?${query}`, { headers: AS('pk_x') });

  it('fields that leave the wishlist out make a page with records an empty 500', async () => {
    for (const fields of ['id', 'title', 'id,wishlist_id', '', '-wishlist', '-wishlist.*', '%2Bproduct_id,id']) {
      const answer = await items(`fields=${fields}`);
      expect([answer.status, answer.contentType, answer.text], fields).toEqual([500, null, '']);
    }
  });

  it('...while an empty page (past the end, limit 0, an unknown wishlist) is answered', async () => {
    const plainEmpty = await items(`limit=5&offset=${itemCount}`);
    expect((await items(`fields=id&limit=5&offset=${itemCount}`)).text).toBe(plainEmpty.text);
    expect((await items('fields=id&limit=0')).status).toBe(200);
    expect((await items('fields=id', 'wl_01NOTAWISHLIST00000000000')).json).toMatchObject({ data: [], count: 0 });
  });

  it('fields that keep the wishlist (+field, -other, wishlist.*) answer the records as they are', async () => {
    const plain = (await items('')).text;
    for (const fields of ['%2Bproduct_id', '-product_variant', 'product_variant.*,wishlist.*', 'id,wishlist.customer_id', '*wishlist']) {
      const answer = await items(`fields=${fields}`);
      expect([answer.status, answer.text], fields).toEqual([200, plain]);
    }
  });

  it('fields changes nothing on 4.1 to 4.3', async () => {
    for (const path of paths.slice(0, 3)) {
      const plain = (await get(open.url, path, { headers: AS('pk_x') })).text;
      expect((await get(open.url, `${path}?fields=id`, { headers: AS('pk_x') })).text, path).toBe(plain);
    }
  });
});

describe('Medusa\'s normalizeQuery: dotted parameter names', () => {
  it('a.b.c is a 500 invalid_argument naming it (after the key and the 4.3 token); a.b is read as a', async () => {
    for (const path of paths) {
      const deep = await get(open.url, `${path}?limit=1&a.b.c=1&x.y.z=2`, { headers: AS('pk_x') });
      expect([deep.status, deep.json], path).toEqual([500, { type: 'invalid_argument', message: 'Key accessor more than 2 levels deep: a.b.c' }]);
      const shallow = await get(open.url, `${path}?a.b=1&a.c=2`, { headers: AS('pk_x') });
      expect([shallow.status, shallow.json], path).toEqual([400, { type: 'invalid_data', message: "Invalid request: Unrecognized fields: 'a'" }]);
      expect((await get(open.url, `${path}?a.b.c=1`, { headers: AS(null) })).status, path).toBe(400);
    }
    expect((await get(open.url, '/store/wishlists?a.b.c=1', { headers: AS('pk_x', false) })).status).toBe(401);
  });
});

describe('an offset beyond 2^53 - 1', () => {
  it('lists from the first record, while the envelope echoes it; 2^53 - 1 itself is past the end', async () => {
    const path = `/store/reviews/product/${productId}`;
    const first = (await get(open.url, `${path}?limit=2`, { headers: AS('pk_x') })).json;
    const huge = (await get(open.url, `${path}?limit=2&offset=9007199254740993`, { headers: AS('pk_x') })).json;
    expect(huge.data).toEqual(first.data);
    expect(huge).toMatchObject({ skip: 9007199254740992, take: 2, currentPage: 4503599627370497 });
    const safe = (await get(open.url, `${path}?limit=2&offset=9007199254740991`, { headers: AS('pk_x') })).json;
    expect(safe.data).toEqual([]);
    const items = (await get(open.url, `/store/wishlists/${wishlistId}/items?limit=2&offset=100000000000000000000`, { headers: AS('pk_x') })).json;
    expect(items.data.map((i: { id: string }) => i.id)).toEqual((await get(open.url, `/store/wishlists/${wishlistId}/items?limit=2`, { headers: AS('pk_x') })).json.data.map((i: { id: string }) => i.id));
    expect(items.skip).toBe(1e20);
  });
});

describe('a generated 4.4 item', () => {
  it('carries product_variant.product_id after title, as Medusa adds it', async () => {
    const { data } = (await get(open.url, `/store/wishlists/${wishlistId}/items`, { headers: AS('pk_x') })).json;
    for (const item of data) {
      expect(Object.keys(item.product_variant)).toEqual(['id', 'title', 'product_id', 'product']);
      expect(item.product_variant.product_id).toBe(item.product_variant.product.id);
    }
  });
});
