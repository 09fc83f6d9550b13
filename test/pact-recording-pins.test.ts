/**
 * What the recorder of a consumer's own pacts pins for a page (lib/pact-recording.ts, issue 30 item 1):
 * the page a storefront needs, from the state's count and the request (lib/expected-page.ts), as the
 * kit's SDK pacts pin theirs; never the answer's numbers. Where the answer is right (the spec dialect,
 * alphabite's 4.2 to 4.4) the two are equal; where the mock keeps a plugin bug (alphabite's 4.1) the pin
 * is the need, not the bug.
 */
import { describe, expect, it } from 'vitest';
import { sdkInteractionsOf } from '../contracts/sdk-interactions.ts';
import { alphabiteDialect } from '../lib/dialects/alphabite.ts';
import { interactionOf, type PactExchange } from '../lib/pact-recording.ts';
import { reviewsEnvelope, wishlistEnvelope } from '../lib/paging.ts';
import { MatchersV3 } from '@pact-foundation/pact';

const SDK_HEADERS = { publishableKey: true, bearer: false };
const PRODUCT = 'prod_01PINSPRODUCT000000000001';

/** The pinned body of an exchange's interaction (records by their count), or the reason it was left out. */
function pinned(exchange: PactExchange): Record<string, unknown> | string {
  const recorded = interactionOf(exchange);
  if ('leftOut' in recorded) return recorded.leftOut;
  const content = recorded.interaction.response.body!.content as Record<string, unknown>;
  const recordsKey = Array.isArray(content['reviews']) ? 'reviews' : 'data';
  return { ...content, [recordsKey]: (content[recordsKey] as unknown[]).length };
}

/** n records of anything: the recorder pins records by the dialect's template, not by what came back. */
const anyRecords = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `rev_${i}` }));

/** What the mock's alphabite 4.1 answers whatever it is asked (docs/dialects.md rows 7, 8). */
const plugins41 = (all: number) => ({ data: anyRecords(all), count: 0, nextPage: 1, currentPage: 1, prevPage: 1, totalPages: 1, take: 5, skip: 0 });

describe('the recorder pins the page a storefront needs, not the answer', () => {
  it("alphabite 4.1: the state's count and the request's page, as the kit's SDK pact for the same call pins them, though the answer is the plugins' bug", () => {
    const body = pinned({ dialect: 'alphabite', state: { name: 'reviews exist', params: { count: 12 } }, method: 'GET', url: '/store/products/reviews?limit=5&offset=5', headers: SDK_HEADERS, status: 200, body: plugins41(12) });
    expect(body).toEqual({ data: 5, count: 12, nextPage: 3, currentPage: 2, prevPage: 1, totalPages: 3, take: 5, skip: 5 });
    // The kit's SDK pact of reviews.list({ limit: 5, offset: 5 }) under the same state: the same numbers.
    const sdk = sdkInteractionsOf('product-reviews').find((i) => i.call.method === 'reviews.list' && i.call.input['offset'] === 5)!;
    const sdkBody = MatchersV3.reify(sdk.response.body) as Record<string, unknown>;
    for (const key of ['count', 'take', 'skip', 'currentPage', 'totalPages']) expect(body, key).toHaveProperty(key, sdkBody[key]);
    expect((sdkBody['data'] as unknown[]).length).toBe(5);
  });

  it('alphabite 4.1 without paging: the default page (limit 20) of the state, its last page when the count is smaller', () => {
    expect(pinned({ dialect: 'alphabite', state: { name: 'reviews exist', params: { count: 25 } }, method: 'GET', url: '/store/products/reviews', headers: SDK_HEADERS, status: 200, body: plugins41(25) })).toMatchObject({ data: 20, count: 25, take: 20, skip: 0, totalPages: 2 });
    expect(pinned({ dialect: 'alphabite', state: { name: 'no reviews exist', params: {} }, method: 'GET', url: '/store/products/reviews?limit=5', headers: SDK_HEADERS, status: 200, body: plugins41(0) })).toMatchObject({ data: 0, count: 0, take: 5, totalPages: 1 });
  });

  it('a right answer is pinned as it came: spec 4.1 and 4.4, alphabite 4.2 (also limit=0, whose page numbers the plugins make null)', () => {
    const spec41 = reviewsEnvelope(anyRecords(2), 12, 10, 5);
    expect(pinned({ dialect: 'spec', state: { name: 'reviews exist', params: { count: 12 } }, method: 'GET', url: '/store/products/reviews?limit=5&offset=10', headers: { publishableKey: false, bearer: false }, status: 200, body: spec41 })).toEqual({ reviews: 2, count: 12, limit: 5, offset: 10, totalPages: 3, currentPage: 3, prevPage: 2 });
    const spec44 = wishlistEnvelope(anyRecords(1), 4, 3, 3);
    const wl = 'wl_01PINSWISHLIST00000000001';
    expect(pinned({ dialect: 'spec', state: { name: 'wishlist has items', params: { wishlist_id: wl, count: 4 } }, method: 'GET', url: `/store/wishlists/${wl}/items?take=3&skip=3`, headers: { publishableKey: false, bearer: false }, status: 200, body: spec44 })).toEqual({ data: 1, count: 4, skip: 3, take: 3, totalPages: 2, currentPage: 2, prevPage: 1 });

    const dialect = alphabiteDialect();
    const read = dialect.endpoints.productReviews.read({ endpoint: 'productReviews', id: PRODUCT, query: [['limit', '0']], headers: {} });
    const answer = { ...dialect.endpoints.productReviews.envelope({ count: 12, query: read as never }) };
    const zero = pinned({ dialect: 'alphabite', state: { name: 'product has reviews', params: { product_id: PRODUCT, count: 12 } }, method: 'GET', url: `/store/reviews/product/${PRODUCT}?limit=0`, headers: SDK_HEADERS, status: 200, body: JSON.parse(JSON.stringify(answer)) });
    expect(zero).toEqual({ data: 0, count: 12, take: 0, skip: 0 });
  });

  it('a filtered request is left out: a state fixes how many records there are, not how many match', () => {
    const left = pinned({ dialect: 'alphabite', state: { name: 'reviews exist', params: { count: 12 } }, method: 'GET', url: '/store/products/reviews?limit=5&rating=5', headers: SDK_HEADERS, status: 200, body: plugins41(3) });
    expect(left).toMatch(/^a page no provider state fixes: it filters the records \(rating\)/);
  });
});

describe("an answer's own keys stay keys (plain objects are not maps)", () => {
  it('a field named __proto__ or constructor is pinned as a field, and `constructor` is not taken for an envelope key', () => {
    const body = JSON.parse('{"data":[],"count":0,"__proto__":{"x":1},"constructor":"c","nextPage":1,"currentPage":1,"prevPage":1,"totalPages":1,"take":5,"skip":0}') as Record<string, unknown>;
    const recorded = interactionOf({ dialect: 'alphabite', state: { name: 'reviews exist', params: { count: 0 } }, method: 'GET', url: '/store/products/reviews?limit=5', headers: SDK_HEADERS, status: 200, body });
    if ('leftOut' in recorded) throw new Error(recorded.leftOut);
    const content = recorded.interaction.response.body!.content as Record<string, unknown>;
    expect(Object.getPrototypeOf(content)).toBe(Object.prototype);
    expect(Object.keys(content)).toContain('__proto__');
    expect(Object.getOwnPropertyDescriptor(content, '__proto__')?.value).toEqual({ x: 1 });
    expect(content['constructor']).toBe('c');
  });
});
