/**
 * The alphabite dialect, rule by rule, as docs/dialects.md lists it: each behaviour of the
 * published plugins that differs from the spec, over HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clampedPageNumbers } from '../lib/paging.ts';
import { medusaQuery, medusaQueryFields, NESTED, relationsDepth } from '../lib/dialects/alphabite.ts';
import { medusaBehaviour } from '../lib/dialects/medusa-behaviour.ts';
import { startMockServer, type MockServer } from '../mock-server/server.ts';
import { namedCustomer, type NamedCustomer } from './support/customer-token.ts';
import { get } from './support/http.ts';

const KEY = { 'x-publishable-api-key': 'pk_test' };

let mock: MockServer;
let productId: string;
/** The customer the dataset names as the owner of a wishlist with items (each customer sees their own wishlists). */
let owner: NamedCustomer;
let CUSTOMER: Record<string, string>;
let wishlistId: string;
let itemCount: number;
beforeAll(async () => {
  mock = await startMockServer({ seed: 1, dialect: 'alphabite' });
  productId = mock.dataset.current.reviews.source.productId(0);
  const { source } = mock.dataset.current.wishlists;
  owner = namedCustomer(mock.dataset.current, (w) => source.itemCount(w) > 10);
  CUSTOMER = { ...KEY, authorization: owner.authorization };
  wishlistId = owner.wishlistIds[0]!;
  itemCount = source.itemCount(owner.wishlists[0]!);
});
afterAll(() => mock.close());

const call = (path: string, headers: Record<string, string> = CUSTOMER) => get(mock.url, path, { headers });

describe('what every listing checks first', () => {
  it('a publishable key, before anything else (400 not_allowed)', async () => {
    for (const path of ['/store/products/reviews', `/store/reviews/product/${productId}`, '/store/wishlists?bogus=1', `/store/wishlists/${wishlistId}/items`]) {
      const res = await call(path, {});
      expect(res.status, path).toBe(400);
      expect(res.json, path).toEqual({ type: 'not_allowed', message: expect.stringContaining('x-publishable-api-key') });
    }
  });

  it('4.3 needs a customer bearer token before validation (401 {message}); a session cookie is not enough', async () => {
    expect(await call('/store/wishlists?bogus=1', KEY)).toMatchObject({ status: 401, json: { message: 'Unauthorized' } });
    expect(await call('/store/wishlists', { ...KEY, cookie: 'connect.sid=abc' })).toMatchObject({ status: 401 });
  });

  it('4.4 validates first, then refuses guests (401 unauthorized), and a session cookie counts', async () => {
    expect((await call(`/store/wishlists/${wishlistId}/items?skip=1`, KEY)).status).toBe(400);
    expect(await call(`/store/wishlists/${wishlistId}/items`, KEY)).toMatchObject({ status: 401, json: { type: 'unauthorized', message: 'Guest wishlists are now allowed' } });
    // The cookie's customer is not the owner: a page of another's items is the plugin's empty 500, an empty page their count.
    const session = { ...KEY, cookie: 'connect.sid=abc' };
    expect(await call(`/store/wishlists/${wishlistId}/items`, session)).toMatchObject({ status: 500, text: '' });
    expect(await call(`/store/wishlists/${wishlistId}/items?limit=0`, session)).toMatchObject({ status: 200, json: { data: [], count: itemCount } });
  });

  it('an answer kept for a customer never reaches a guest', async () => {
    const path = `/store/wishlists/${wishlistId}/items?limit=3`;
    expect((await call(path)).status).toBe(200);
    expect((await call(path)).status).toBe(200);
    expect((await call(path, KEY)).status).toBe(401);
  });
});

describe("Medusa's query validation", () => {
  it('limit/offset everywhere: skip/take, ?id= and unknown parameters are 400 "Unrecognized fields"', async () => {
    expect((await call('/store/wishlists?skip=0&take=10')).json).toEqual({ type: 'invalid_data', message: "Invalid request: Unrecognized fields: 'skip, take'" });
    expect((await call(`/store/wishlists/${wishlistId}/items?id=${wishlistId}`)).json.message).toBe("Invalid request: Unrecognized fields: 'id'");
    expect((await call(`/store/reviews/product/${productId}?product_ids=x`)).json.message).toBe("Invalid request: Unrecognized fields: 'product_ids'");
  });

  it('numbers by parseInt, with no bounds; a non-number is refused, field issues before unknown fields', async () => {
    const res = await call(`/store/reviews/product/${productId}?limit=abc&foo=1`);
    expect(res.json.message).toBe("Invalid request: Expected type: 'number' for field 'limit', got: 'abc'; Unrecognized fields: 'foo'");
    expect((await call(`/store/reviews/product/${productId}?limit=2.7`)).json).toMatchObject({ take: 2 });
    expect((await call(`/store/reviews/product/${productId}?limit=5000`)).json).toMatchObject({ take: 5000, totalPages: 1 });
  });

  it('coerced booleans: "false" switches a filter on; rating is rounded and bounded', async () => {
    const on = (await call('/store/products/reviews?verified_purchase_only=false')).json.data as Array<{ is_verified_purchase: boolean }>;
    expect(on.length).toBeGreaterThan(0);
    expect(on.every((r) => r.is_verified_purchase)).toBe(true);
    const rated = (await call('/store/products/reviews?rating=4.4')).json.data as Array<{ rating: number }>;
    expect(new Set(rated.map((r) => r.rating))).toEqual(new Set([4]));
    expect((await call('/store/products/reviews?rating=0')).json.message).toBe("Invalid request: Value for field 'rating' too small, expected at least: '1'");
    expect((await call('/store/products/reviews?rating=6')).json.message).toBe("Invalid request: Value for field 'rating' too big, expected at most: '5'");
  });

  it('qs arrays: product_ids as a list, as product_ids[0]=, or comma-separated', async () => {
    const other = mock.dataset.current.reviews.source.productId(1);
    const forms = [`product_ids=${productId},${other}`, `product_ids[0]=${productId}&product_ids[1]=${other}`, `product_ids[]=${productId},${other}`];
    const answers = await Promise.all(forms.map(async (q) => ((await call(`/store/products/reviews?${q}`)).json.data as Array<{ product_id: string }>).map((r) => r.product_id)));
    for (const products of answers) expect(new Set(products)).toEqual(new Set([productId, other]));
    expect(medusaQuery([['a[0]', 'x,y'], ['a[1]', 'z']]).get('a')).toEqual(['x,y', 'z']);
    expect(medusaQuery([['a', '1'], ['a', '2']]).get('a')).toEqual(['1', '2']);
  });

  it('qs objects: a nested name is an object under its first name, which no field accepts (row 26)', async () => {
    expect(medusaQuery([['limit[a]', '1']]).get('limit')).toBe(NESTED);
    expect(medusaQuery([['a[b][c][d]', '1']]).get('a')).toBe(NESTED);
    const refusal = (message: string) => ({ type: 'invalid_data', message: `Invalid request: ${message}` });
    expect((await call('/store/wishlists?limit[a]=1')).json).toEqual(refusal("Expected type: 'number' for field 'limit', got: '[object Object]'"));
    expect((await call(`/store/wishlists/${wishlistId}/items?fields[a]=id`)).json).toEqual(refusal("Expected type: 'string' for field 'fields', got: '[object Object]'"));
    expect((await call('/store/products/reviews?product_ids[a]=x')).json).toEqual(refusal("Expected type: 'array' for field 'product_ids', got: '[object Object]'"));
    expect((await call(`/store/reviews/product/${productId}?a[b][c][d][e][f][g]=1`)).json).toEqual(refusal("Unrecognized fields: 'a'"));
  });
});

describe('Medusa 2.20+: at most 3 relations deep in fields (row 25)', () => {
  const tooDeep = (fields: string) => ({ type: 'invalid_data', message: `The following fields expand more than the maximum of 3 allowed relations: ${fields}` });

  it('counts a field\'s dots, a star field\'s segments', () => {
    expect(['id', 'a.b', 'a.b.c.d', 'a.b.c.d.e', '*a', 'a.*', 'a.b.c.*', '*a.b.c.d', 'a.b.c.d.*'].map(relationsDepth)).toEqual([0, 1, 3, 4, 1, 1, 3, 4, 4]);
  });

  it('reads fields as Medusa\'s FieldParser: defaults with +/- applied, or the caller\'s list when it has a bare field; id added; star fields last', () => {
    expect(medusaQueryFields(undefined, ['a', 'b.c'], medusaBehaviour())).toEqual(['a', 'b.c']);
    expect(medusaQueryFields('+x.y,-b', ['a', 'b.c'], medusaBehaviour())).toEqual(['a', 'x.y', 'id']);
    expect(medusaQueryFields('x,-b.c.d.e.f,*s', ['a'], medusaBehaviour())).toEqual(['x', 'b.c.d.e.f', 'id', 's.*']);
    expect(medusaQueryFields('', ['a'], medusaBehaviour())).toEqual(['id']);
    expect(medusaQueryFields('*w,q.*', ['a'], medusaBehaviour())).toEqual(['a', 'id', 'w.*', 'q.*']);
  });

  it('on all four listings, 400 invalid_data naming each field past the limit; plain fields before star ones', async () => {
    for (const path of ['/store/products/reviews', `/store/reviews/product/${productId}`, '/store/wishlists', `/store/wishlists/${wishlistId}/items`]) {
      expect(await call(`${path}?fields=id,product.variants.product.variants.id`), path).toMatchObject({ status: 400, json: tooDeep('product.variants.product.variants.id') });
      expect((await call(`${path}?fields=%2Bproduct.variants.product.variants.id`)).json, path).toEqual(tooDeep('product.variants.product.variants.id'));
      expect((await call(`${path}?fields=a.b.c.d.e,*x.y.z.w,q.r.s.t.u`)).json, path).toEqual(tooDeep('a.b.c.d.e, q.r.s.t.u, x.y.z.w.*'));
      expect((await call(`${path}?fields=x,-a.b.c.d.e`)).json, path).toEqual(tooDeep('a.b.c.d.e'));
      // at the limit, or removed by a lone -field: answered
      expect((await call(`${path}?fields=*a.b.c`)).status, path).toBe(200);
      expect((await call(`${path}?fields=-a.b.c.d.e`)).status, path).toBe(200);
      // a zod issue is reported instead; the key is checked before
      expect((await call(`${path}?fields=a.b.c.d.e&limit=abc`)).json.message, path).toBe("Invalid request: Expected type: 'number' for field 'limit', got: 'abc'");
      expect((await call(`${path}?fields=a.b.c.d.e`, {})).json.type, path).toBe('not_allowed');
    }
  });
});

describe('envelopes and page numbers', () => {
  it('4.1 ignores paging: every matching review, by id, in a constant envelope', async () => {
    const res = await call('/store/products/reviews?limit=1&offset=299&order=-rating');
    expect(res.json.data).toHaveLength(300);
    const { data, ...envelope } = res.json;
    expect(envelope).toEqual({ count: 0, nextPage: 1, currentPage: 1, prevPage: 1, totalPages: 1, take: 5, skip: 0 });
    expect((data as Array<{ id: string }>).map((r) => r.id)).toEqual((data as Array<{ id: string }>).map((r) => r.id).sort());
  });

  it('clamped page numbers: totalPages at least 1, currentPage not floored, nextPage/prevPage never absent', async () => {
    const page = (await call(`/store/reviews/product/${productId}?limit=10&offset=5`)).json;
    expect(page).toMatchObject({ ...clampedPageNumbers(page.count, 5, 10), take: 10, skip: 5 });
    expect(page.currentPage).toBe(1.5);
    // the last page of the owner's items: nextPage is the last page itself
    expect(itemCount).toBeGreaterThan(10);
    const pages = Math.ceil(itemCount / 10);
    const last = (await call(`/store/wishlists/${wishlistId}/items?limit=10&offset=${(pages - 1) * 10}`)).json;
    expect(last).toMatchObject({ take: 10, skip: (pages - 1) * 10, count: itemCount, currentPage: pages, nextPage: pages, prevPage: pages - 1, totalPages: pages });
    const empty = (await call('/store/wishlists/wl_unknown/items')).json;
    expect(empty).toEqual({ data: [], skip: 0, take: 20, count: 0, nextPage: 1, currentPage: 1, prevPage: 1, totalPages: 1 });
    expect(Object.keys((await call('/store/wishlists')).json)).toEqual(['data', 'take', 'skip', 'count', 'nextPage', 'currentPage', 'prevPage', 'totalPages']);
  });

  it('no bound on limit/offset: a huge one is a page like any other, not an error', async () => {
    const huge = (await call(`/store/reviews/product/${productId}?limit=9007199254740992&offset=9007199254740991`)).json;
    expect(huge.data).toEqual([]);
    expect(huge).toMatchObject({ take: 9007199254740992, skip: 9007199254740991, totalPages: 1 });
    expect((await call(`/store/wishlists?limit=9007199254740992`)).json.data).toHaveLength(owner.wishlists.length);
    expect((await call(`/store/wishlists/${wishlistId}/items?limit=9007199254740992`)).json.data).toHaveLength(itemCount);
  });

  it('limit 0: an empty page, take echoed as 5 on wishlists (`|| 5`), page numbers null', async () => {
    const items = (await call(`/store/wishlists/${wishlistId}/items?limit=0`)).json;
    expect(items).toEqual({ data: [], skip: 0, take: 5, count: itemCount, nextPage: null, currentPage: null, prevPage: null, totalPages: null });
  });

  it('4.2 adds the rating aggregate when asked (counts from 5 down to 1)', async () => {
    const page = (await call(`/store/reviews/product/${productId}?include_aggregated_counts=true&limit=100`)).json;
    const ratings = (page.data as Array<{ rating: number }>).map((r) => r.rating);
    expect(page.total_count).toBe(ratings.length);
    expect(page.average).toBe(Number((ratings.reduce((a, b) => a + b, 0) / ratings.length).toFixed(2)));
    expect(page.counts).toEqual([5, 4, 3, 2, 1].map((rating) => ({ rating, count: ratings.filter((r) => r === rating).length })));
    expect(Object.keys(page).slice(-3)).toEqual(['average', 'total_count', 'counts']);
  });

  it('errors the database would raise: a negative limit, an unknown order column', async () => {
    expect(await call(`/store/reviews/product/${productId}?limit=-1`)).toMatchObject({ status: 500, json: { code: 'unknown_error', type: 'unknown_error' } });
    expect(await call(`/store/reviews/product/${productId}?order=desc`)).toMatchObject({ status: 500 });
    const empty = await call(`/store/wishlists/${wishlistId}/items?offset=-1`);
    expect([empty.status, empty.text]).toEqual([500, '']);
  });
});

describe('the server says which dialect it speaks', () => {
  it('in GET /__admin/config', async () => {
    expect((await get(mock.url, '/__admin/config')).json.server.dialect).toBe('alphabite');
  });
});

describe('records as the plugins show them', () => {
  it('wishlists without items (includeWishlistItems is off by default); items with a slim product variant', async () => {
    const [wishlist] = (await call('/store/wishlists?limit=1')).json.data;
    expect(Object.keys(wishlist)).toEqual(['id', 'name', 'customer_id', 'sales_channel_id', 'created_at', 'updated_at', 'deleted_at']);
    const [item] = (await call(`/store/wishlists/${wishlistId}/items?limit=1`)).json.data;
    expect(Object.keys(item)).toEqual(['id', 'wishlist_id', 'product_variant_id', 'product_variant']);
    expect(Object.keys(item.product_variant.product)).toEqual(['id', 'handle', 'thumbnail']);
  });
});
