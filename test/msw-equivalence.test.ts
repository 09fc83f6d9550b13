/**
 * `store-listing-kit/msw` answers as the HTTP mock does: for the same seed, sizes and dialect,
 * every generated request (the property suite's window generators plus each dialect's
 * refusals, test/support/listing-requests.ts) gets the same status, Content-Type, x-store-listing-kit-reason and bytes from
 * MSW (msw/node's setupServer) as from a real server (startMockServer), and so do the fault
 * headers. The write routes too (`createStoreHandlers`): the write table of test/support/write-cases.ts
 * (two customers, guests, bogus tokens, bad bodies, share and import) and writes over seeded
 * wishlists, in the same order against both, give the same statuses, Content-Types and bytes but
 * for the times (each stamps its own clock: ISO times and a share token's `iat`/`exp` are masked).
 * Over a given catalogue (`catalogue`: the app's products and variants) too: the listings and
 * add-item of any of its variants answer as the HTTP mock over the same catalogue.
 * `npm run test:msw3` runs this file with msw 3 on Node 22.
 */
import fc from 'fast-check';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DialectName } from '../lib/dialects/index.ts';
import { DELAY_HEADER, STATUS_HEADER } from '../lib/fault-headers.ts';
import { REASON_HEADER } from '../lib/write-reason.ts';
import { generateDataset } from '../fixtures/dataset.ts';
import { startMockServer, type MockServer } from '../mock-server/server.ts';
import { faultSettings } from '../mock-server/state/faults.ts';
import { createListingHandlers, createStoreHandlers } from '../msw/index.ts';
import { listingRequests, type ListingRequestSpec } from './support/listing-requests.ts';
import { caseRequest, caseValues, saveFromAnswer, WRITE_CASES, type Json, type WriteCase } from './support/write-cases.ts';
import { mockWriteWorld, WRITE_WORLD_DATA, WRITE_WORLD_KEY } from './support/mock-write-world.ts';
import { SHOP_CATALOGUE, shopVariants } from './support/shop-catalogue.ts';

const DATA = { seed: 3, reviews: 150, products: 6, wishlists: 25, maxItems: 20 };
const MSW_ORIGIN = 'http://msw.store-listing-kit.test';
const RUNS = 300;
/** Let requests without a handler (the real server's) through: msw 2 names the option onUnhandledRequest, msw 3 onUnhandledFrame. */
const BYPASS = { onUnhandledRequest: 'bypass', onUnhandledFrame: 'bypass' } as const;

interface Seen {
  status: number;
  contentType: string | null;
  retryAfter: string | null;
  /** The mock's x-store-listing-kit-reason (an alphabite listing's empty 500). */
  reason: string | null;
  body: string;
}

async function fetchSeen(url: string, headers: Record<string, string>): Promise<Seen> {
  const res = await fetch(url, { headers });
  return { status: res.status, contentType: res.headers.get('content-type'), retryAfter: res.headers.get('retry-after'), reason: res.headers.get(REASON_HEADER), body: await res.text() };
}

/** A real server and MSW handlers over the same data, in one dialect. */
function pair(dialect: DialectName, faultHeaders = false) {
  let mock: MockServer;
  const msw = setupServer(...createListingHandlers({ ...DATA, dialect, baseUrl: MSW_ORIGIN, faultHeaders }));
  beforeAll(async () => {
    mock = await startMockServer({ ...DATA, dialect, ...(faultHeaders ? { faults: faultSettings({ headers: true }) } : {}) });
    // Requests to the real server pass through; only MSW_ORIGIN is MSW's.
    msw.listen(BYPASS);
  });
  afterAll(async () => {
    msw.close();
    await mock?.close();
  });
  return {
    both: async ({ target, headers }: Pick<ListingRequestSpec, 'target' | 'headers'>) => {
      const [http, mocked] = await Promise.all([fetchSeen(`${mock.url}${target}`, headers), fetchSeen(`${MSW_ORIGIN}${target}`, headers)]);
      return { http, mocked };
    },
  };
}

it('runs on the msw it was given (npm run test:msw3: 3.x on Node 22; the main suite: 2.x)', async () => {
  const { version } = (await import('msw/package.json', { with: { type: 'json' } })).default as { version: string };
  expect(version).toBe(process.env.MSW_EXPECTED_VERSION ?? version);
  if (process.env.MSW_EXPECTED_VERSION) expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(22);
});

for (const dialect of ['spec', 'alphabite'] as const) {
  describe(`MSW handlers vs the HTTP mock, ${dialect} dialect`, () => {
    const { both } = pair(dialect);
    const requests = fc.sample(listingRequests(dialect, generateDataset(DATA), 60), { seed: 20260701, numRuns: RUNS });

    it(`answer ${RUNS} generated requests with the same status, Content-Type and bytes`, async () => {
      const statuses = new Set<number>();
      for (const request of requests) {
        const { http, mocked } = await both(request);
        expect(mocked, `${request.target} ${JSON.stringify(request.headers)}`).toEqual({ ...http, contentType: http.contentType });
        statuses.add(http.status);
      }
      // The sample reaches listings and refusals alike, or the comparison shows little.
      expect(statuses.has(200)).toBe(true);
      expect(statuses.has(400)).toBe(true);
      if (dialect === 'alphabite') expect(statuses.has(401)).toBe(true);
    });

    it('answer the named refusals the same way', async () => {
      const named = dialect === 'spec'
        ? ['/store/wishlists?limit=10&offset=0', '/store/wishlists/wl_nope/items', '/store/products/reviews?limit=0', '/store/wishlists?take=1&take=2']
        : ['/store/wishlists?limit=-1', '/store/reviews/product/prod_x?order=desc', '/store/wishlists?skip=0&take=1', '/store/wishlists/wl_x/items?fields=id,product_variant.product.variants.product.id', '/store/products/reviews?limit[a]=1'];
      for (const target of named) {
        const { http, mocked } = await both({ target, headers: dialect === 'alphabite' ? { 'x-publishable-api-key': 'pk', authorization: 'Bearer t' } : {} });
        expect(http.status).toBeGreaterThanOrEqual(400);
        expect(mocked, target).toEqual(http);
      }
    });
  });
}

describe('MSW handlers vs the HTTP mock, fault headers on', () => {
  const { both } = pair('spec', true);
  const cases: Array<[string, Record<string, string>]> = [
    ['an injected 503 (with Retry-After)', { [STATUS_HEADER]: '503' }],
    ['an injected 429 (with Retry-After)', { [STATUS_HEADER]: '429' }],
    ['an injected 404', { [STATUS_HEADER]: '404' }],
    ['an injected 401 after a delay', { [STATUS_HEADER]: '401', [DELAY_HEADER]: '5' }],
    ['a delay only', { [DELAY_HEADER]: '5' }],
    ['a bad status header', { [STATUS_HEADER]: '200' }],
    ['a bad delay header', { [DELAY_HEADER]: 'soon' }],
  ];
  for (const [name, headers] of cases) {
    it(`${name}: same status, headers and bytes`, async () => {
      const { http, mocked } = await both({ target: '/store/wishlists?take=2', headers });
      expect(mocked).toEqual(http);
    });
  }
  it('does not honour them when not asked to', async () => {
    const handlers = createListingHandlers({ ...DATA, baseUrl: 'http://plain.test' });
    const server = setupServer(...handlers);
    server.listen(BYPASS);
    try {
      const res = await fetch('http://plain.test/store/wishlists?take=1', { headers: { [STATUS_HEADER]: '503' } });
      expect(res.status).toBe(200);
    } finally {
      server.close();
    }
  });
});

// ---- writes ----

interface SeenWrite {
  status: number;
  contentType: string | null;
  allow: string | null;
  /** The mock's reason for an empty 500 (docs/writes.md). */
  reason: string | null;
  body: string;
}

const ISO_TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/g;
const JWT = /eyJ[\w-]*\.[\w-]*\.[\w-]+/g;

/** The bytes with what each side's clock stamps masked: ISO times, and a share token's iat/exp (its header and other claims stay). */
function maskClock(body: string): string {
  return body.replace(ISO_TIME, '<time>').replace(JWT, (token) => {
    const [header, payload] = token.split('.') as [string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    const lifetime = typeof claims.exp === 'number' && typeof claims.iat === 'number' ? claims.exp - claims.iat : undefined;
    delete claims.iat;
    delete claims.exp;
    return `<jwt ${Buffer.from(header, 'base64url').toString('utf8')} ${JSON.stringify(claims)} lifetime ${lifetime}>`;
  });
}

/** The answer as compared (clock masked), and its raw text (the ids and tokens later requests use). */
async function fetchWrite(url: string, init: RequestInit): Promise<{ seen: SeenWrite; raw: string }> {
  const res = await fetch(url, init);
  const raw = await res.text();
  return { seen: { status: res.status, contentType: res.headers.get('content-type'), allow: res.headers.get('allow'), reason: res.headers.get('x-store-listing-kit-reason'), body: maskClock(raw) }, raw };
}

describe('MSW store handlers vs the HTTP mock: the write routes', () => {
  const WRITES_ORIGIN = 'http://msw-writes.store-listing-kit.test';
  const SEEDED_ORIGIN = 'http://msw-seeded.store-listing-kit.test';
  const SPEC_ORIGIN = 'http://msw-spec.store-listing-kit.test';
  let writes: MockServer;
  let seeded: MockServer;
  let spec: MockServer;
  const msw = setupServer(
    ...createStoreHandlers({ ...WRITE_WORLD_DATA, dialect: 'alphabite', allowMultipleWishlists: true, publishableKeys: [WRITE_WORLD_KEY], baseUrl: WRITES_ORIGIN }),
    ...createStoreHandlers({ ...DATA, dialect: 'alphabite', baseUrl: SEEDED_ORIGIN }),
    ...createStoreHandlers({ ...DATA, baseUrl: SPEC_ORIGIN }),
  );
  beforeAll(async () => {
    [writes, seeded, spec] = await Promise.all([
      startMockServer({ ...WRITE_WORLD_DATA, dialect: 'alphabite', allowMultipleWishlists: true, publishableKeys: [WRITE_WORLD_KEY] }),
      startMockServer({ ...DATA, dialect: 'alphabite' }),
      startMockServer({ ...DATA }),
    ]);
    msw.listen(BYPASS);
  });
  afterAll(async () => {
    msw.close();
    await Promise.all([writes?.close(), seeded?.close(), spec?.close()]);
  });

  it(`answer the ${WRITE_CASES.length} write cases (two customers, guests, bogus tokens, bad bodies, share, import) alike, in order`, async () => {
    const httpWorld = mockWriteWorld(writes.url);
    const mswWorld = { ...httpWorld, baseUrl: WRITES_ORIGIN };
    const values = caseValues(httpWorld);
    const statuses = new Set<number>();
    for (const c of WRITE_CASES as WriteCase[]) {
      const one = caseRequest(httpWorld, c, values);
      const other = caseRequest(mswWorld, c, values);
      const [http, mocked] = [await fetchWrite(one.url, one.init), await fetchWrite(other.url, other.init)];
      expect(mocked.seen, `${c.name}: ${c.method} ${c.path}`).toEqual(http.seen);
      statuses.add(http.seen.status);
      // ids are the same on both sides (the same counter); a share token verifies on both (the same secret)
      saveFromAnswer(c, { status: http.seen.status, body: http.raw && http.seen.contentType?.includes('json') ? (JSON.parse(http.raw) as Json) : '' }, values);
    }
    expect([...statuses].sort()).toEqual(expect.arrayContaining([200, 201, 400, 401, 404, 413, 500]));
  }, 120_000);

  it('answer writes over seeded wishlists (transfer, add, remove a seeded item, rename, share, import) and the listings after them alike', async () => {
    const dataset = generateDataset(DATA);
    const key = { 'x-publishable-api-key': 'pk_any' };
    const carol = { ...key, authorization: 'Bearer carol-token' };
    const dave = { ...key, cookie: 'connect.sid=s%3Adave-session' };
    const { source } = dataset.wishlists;
    const w = [...Array(dataset.wishlists.count).keys()].find((i) => source.itemCount(i) >= 2)!;
    const wishlist = source.wishlist(w, false).id;
    const seededItem = source.item(w, 0).id;
    const variant = source.item((w + 1) % dataset.wishlists.count, 0).product_variant.id;
    const json = (body: unknown) => ({ 'content-type': 'application/json', body: JSON.stringify(body) });
    // Carol's own seeded wishlist (each customer sees their own; the other one above is another customer's to her).
    const mine = (JSON.parse((await fetchWrite(`${seeded.url}/store/wishlists?limit=1`, { headers: carol })).raw) as { data: Array<{ id: string }> }).data[0]!.id;
    const mineItem = (JSON.parse((await fetchWrite(`${seeded.url}/store/wishlists/${mine}/items?limit=1`, { headers: carol })).raw) as { data: Array<{ id: string }> }).data[0]!.id;
    let token = '';
    const steps: Array<[string, string, Record<string, string>, (() => Record<string, string>)?]> = [
      ['GET', '/store/wishlists', carol],
      ['GET', `/store/wishlists/${mine}/items?limit=2`, carol],
      ['GET', `/store/wishlists/${mine}/items?limit=2`, dave],
      ['GET', `/store/wishlists/${mine}/items?limit=0`, dave],
      ['GET', `/store/wishlists/${mine}`, dave],
      ['DELETE', `/store/wishlists/${mine}/items/${mineItem}`, carol],
      ['POST', `/store/wishlists/${mine}/add-item`, carol, () => json({ product_variant_id: variant })],
      ['PUT', `/store/wishlists/${mine}`, carol, () => json({ name: 'Carol\'s own' })],
      ['GET', `/store/wishlists/${mine}`, carol],
      ['GET', `/store/wishlists/${mine}/items?limit=3&offset=1`, carol],
      ['POST', `/store/wishlists/${wishlist}/add-item`, carol, () => json({ product_variant_id: variant })],
      ['POST', `/store/wishlists/${wishlist}/transfer`, carol],
      ['POST', `/store/wishlists/${wishlist}/add-item`, carol, () => json({ product_variant_id: variant })],
      ['DELETE', `/store/wishlists/${wishlist}/items/${seededItem}`, carol],
      ['PUT', `/store/wishlists/${wishlist}`, carol, () => json({ name: 'Carol\'s now' })],
      ['GET', `/store/wishlists/${wishlist}`, carol],
      ['GET', `/store/wishlists/${wishlist}/items?limit=3&offset=1`, carol],
      ['GET', `/store/wishlists?limit=5&offset=${Math.max(w - 2, 0)}`, carol],
      ['GET', '/store/wishlists/total-items-count', carol],
      ['GET', `/store/wishlists/${wishlist}/items`, dave],
      ['POST', `/store/wishlists/${wishlist}/share`, carol],
      ['POST', '/store/wishlists/import', dave, () => json({ share_token: token })],
      ['GET', '/store/wishlists?limit=2&offset=25', dave],
      ['DELETE', `/store/wishlists/${wishlist}`, carol],
      ['POST', '/store/reviews', dave, () => json({ product_id: dataset.reviews.source.productId(0), rating: '4.5', content: 'Fine.', title: 'Ok' })],
      ['GET', `/store/reviews/product/${dataset.reviews.source.productId(0)}?order=-created_at&limit=2`, dave],
      ['GET', '/store/products/reviews?my_reviews_only=true', dave],
      ['GET', `/store/reviews/product/${dataset.reviews.source.productId(0)}/aggregate-counts`, key],
      ['POST', '/store/reviews/files/images/upload', carol, () => ({ 'content-type': 'multipart/form-data; boundary=x', body: '--x--' })],
      ['GET', '/store/wishlists/settings', key],
    ];
    for (const [method, path, headers, extra] of steps) {
      const { body, ...more } = extra?.() ?? {};
      const init = { method, headers: { ...headers, ...more }, ...(body === undefined ? {} : { body }) };
      const [http, mocked] = [await fetchWrite(`${seeded.url}${path}`, init), await fetchWrite(`${SEEDED_ORIGIN}${path}`, init)];
      expect(mocked.seen, `${method} ${path}`).toEqual(http.seen);
      if (path.endsWith('/share')) token = (JSON.parse(http.raw) as { share_token: string }).share_token;
    }
    expect(token).toMatch(/^eyJ/);
  });

  it('the spec dialect refuses writes on the plugins\' paths alike (405 with Allow on a listing\'s path, 404 elsewhere), and leaves other paths to MSW', async () => {
    for (const [method, path] of [['POST', '/store/wishlists'], ['DELETE', '/store/wishlists/wl_x/items/wli_y'], ['POST', '/store/wishlists/wl_x/add-item'], ['PUT', '/store/reviews/rev_x'], ['POST', '/store/products/reviews']] as const) {
      const [http, mocked] = [await fetchWrite(`${spec.url}${path}`, { method }), await fetchWrite(`${SPEC_ORIGIN}${path}`, { method })];
      expect(http.seen.status).toBeGreaterThanOrEqual(400);
      expect(mocked.seen, `${method} ${path}`).toEqual(http.seen);
    }
    // no handler: MSW lets it through (onUnhandledRequest: bypass), to a host that does not exist
    await expect(fetch(`${SPEC_ORIGIN}/store/carts`, { method: 'POST', signal: AbortSignal.timeout(10_000) })).rejects.toThrow();
  });
});

describe('MSW store handlers vs the HTTP mock over a given catalogue (alphabite)', () => {
  const ORIGIN = 'http://msw-catalogue.store-listing-kit.test';
  const { products: _products, ...sizes } = DATA;
  const options = { ...sizes, dialect: 'alphabite' as const };
  const dataset = generateDataset(sizes, SHOP_CATALOGUE);
  let mock: MockServer;
  const msw = setupServer(...createStoreHandlers({ ...options, catalogue: SHOP_CATALOGUE, baseUrl: ORIGIN }));
  beforeAll(async () => {
    mock = await startMockServer({ ...options, catalogue: SHOP_CATALOGUE });
    msw.listen(BYPASS);
  });
  afterAll(async () => {
    msw.close();
    await mock?.close();
  });

  it(`answer ${RUNS / 2} generated listing requests with the same status, Content-Type and bytes, its products and variants in them`, async () => {
    const requests = fc.sample(listingRequests('alphabite', dataset, 60), { seed: 20261126, numRuns: RUNS / 2 });
    const endpoints = new Set<string>();
    let bodies = '';
    for (const request of requests) {
      const [http, mocked] = await Promise.all([fetchSeen(`${mock.url}${request.target}`, request.headers), fetchSeen(`${ORIGIN}${request.target}`, request.headers)]);
      expect(mocked, `${request.target} ${JSON.stringify(request.headers)}`).toEqual(http);
      if (http.status === 200) {
        endpoints.add(request.endpoint);
        bodies += http.body;
      }
    }
    expect([...endpoints].sort()).toEqual(['productReviews', 'reviews', 'wishlistItems', 'wishlists']);
    // Both sides serve the catalogue's records, not generated ones (which would be equal too).
    expect(bodies).toContain('"handle":"shop-tee"');
    expect(bodies).toContain('"product_id":"prod_01SHOP');
    expect(bodies).not.toMatch(/"variant_[0-9A-Z]{26}"/);
  });

  it('add any of its variants (some that no seeded item holds) with the same answers, the item showing its product\'s handle and thumbnail', async () => {
    const carol = { 'x-publishable-api-key': 'pk_any', authorization: 'Bearer carol-catalogue' };
    const json = { ...carol, 'content-type': 'application/json' };
    const both = async (method: string, path: string, body?: unknown) => {
      const init = { method, headers: body === undefined ? carol : json, ...(body === undefined ? {} : { body: JSON.stringify(body) }) };
      const [http, mocked] = [await fetchWrite(`${mock.url}${path}`, init), await fetchWrite(`${ORIGIN}${path}`, init)];
      expect(mocked.seen, `${method} ${path}`).toEqual(http.seen);
      return { status: http.seen.status, json: (http.raw ? JSON.parse(http.raw) : {}) as Record<string, unknown> };
    };
    // Carol's wishlist: with allow_multiple_wishlists off, the seeded one she starts with (docs/writes.md, "Whose wishlists").
    const created = await both('POST', '/store/wishlists', { name: 'Real things', sales_channel_id: 'sc_shop' });
    const wishlist = created.json.id as string;
    const held = ((await both('GET', `/store/wishlists/${wishlist}/items?limit=1000`)).json.data as Array<{ product_variant_id: string }>).map((item) => item.product_variant_id);
    const seeded = new Set(Array.from({ length: dataset.wishlists.count }, (_, w) => Array.from({ length: dataset.wishlists.source.itemCount(w) }, (_, k) => dataset.wishlists.source.item(w, k).product_variant.id)).flat());
    // Every product's variants but the socks', and three socks no seeded item holds; none she holds already.
    const variants = [...shopVariants().filter((v) => v.handle !== 'socks'), ...shopVariants().filter((v) => v.handle === 'socks' && !seeded.has(v.id)).slice(0, 3)].filter((v) => !held.includes(v.id));
    expect(variants.filter((v) => !seeded.has(v.id)).length).toBeGreaterThanOrEqual(3);
    for (const variant of variants) {
      const added = await both('POST', `/store/wishlists/${wishlist}/add-item`, { product_variant_id: variant.id });
      expect(added.status, variant.id).toBe(201);
    }
    expect((await both('POST', `/store/wishlists/${wishlist}/add-item`, { product_variant_id: 'variant_01NOTINTHESHOP' })).status).toBeGreaterThanOrEqual(400);
    const items = await both('GET', `/store/wishlists/${wishlist}/items?limit=50`);
    const shown = (items.json.data as Array<{ product_variant: { id: string; product: { handle: string; thumbnail: string | null } } }>).map((item) => [item.product_variant.id, item.product_variant.product.handle]);
    expect(shown.filter(([id]) => !held.includes(id!)).sort()).toEqual(variants.map((v) => [v.id, v.handle]).sort());
    expect(shown).toHaveLength(held.length + variants.length);
    const cap = (items.json.data as Array<{ product_variant: { id: string; product: { thumbnail: string | null } } }>).find((item) => item.product_variant.id === 'variant_01SHOPCAPA');
    expect(cap?.product_variant.product.thumbnail).toBe('https://cdn.shop.test/cap.png');
  });
});
