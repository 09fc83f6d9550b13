/**
 * What a frontend developer reads (issue 27, deliverable 8, the write routes): the plugins' empty 500s
 * stay empty, but the mock says why in `x-store-listing-kit-reason`, one short sentence per cause
 * (mock-server/writes/reasons.ts), as do the few answers that look like success but did something else.
 * The HTTP mock and the MSW handlers send it alike; the CORS policy exposes it to browsers; the journal
 * records it with the answer's headers; the OpenAPI document lists it on every empty 500. The four
 * listings' own empty 500s: test/listing-reasons.test.ts.
 */
import { createHmac } from 'node:crypto';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDataset } from '../fixtures/dataset.ts';
import { ENDPOINT_NAMES } from '../lib/api-rules.ts';
import { openApiDocument } from '../lib/openapi/index.ts';
import { openApiPath } from '../lib/openapi/document.ts';
import { REASON_HEADER } from '../lib/write-reason.ts';
import { startMockServer, type MockServer } from '../mock-server/server.ts';
import { REASONS } from '../mock-server/writes/reasons.ts';
import { MOCK_SHARE_TOKEN_SECRET } from '../mock-server/writes/share-token.ts';
import { createStoreHandlers } from '../msw/index.ts';

const DATA = { seed: 3, reviews: 150, products: 6, wishlists: 25, maxItems: 20 };
const ORIGIN = 'http://reasons.store-listing-kit.test';
const NO_SECRET_ORIGIN = 'http://reasons-no-secret.store-listing-kit.test';
const BYPASS = { onUnhandledRequest: 'bypass', onUnhandledFrame: 'bypass' } as const;
const ADMIN_TOKEN = 'admin-token-for-reasons';
const ISO_TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/g;
const JWT = /eyJ[\w-]*\.[\w-]*\.[\w-]+/g;

interface Seen {
  status: number;
  body: string;
  reason: string | null;
}

async function seen(url: string, init: RequestInit): Promise<Seen> {
  const res = await fetch(url, init);
  // Each side stamps its own clock: ISO times, and a share token's iat/exp.
  return { status: res.status, body: (await res.text()).replace(ISO_TIME, '<time>').replace(JWT, '<jwt>'), reason: res.headers.get(REASON_HEADER) };
}

const as = (who: string) => ({ 'x-publishable-api-key': 'pk_reasons', authorization: `Bearer ${who}` });

function shareToken(wishlistId: string): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ wishlist_id: wishlistId, iat: 1_900_000_000, exp: 4_000_000_000 })}`;
  return `${unsigned}.${createHmac('sha256', MOCK_SHARE_TOKEN_SECRET).update(unsigned).digest('base64url')}`;
}

describe('x-store-listing-kit-reason', () => {
  let mock: MockServer;
  let noSecret: MockServer;
  const msw = setupServer(...createStoreHandlers({ ...DATA, dialect: 'alphabite', baseUrl: ORIGIN }), ...createStoreHandlers({ ...DATA, dialect: 'alphabite', baseUrl: NO_SECRET_ORIGIN, shareTokenSecret: '' }));
  const dataset = generateDataset(DATA);
  const { source } = dataset.wishlists;
  const seeded = Array.from({ length: dataset.wishlists.count }, (_, w) => ({ id: source.wishlist(w, false).id, owner: source.wishlist(w, false).customer_id, items: source.itemCount(w), w }));
  const others = seeded.find((s) => s.owner !== null && s.items > 2)!;
  const guestWithItem = seeded.find((s) => s.owner === null && s.items > 0)!;
  const emptyGuest = seeded.find((s) => s.owner === null && s.items === 0)!;
  /** Every variant the dataset's items show (the catalogue add-item knows). */
  const variants = [...new Set(seeded.flatMap(({ w, items }) => Array.from({ length: items }, (_, k) => source.item(w, k).product_variant.id)))];

  beforeAll(async () => {
    [mock, noSecret] = await Promise.all([startMockServer({ ...DATA, dialect: 'alphabite', adminToken: ADMIN_TOKEN }), startMockServer({ ...DATA, dialect: 'alphabite', shareTokenSecret: '' })]);
    msw.listen(BYPASS);
  });
  afterAll(async () => {
    msw.close();
    await Promise.all([mock?.close(), noSecret?.close()]);
  });

  /** The same request to the HTTP mock and to MSW: the same status, body and reason. */
  async function both(method: string, path: string, who: string, body?: unknown, origins: [string, string] = [mock.url, ORIGIN]): Promise<Seen> {
    const init: RequestInit = { method, headers: { ...as(who), ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) };
    const http = await seen(`${origins[0]}${path}`, init);
    expect(await seen(`${origins[1]}${path}`, init), `${method} ${path}`).toEqual(http);
    return http;
  }

  it('every cause of an empty 500, and every answer that hides what it did, names its reason; a plain answer names none', async () => {
    const empty = (reason: string) => ({ status: 500, body: '', reason });
    const ok = (reason: string) => ({ status: 200, reason });
    expect(await both('GET', '/store/wishlists/wl_unknown', 'alice')).toEqual(empty(REASONS.wishlistUnknown));
    expect(await both('GET', `/store/wishlists/${others.id}`, 'alice')).toEqual(empty(REASONS.wishlistOfAnother));
    // Alice starts with one seeded wishlist of her own (docs/writes.md, "Whose wishlists"): with allow_multiple_wishlists off, a create answers it.
    const answered = await both('POST', '/store/wishlists', 'alice', { sales_channel_id: 'sc_x' });
    expect(answered).toMatchObject(ok(REASONS.existingWishlistAnswered));
    const mine = (JSON.parse(answered.body) as { id: string }).id;
    const held = (JSON.parse((await both('GET', `/store/wishlists/${mine}/items?limit=1000`, 'alice')).body) as { data: Array<{ product_variant_id: string }> }).data.map((i) => i.product_variant_id);
    expect(held.length).toBeGreaterThan(0);
    const variant = variants.find((v) => !held.includes(v))!;
    expect(await both('PUT', '/store/wishlists/wl_unknown', 'alice', { name: 'x' })).toEqual(empty(REASONS.wishlistUnknown));
    expect(await both('POST', `/store/wishlists/${mine}/add-item`, 'alice', { product_variant_id: 'variant_unknown' })).toEqual(empty(REASONS.variantUnknown));
    expect(await both('POST', `/store/wishlists/${mine}/add-item`, 'alice', { product_variant_id: variant })).toMatchObject({ status: 201, reason: null });
    expect(await both('POST', `/store/wishlists/${mine}/add-item`, 'alice', { product_variant_id: variant })).toEqual(empty(REASONS.variantAlreadyThere));
    expect(await both('POST', `/store/wishlists/${others.id}/add-item`, 'alice', { product_variant_id: variant })).toEqual(empty(REASONS.wishlistOfAnother));
    expect(await both('POST', `/store/wishlists/${guestWithItem.id}/add-item`, 'alice', { product_variant_id: variant })).toEqual(empty(REASONS.guestWishlist));
    expect(await both('POST', '/store/wishlists/wl_unknown/add-item', 'alice', { product_variant_id: variant })).toEqual(empty(REASONS.wishlistUnknown));
    expect(await both('DELETE', `/store/wishlists/${mine}`, 'alice')).toEqual(empty(REASONS.wishlistHoldsItems));
    expect(await both('DELETE', `/store/wishlists/${others.id}/items/wli_x`, 'alice')).toEqual(empty(REASONS.wishlistOfAnother));
    expect(await both('DELETE', `/store/wishlists/${mine}/items/wli_unknown`, 'alice')).toMatchObject(ok(REASONS.itemNotFound));
    expect(await both('DELETE', '/store/wishlists/wl_unknown', 'alice')).toMatchObject(ok(REASONS.nothingDeleted));
    expect(await both('POST', `/store/wishlists/${emptyGuest.id}/transfer`, 'alice')).toMatchObject(ok(REASONS.mergedIntoFirst));
    expect(await both('POST', '/store/wishlists/wl_unknown/transfer', 'alice')).toMatchObject(ok(REASONS.nothingTransferred));
    expect(await both('POST', `/store/wishlists/${others.id}/transfer`, 'alice')).toEqual(empty(REASONS.transferLeftCopies));
    // Bob, once he has no wishlist (his seeded one emptied, then deleted), imports an unknown one: the 500 (with one, it is emptied).
    const bobs = (JSON.parse((await both('GET', '/store/wishlists', 'bob')).body) as { data: Array<{ id: string }> }).data[0]!.id;
    for (const item of (JSON.parse((await both('GET', `/store/wishlists/${bobs}/items?limit=1000`, 'bob')).body) as { data: Array<{ id: string }> }).data) {
      expect((await both('DELETE', `/store/wishlists/${bobs}/items/${item.id}`, 'bob')).status).toBe(200);
    }
    expect(await both('DELETE', `/store/wishlists/${bobs}`, 'bob')).toMatchObject({ status: 200, reason: null });
    expect(await both('POST', '/store/wishlists/import', 'bob', { share_token: shareToken('wl_unknown') })).toEqual(empty(REASONS.sharedWishlistUnknown));
    expect(await both('POST', '/store/wishlists/import', 'alice', { share_token: shareToken(others.id) })).toMatchObject(ok(REASONS.itemsReplaced));
    expect(await both('POST', '/store/wishlists/import', 'alice', { share_token: shareToken('wl_unknown') })).toMatchObject(ok(REASONS.itemsRemovedUnknownSource));
    expect(await both('DELETE', '/store/reviews/rev_unknown', 'alice')).toEqual(empty(REASONS.reviewNotYours));
    expect(await both('POST', `/store/wishlists/${mine}/share`, 'alice', undefined, [noSecret.url, NO_SECRET_ORIGIN])).toEqual(empty(REASONS.noShareSecret));
    // Plain answers: no reason.
    expect(await both('POST', `/store/wishlists/${mine}/share`, 'alice')).toMatchObject({ status: 200, reason: null });
    expect(await both('GET', `/store/wishlists/${mine}`, 'alice')).toMatchObject({ status: 200, reason: null });
  });

  it('the sentences are short, plain ASCII (a header value) and one per cause', () => {
    const sentences = Object.values(REASONS);
    expect(new Set(sentences).size).toBe(sentences.length);
    for (const sentence of sentences) {
      expect(sentence).toMatch(/^[a-z][ -~]+[^.]$/);
      expect(sentence.length).toBeLessThanOrEqual(120);
    }
  });

  it('is exposed to browsers (Access-Control-Expose-Headers), with any origin and with listed origins', async () => {
    const listed = await startMockServer({ ...DATA, dialect: 'alphabite', corsOrigin: ['http://shop.test'] });
    try {
      for (const [base, origin] of [
        [mock.url, 'http://anywhere.test'],
        [listed.url, 'http://shop.test'],
      ] as const) {
        const res = await fetch(`${base}/store/wishlists/wl_unknown`, { headers: { ...as('carol'), origin } });
        expect(res.status).toBe(500);
        expect(res.headers.get(REASON_HEADER)).toBe(REASONS.wishlistUnknown);
        expect(res.headers.get('access-control-allow-origin')).toBe(origin === 'http://shop.test' ? origin : '*');
        expect(res.headers.get('access-control-expose-headers')?.split(',').map((h) => h.trim().toLowerCase())).toEqual(expect.arrayContaining(['retry-after', REASON_HEADER]));
        // A listing, answered by the fast path, exposes the same headers.
        const listing = await fetch(`${base}/store/products/reviews?limit=1`, { headers: { origin } });
        expect(listing.headers.get('access-control-expose-headers')).toBe(res.headers.get('access-control-expose-headers'));
      }
    } finally {
      await listed.close();
    }
  });

  it('the journal records it with the answer\'s headers', async () => {
    const path = `/store/wishlists/wl_journal_${Date.now()}`;
    expect((await seen(`${mock.url}${path}`, { headers: as('dave') })).reason).toBe(REASONS.wishlistUnknown);
    const journal = (await (await fetch(`${mock.url}/__admin/journal?path=${encodeURIComponent(path)}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).json()) as { entries: Array<{ response: { headers: unknown } }> };
    expect(journal.entries).toHaveLength(1);
    expect(JSON.stringify(journal.entries[0]!.response.headers)).toContain(JSON.stringify(REASON_HEADER).slice(0, -1));
    expect(JSON.stringify(journal.entries[0]!.response.headers)).toContain(REASONS.wishlistUnknown);
  });

  it('the OpenAPI document lists it on every empty 500, of the write routes and of the listings', () => {
    const document = openApiDocument({ dialect: 'alphabite' });
    const listings = new Set(ENDPOINT_NAMES.map(openApiPath));
    let empties = 0;
    let listingEmpties = 0;
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const error = (operation as { responses: Record<string, { content?: unknown; headers?: Record<string, unknown> }> }).responses['500'];
        if (!error || error.content) continue;
        empties += 1;
        if (listings.has(path) && method === 'get') listingEmpties += 1;
        expect(error.headers?.[REASON_HEADER], `${method} ${path}`).toEqual({ $ref: `#/components/headers/${REASON_HEADER}` });
      }
    }
    expect(document.components.headers[REASON_HEADER]).toMatchObject({ description: expect.stringContaining('Access-Control-Expose-Headers'), schema: { type: 'string' } });
    expect(empties).toBeGreaterThanOrEqual(12);
    // GET 4.3 and 4.4 (4.2's 500 is Medusa's unknown_error JSON).
    expect(listingEmpties).toBe(2);
  });
});
