/**
 * `npm run test:browser`: store-listing-kit/msw in a real browser. The handlers, bundled for the
 * browser by esbuild (so no Node built-in may be reachable from them), run in headless Chromium
 * behind MSW's service worker (mockServiceWorker.js from the msw package); the page fetches
 * generated listing URLs through it, and each answer has the status, Content-Type and bytes the
 * HTTP mock gives for the same URL and seed, in both dialects. The write routes too
 * (`createStoreHandlers`): a storefront's writes from two customers (create, add, list, share,
 * import, a review, errors) get the HTTP mock's answers, times aside (each side stamps its clock).
 * Over a catalogue: given to the page, the listings and add-item answer as the HTTP mock over it;
 * fetched by the page from a backend (fetchCatalogue, across origins under the backend's CORS)
 * before the worker starts, add-item takes the backend's variants and the requests the handlers
 * do not match pass through to the backend; a backend whose CORS refuses the page is named.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import fc from 'fast-check';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDataset } from '../../fixtures/dataset.ts';
import { startMockServer } from '../../mock-server/server.ts';
import { listingRequests } from '../support/listing-requests.ts';
import { startFakeStoreProducts } from '../support/fake-store-products.ts';
import { SHOP_CATALOGUE, shopVariants } from '../support/shop-catalogue.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const DATA = { seed: 4, reviews: 90, products: 4, wishlists: 15, maxItems: 12 };
const require = createRequire(import.meta.url);

let browser: Browser;
let site: Server;
let origin: string;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: apt-get install chromium (or set CHROMIUM_PATH)`);
  const bundle = await build({
    entryPoints: [fileURLToPath(new URL('./msw-page-entry.ts', import.meta.url))],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    logLevel: 'silent',
  });
  const files: Record<string, [string, string]> = {
    '/': ['text/html; charset=utf-8', '<!doctype html><meta charset="utf-8"><title>msw</title><script type="module" src="/bundle.js"></script>'],
    '/bundle.js': ['text/javascript; charset=utf-8', bundle.outputFiles[0]!.text],
    '/mockServiceWorker.js': ['text/javascript; charset=utf-8', readFileSync(require.resolve('msw/mockServiceWorker.js'), 'utf8')],
  };
  // Anything else is a 418: a request the service worker let through would stand out.
  site = createServer((req, res) => {
    const file = files[new URL(req.url ?? '/', 'http://x').pathname];
    res.writeHead(file ? 200 : 418, { 'Content-Type': file?.[0] ?? 'text/plain' });
    res.end(file?.[1] ?? 'not served');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  if (site) await new Promise((resolve) => site.close(resolve));
});

describe('the MSW handlers in Chromium, behind the service worker', () => {
  for (const dialect of ['spec', 'alphabite'] as const) {
    it(`answer generated ${dialect} requests with the HTTP mock's status, Content-Type and bytes`, async () => {
      // A page cannot set a Cookie header (the browser sends its own cookies): those requests are compared in test/msw-equivalence.test.ts.
      const requests = fc.sample(listingRequests(dialect, generateDataset(DATA), 40), { seed: 8, numRuns: 80 }).filter((r) => !('cookie' in r.headers));
      const mock = await startMockServer({ ...DATA, dialect });
      const tab = await browser.newPage();
      try {
        await tab.goto(`${origin}/?options=${encodeURIComponent(JSON.stringify({ ...DATA, dialect }))}`);
        await tab.waitForFunction(() => 'listingsReady' in window);
        await tab.evaluate(() => window.listingsReady);
        const inBrowser = await tab.evaluate((list) => window.listings(list), requests.map(({ target, headers }) => ({ target, headers })));
        const overHttp = await Promise.all(
          requests.map(async ({ target, headers }) => {
            const res = await fetch(`${mock.url}${target}`, { headers });
            return { status: res.status, contentType: res.headers.get('content-type'), body: await res.text() };
          }),
        );
        expect(inBrowser.map((a) => a.status)).not.toContain(418);
        inBrowser.forEach((answer, i) => expect(answer, requests[i]!.target).toEqual(overHttp[i]));
        expect(new Set(inBrowser.map((a) => a.status)).size).toBeGreaterThan(1);
      } finally {
        await tab.close();
        await mock.close();
      }
    }, 60_000);
  }
});

describe('the MSW store handlers in Chromium: the write routes', () => {
  it('answer a storefront\'s writes from two customers as the HTTP mock does (share tokens signed by the browser\'s WebCrypto)', async () => {
    const options = { ...DATA, dialect: 'alphabite' as const, allowMultipleWishlists: true };
    const mock = await startMockServer(options);
    const tab = await browser.newPage();
    const mask = (text: string) => text.replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/g, '<time>').replace(/eyJ[\w-]*\.([\w-]*)\.[\w-]+/g, (_, payload: string) => {
      const { wishlist_id, iat, exp } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { wishlist_id: string; iat: number; exp: number };
      return `<jwt ${wishlist_id} ${exp - iat}>`;
    });
    try {
      await tab.goto(`${origin}/?options=${encodeURIComponent(JSON.stringify(options))}`);
      await tab.waitForFunction(() => 'listingsReady' in window);
      await tab.evaluate(() => window.listingsReady);
      const key = { 'x-publishable-api-key': 'pk_browser' };
      const alice = { ...key, authorization: 'Bearer alice-in-the-browser' };
      const bob = { ...key, authorization: 'Bearer bob-in-the-browser' };
      const json = { 'content-type': 'application/json' };
      const dataset = generateDataset(DATA);
      const variants = [0, 1, 2].map((w) => dataset.wishlists.source.item(w, 0).product_variant.id);
      const product = dataset.reviews.source.productId(0);
      const both = async (method: string, target: string, headers: Record<string, string>, body?: unknown) => {
        const request = { method, target, headers: body === undefined ? headers : { ...headers, ...json }, ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }) };
        const inBrowser = await tab.evaluate((r) => window.send(r), request);
        const res = await fetch(`${mock.url}${target}`, { method, headers: request.headers, ...(request.body === undefined ? {} : { body: request.body }) });
        const overHttp = { status: res.status, contentType: res.headers.get('content-type'), body: await res.text() };
        expect({ ...inBrowser, body: mask(inBrowser.body) }, `${method} ${target}`).toEqual({ ...overHttp, body: mask(overHttp.body) });
        return overHttp;
      };
      const created = JSON.parse((await both('POST', '/store/wishlists', alice, { name: 'In the browser', sales_channel_id: 'sc_browser' })).body) as { id: string };
      for (const variant of variants) expect((await both('POST', `/store/wishlists/${created.id}/add-item`, alice, { product_variant_id: variant })).status).toBe(201);
      await both('POST', `/store/wishlists/${created.id}/add-item`, alice, { product_variant_id: variants[0] });
      await both('POST', `/store/wishlists/${created.id}/add-item`, alice, '{"product_variant_id":');
      const items = JSON.parse((await both('GET', `/store/wishlists/${created.id}/items`, alice)).body) as { data: Array<{ id: string }>; count: number };
      expect(items.count).toBe(3);
      await both('DELETE', `/store/wishlists/${created.id}/items/${items.data[1]!.id}`, alice);
      await both('GET', `/store/wishlists/${created.id}/items`, bob);
      const shared = JSON.parse((await both('POST', `/store/wishlists/${created.id}/share`, alice)).body) as { share_token: string };
      await both('POST', '/store/wishlists/import', bob, { share_token: `${shared.share_token}x` });
      const copy = JSON.parse((await both('POST', '/store/wishlists/import', bob, { share_token: shared.share_token })).body) as { items_count: number };
      expect(copy.items_count).toBe(2);
      await both('GET', '/store/wishlists?limit=2&offset=15', bob);
      await both('POST', '/store/reviews', alice, { product_id: product, rating: 5, content: 'Written in a browser.' });
      await both('GET', '/store/products/reviews?my_reviews_only=true', alice);
      await both('GET', '/store/products/reviews?my_reviews_only=true&limit=1', bob);
      await both('POST', '/store/reviews', key, { product_id: product, rating: 5, content: 'x' });
    } finally {
      await tab.close();
      await mock.close();
    }
  }, 60_000);
});

describe('the MSW store handlers in Chromium over a catalogue', () => {
  const { products: _products, ...sizes } = DATA;
  const key = { 'x-publishable-api-key': 'pk_browser' };
  const erin = { ...key, authorization: 'Bearer erin-in-the-browser', 'content-type': 'application/json' };
  type Answer = { status: number; contentType: string | null; body: string };
  const ready = (tab: import('playwright-core').Page) => tab.evaluate(() => window.listingsReady.then(() => 'ready', (error: Error) => error.message));
  const mask = (text: string) => text.replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/g, '<time>');

  it('given to the page: the listings and add-item of its variants answer as the HTTP mock over the same catalogue', async () => {
    const options = { ...sizes, dialect: 'alphabite' as const, catalogue: SHOP_CATALOGUE };
    const dataset = generateDataset(sizes, SHOP_CATALOGUE);
    const mock = await startMockServer({ ...sizes, dialect: 'alphabite', catalogue: SHOP_CATALOGUE });
    const tab = await browser.newPage();
    try {
      // In the fragment: a catalogue is too long for a request line.
      await tab.goto(`${origin}/#options=${encodeURIComponent(JSON.stringify(options))}`);
      await tab.waitForFunction(() => 'listingsReady' in window);
      expect(await ready(tab)).toBe('ready');
      const requests = fc.sample(listingRequests('alphabite', dataset, 40), { seed: 28, numRuns: 60 }).filter((r) => !('cookie' in r.headers));
      const both = async (method: string, target: string, headers: Record<string, string>, body?: unknown) => {
        const request = { method, target, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) };
        const inBrowser: Answer = await tab.evaluate((r) => window.send(r), request);
        const res = await fetch(`${mock.url}${target}`, { method, headers, ...(request.body === undefined ? {} : { body: request.body }) });
        const overHttp = { status: res.status, contentType: res.headers.get('content-type'), body: await res.text() };
        expect({ ...inBrowser, body: mask(inBrowser.body) }, `${method} ${target}`).toEqual({ ...overHttp, body: mask(overHttp.body) });
        return overHttp;
      };
      let bodies = '';
      for (const { target, headers } of requests) bodies += (await both('GET', target, headers)).body;
      expect(bodies).toContain('"handle":"shop-tee"');
      // allow_multiple_wishlists is off: the create answers erin's one seeded wishlist (200), whose items are from the catalogue too.
      const created = await both('POST', '/store/wishlists', erin, { name: 'Real', sales_channel_id: 'sc_browser' });
      expect(created.status).toBe(200);
      const { id } = JSON.parse(created.body) as { id: string };
      type Items = { count: number; data: Array<{ product_variant: { id: string; product: { handle: string } } }> };
      const seeded = JSON.parse((await both('GET', `/store/wishlists/${id}/items?limit=1000`, erin)).body) as Items;
      const held = new Set(seeded.data.map((i) => i.product_variant.id));
      const variants = shopVariants().filter((v, i) => (v.handle !== 'socks' || i % 50 === 0) && !held.has(v.id));
      expect(variants.length).toBeGreaterThan(1);
      for (const variant of variants) expect((await both('POST', `/store/wishlists/${id}/add-item`, erin, { product_variant_id: variant.id })).status).toBe(201);
      const items = JSON.parse((await both('GET', `/store/wishlists/${id}/items?limit=1000`, erin)).body) as Items;
      expect(items.count).toBe(seeded.count + variants.length);
      const added = items.data.filter((i) => !held.has(i.product_variant.id));
      expect(added.map((i) => [i.product_variant.id, i.product_variant.product.handle]).sort()).toEqual(variants.map((v) => [v.id, v.handle]).sort());
    } finally {
      await tab.close();
      await mock.close();
    }
  }, 60_000);

  it('fetched by the page from the backend before the worker starts: add-item takes its variants, other requests pass through to it', async () => {
    const backend = await startFakeStoreProducts(SHOP_CATALOGUE, { corsOrigin: origin });
    const tab = await browser.newPage();
    try {
      const catalogueFrom = { baseUrl: backend.url, publishableKey: backend.key };
      await tab.goto(`${origin}/?options=${encodeURIComponent(JSON.stringify({ ...sizes, dialect: 'alphabite' }))}&catalogueFrom=${encodeURIComponent(JSON.stringify(catalogueFrom))}`);
      await tab.waitForFunction(() => 'listingsReady' in window);
      expect(await ready(tab)).toBe('ready');
      const catalogueRequests = backend.requests.filter((r) => r.method === 'GET');
      expect(catalogueRequests.map((r) => [r.url.split('?')[0], r.headers['x-publishable-api-key'], r.headers.origin])).toEqual([['/store/products', backend.key, origin]]);
      const send = (method: string, path: string, body?: unknown): Promise<Answer> =>
        tab.evaluate((r) => window.send(r), { method, target: `${backend.url}${path}`, headers: { ...erin, 'x-publishable-api-key': backend.key }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
      // allow_multiple_wishlists is off: the create answers erin's one seeded wishlist (200), made over the fetched catalogue.
      const created = await send('POST', '/store/wishlists', { name: 'From the backend', sales_channel_id: 'sc_1' });
      expect(created.status).toBe(200);
      const { id } = JSON.parse(created.body) as { id: string };
      type Items = { count: number; data: Array<{ product_variant: { id: string; product: { handle: string } } }> };
      const seeded = JSON.parse((await send('GET', `/store/wishlists/${id}/items?limit=1000`)).body) as Items;
      expect(seeded.count).toBeGreaterThan(0);
      const catalogueIds = new Set(shopVariants().map((v) => v.id));
      for (const item of seeded.data) expect(catalogueIds.has(item.product_variant.id), item.product_variant.id).toBe(true);
      const socks = shopVariants().find((v) => v.handle === 'socks' && !seeded.data.some((i) => i.product_variant.id === v.id))!;
      expect((await send('POST', `/store/wishlists/${id}/add-item`, { product_variant_id: socks.id })).status).toBe(201);
      const items = JSON.parse((await send('GET', `/store/wishlists/${id}/items?limit=1000`)).body) as Items;
      expect(items.count).toBe(seeded.count + 1);
      expect(items.data.filter((i) => i.product_variant.id === socks.id).map((i) => i.product_variant.product.handle)).toEqual(['socks']);
      // No handler matches: the service worker lets it through, to the backend.
      const cart = await send('POST', '/store/carts', {});
      expect(JSON.parse(cart.body)).toEqual({ answeredBy: 'the fake backend', method: 'POST', path: '/store/carts' });
      expect(backend.requests.filter((r) => r.url.startsWith('/store/wishlists'))).toEqual([]);
    } finally {
      await tab.close();
      await backend.close();
    }
  }, 60_000);

  it('a backend whose CORS does not allow the page: a CatalogueFetchError naming the URL and STORE_CORS', async () => {
    const backend = await startFakeStoreProducts(SHOP_CATALOGUE, { corsOrigin: 'http://elsewhere.test' });
    const tab = await browser.newPage();
    try {
      const catalogueFrom = { baseUrl: backend.url, publishableKey: backend.key };
      await tab.goto(`${origin}/?catalogueFrom=${encodeURIComponent(JSON.stringify(catalogueFrom))}`);
      await tab.waitForFunction(() => 'listingsReady' in window);
      const message = await ready(tab);
      expect(message).toContain(`CatalogueFetchError: the catalogue could not be read from GET ${backend.url}/store/products?limit=200&offset=0`);
      expect(message).toContain("STORE_CORS does not allow this page's origin");
    } finally {
      await tab.close();
      await backend.close();
    }
  }, 60_000);
});
