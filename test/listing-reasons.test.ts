/**
 * What a frontend developer reads (issue 27, deliverable 8, the listings): the alphabite dialect's own
 * empty 500s on the wishlist listings (a negative limit or offset, an `order` that names no column, 4.4's
 * `fields` without the wishlist on a page with items, and 4.4's page of another customer's items) stay empty, as the plugins answer them, but
 * say why in `x-store-listing-kit-reason` (ALPHABITE_LISTING_REASONS), from the HTTP mock and the MSW
 * handlers alike, also for a customer with writes; the journal records it. The spec dialect's answers
 * carry no such header.
 */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDataset } from '../fixtures/dataset.ts';
import { ALPHABITE_LISTING_REASONS } from '../lib/dialects/alphabite.ts';
import type { DialectName } from '../lib/dialects/index.ts';
import { openApiDocument } from '../lib/openapi/index.ts';
import { openApiPath } from '../lib/openapi/document.ts';
import { REASON_HEADER } from '../lib/write-reason.ts';
import { startMockServer, type MockServer } from '../mock-server/server.ts';
import { REASONS } from '../mock-server/writes/reasons.ts';
import { createStoreHandlers } from '../msw/index.ts';

const DATA = { seed: 3, reviews: 150, products: 6, wishlists: 25, maxItems: 20 };
const BYPASS = { onUnhandledRequest: 'bypass', onUnhandledFrame: 'bypass' } as const;
const ADMIN_TOKEN = 'admin-token-for-listing-reasons';
/** Each side stamps a write with its own clock. */
const ISO_TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/g;

interface Seen {
  status: number;
  contentType: string | null;
  body: string;
  reason: string | null;
}

async function seen(url: string, init: RequestInit = {}): Promise<Seen> {
  const res = await fetch(url, init);
  return { status: res.status, contentType: res.headers.get('content-type'), body: (await res.text()).replace(ISO_TIME, '<time>'), reason: res.headers.get(REASON_HEADER) };
}

/** A real server and MSW handlers (listings and writes) over the same data, in one dialect. */
function pair(dialect: DialectName, origin: string) {
  let mock: MockServer;
  const msw = setupServer(...createStoreHandlers({ ...DATA, dialect, baseUrl: origin }));
  beforeAll(async () => {
    mock = await startMockServer({ ...DATA, dialect, adminToken: ADMIN_TOKEN });
    msw.listen(BYPASS);
  });
  afterAll(async () => {
    msw.close();
    await mock?.close();
  });
  return {
    url: () => mock.url,
    /** The same request to both: the same status, Content-Type, bytes and reason. */
    both: async (method: string, target: string, headers: Record<string, string>, body?: unknown): Promise<Seen> => {
      const init: RequestInit = { method, headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) };
      const http = await seen(`${mock.url}${target}`, init);
      expect(await seen(`${origin}${target}`, init), `${method} ${target}`).toEqual(http);
      return http;
    },
  };
}

const dataset = generateDataset(DATA);
const { source } = dataset.wishlists;
const seeded = Array.from({ length: dataset.wishlists.count }, (_, w) => ({ id: source.wishlist(w, false).id, owner: source.wishlist(w, false).customer_id, items: source.itemCount(w), w }));
/** Another customer's wishlist, to everyone asking here (each customer sees their own). */
const withItems = seeded.find((s) => s.items > 2 && s.owner !== null)!;
const empty = seeded.find((s) => s.items === 0)!;
/** Every variant the dataset's items show (the catalogue add-item knows). */
const variants = [...new Set(seeded.flatMap(({ w, items }) => Array.from({ length: items }, (_, k) => source.item(w, k).product_variant.id)))];
const as = (who: string) => ({ 'x-publishable-api-key': 'pk_listing_reasons', authorization: `Bearer ${who}` });
const empty500 = (reason: string) => ({ status: 500, contentType: null, body: '', reason });

describe('x-store-listing-kit-reason on the listings, alphabite dialect', () => {
  const { both, url } = pair('alphabite', 'http://listing-reasons.store-listing-kit.test');

  it("says why each of the wishlist listings' own empty 500s happened (HTTP and MSW alike)", async () => {
    const R = ALPHABITE_LISTING_REASONS;
    const cases: Array<[string, string]> = [
      ['/store/wishlists?limit=-1', R.negativeWindow],
      ['/store/wishlists?offset=-3', R.negativeWindow],
      ['/store/wishlists?order=desc', R.unknownColumn],
      ['/store/wishlists?order=-name&limit=-1', R.negativeWindow],
      [`/store/wishlists/${withItems.id}/items?offset=-1`, R.negativeWindow],
      [`/store/wishlists/${withItems.id}/items?limit=-2&offset=0`, R.negativeWindow],
      [`/store/wishlists/${withItems.id}/items?order=title`, R.unknownColumn],
      [`/store/wishlists/wl_unknown/items?order=-rating`, R.unknownColumn],
      [`/store/wishlists/${withItems.id}/items?fields=id`, R.recordsWithoutWishlist],
      [`/store/wishlists/${withItems.id}/items?fields=id,product_variant.title&limit=2`, R.recordsWithoutWishlist],
      // a page of another customer's items: the route reads the owner from the first item and refuses it
      [`/store/wishlists/${withItems.id}/items?limit=2`, R.wishlistOfAnother],
      [`/store/wishlists/${withItems.id}/items`, R.wishlistOfAnother],
    ];
    for (const [target, reason] of cases) expect(await both('GET', target, as('listing-reader')), target).toEqual(empty500(reason));
  });

  it('sends no reason with an answer that is not an empty 500', async () => {
    const own = (JSON.parse((await both('GET', '/store/wishlists?limit=1', as('listing-reader'))).body) as { data: Array<{ id: string }> }).data[0]!.id;
    const ownItems = (JSON.parse((await both('GET', `/store/wishlists/${own}/items?limit=0`, as('listing-reader'))).body) as { count: number }).count;
    for (const target of [
      '/store/wishlists?limit=2',
      '/store/wishlists?order=-created_at',
      `/store/wishlists/${own}/items?limit=2`,
      // fields without the wishlist on an empty page: the route reads no item, and answers it.
      `/store/wishlists/${empty.id}/items?fields=id`,
      `/store/wishlists/${own}/items?fields=id&offset=${ownItems}`,
      // an empty page of another customer's wishlist: their count, no item read
      `/store/wishlists/${withItems.id}/items?offset=${withItems.items}`,
      `/store/wishlists/${withItems.id}/items?limit=0`,
      '/store/wishlists?limit=abc',
      '/store/products/reviews?limit=1',
    ]) {
      const answer = await both('GET', target, as('listing-reader'));
      expect(answer.status, target).not.toBe(500);
      expect(answer.reason, target).toBeNull();
    }
    // The guard's refusals: no key, no bearer token.
    expect((await both('GET', '/store/wishlists?limit=-1', {})).reason).toBeNull();
    expect((await both('GET', '/store/wishlists?limit=-1', { 'x-publishable-api-key': 'pk' })).reason).toBeNull();
  });

  it('says it for a customer with writes, whose listings are made for each request', async () => {
    const who = 'listing-writer';
    // Their seeded wishlist (allow_multiple_wishlists is off: POST answers it), and a variant it does not hold yet.
    const answered = await both('POST', '/store/wishlists', as(who), { sales_channel_id: 'sc_x' });
    expect(answered).toMatchObject({ status: 200, reason: REASONS.existingWishlistAnswered });
    const mine = (JSON.parse(answered.body) as { id: string }).id;
    const held = (JSON.parse((await both('GET', `/store/wishlists/${mine}/items?limit=1000`, as(who))).body) as { data: Array<{ product_variant_id: string }> }).data.map((i) => i.product_variant_id);
    const variant = variants.find((v) => !held.includes(v))!;
    expect((await both('POST', `/store/wishlists/${mine}/add-item`, as(who), { product_variant_id: variant })).status).toBe(201);
    expect(await both('GET', `/store/wishlists/${mine}/items?fields=id`, as(who))).toEqual(empty500(ALPHABITE_LISTING_REASONS.recordsWithoutWishlist));
    expect(await both('GET', `/store/wishlists/${mine}/items?offset=-1`, as(who))).toEqual(empty500(ALPHABITE_LISTING_REASONS.negativeWindow));
    expect(await both('GET', '/store/wishlists?order=name', as(who))).toEqual(empty500(ALPHABITE_LISTING_REASONS.unknownColumn));
    expect((await both('GET', `/store/wishlists/${mine}/items`, as(who))).reason).toBeNull();
  });

  it("the journal records it with the answer's headers", async () => {
    const path = `/store/wishlists/wl_listing_journal_${Date.now()}/items`;
    expect((await seen(`${url()}${path}?order=nope`, { headers: as('journal-reader') })).reason).toBe(ALPHABITE_LISTING_REASONS.unknownColumn);
    const res = await fetch(`${url()}/__admin/journal?path=${encodeURIComponent(path)}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    const journal = (await res.json()) as { entries: Array<{ response: { headers: unknown } }> };
    expect(journal.entries).toHaveLength(1);
    const headers = JSON.stringify(journal.entries[0]!.response.headers);
    expect(headers).toContain(REASON_HEADER);
    expect(headers).toContain(ALPHABITE_LISTING_REASONS.unknownColumn);
  });

  it('the sentences are short, plain ASCII (a header value), one per cause, and none is a write route\'s', () => {
    const sentences = Object.values(ALPHABITE_LISTING_REASONS);
    expect(new Set(sentences).size).toBe(sentences.length);
    for (const sentence of sentences) {
      expect(sentence).toMatch(/^[a-z][ -~]+[^.]$/);
      expect(sentence.length).toBeLessThanOrEqual(120);
      expect(Object.values(REASONS)).not.toContain(sentence);
    }
  });

  it('the OpenAPI document lists it on the wishlist listings\' empty 500s', () => {
    const document = openApiDocument({ dialect: 'alphabite' });
    for (const endpoint of ['wishlists', 'wishlistItems'] as const) {
      const error = (document.paths[openApiPath(endpoint)] as { get: { responses: Record<string, { content?: unknown; headers?: Record<string, unknown> }> } }).get.responses['500'];
      expect(error?.content, endpoint).toBeUndefined();
      expect(error?.headers?.[REASON_HEADER], endpoint).toEqual({ $ref: `#/components/headers/${REASON_HEADER}` });
    }
  });
});

describe('x-store-listing-kit-reason on the listings, spec dialect', () => {
  const { both } = pair('spec', 'http://listing-reasons-spec.store-listing-kit.test');

  it('is never sent: the spec dialect answers as before, its refusals say why in their body', async () => {
    const statuses = new Set<number>();
    for (const target of [
      '/store/wishlists?take=2',
      '/store/wishlists?take=-1',
      '/store/wishlists?skip=-1',
      '/store/wishlists?order=desc',
      '/store/wishlists?limit=-1',
      `/store/wishlists/${withItems.id}/items?take=-2`,
      `/store/wishlists/${withItems.id}/items?fields=id`,
      '/store/wishlists/wl_nope/items',
      '/store/products/reviews?take=0',
    ]) {
      const answer = await both('GET', target, { authorization: 'Bearer spec-reader' });
      statuses.add(answer.status);
      expect(answer.reason, target).toBeNull();
      if (answer.status !== 200) expect(answer.body, target).not.toBe('');
    }
    expect(statuses.has(200)).toBe(true);
    expect([...statuses].some((s) => s >= 400)).toBe(true);
  });
});
