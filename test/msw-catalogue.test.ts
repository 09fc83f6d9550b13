/**
 * `store-listing-kit/msw` over a catalogue: the option and its conflicts, and `fetchCatalogue`,
 * which reads a backend's `GET /store/products` with fetch (test/support/fake-store-products.ts:
 * paging, the publishable key, the backend's refusals, answers too large, no answer), then the
 * handlers over what it read, in front of that backend: the plugins' routes are the mock's, with
 * the backend's variants, and every other request passes through to the backend.
 * (Byte-for-byte equality with the HTTP mock over a catalogue: test/msw-equivalence.test.ts.)
 */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogueInput } from '../fixtures/catalogue.ts';
import { generateDataset } from '../fixtures/dataset.ts';
import { CatalogueFetchError, createListingHandlers, createStoreHandlers, fetchCatalogue } from '../msw/index.ts';
import { WRONG_KEY_MESSAGE, startFakeStoreProducts, type FakeStoreProducts } from './support/fake-store-products.ts';
import { SHOP_CATALOGUE, shopVariants } from './support/shop-catalogue.ts';

const BYPASS = { onUnhandledRequest: 'bypass', onUnhandledFrame: 'bypass' } as const;
const FIELDS = 'fields=id,title,handle,thumbnail,variants.id,variants.title,variants.sku';

/** n products, listed in an order other than their ids'. */
function manyProducts(n: number): CatalogueInput {
  return { products: Array.from({ length: n }, (_, i) => ({ id: `prod_${String((i * 7) % n).padStart(4, '0')}`, title: `P${i}`, handle: `p-${i}`, thumbnail: null, variants: [{ id: `variant_${String((i * 7) % n).padStart(4, '0')}`, title: 'One', sku: null }] })) };
}

/** The error a promise rejects with (the test fails if it resolves). */
async function failure(promise: Promise<unknown>): Promise<Error> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(outcome).toBeInstanceOf(Error);
  return outcome as Error;
}

describe('the catalogue option', () => {
  it('refuses products and dataset beside it, and a catalogue that is not one, with one sentence', () => {
    expect(() => createStoreHandlers({ catalogue: SHOP_CATALOGUE, products: 5 })).toThrow(
      new TypeError("'catalogue' and 'products' cannot be given together: over a catalogue the dataset is generated, and its products are the catalogue's"),
    );
    expect(() => createListingHandlers({ catalogue: SHOP_CATALOGUE, dataset: generateDataset() })).toThrow(
      new TypeError("'catalogue' and 'dataset' cannot be given together: over a catalogue the dataset is generated, and its products are the catalogue's"),
    );
    expect(() => createStoreHandlers({ catalogue: { products: [{ id: 'p1', title: 'x', handle: 'x', thumbnail: null, variants: [] }] } })).toThrow(TypeError);
    expect(() => createStoreHandlers({ catalogue: { products: [{ id: 'p1', title: 'x', handle: 'x', thumbnail: null, variants: [] }] } })).toThrow(/^the catalogue's product p1: 'id' /);
  });

  it('builds the listings over it too (createListingHandlers), in the spec dialect as well: reviews of its products, all but the last in id order', async () => {
    const server = setupServer(...createListingHandlers({ seed: 2, catalogue: SHOP_CATALOGUE, baseUrl: 'http://listings.test' }));
    server.listen(BYPASS);
    try {
      const res = await fetch('http://listings.test/store/products/reviews?limit=1000');
      const body = (await res.json()) as { reviews: Array<{ product_id: string }>; count: number };
      expect(body.count).toBe(generateDataset({ seed: 2 }, SHOP_CATALOGUE).reviews.source.count);
      expect(new Set(body.reviews.map((r) => r.product_id))).toEqual(new Set(SHOP_CATALOGUE.products.map((p) => p.id).sort().slice(0, -1)));
    } finally {
      server.close();
    }
  });
});

describe('fetchCatalogue against a backend\'s /store/products', () => {
  let backend: FakeStoreProducts;
  beforeAll(async () => {
    backend = await startFakeStoreProducts(manyProducts(450), { hugeBytes: 64 * 1024 });
  });
  afterAll(() => backend?.close());
  const read = (more: Partial<Parameters<typeof fetchCatalogue>[0]> = {}) => fetchCatalogue({ baseUrl: backend.url, publishableKey: backend.key, ...more });
  const url = (offset = 0) => `${backend.url}/store/products?limit=200&offset=${offset}&order=id&${FIELDS}`;

  it('reads every page with the publishable key (3 requests for 450 products), the global fetch by default', async () => {
    backend.mode = 'ok';
    backend.requests.length = 0;
    const catalogue = await read();
    expect(backend.requests.map((r) => `${backend.url}${r.url}`)).toEqual([url(0), url(200), url(400)]);
    expect(backend.requests.every((r) => r.headers['x-publishable-api-key'] === backend.key && r.method === 'GET')).toBe(true);
    expect(catalogue.products.map((p) => p.id)).toEqual(manyProducts(450).products.map((p) => p.id).sort());
    expect(catalogue.products[0]).toEqual({ id: 'prod_0000', title: 'P0', handle: 'p-0', thumbnail: null, variants: [{ id: 'variant_0000', title: 'One', sku: null }] });
  });

  it('uses the fetch it is given, called as a plain function', async () => {
    backend.mode = 'ok';
    const seen: string[] = [];
    const catalogue = await read({
      fetch: function (this: unknown, input, init) {
        expect(this).toBeUndefined();
        seen.push(input);
        return fetch(input, init);
      },
    });
    expect(seen).toEqual([url(0), url(200), url(400)]);
    expect(catalogue.products).toHaveLength(450);
  });

  it('fails with one sentence naming the URL: a wrong key (Medusa\'s 400 and its message), a 500, HTML', async () => {
    backend.mode = 'ok';
    const wrongKey = await failure(read({ publishableKey: 'pk_wrong' }));
    expect(wrongKey).toBeInstanceOf(CatalogueFetchError);
    expect(wrongKey.message).toBe(`the backend answered GET ${url()} with status 400 (${WRONG_KEY_MESSAGE}), not 200 and a page of products`);
    backend.mode = 'error-500';
    expect((await failure(read())).message).toBe(`the backend answered GET ${url()} with status 500 (An unknown error occurred.), not 200 and a page of products`);
    backend.mode = 'html';
    const html = await failure(read());
    expect(html).toBeInstanceOf(CatalogueFetchError);
    expect(html.message).toMatch(new RegExp(`^the backend's answer to GET ${url().replace(/[.?]/g, '\\$&')} is not a page of products: `));
    await expect(read({ publishableKey: '' })).rejects.toThrow(TypeError);
  });

  it('fails when the backend cannot be reached', async () => {
    const gone = await startFakeStoreProducts(SHOP_CATALOGUE);
    await gone.close();
    const error = await failure(fetchCatalogue({ baseUrl: gone.url, publishableKey: 'pk' }));
    expect(error).toBeInstanceOf(CatalogueFetchError);
    expect(error.message).toMatch(new RegExp(`^the catalogue could not be read from GET ${gone.url}/store/products\\?limit=200&offset=0&order=id&fields=\\S+: \\S`));
    expect(error.message).not.toContain('\n');
  });

  it('caps each answer\'s bytes: by its Content-Length, and as a body without one streams in', async () => {
    backend.mode = 'huge-declared';
    const declared = await failure(read({ maxBodyBytes: 16 * 1024 }));
    expect(declared).toBeInstanceOf(CatalogueFetchError);
    expect(declared.message).toMatch(/^the catalogue could not be read from GET \S+: the answer has \d+ bytes, more than the 16384 bytes a page of the catalogue may have \(the option maxBodyBytes\)$/);
    backend.mode = 'huge-streamed';
    const streamed = await failure(read({ maxBodyBytes: 16 * 1024 }));
    expect(streamed.message).toMatch(/^the catalogue could not be read from GET \S+: the answer has more than the 16384 bytes a page of the catalogue may have \(the option maxBodyBytes\)$/);
    // Under the cap, the same answer is read: a page of no products.
    backend.mode = 'huge-declared';
    expect(await read({ maxBodyBytes: 1024 * 1024 })).toEqual({ products: [] });
  });

  it('gives up on a backend that does not answer, after timeoutMs', async () => {
    backend.mode = 'hang';
    const error = await failure(read({ timeoutMs: 200 }));
    expect(error).toBeInstanceOf(CatalogueFetchError);
    expect(error.message).toBe(`the catalogue could not be read from GET ${url()}: no complete answer within 200 ms (the option timeoutMs)`);
  });

  it('caps the whole read: variants (maxVariants) and bytes (maxBytes) over all pages, each named', async () => {
    backend.mode = 'ok';
    backend.requests.length = 0;
    expect((await failure(read({ maxVariants: 300 }))).message).toBe(`the backend lists more than the 300 variants a catalogue may have (400 up to GET ${url(200)}; the option maxVariants raises it)`);
    expect(backend.requests).toHaveLength(2);
    backend.requests.length = 0;
    expect((await failure(read({ maxBytes: 2048 }))).message).toBe(`the backend's pages of products come to more than the 2048 bytes a catalogue may take (up to GET ${url()}; the option maxBytes raises it)`);
    expect(backend.requests).toHaveLength(1);
  });

  it('caps the products (maxProducts) and refuses bad caps', async () => {
    backend.mode = 'ok';
    expect((await failure(read({ maxProducts: 300 }))).message).toBe(`the backend lists 450 products (GET ${url()}), more than the 300 the mock serves`);
    await expect(read({ maxBodyBytes: 0 })).rejects.toThrow(new TypeError('maxBodyBytes must be a whole number of bytes, at least 1, got 0'));
    await expect(read({ timeoutMs: 1.5 })).rejects.toThrow(new TypeError('timeoutMs must be a whole number of milliseconds from 1 to 2147483647, got 1.5'));
    await expect(read({ timeoutMs: 2 ** 31 })).rejects.toThrow(new TypeError('timeoutMs must be a whole number of milliseconds from 1 to 2147483647, got 2147483648'));
  });
});

describe('the store handlers over a fetched catalogue, in front of its backend', () => {
  let backend: FakeStoreProducts;
  let msw: ReturnType<typeof setupServer>;
  beforeAll(async () => {
    backend = await startFakeStoreProducts(SHOP_CATALOGUE);
    // Handlers for the plugins' routes are already listening: the catalogue's requests pass through them.
    msw = setupServer();
    msw.listen(BYPASS);
    const catalogue = await fetchCatalogue({ baseUrl: backend.url, publishableKey: backend.key });
    // No seeded wishlists: the shopper starts with none (docs/writes.md, "Whose wishlists"), so their first POST makes one.
    msw.use(...createStoreHandlers({ seed: 5, wishlists: 0, dialect: 'alphabite', catalogue, baseUrl: backend.url }));
  });
  afterAll(async () => {
    msw?.close();
    await backend?.close();
  });

  it('adds any variant of the backend to a wishlist, shown with its product\'s handle; other requests reach the backend', async () => {
    const headers = { 'x-publishable-api-key': backend.key, authorization: 'Bearer shopper', 'content-type': 'application/json' };
    const created = await fetch(`${backend.url}/store/wishlists`, { method: 'POST', headers, body: JSON.stringify({ name: 'Mine', sales_channel_id: 'sc_1' }) });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const sock = shopVariants().find((v) => v.id === 'variant_01SHOPSOCKS149')!;
    const added = await fetch(`${backend.url}/store/wishlists/${id}/add-item`, { method: 'POST', headers, body: JSON.stringify({ product_variant_id: sock.id }) });
    expect(added.status).toBe(201);
    const items = (await (await fetch(`${backend.url}/store/wishlists/${id}/items`, { headers })).json()) as { data: Array<{ product_variant: { id: string; product: { handle: string; thumbnail: string | null } } }> };
    expect(items.data.map((item) => item.product_variant)).toEqual([expect.objectContaining({ id: sock.id, product: expect.objectContaining({ handle: 'socks', thumbnail: 'https://cdn.shop.test/socks.png' }) })]);
    const before = backend.requests.length;
    const cart = await fetch(`${backend.url}/store/carts`, { method: 'POST', headers });
    expect(await cart.json()).toEqual({ answeredBy: 'the fake backend', method: 'POST', path: '/store/carts' });
    expect(backend.requests.slice(before).map((r) => `${r.method} ${r.url}`)).toEqual(['POST /store/carts']);
    // The wishlist writes above never reached the backend.
    expect(backend.requests.filter((r) => r.url.startsWith('/store/wishlists'))).toEqual([]);
  });
});
