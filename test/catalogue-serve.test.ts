/**
 * The mock's data over a catalogue (issue 28 item 2): `startMockServer({ catalogue })`, and in the
 * alphabite dialect with a `backend`, the backend's own catalogue read from its `/store/products`
 * (mock-server/backend/catalogue.ts) with `--publishable-key` before listening, or with the key of
 * the first request to the plugins' routes. A small fake backend (test/support/fake-medusa-catalogue.ts)
 * answers like Medusa and counts what it is asked.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createServer as createHttpServer, request } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { GivenCatalogue, type CatalogueInput } from '../fixtures/catalogue.ts';
import { datasetFromRecords, type Dataset } from '../fixtures/dataset.ts';
import { DatasetHolder } from '../mock-server/dataset/holder.ts';
import { startMockServer, type MockServer, type MockServerOptions } from '../mock-server/server.ts';
import { BackendCatalogue, CATALOGUE_REREAD_MS, CatalogueRefusedError, MAX_CATALOGUE_READS } from '../mock-server/backend/catalogue.ts';
import { datasetDigest } from './support/dataset-digest.ts';
import { fakeProducts, startFakeCatalogueBackend, type FakeCatalogueBackend } from './support/fake-medusa-catalogue.ts';
import { runCli, startServe } from './support/cli-process.ts';

interface Answer {
  status: number;
  text: string;
  json: any;
}

const KEY = 'pk_shop';

function send(base: string, method: string, path: string, options: { key?: string | null; token?: string; body?: unknown } = {}): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (options.key !== null) headers['x-publishable-api-key'] = options.key ?? KEY;
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  if (payload !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(Buffer.byteLength(payload));
  }
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, agent: false, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        let json: unknown;
        try {
          json = text ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, text, json });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

const adminPost = (base: string, path: string, body: unknown) => send(base, 'POST', path, { key: null, body });

function reviewedProducts(dataset: Dataset): Set<string> {
  const source = dataset.reviews.source;
  const ids = new Set<string>();
  for (let i = 0; i < source.count; i++) ids.add(source.review(i).product_id);
  return ids;
}

function itemVariants(dataset: Dataset): Array<{ id: string; product: { id: string; handle: string; thumbnail: string | null } }> {
  const source = dataset.wishlists.source;
  const out = [];
  for (let w = 0; w < source.count; w++) for (let k = 0; k < source.itemCount(w); k++) out.push(source.item(w, k).product_variant);
  return out;
}

/** A customer's new wishlist on the mock: its id. */
async function newWishlist(base: string, token: string): Promise<string> {
  const created = await send(base, 'POST', '/store/wishlists', { token, body: { name: 'Mine', sales_channel_id: 'sc_test' } });
  expect(created.status, created.text).toBe(201);
  return created.json.id as string;
}

/** A port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const servers: MockServer[] = [];
const backends: FakeCatalogueBackend[] = [];
async function mockOf(options: MockServerOptions): Promise<MockServer> {
  const mock = await startMockServer(options);
  servers.push(mock);
  return mock;
}
async function backendOf(products = fakeProducts(6)): Promise<FakeCatalogueBackend> {
  const backend = await startFakeCatalogueBackend(products, KEY);
  backends.push(backend);
  return backend;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((mock) => mock.close()));
  await Promise.all(backends.splice(0).map((backend) => backend.close()));
});

const CATALOGUE: CatalogueInput = { products: fakeProducts(5, 3, 'GIVEN') };
const SIZES = { seed: 3, reviews: 120, wishlists: 12, maxItems: 6 } as const;

describe('startMockServer({ catalogue })', () => {
  it('serves reviews of its products only and items of its variants only, the same bytes for the catalogue in any order', async () => {
    const mock = await mockOf({ ...SIZES, dialect: 'alphabite', catalogue: CATALOGUE });
    const dataset = mock.dataset.current;
    const ids = new Set(CATALOGUE.products.map((p) => p.id));
    const variants = new Map(CATALOGUE.products.flatMap((p) => (p.variants ?? []).map((v) => [v.id, p] as const)));
    expect(reviewedProducts(dataset).size).toBeGreaterThan(1);
    for (const id of reviewedProducts(dataset)) expect(ids).toContain(id);
    const items = itemVariants(dataset);
    expect(items.length).toBeGreaterThan(0);
    for (const variant of items) {
      const product = variants.get(variant.id);
      expect(product, variant.id).toBeDefined();
      expect(variant.product).toEqual({ id: product!.id, title: product!.title, handle: product!.handle, thumbnail: product!.thumbnail });
    }
    expect(dataset.summary.catalogue).toEqual({ from: 'given', products: 5, variants: 15 });

    const reversed: CatalogueInput = { products: [...CATALOGUE.products].reverse().map((p) => ({ ...p, variants: [...(p.variants ?? [])].reverse() })) };
    const other = await mockOf({ ...SIZES, dialect: 'alphabite', catalogue: reversed });
    expect(datasetDigest(other.dataset.current)).toBe(datasetDigest(dataset));
    const page = '/store/products/reviews?limit=50&offset=10';
    expect((await send(other.url, 'GET', page)).text).toBe((await send(mock.url, 'GET', page)).text);

    // Over HTTP: a catalogue product's reviews, and the config's summary.
    const [first] = [...reviewedProducts(dataset)];
    const reviews = await send(mock.url, 'GET', `/store/reviews/product/${first}?limit=5`);
    expect(reviews.status).toBe(200);
    expect(reviews.json.data.length).toBeGreaterThan(0);
    expect(reviews.json.data.every((r: { product_id: string }) => r.product_id === first)).toBe(true);
    const config = await send(mock.url, 'GET', '/__admin/config', { key: null });
    expect(config.json.dataset.current.catalogue).toEqual({ from: 'given', products: 5, variants: 15 });
  });

  it('add-item takes any variant of the catalogue, with its real product; an unknown one gets the plugin\'s error as today', async () => {
    const mock = await mockOf({ ...SIZES, wishlists: 0, dialect: 'alphabite', catalogue: CATALOGUE });
    const wishlist = await newWishlist(mock.url, 'alice');
    const product = CATALOGUE.products[4]!;
    const added = await send(mock.url, 'POST', `/store/wishlists/${wishlist}/add-item`, { token: 'alice', body: { product_variant_id: product.variants![2]!.id } });
    expect(added.status, added.text).toBe(201);
    expect(added.json.product_variant).toMatchObject({ id: product.variants![2]!.id, product: { id: product.id, handle: product.handle, thumbnail: product.thumbnail } });
    const unknown = await send(mock.url, 'POST', `/store/wishlists/${wishlist}/add-item`, { token: 'alice', body: { product_variant_id: 'variant_NOT_THERE' } });
    expect(unknown).toMatchObject({ status: 500, text: '' });
  });

  it('a reseed and a provider state generate over the same catalogue; products is the catalogue\'s', async () => {
    const mock = await mockOf({ ...SIZES, dialect: 'alphabite', catalogue: CATALOGUE });
    const ids = new Set(CATALOGUE.products.map((p) => p.id));
    const reseeded = await adminPost(mock.url, '/__admin/dataset', { seed: 11, reviews: 60 });
    expect(reseeded.status, reseeded.text).toBe(200);
    expect(reseeded.json.current).toMatchObject({ seed: 11, reviews: 60, products: 5, catalogue: { from: 'given', products: 5, variants: 15 } });
    for (const id of reviewedProducts(mock.dataset.current)) expect(ids).toContain(id);
    const refused = await adminPost(mock.url, '/__admin/dataset', { products: 3 });
    expect(refused.status).toBe(400);
    expect(refused.json.message).toMatch(/'products' is 3, but the dataset is generated over the catalogue of given, whose 5 products are the products/);
    expect((await adminPost(mock.url, '/__admin/dataset', { products: 5 })).status).toBe(200);

    const state = await adminPost(mock.url, '/__admin/provider-states', { state: 'reviews exist', params: { count: 7 } });
    expect(state.status, state.text).toBe(200);
    expect(mock.dataset.current.reviews.count).toBe(7);
    for (const id of reviewedProducts(mock.dataset.current)) expect(ids).toContain(id);
    const items = await adminPost(mock.url, '/__admin/provider-states', { state: 'wishlists exist', params: { count: 3 } });
    expect(items.status, items.text).toBe(200);
    for (const variant of itemVariants(mock.dataset.current)) expect(variant.id.startsWith('variant_GIVEN')).toBe(true);
  });

  it.each([
    [{ products: 4 }, "'catalogue' and 'products' cannot be given together: over a catalogue the dataset is generated, and its products are the catalogue's"],
    [{ fixtures: 'x.json' }, "'catalogue' and 'fixtures' cannot be given together: over a catalogue the dataset is generated, and its products are the catalogue's"],
    [{ workers: 2 }, "'catalogue' cannot be given with more than one worker yet: serve it from one process"],
  ])('refuses a catalogue with %o in one sentence', async (other, message) => {
    await expect(startMockServer({ catalogue: CATALOGUE, ...other } as Parameters<typeof startMockServer>[0])).rejects.toThrow(new TypeError(message));
  });
});

describe('the catalogue of a backend (alphabite dialect)', () => {
  it('with a publishable key: read before listening, with that key, paging by 200', async () => {
    const backend = await backendOf(fakeProducts(450, 1));
    const mock = await mockOf({ dialect: 'alphabite', backend: backend.url, publishableKeys: [KEY, 'pk_other'] });
    expect(backend.requests.map((r) => [r.offset, r.limit, r.key])).toEqual([
      [0, 200, KEY],
      [200, 200, KEY],
      [400, 200, KEY],
    ]);
    expect(backend.requests[0]!.url).toContain('order=id&fields=id,title,handle,thumbnail,variants.id,variants.title,variants.sku');
    expect(mock.dataset.current.summary.catalogue).toEqual({ from: backend.url, products: 450, variants: 450 });
    expect(mock.dataset.initial).toBe(mock.dataset.current);
    for (const id of reviewedProducts(mock.dataset.current)) expect(id.startsWith('prod_SHOP')).toBe(true);
  });

  it('with a key the backend refuses, or a backend that cannot be reached: startMockServer rejects, naming the backend', async () => {
    const backend = await backendOf();
    await expect(startMockServer({ dialect: 'alphabite', backend: backend.url, publishableKeys: ['pk_wrong'] })).rejects.toThrow(
      new RegExp(`^Cannot read the catalogue of the backend ${backend.url}: the backend answered GET ${backend.url}/store/products\\?.* with status 400 \\(A valid publishable key is required to proceed with the request\\), not 200 and a page of products$`),
    );
    const gone = `http://127.0.0.1:${await closedPort()}`;
    await expect(startMockServer({ dialect: 'alphabite', backend: gone, publishableKeys: [KEY] })).rejects.toThrow(new RegExp(`^Cannot read the catalogue of the backend ${gone}: `));
  });

  it('without a key: read with the key of the first request to the plugins\' routes, which waits for it (one read for all)', async () => {
    const backend = await backendOf();
    const mock = await mockOf({ ...SIZES, dialect: 'alphabite', backend: backend.url });
    expect(backend.requests).toEqual([]);
    expect(mock.dataset.current.summary).toMatchObject({ reviews: 0, wishlists: 0 });
    // A request without a key, and the admin API, go on at once (and read nothing).
    expect((await send(mock.url, 'GET', '/store/products/reviews', { key: null })).status).toBe(400);
    const config = await send(mock.url, 'GET', '/__admin/config', { key: null });
    expect(config.status).toBe(200);
    expect(await adminPost(mock.url, '/__admin/dataset', { seed: 2 })).toMatchObject({ status: 409, json: { type: 'conflict' } });
    expect(backend.requests).toEqual([]);
    // A request that is the backend's (the overlay passes it) reads no catalogue, key or not.
    expect((await send(mock.url, 'GET', '/store/regions')).status).toBe(404);
    expect(backend.requests.map((r) => r.url)).toEqual(['/store/regions']);
    backend.requests.length = 0;

    const [a, b] = await Promise.all([send(mock.url, 'GET', '/store/products/reviews?limit=100'), send(mock.url, 'GET', '/store/wishlists?limit=3', { token: 'bob' })]);
    expect(a.status, a.text).toBe(200);
    expect(b.status, b.text).toBe(200);
    expect(backend.requests.map((r) => r.key)).toEqual([KEY]);
    // (4.1 in this dialect answers every review whatever the limit, and a count of 0: the plugin's bug.)
    expect(a.json.data).toHaveLength(120);
    for (const review of a.json.data) expect(review.product_id.startsWith('prod_SHOP')).toBe(true);
    expect(mock.dataset.current.summary.catalogue).toEqual({ from: backend.url, products: 6, variants: 12 });
    // Reset returns to the dataset over the catalogue, not to the stand-in served before it was read.
    expect((await adminPost(mock.url, '/__admin/reset', {})).status).toBe(200);
    expect(mock.dataset.current.summary.catalogue).toEqual({ from: backend.url, products: 6, variants: 12 });
    expect(backend.requests).toHaveLength(1);
  });

  it('a provider state set up before the read is torn down to the dataset over the catalogue', async () => {
    const backend = await backendOf();
    const mock = await mockOf({ ...SIZES, dialect: 'alphabite', backend: backend.url });
    expect((await adminPost(mock.url, '/__admin/provider-states', { state: 'reviews exist', params: { count: 4 } })).status).toBe(200);
    expect(mock.dataset.current.reviews.count).toBe(4);
    // The read, meanwhile, keeps the state served, and becomes what its teardown serves again.
    expect((await send(mock.url, 'GET', '/store/wishlists', { token: 'erin' })).status).toBe(200);
    expect(backend.requests).toHaveLength(1);
    expect(mock.dataset.current.reviews.count).toBe(4);
    expect((await adminPost(mock.url, '/__admin/provider-states', { state: 'reviews exist', action: 'teardown' })).status).toBe(200);
    expect(mock.dataset.current.summary).toMatchObject({ reviews: 120, catalogue: { from: backend.url, products: 6, variants: 12 } });
  });

  it('a failed read answers 502 in Medusa\'s shape naming the backend; the next request reads again', async () => {
    const backend = await backendOf();
    backend.failing = true;
    const mock = await mockOf({ dialect: 'alphabite', backend: backend.url });
    // (In any case: the mock's routes as the overlay judges them.)
    const failed = await send(mock.url, 'GET', '/STORE/Products/reviews');
    expect(failed.status).toBe(502);
    expect(Object.keys(failed.json)).toEqual(['type', 'message']);
    expect(failed.json.type).toBe('unknown_error');
    expect(failed.json.message).toContain(`the backend ${backend.url}`);
    expect(failed.json.message).toContain('status 500');
    backend.failing = false;
    const ok = await send(mock.url, 'GET', '/store/products/reviews');
    expect(ok.status, ok.text).toBe(200);
    expect(backend.requests).toHaveLength(2);
    // The 502 is journaled like every other answer: the backend's part, with why it failed.
    const journal = await send(mock.url, 'GET', '/__admin/journal', { key: null });
    const entries = journal.json.entries as Array<Record<string, any>>;
    expect(entries.map((e) => [e.method, e.url, e.status, e.answeredBy])).toEqual([
      ['GET', '/STORE/Products/reviews', 502, 'backend'],
      ['GET', '/store/products/reviews', 200, 'mock'],
    ]);
    expect(entries[0]!.backend).toEqual({ ms: expect.any(Number), error: expect.stringContaining('status 500') });
    expect(JSON.parse(entries[0]!.response.body.text)).toEqual(failed.json);
    expect(entries[0]!.request.headers['x-publishable-api-key']).toBe(KEY);
  });

  it('a key the backend refuses gets the backend\'s own refusal (status and body), journaled; nothing is kept of it: a good key reads next', async () => {
    const backend = await backendOf();
    const mock = await mockOf({ ...SIZES, dialect: 'alphabite', backend: backend.url });
    const refused = await send(mock.url, 'GET', '/store/products/reviews?limit=5', { key: 'pk_wrong' });
    expect(refused.status).toBe(400);
    expect(refused.json).toEqual({ type: 'not_allowed', message: 'A valid publishable key is required to proceed with the request' });
    // Again with the wrong key: read again (the refusal is not kept), refused again.
    expect((await send(mock.url, 'GET', '/store/wishlists', { key: 'pk_wrong', token: 'bob' })).status).toBe(400);
    expect(backend.requests.map((r) => r.key)).toEqual(['pk_wrong', 'pk_wrong']);
    const ok = await send(mock.url, 'GET', '/store/products/reviews?limit=5');
    expect(ok.status, ok.text).toBe(200);
    expect(backend.requests.map((r) => r.key)).toEqual(['pk_wrong', 'pk_wrong', KEY]);
    expect(mock.dataset.current.summary.catalogue).toEqual({ from: backend.url, products: 6, variants: 12 });

    const entries = (await send(mock.url, 'GET', '/__admin/journal', { key: null })).json.entries as Array<Record<string, any>>;
    expect(entries.map((e) => [e.url, e.status, e.answeredBy])).toEqual([
      ['/store/products/reviews?limit=5', 400, 'backend'],
      ['/store/wishlists', 400, 'backend'],
      ['/store/products/reviews?limit=5', 200, 'mock'],
    ]);
    expect(entries[0]!.backend).toEqual({ ms: expect.any(Number), error: null });
    expect(JSON.parse(entries[0]!.response.body.text)).toEqual(refused.json);
  });

  it('a 401 of the backend passes as its 401', async () => {
    const backend = await backendOf();
    const mock = await mockOf({ ...SIZES, dialect: 'alphabite', backend: backend.url });
    backend.refuseWith = { status: 401, body: { type: 'unauthorized', message: 'Unauthorized' } };
    const unauthorized = await send(mock.url, 'GET', '/store/products/reviews', { key: 'pk_wrong' });
    expect(unauthorized).toMatchObject({ status: 401, json: { type: 'unauthorized', message: 'Unauthorized' } });
    expect((await send(mock.url, 'GET', '/store/products/reviews')).status).toBe(200);
  });

  it('reads under way: the same key shares one; another key reads at once, and the first catalogue loaded answers both; a refused key gets its refusal', async () => {
    const reads: Array<{ key: string; signal: AbortSignal | undefined; settle: (refused: boolean) => void }> = [];
    const read = (backend: string, key: string, signal?: AbortSignal) =>
      new Promise<GivenCatalogue>((resolve, reject) =>
        reads.push({ key, signal, settle: (refused) => (refused ? reject(new CatalogueRefusedError('refused', { status: 400, body: '{}' })) : resolve(new GivenCatalogue({ products: fakeProducts(3) }, backend))) }),
      );
    const catalogue = new BackendCatalogue(new DatasetHolder(datasetFromRecords({ reviews: [], wishlists: [] })), 'http://backend.test', { generation: { seed: 1, reviews: 5 }, read });
    const bad = [catalogue.load('pk_wrong'), catalogue.load('pk_wrong')];
    const slow = catalogue.load('pk_slow');
    const good = catalogue.load(KEY);
    // Three keys, three reads at once: none waits for another.
    expect(reads.map((r) => r.key)).toEqual(['pk_wrong', 'pk_slow', KEY]);
    reads[0]!.settle(true);
    for (const each of bad) await expect(each).rejects.toBeInstanceOf(CatalogueRefusedError);
    reads[2]!.settle(false);
    await good;
    // pk_slow's read has not ended, but the catalogue is loaded: its callers go on, and its read is stopped.
    await slow;
    expect(reads[1]!.signal?.aborted).toBe(true);
    expect(catalogue.loaded).toBe(true);
    // Loaded: any key goes on at once, with no read.
    await catalogue.load('pk_other');
    expect(reads).toHaveLength(3);
  });

  it(`at most ${MAX_CATALOGUE_READS} reads at once: one more key waits for the first to end, then reads`, async () => {
    const reads: Array<{ key: string; settle: () => void }> = [];
    const read = (_backend: string, key: string) => new Promise<GivenCatalogue>((_resolve, reject) => reads.push({ key, settle: () => reject(new Error('gone')) }));
    const catalogue = new BackendCatalogue(new DatasetHolder(datasetFromRecords({ reviews: [], wishlists: [] })), 'http://backend.test', { generation: { seed: 1, reviews: 5 }, read });
    const loads = Array.from({ length: MAX_CATALOGUE_READS + 1 }, (_, i) => catalogue.load(`pk_${i}`));
    for (const load of loads) load.catch(() => undefined);
    expect(reads).toHaveLength(MAX_CATALOGUE_READS);
    reads[1]!.settle();
    await expect(loads[1]).rejects.toThrow('gone');
    await vi.waitFor(() => expect(reads.map((r) => r.key)).toEqual([...Array.from({ length: MAX_CATALOGUE_READS }, (_, i) => `pk_${i}`), `pk_${MAX_CATALOGUE_READS}`]));
    for (const each of reads) each.settle();
    await Promise.allSettled(loads);
  });

  it('over HTTP: a backend that holds key A\'s read does not hold key B\'s request; A\'s request is then served too', async () => {
    const held: Array<import('node:http').ServerResponse> = [];
    const products = fakeProducts(4);
    const backend = createHttpServer((req, res) => {
      if (req.headers['x-publishable-api-key'] === 'pk_held') return void held.push(res);
      const body = JSON.stringify({ products, count: products.length, offset: 0, limit: 200 });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
    await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(backend.address() as AddressInfo).port}`;
    try {
      const mock = await mockOf({ ...SIZES, dialect: 'alphabite', backend: url });
      const a = send(mock.url, 'GET', '/store/products/reviews?limit=5', { key: 'pk_held' });
      await vi.waitFor(() => expect(held).toHaveLength(1));
      const b = await send(mock.url, 'GET', '/store/products/reviews?limit=5', { key: KEY });
      expect(b.status, b.text).toBe(200);
      expect((await a).status).toBe(200);
      expect(mock.dataset.current.summary.catalogue).toEqual({ from: url, products: 4, variants: 8 });
    } finally {
      backend.closeAllConnections();
      await new Promise<void>((resolve) => backend.close(() => resolve()));
    }
  });

  it('an answer of the backend that is not a refusal of the key (a 404, a body that is not JSON) is still a 502', async () => {
    const backend = await backendOf();
    const mock = await mockOf({ ...SIZES, dialect: 'alphabite', backend: backend.url });
    backend.refuseWith = { status: 404, body: { type: 'not_found', message: 'Cannot GET /store/products' } };
    expect((await send(mock.url, 'GET', '/store/products/reviews', { key: 'pk_wrong' })).status).toBe(502);
    backend.refuseWith = { status: 403, body: '<html>Forbidden</html>' };
    const html = await send(mock.url, 'GET', '/store/products/reviews', { key: 'pk_wrong' });
    expect(html.status).toBe(502);
    expect(html.json.message).toContain('status 403');
  });

  it('add-item: a catalogue variant with its real product; one added to the backend later after one re-read; an unknown one as today, re-read at most once a minute', async () => {
    const backend = await backendOf(fakeProducts(4, 2));
    const mock = await mockOf({ ...SIZES, wishlists: 0, dialect: 'alphabite', backend: backend.url, publishableKeys: [KEY] });
    expect(backend.requests).toHaveLength(1);
    const wishlist = await newWishlist(mock.url, 'carol');
    const addItem = (variant: string) => send(mock.url, 'POST', `/store/wishlists/${wishlist}/add-item`, { token: 'carol', body: { product_variant_id: variant } });

    const real = backend.products[1]!;
    const added = await addItem(real.variants![1]!.id);
    expect(added.status, added.text).toBe(201);
    expect(added.json.product_variant).toEqual({ id: real.variants![1]!.id, title: 'Size 1', product_id: real.id, product: { id: real.id, handle: real.handle, thumbnail: real.thumbnail } });
    expect(backend.requests).toHaveLength(1);

    const [later] = fakeProducts(1, 1, 'LATER');
    backend.products.push(later!);
    const fresh = await addItem(later!.variants![0]!.id);
    expect(fresh.status, fresh.text).toBe(201);
    expect(fresh.json.product_variant.product).toEqual({ id: later!.id, handle: later!.handle, thumbnail: later!.thumbnail });
    expect(backend.requests).toHaveLength(2);

    // Unknown after the re-read of a minute ago: not read again; the plugin's 500, as for any unknown variant.
    const unknown = await addItem('variant_NOWHERE');
    expect(unknown).toMatchObject({ status: 500, text: '' });
    expect(backend.requests).toHaveLength(2);
    expect(CATALOGUE_REREAD_MS).toBe(60_000);

  });

  it('a reseed reads the catalogue again and generates over it as it is now; a failed read keeps the one read before', async () => {
    const backend = await backendOf(fakeProducts(4, 2));
    const mock = await mockOf({ ...SIZES, dialect: 'alphabite', backend: backend.url, publishableKeys: [KEY] });
    const before = datasetDigest(mock.dataset.current, false);
    // The same catalogue and seed: the same data.
    expect((await adminPost(mock.url, '/__admin/dataset', { seed: SIZES.seed })).status).toBe(200);
    expect(datasetDigest(mock.dataset.current, false)).toBe(before);
    expect(backend.requests).toHaveLength(2);

    backend.products.push(...fakeProducts(2, 1, 'LATER'));
    const reseeded = await adminPost(mock.url, '/__admin/dataset', { seed: 4 });
    expect(reseeded.json.current.catalogue).toEqual({ from: backend.url, products: 6, variants: 10 });
    expect([...reviewedProducts(mock.dataset.current)].some((id) => id.startsWith('prod_LATER'))).toBe(true);

    backend.failing = true;
    const kept = await adminPost(mock.url, '/__admin/dataset', { seed: 5 });
    expect(kept.status, kept.text).toBe(200);
    expect(kept.json.current).toMatchObject({ seed: 5, catalogue: { from: backend.url, products: 6, variants: 10 } });
  });

  it('an unknown variant makes the first re-read, and stays unknown', async () => {
    const backend = await backendOf(fakeProducts(3, 1));
    const mock = await mockOf({ ...SIZES, wishlists: 0, dialect: 'alphabite', backend: backend.url, publishableKeys: [KEY] });
    const wishlist = await newWishlist(mock.url, 'dan');
    const unknown = await send(mock.url, 'POST', `/store/wishlists/${wishlist}/add-item`, { token: 'dan', body: { product_variant_id: 'variant_NOWHERE' } });
    expect(unknown).toMatchObject({ status: 500, text: '' });
    expect(backend.requests).toHaveLength(2);
  });

  it('in the spec dialect the catalogue is the generated one (nothing is read)', async () => {
    const backend = await backendOf();
    const mock = await mockOf({ seed: 1, backend: backend.url });
    expect(mock.dataset.current.summary.catalogue).toBeUndefined();
    expect((await send(mock.url, 'GET', '/store/products/reviews')).status).toBe(200);
    expect(backend.requests).toEqual([]);
  });

  it.each([
    [{ products: 3 }, "'products' cannot be given with a backend in the alphabite dialect: the products are the catalogue of http://127.0.0.1:9"],
    [{ workers: 2 }, 'a backend cannot be served from several worker processes yet: serve it from one (leave out workers)'],
  ])('refuses %o with a backend in one sentence', async (other, message) => {
    await expect(startMockServer({ dialect: 'alphabite', backend: 'http://127.0.0.1:9', ...other } as Parameters<typeof startMockServer>[0])).rejects.toThrow(message);
  });
});

/**
 * A backend whose catalogue has no end: every page, whatever its limit or offset, is the same
 * product with `variants` variants, and the count says a million products. It counts the pages it
 * was asked.
 */
async function startEndlessCatalogue(variants: number): Promise<{ url: string; pages: () => number; close: () => Promise<void> }> {
  let pages = 0;
  const [product] = fakeProducts(1, 0, 'ENDLESS');
  const body = JSON.stringify({
    products: [{ ...product, variants: Array.from({ length: variants }, (_, v) => ({ id: `variant_ENDLESS_${v}`, title: `Size ${v}`, sku: `SKU-${v}` })) }],
    count: 1_000_000,
    offset: 0,
    limit: 200,
  });
  const server = createHttpServer((_req, res) => {
    pages++;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    pages: () => pages,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('a catalogue read is bounded as a whole (issue 35 item 5)', () => {
  let endless: Awaited<ReturnType<typeof startEndlessCatalogue>>;
  beforeAll(async () => {
    endless = await startEndlessCatalogue(300);
  });
  afterAll(() => endless.close());

  it('past catalogueMaxVariants the eager read fails in one sentence naming the option, after a bounded number of pages', async () => {
    const before = endless.pages();
    const failure = await startMockServer({ dialect: 'alphabite', backend: endless.url, publishableKeys: [KEY], catalogueMaxVariants: 1000 }).then(
      () => undefined,
      (error: Error) => error.message,
    );
    expect(failure).toMatch(new RegExp(`^Cannot read the catalogue of the backend ${endless.url}: the backend lists more than the 1000 variants a catalogue may have \\(1200 up to GET \\S+; --catalogue-max-variants \\(catalogueMaxVariants of startMockServer\\) raises it\\)$`));
    expect(endless.pages() - before).toBe(4);
  });

  it('past catalogueMaxBytes likewise, the option named; a page may take only what is left of the bytes', async () => {
    const before = endless.pages();
    // Each page is about 17 KiB: the fourth goes past 64 KiB, and is refused as it arrives.
    await expect(startMockServer({ dialect: 'alphabite', backend: endless.url, publishableKeys: [KEY], catalogueMaxBytes: 64 * 1024 })).rejects.toThrow(
      /: the backend's pages of products come to more than the 65536 bytes a catalogue may take \(up to GET \S+; --catalogue-max-bytes \(catalogueMaxBytes of startMockServer\) raises it\)$/,
    );
    expect(endless.pages() - before).toBeLessThanOrEqual(4);
    const single = endless.pages();
    await expect(startMockServer({ dialect: 'alphabite', backend: endless.url, publishableKeys: [KEY], catalogueMaxBytes: 1024 })).rejects.toThrow(/--catalogue-max-bytes/);
    expect(endless.pages() - single).toBe(1);
  });

  it('the default caps end the read of an endless catalogue too', async () => {
    const big = await startEndlessCatalogue(200_000);
    try {
      await expect(startMockServer({ dialect: 'alphabite', backend: big.url, publishableKeys: [KEY] })).rejects.toThrow(/--catalogue-max-(variants|bytes)/);
      // 1,000,000 variants by default: the sixth page of 200,000 is past it (256 MiB would take more).
      expect(big.pages()).toBe(6);
    } finally {
      await big.close();
    }
  }, 60_000);

  it('the lazy read past a cap answers the 502 in Medusa\'s shape, naming the option', async () => {
    const mock = await mockOf({ ...SIZES, dialect: 'alphabite', backend: endless.url, catalogueMaxVariants: 500 });
    const failed = await send(mock.url, 'GET', '/store/products/reviews');
    expect(failed.status).toBe(502);
    expect(failed.json.type).toBe('unknown_error');
    expect(failed.json.message).toContain('more than the 500 variants a catalogue may have');
    expect(failed.json.message).toContain('--catalogue-max-variants');
  });

  it.each([
    [{ catalogueMaxVariants: 0 }, 'catalogueMaxVariants must be a whole number from 1 to 20000000, got 0'],
    [{ catalogueMaxBytes: 10 }, 'catalogueMaxBytes must be a whole number of bytes from 1024 to 8589934592, got 10'],
  ])('refuses %o up front', async (caps, message) => {
    await expect(startMockServer({ dialect: 'alphabite', backend: 'http://127.0.0.1:9', ...caps })).rejects.toThrow(message);
  });

  it('refuses a cap without a catalogue to read', async () => {
    await expect(startMockServer({ backend: 'http://127.0.0.1:9', catalogueMaxVariants: 10 })).rejects.toThrow(
      "catalogueMaxVariants bound the catalogue read from a backend in the alphabite dialect: give a backend and dialect 'alphabite'",
    );
  });

  it('serve: exits 2 before listening with one sentence naming --catalogue-max-variants', async () => {
    const before = endless.pages();
    const run = await runCli(['serve', '--port', '0', '--dialect', 'alphabite', '--backend', endless.url, '--publishable-key', KEY, '--catalogue-max-variants', '1000'], 60_000);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('more than the 1000 variants a catalogue may have');
    expect(run.stderr).toContain('--catalogue-max-variants');
    expect(endless.pages() - before).toBe(4);
  });
});

describe('serve --backend (alphabite): the catalogue', () => {
  let backend: FakeCatalogueBackend;
  beforeAll(async () => {
    backend = await startFakeCatalogueBackend(fakeProducts(7, 2), KEY);
  });
  afterAll(() => backend.close());

  it('with --publishable-key: read before listening; the banner says how large and from where', async () => {
    const serve = await startServe(['--dialect', 'alphabite', '--backend', backend.url, '--publishable-key', KEY], 30_000);
    try {
      expect(serve.stdout()).toContain(`catalogue: 7 products, 14 variants from ${backend.url}`);
      const reviews = await send(serve.url, 'GET', '/store/products/reviews?limit=3');
      expect(reviews.json.data[0].product_id.startsWith('prod_SHOP')).toBe(true);
    } finally {
      serve.child.kill('SIGTERM');
      await serve.exited;
    }
  });

  it('without a key the banner says when it is read; in the spec dialect that it is not', async () => {
    const lazy = await startServe(['--dialect', 'alphabite', '--backend', backend.url], 30_000);
    const spec = await startServe(['--backend', backend.url], 30_000);
    try {
      expect(lazy.stdout()).toMatch(new RegExp(`catalogue: from ${backend.url.replace(/\./g, '\\.')}, read with the publishable key of the first request to the plugins' routes`));
      expect(spec.stdout()).toContain('catalogue: generated from the seed (the spec dialect takes no publishable key, so the backend\'s catalogue is not read)');
      // whose data each customer sees (issue 36): read from the backend's plugin routes; the spec dialect has no customers
      expect(lazy.stdout()).toContain(`wishlists: each customer's own, and the reviews, read from ${backend.url}'s plugin routes with the customer's own credentials on their first request`);
      expect(spec.stdout()).not.toContain('wishlists:');
    } finally {
      lazy.child.kill('SIGTERM');
      spec.child.kill('SIGTERM');
      await Promise.all([lazy.exited, spec.exited]);
    }
  });

  it('--plugin-data generated: the banner says the data is generated over the catalogue; without --backend it is exit 2 with one sentence', async () => {
    const generated = await startServe(['--dialect', 'alphabite', '--backend', backend.url, '--plugin-data', 'generated'], 30_000);
    try {
      expect(generated.stdout()).toContain("wishlists: each customer's own: those the dataset names as theirs, or else one seeded wishlist picked by their id (--plugin-data generated: over the backend's catalogue)");
    } finally {
      generated.child.kill('SIGTERM');
      await generated.exited;
    }
    const alone = await runCli(['serve', '--port', '0', '--dialect', 'alphabite', '--plugin-data', 'generated'], 30_000);
    expect(alone.code).toBe(2);
    expect(alone.stderr.trim().split('\n')).toHaveLength(1);
    expect(alone.stderr).toContain('--plugin-data');
  });

  it('exits 2 with one sentence: a backend that cannot be read, --products with --backend', async () => {
    const gone = `http://127.0.0.1:${await closedPort()}`;
    const unreachable = await runCli(['serve', '--port', '0', '--dialect', 'alphabite', '--backend', gone, '--publishable-key', KEY], 30_000);
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr.trim().split('\n')).toHaveLength(1);
    expect(unreachable.stderr).toContain(`Cannot read the catalogue of the backend ${gone}`);
    const products = await runCli(['serve', '--port', '0', '--dialect', 'alphabite', '--backend', backend.url, '--products', '3'], 30_000);
    expect(products.code).toBe(2);
    expect(products.stderr.trim().split('\n')).toHaveLength(1);
    expect(products.stderr).toContain('--products');
  });
});

describe('serve: a stop while the catalogue is read before listening', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('%s exits 2 at once with one sentence, whatever the backend still owes (docs/exit-codes.md)', async (signal) => {
    // A backend that sends a head and part of a body, and then nothing, for as long as it is let.
    let asked = 0;
    const backend = createHttpServer((_req, res) => {
      asked++;
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100000' });
      res.write('{"products":[');
    });
    await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(backend.address() as AddressInfo).port}`;
    const cli = join(import.meta.dirname, '..', 'bin', 'store-listing-kit.js');
    const child = spawn(process.execPath, [cli, 'serve', '--port', '0', '--dialect', 'alphabite', '--backend', url, '--publishable-key', KEY, '--backend-timeout', '600000'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, sig) => resolve({ code, signal: sig })));
    try {
      await vi.waitFor(() => expect(asked).toBe(1), { timeout: 20_000, interval: 50 });
      child.kill(signal);
      expect(await exited).toEqual({ code: 2, signal: null });
      expect(out).toBe('');
      expect(err).toBe(`error: stopped by ${signal} before listening, while reading the catalogue of the backend ${url}\n`);
    } finally {
      child.kill('SIGKILL');
      backend.closeAllConnections();
      await new Promise<void>((resolve) => backend.close(() => resolve()));
    }
  }, 40_000);
});
