import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REVIEW_ORDER_VALUES, parseReviewOrder } from '../lib/api-rules.ts';
import { pageNumbers, totalPages } from '../lib/paging.ts';
import { startMockServer, type MockServer } from '../mock-server/server.ts';
import { get, walk } from './support/http.ts';

let mock: MockServer;
let base: string;
beforeAll(async () => {
  mock = await startMockServer({ seed: 1 });
  base = mock.url;
});
afterAll(() => mock.close());

/** The API's order, written out independently of the server: field, then id ascending. */
function compareReviews(order: string) {
  const { field, descending } = parseReviewOrder(order)!;
  const key = (r: any) => (field === 'rating' ? r.rating : Date.parse(r[field]));
  return (a: any, b: any) => (descending ? key(b) - key(a) : key(a) - key(b)) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

async function allReviews(): Promise<any[]> {
  return (await get(base, '/store/products/reviews?limit=1000')).json.reviews;
}

describe('4.1 list reviews', () => {
  it('answers the defaults: limit 20, offset 0, the first page, prevPage null', async () => {
    const res = await get(base, '/store/products/reviews');
    expect(res.status).toBe(200);
    expect(res.contentType).toBe('application/json; charset=utf-8');
    const body = res.json;
    expect(Object.keys(body)).toEqual(['reviews', 'count', 'limit', 'offset', 'totalPages', 'currentPage', 'nextPage', 'prevPage']);
    expect(body).toMatchObject({ count: 300, limit: 20, offset: 0, totalPages: 15, currentPage: 1, nextPage: 2, prevPage: null });
    expect(body.reviews).toHaveLength(20);
  });

  it('serves first, middle, last, unaligned and past-the-end pages', async () => {
    const all = await allReviews();
    const cases = [
      { offset: 0, limit: 25 },
      { offset: 100, limit: 25 },
      { offset: 275, limit: 25 },
      { offset: 290, limit: 20 },
      { offset: 299, limit: 7 },
      { offset: 300, limit: 20 },
      { offset: 1000, limit: 20 },
    ];
    for (const { offset, limit } of cases) {
      const body = (await get(base, `/store/products/reviews?limit=${limit}&offset=${offset}`)).json;
      expect(body.reviews).toEqual(all.slice(offset, offset + limit));
      expect(body).toMatchObject({ count: 300, limit, offset, ...pageNumbers(300, offset, limit) });
    }
  });

  it('walks every page by nextPage and sees each review exactly once', async () => {
    for (const size of [1, 7, 20, 299, 300, 301]) {
      const seen = await walk(base, '/store/products/reviews', 'limit', size);
      expect(seen.map((r) => r.id)).toEqual((await allReviews()).map((r) => r.id));
      expect(new Set(seen.map((r) => r.id)).size).toBe(300);
    }
  });

  it('has ties in created_at and rating, so the id tie-break is exercised', async () => {
    const all = await allReviews();
    expect(new Set(all.map((r) => r.created_at)).size).toBeLessThan(all.length);
    expect(new Set(all.map((r) => r.rating)).size).toBe(5);
  });

  it.each(REVIEW_ORDER_VALUES)('order=%s sorts the whole set before paging, ties by id', async (order) => {
    const walked = await walk(base, '/store/products/reviews', 'limit', 37, `&order=${order}`);
    const expected = [...walked].sort(compareReviews(order));
    expect(walked.map((r) => r.id)).toEqual(expected.map((r) => r.id));
    expect(new Set(walked.map((r) => r.id)).size).toBe(300);
  });

  it('without order sorts by created_at ascending, then id', async () => {
    const all = await allReviews();
    expect(all.map((r) => r.id)).toEqual([...all].sort(compareReviews('created_at')).map((r) => r.id));
  });

  it('records have the fields of API.md', async () => {
    const [review] = (await get(base, '/store/products/reviews?limit=1')).json.reviews;
    expect(Object.keys(review)).toEqual(['id', 'product_id', 'title', 'content', 'rating', 'image_urls', 'is_verified_purchase', 'customer', 'created_at', 'updated_at']);
    expect(review.id).toMatch(/^rev_/);
    expect(review.product_id).toMatch(/^prod_/);
    expect(review.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    for (const r of await allReviews()) expect(Date.parse(r.updated_at)).toBeGreaterThanOrEqual(Date.parse(r.created_at));
  });
});

describe('4.2 list product reviews', () => {
  it('returns only the path product, agreeing with 4.1, on several pages', async () => {
    const all = await allReviews();
    const byProduct = new Map<string, any[]>();
    for (const r of all) byProduct.set(r.product_id, [...(byProduct.get(r.product_id) ?? []), r]);
    const [busiest] = [...byProduct.entries()].sort((a, b) => b[1].length - a[1].length);
    const [productId, reviews] = busiest!;
    expect(totalPages(reviews.length, 20)).toBeGreaterThan(1);
    const walked = await walk(base, `/store/reviews/product/${productId}`, 'limit', 20);
    expect(walked).toEqual(reviews);
    const first = (await get(base, `/store/reviews/product/${productId}`)).json;
    expect(first).toMatchObject({ count: reviews.length, limit: 20, offset: 0, currentPage: 1, prevPage: null, nextPage: 2 });
  });

  it('accepts order too', async () => {
    const productId = (await allReviews())[0].product_id;
    const walked = await walk(base, `/store/reviews/product/${productId}`, 'limit', 6, '&order=-rating');
    expect(walked.map((r) => r.id)).toEqual([...walked].sort(compareReviews('-rating')).map((r) => r.id));
    expect(walked.every((r) => r.product_id === productId)).toBe(true);
  });

  it('a product without reviews and an unknown product are empty pages, not errors', async () => {
    const withReviews = new Set((await allReviews()).map((r) => r.product_id));
    expect(withReviews.size).toBe(7); // 8 products, the last one without reviews
    for (const productId of ['prod_unknown', 'prod_0000000007ZZZZZZZZZZZZZZZZ']) {
      const res = await get(base, `/store/reviews/product/${productId}?limit=5`);
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ reviews: [], count: 0, limit: 5, offset: 0, totalPages: 0, currentPage: 1, nextPage: null, prevPage: null });
    }
  });
});

describe('4.3 list wishlists', () => {
  it('answers the spec defaults skip 0, take 10 and leaves prevPage out on page 1', async () => {
    const body = (await get(base, '/store/wishlists')).json;
    expect(Object.keys(body)).toEqual(['data', 'count', 'skip', 'take', 'totalPages', 'currentPage', 'nextPage']);
    expect(body).toMatchObject({ count: 45, skip: 0, take: 10, totalPages: 5, currentPage: 1, nextPage: 2 });
    expect(body.data).toHaveLength(10);
  });

  it('leaves nextPage out on the last page and past the end', async () => {
    const last = (await get(base, '/store/wishlists?skip=40')).json;
    expect(last.data).toHaveLength(5);
    expect(Object.keys(last)).toEqual(['data', 'count', 'skip', 'take', 'totalPages', 'currentPage', 'prevPage']);
    const past = (await get(base, '/store/wishlists?skip=90&take=10')).json;
    expect(past).toEqual({ data: [], count: 45, skip: 90, take: 10, totalPages: 5, currentPage: 10, prevPage: 9 });
  });

  it('orders by created_at then id, pages never change wishlist-level fields', async () => {
    const whole = (await get(base, '/store/wishlists?take=1000')).json.data;
    const walked = await walk(base, '/store/wishlists', 'take', 4);
    expect(walked).toEqual(whole);
    const sorted = [...whole].sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at) || (a.id < b.id ? -1 : 1));
    expect(whole.map((w: any) => w.id)).toEqual(sorted.map((w: any) => w.id));
    for (const w of whole) expect(w.items_count).toBe(w.items.length);
    expect(new Set(whole.map((w: any) => w.created_at)).size).toBeLessThan(whole.length);
  });

  it('covers an empty wishlist, a one-item wishlist and one with several pages of items', async () => {
    const whole = (await get(base, '/store/wishlists?take=1000')).json.data;
    const counts = whole.map((w: any) => w.items_count);
    expect(counts).toContain(0);
    expect(counts).toContain(1);
    expect(Math.max(...counts)).toBeGreaterThan(20);
  });
});

describe('4.4 list wishlist items', () => {
  it('pages the embedded items: concatenated pages equal items, count equals items_count', async () => {
    const whole = (await get(base, '/store/wishlists?take=1000')).json.data;
    for (const w of whole.slice(0, 6)) {
      for (const take of [1, 10, 34, 35, 36]) {
        expect(await walk(base, `/store/wishlists/${w.id}/items`, 'take', take)).toEqual(w.items);
      }
      const first = (await get(base, `/store/wishlists/${w.id}/items`)).json;
      expect(first).toMatchObject({ count: w.items_count, skip: 0, take: 10, ...strip(pageNumbers(w.items_count, 0, 10)) });
    }
  });

  it('an empty wishlist answers count 0, no pages, no next or previous key', async () => {
    const empty = (await get(base, '/store/wishlists?take=1000')).json.data.find((w: any) => w.items_count === 0);
    const body = (await get(base, `/store/wishlists/${empty.id}/items`)).json;
    expect(body).toEqual({ data: [], count: 0, skip: 0, take: 10, totalPages: 0, currentPage: 1 });
  });

  it('accepts the wishlist id again as ?id= with the same answer', async () => {
    const [w] = (await get(base, '/store/wishlists?take=1')).json.data;
    const plain = await get(base, `/store/wishlists/${w.id}/items?skip=10&take=10`);
    const withId = await get(base, `/store/wishlists/${w.id}/items?id=${w.id}&skip=10&take=10`);
    expect(withId.status).toBe(200);
    expect(withId.text).toBe(plain.text);
  });

  it('items are in created_at, id order with the documented fields', async () => {
    const [w] = (await get(base, '/store/wishlists?take=1')).json.data;
    const items = w.items;
    expect(Object.keys(items[0])).toEqual(['id', 'wishlist_id', 'product_variant_id', 'product_variant', 'created_at', 'updated_at']);
    expect(Object.keys(items[0].product_variant.product)).toEqual(['id', 'title', 'handle', 'thumbnail']);
    const sorted = [...items].sort((a: any, b: any) => Date.parse(a.created_at) - Date.parse(b.created_at) || (a.id < b.id ? -1 : 1));
    expect(items).toEqual(sorted);
    expect(items.every((i: any) => i.wishlist_id === w.id && i.product_variant_id === i.product_variant.id)).toBe(true);
  });
});

function strip(n: { nextPage: number | null; prevPage: number | null; totalPages: number; currentPage: number }) {
  return Object.fromEntries(Object.entries(n).filter(([, v]) => v !== null));
}

describe('errors', () => {
  const bad: Array<[string, string, RegExp]> = [
    ['/store/products/reviews?limit=-5', 'limit', /'limit' must be an integer from 1 to 1000, got '-5'/],
    ['/store/products/reviews?limit=0', 'limit', /'limit' must be an integer from 1 to 1000, got '0'/],
    ['/store/products/reviews?limit=1001', 'limit', /from 1 to 1000, got '1001'/],
    ['/store/products/reviews?limit=1.5', 'limit', /got '1.5'/],
    ['/store/products/reviews?limit=1e2', 'limit', /got '1e2'/],
    ['/store/products/reviews?limit=', 'limit', /got ''/],
    ['/store/products/reviews?limit=%2010', 'limit', /got ' 10'/],
    ['/store/products/reviews?offset=+1', 'offset', /'offset' must be an integer from 0 to 9007199254740991, got ' 1'/],
    ['/store/products/reviews?offset=9007199254740992', 'offset', /got '9007199254740992'/],
    ['/store/products/reviews?order=price', 'order', /'order' must be one of created_at, -created_at, updated_at, -updated_at, rating, -rating, got 'price'/],
    ['/store/products/reviews?order=--rating', 'order', /got '--rating'/],
    ['/store/products/reviews?limit=1&limit=2', 'limit', /'limit' must be given at most once/],
    ['/store/products/reviews?skip=1', 'skip', /unknown query parameter 'skip'; accepted parameters: limit, offset, order/],
    ['/store/reviews/product/prod_1?take=1', 'take', /unknown query parameter 'take'/],
    ['/store/wishlists?limit=1', 'limit', /unknown query parameter 'limit'; accepted parameters: skip, take/],
    ['/store/wishlists?take=0', 'take', /'take' must be an integer from 1 to 1000, got '0'/],
    ['/store/wishlists?skip=-1', 'skip', /'skip' must be an integer from 0/],
    ['/store/wishlists?order=rating', 'order', /unknown query parameter 'order'/],
    ['/store/wishlists?take[]=1', 'take[]', /unknown query parameter 'take\[\]'/],
    ['/store/wishlists/wl_x/items?id=wl_y', 'id', /'id' must be the wishlist id of the path 'wl_x', got 'wl_y'/],
  ];

  it.each(bad)('%s is a 400 invalid_data naming %s', async (path, _name, message) => {
    const res = await get(base, path);
    expect(res.status).toBe(400);
    expect(res.contentType).toBe('application/json; charset=utf-8');
    expect(res.json.type).toBe('invalid_data');
    expect(res.json.message).toMatch(/^Invalid request: /);
    expect(res.json.message).toMatch(message);
    expect(Object.keys(res.json)).toEqual(['type', 'message']);
  });

  it('an unknown wishlist is a 404 not_found', async () => {
    const res = await get(base, '/store/wishlists/wl_missing/items');
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ type: 'not_found', message: 'Wishlist with id: wl_missing was not found' });
  });

  it('a write on a listing path is a JSON 405 that names --dialect alphabite (the spec shows no writes)', async () => {
    for (const [method, path] of [['POST', '/store/wishlists'], ['DELETE', '/store/products/reviews']] as const) {
      const res = await get(base, path, { method });
      expect(res.status).toBe(405);
      expect(res.contentType).toBe('application/json; charset=utf-8');
      expect(res.json.type).toBe('not_allowed');
      expect(res.json.message).toContain('--dialect alphabite');
    }
  });

  it('an unknown path or method is a JSON 404, never HTML', async () => {
    for (const [method, path] of [['GET', '/'], ['GET', '/store/reviews'], ['PATCH', '/store/elsewhere'], ['DELETE', '/nothing/here']] as const) {
      const res = await get(base, path, { method });
      expect(res.status).toBe(404);
      expect(res.contentType).toBe('application/json; charset=utf-8');
      expect(res.json.type).toBe('not_found');
    }
  });

  it('a malformed escape in a path id is a JSON 400', async () => {
    const res = await get(base, '/store/wishlists/%E0%A4%A/items');
    expect(res.status).toBe(400);
    expect(res.json.type).toBe('invalid_data');
  });
});

describe('options', () => {
  it('--max-page-size bounds limit and take, and never changes the defaults', async () => {
    const small = await startMockServer({ seed: 1, maxPageSize: 20 });
    try {
      expect((await get(small.url, '/store/products/reviews?limit=21')).json.message).toMatch(/from 1 to 20, got '21'/);
      expect((await get(small.url, '/store/products/reviews')).json).toMatchObject({ limit: 20, totalPages: 15 });
      expect((await get(small.url, '/store/wishlists')).json).toMatchObject({ take: 10 });
      expect((await get(small.url, '/store/wishlists?take=21')).status).toBe(400);
    } finally {
      await small.close();
    }
  });

  it('refuses a maximum page size below the default limit, saying why', async () => {
    await expect(startMockServer({ seed: 1, maxPageSize: 5 })).rejects.toThrow(/from 20 \(the default limit.*got 5/);
  });

  it('allows any origin by default and only the listed ones with corsOrigin', async () => {
    const open = await get(base, '/store/wishlists', { headers: { origin: 'http://localhost:3000' } });
    expect(open.headers.get('access-control-allow-origin')).toBe('*');
    // browsers forbid credentials with '*': the server does not pretend otherwise
    expect(open.headers.get('access-control-allow-credentials')).toBeNull();
    const strict = await startMockServer({ seed: 1, corsOrigin: ['http://shop.test'] });
    try {
      const allowed = await get(strict.url, '/store/wishlists', { headers: { origin: 'http://shop.test' } });
      expect(allowed.headers.get('access-control-allow-origin')).toBe('http://shop.test');
      expect(allowed.headers.get('access-control-expose-headers')).toBe('Retry-After,x-store-listing-kit-reason');
      // explicit origins: credentialed requests (session auth) are allowed, per origin
      expect(allowed.headers.get('access-control-allow-credentials')).toBe('true');
      expect(allowed.headers.get('vary')).toMatch(/Origin/);
      const preflight = await get(strict.url, '/store/wishlists', {
        method: 'OPTIONS',
        headers: { origin: 'http://shop.test', 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-publishable-api-key,authorization' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('http://shop.test');
      expect(preflight.headers.get('access-control-allow-credentials')).toBe('true');
      expect(preflight.headers.get('access-control-allow-headers')).toBe('x-publishable-api-key,authorization');
      const other = await get(strict.url, '/store/wishlists', { headers: { origin: 'http://evil.test' } });
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await strict.close();
    }
  });
});

describe('determinism', () => {
  const paths = [
    '/store/products/reviews?limit=50&offset=120&order=-rating',
    '/store/reviews/product/prod_0000000000XXXXXXXXXXXXXXXX',
    '/store/wishlists?skip=10&take=10',
  ];

  it('the same seed gives the same bytes, on a fresh server and in any request order', async () => {
    const again = await startMockServer({ seed: 1 });
    try {
      const [w] = (await get(base, '/store/wishlists?take=1')).json.data;
      const all = [...paths, `/store/wishlists/${w.id}/items?take=7&skip=7`];
      const first = await Promise.all(all.map((p) => get(base, p)));
      const second = await Promise.all([...all].reverse().map((p) => get(again.url, p)));
      expect(second.reverse().map((r) => r.text)).toEqual(first.map((r) => r.text));
    } finally {
      await again.close();
    }
  });

  it('another seed gives other data', async () => {
    const other = await startMockServer({ seed: 2 });
    try {
      const a = await get(base, '/store/products/reviews?limit=5');
      const b = await get(other.url, '/store/products/reviews?limit=5');
      expect(b.text).not.toBe(a.text);
      expect(b.json.reviews[0].id).not.toBe(a.json.reviews[0].id);
    } finally {
      await other.close();
    }
  });
});
