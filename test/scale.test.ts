/**
 * Correctness of what makes the mock fast at any size: the memoised orders and indexes
 * agree with a naive sort, the serialized answers are byte for byte what JSON.stringify of
 * the envelope gives, caches follow the dataset version, and the same seed gives the same
 * bytes whatever the order of requests, also at a million reviews. (Speed itself is
 * measured by `npm run bench`, never asserted here.)
 */
import { get as httpGet } from 'node:http';
import { describe, expect, it } from 'vitest';
import express from 'express';
import { REVIEW_ORDER_VALUES, parseReviewOrder, type ReviewOrder } from '../lib/api-rules.ts';
import { reviewsEnvelope, wishlistEnvelope } from '../lib/paging.ts';
import { generateDataset, type Dataset } from '../fixtures/index.ts';
import { sortIndexesByTime } from '../fixtures/review-table.ts';
import { HashRandomizer } from '../fixtures/randomizer.ts';
import { boundedMemo, memoized } from '../mock-server/listings/memo.ts';
import { PageBodies } from '../mock-server/listings/page-bodies.ts';
import { specDialect, type ListingOrder } from '../lib/dialects/index.ts';
import type { EndpointName } from '../lib/api-rules.ts';

const spec = specDialect({ maxPageSize: 1000 });
/** The answer the spec dialect makes for one page of a listing. */
function pageOf(bodies: PageBodies, endpoint: EndpointName, id: string | undefined, order: ListingOrder, start: number, size: number): string {
  const answer = bodies.answer({ endpoint, ...(id === undefined ? {} : { id }), query: [], headers: {} }, { window: { start, size }, order, filters: {}, aggregates: false });
  if (typeof answer !== 'string') throw new Error(`refused: ${JSON.stringify(answer)}`);
  return answer;
}
const CREATED: ListingOrder = { field: 'created_at', descending: false };
import { startMockServer } from '../mock-server/server.ts';

const ORDERS: ReviewOrder[] = REVIEW_ORDER_VALUES.map((v) => parseReviewOrder(v)!);

/** The order of API.md written out the slow, obvious way: by the field, then by index (= id). */
function naiveOrder(dataset: Dataset, order: ReviewOrder, indexes?: number[]): number[] {
  const s = dataset.reviews.source;
  const key = (i: number) => (order.field === 'rating' ? s.rating[i]! : order.field === 'created_at' ? s.createdAt[i]! : s.updatedAt[i]!);
  const all = indexes ?? Array.from({ length: s.count }, (_, i) => i);
  return [...all].sort((a, b) => (order.descending ? key(b) - key(a) : key(a) - key(b)) || a - b);
}

function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 0x100000000;
}

describe('sortIndexesByTime', () => {
  const naive = (keys: Float64Array, descending: boolean) =>
    Array.from(keys.keys()).sort((a, b) => (descending ? keys[b]! - keys[a]! : keys[a]! - keys[b]!) || a - b);

  it('agrees with a comparison sort, ties by index, in both directions and over every key span', () => {
    const random = lcg(7);
    // spans below 2^16, 2^32, 2^48 and up to 2^53 exercise one to four radix passes
    for (const span of [0, 1, 1000, 70_000, 5_000_000_000, 2 ** 40, 2 ** 50, 2 ** 53 - 1]) {
      for (const n of [0, 1, 2, 17, 500]) {
        const base = 1_700_000_000_000;
        // few distinct values so ties are common
        const distinct = Array.from({ length: 7 }, () => Math.floor(random() * span));
        const keys = Float64Array.from({ length: n }, () => base + distinct[Math.floor(random() * distinct.length)]!);
        if (span >= 2 ** 50) keys.forEach((_, i) => (keys[i] = distinct[i % distinct.length]!));
        for (const descending of [false, true]) {
          expect(Array.from(sortIndexesByTime(keys, descending)), `span ${span}, n ${n}, ${descending ? 'desc' : 'asc'}`).toEqual(naive(keys, descending));
        }
      }
    }
  });

  it('falls back to a comparison sort for keys that are not whole milliseconds', () => {
    const keys = Float64Array.from([3.5, 1, 3.5, -2, 1e300, 0]);
    expect(Array.from(sortIndexesByTime(keys, false))).toEqual(naive(keys, false));
    expect(Array.from(sortIndexesByTime(keys, true))).toEqual(naive(keys, true));
  });
});

describe('memoised orders and per-product indexes', () => {
  const dataset = generateDataset({ seed: 3, reviews: 2000, products: 13 });

  it('every order of the whole set equals a naive sort', () => {
    for (const order of ORDERS) expect(Array.from(dataset.reviews.sorted(order))).toEqual(naiveOrder(dataset, order));
  });

  it('every product page is a slice of the naive filter-then-sort, count included', () => {
    const s = dataset.reviews.source;
    for (const order of ORDERS) {
      for (let p = 0; p < s.productCount; p++) {
        const expected = naiveOrder(dataset, order, Array.from({ length: s.count }, (_, i) => i).filter((i) => s.product[i] === p));
        for (const [offset, limit] of [[0, 1000], [0, 7], [5, 10], [expected.length - 3, 10], [expected.length + 5, 10]] as const) {
          const page = dataset.reviews.productPageIndexes(s.productId(p), order, Math.max(0, offset), limit);
          expect(page.count).toBe(expected.length);
          expect(Array.from(page.indexes)).toEqual(expected.slice(Math.max(0, offset), Math.max(0, offset) + limit));
        }
      }
    }
  });

  it('an unknown product has an empty page and count 0', () => {
    expect(dataset.reviews.productPageIndexes('prod_nope', ORDERS[0]!, 0, 10)).toEqual({ indexes: new Uint32Array(0), count: 0 });
  });
});

describe('serialized answers', () => {
  const dataset = generateDataset({ seed: 5, reviews: 400, wishlists: 30, maxItems: 12 });
  const bodies = new PageBodies(dataset, spec);

  it('equal JSON.stringify of the envelope of lib/paging.ts, byte for byte, on all four endpoints', () => {
    for (const order of ORDERS) {
      for (const [offset, limit] of [[0, 20], [390, 20], [400, 5], [13, 1]] as const) {
        const page = dataset.reviews.page(order, offset, limit);
        expect(pageOf(bodies, 'reviews', undefined, order, offset, limit)).toBe(JSON.stringify(reviewsEnvelope(page.records, page.count, offset, limit)));
        const productId = dataset.reviews.source.productId(1);
        const productPage = dataset.reviews.productPage(productId, order, offset % 50, limit);
        expect(pageOf(bodies, 'productReviews', productId, order, offset % 50, limit)).toBe(JSON.stringify(reviewsEnvelope(productPage.records, productPage.count, offset % 50, limit)));
      }
    }
    for (const [skip, take] of [[0, 10], [25, 10], [30, 10], [3, 1]] as const) {
      const page = dataset.wishlists.page(skip, take);
      expect(pageOf(bodies, 'wishlists', undefined, CREATED, skip, take)).toBe(JSON.stringify(wishlistEnvelope(page.records, page.count, skip, take)));
      for (const w of [0, 1, 2, 29]) {
        const items = dataset.wishlists.itemsPage(w, skip % 12, take);
        expect(pageOf(bodies, 'wishlistItems', dataset.wishlists.source.wishlist(w).id, CREATED, skip % 12, take)).toBe(JSON.stringify(wishlistEnvelope(items.records, items.count, skip % 12, take)));
      }
    }
  });

  it('do not depend on the order of requests, nor on the memo evicting records', () => {
    const requests = ORDERS.flatMap((order) => [0, 37, 120, 390].map((offset) => ({ order, offset })));
    const forward = requests.map(({ order, offset }) => pageOf(bodies, 'reviews', undefined, order, offset, 10));
    // a fresh dataset from the same seed, asked in reverse, with a memo small enough to evict constantly
    const other = new PageBodies(generateDataset({ seed: 5, reviews: 400, wishlists: 30, maxItems: 12 }), spec, 2000);
    const backward = [...requests].reverse().map(({ order, offset }) => pageOf(other, 'reviews', undefined, order, offset, 10)).reverse();
    expect(backward).toEqual(forward);
  });
});

describe('a million reviews', () => {
  it('pages in the API order, and the same seed gives the same bytes whatever was asked first', () => {
    const big = generateDataset({ seed: 9, reviews: 1_000_000 });
    const s = big.reviews.source;
    const deep = { field: 'created_at', descending: true } as const;
    const deepPage = Array.from(big.reviews.pageIndexes(deep, 999_990, 10).indexes);
    // the whole created_at order is non-increasing, ties by index ascending
    const sorted = big.reviews.sorted(deep);
    let ordered = true;
    for (let i = 1; i < sorted.length && ordered; i++) {
      const a = sorted[i - 1]!;
      const b = sorted[i]!;
      ordered = s.createdAt[a]! > s.createdAt[b]! || (s.createdAt[a] === s.createdAt[b] && a < b);
    }
    expect(ordered).toBe(true);
    expect(new Set(sorted).size).toBe(1_000_000);
    const bodies = new PageBodies(big, spec);
    const firstAsked = pageOf(bodies, 'reviews', undefined, deep, 999_990, 10);

    // A second, independent dataset from the same seed, asked other pages first.
    const again = generateDataset({ seed: 9, reviews: 1_000_000 });
    const otherBodies = new PageBodies(again, spec);
    pageOf(otherBodies, 'reviews', undefined, { field: 'rating', descending: false }, 500_000, 50);
    pageOf(otherBodies, 'productReviews', again.reviews.source.productId(0), { field: 'updated_at', descending: true }, 1000, 20);
    expect(pageOf(otherBodies, 'reviews', undefined, deep, 999_990, 10)).toBe(firstAsked);
    expect(Array.from(again.reviews.pageIndexes(deep, 999_990, 10).indexes)).toEqual(deepPage);
  });
});

describe('caches follow the dataset version', () => {
  it('a replaced dataset answers its own bytes at once, and the ETag is the one Express computes', async () => {
    const mock = await startMockServer({ seed: 1, reviews: 50 });
    const reference = express();
    reference.get('/same', (_req, res) => res.type('application/json; charset=utf-8').send(bytes));
    let bytes = Buffer.alloc(0);
    const server = reference.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const referenceUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/same`;
    try {
      const path = '/store/products/reviews?limit=5&offset=10&order=-rating';
      const first = await fetch(`${mock.url}${path}`);
      const firstText = await first.text();
      expect((await (await fetch(`${mock.url}${path}`)).text())).toBe(firstText);
      bytes = Buffer.from(firstText);
      expect(first.headers.get('etag')).toBe((await fetch(referenceUrl)).headers.get('etag'));

      mock.dataset.replace(generateDataset({ seed: 2, reviews: 50 }));
      const replaced = await (await fetch(`${mock.url}${path}`)).text();
      const fresh = await startMockServer({ seed: 2, reviews: 50 });
      try {
        expect(replaced).toBe(await (await fetch(`${fresh.url}${path}`)).text());
        expect(replaced).not.toBe(firstText);
      } finally {
        await fresh.close();
      }
      mock.dataset.reset();
      expect(await (await fetch(`${mock.url}${path}`)).text()).toBe(firstText);
    } finally {
      server.close();
      await mock.close();
    }
  });
});

describe('answers sent from kept bytes', () => {
  it('carry the headers res.json sent, answer HEAD without a body and a matching If-None-Match with 304', async () => {
    const mock = await startMockServer({ seed: 1, reviews: 30 });
    try {
      const path = '/store/wishlists?take=3';
      const first = await fetch(`${mock.url}${path}`); // made now
      const firstBody = await first.text();
      const second = await fetch(`${mock.url}${path}`); // kept
      expect(await second.text()).toBe(firstBody);
      for (const res of [first, second]) {
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
        expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(firstBody)));
        expect(res.headers.get('access-control-allow-origin')).toBe('*');
      }
      const etag = second.headers.get('etag');
      expect(etag).toBe(first.headers.get('etag'));
      const head = await fetch(`${mock.url}${path}`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(firstBody)));
      expect(await head.text()).toBe('');
      // node:http, since fetch adds Cache-Control: no-cache to a conditional request (as the Fetch standard says)
      const conditional = await new Promise<number>((resolve, reject) =>
        httpGet(`${mock.url}${path}`, { headers: { 'if-none-match': etag! } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        }).on('error', reject),
      );
      expect(conditional).toBe(304);
      const stale = await fetch(`${mock.url}${path}`, { headers: { 'if-none-match': 'W/"0-nope"' } });
      expect(stale.status).toBe(200);
      expect(await stale.text()).toBe(firstBody);
    } finally {
      await mock.close();
    }
  });
});

describe('HashRandomizer', () => {
  it('gives the same numbers for the same seed, others for another, all in [0, 1)', () => {
    const draw = (seed: number | number[]) => {
      const r = new HashRandomizer(seed);
      return Array.from({ length: 1000 }, () => r.next());
    };
    expect(draw([1, 1, 42])).toEqual(draw([1, 1, 42]));
    expect(draw([1, 1, 42])).not.toEqual(draw([1, 1, 43]));
    expect(draw(7)).not.toEqual(draw([7, 0]));
    const values = draw([3, 4, 5]);
    expect(values.every((v) => v >= 0 && v < 1)).toBe(true);
    // roughly uniform: each tenth of [0, 1) gets 50 to 150 of 1000 draws
    const deciles = new Array(10).fill(0);
    for (const v of values) deciles[Math.floor(v * 10)]++;
    expect(deciles.every((c) => c > 50 && c < 150)).toBe(true);
  });
});

describe('bounded memo', () => {
  it('keeps at most its budget, and keeps what is asked for often', () => {
    const memo = boundedMemo<number, string>(2000, (v) => v.length);
    const hot = 'h'.repeat(10);
    memo.set(-1, hot);
    for (let i = 0; i < 10_000; i++) {
      memo.set(i, 'x'.repeat(100));
      expect(memo.get(-1)).toBe(hot);
    }
    // 164 bytes counted per entry: at most 12 of them fit in 2000 bytes (the hot one included)
    expect(memo.size).toBeLessThanOrEqual(12);
    expect(memo.get(0)).toBeUndefined();
    expect(memo.get(9999)).toBe('x'.repeat(100));
    expect(memoized(memo, 9999, () => 'made')).toBe('x'.repeat(100));
    expect(memoized(memo, 123_456, () => 'made')).toBe('made');
    expect(memo.get(123_456)).toBe('made');
  });
});
