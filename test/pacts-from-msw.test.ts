import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setupServer } from 'msw/node';
import { afterAll, describe, expect, it } from 'vitest';
import { LEFT_OUT } from '../lib/pact-recording.ts';
import { PROVIDER_STATES_PATH } from '../lib/provider-states.ts';
import { writePactFiles } from '../mock-server/pacts/files.ts';
import { startMockServer } from '../mock-server/server.ts';
import { createPactRecording, createStoreHandlers, type PactRecording } from '../msw/index.ts';

// Issue 30, item 2: the MSW handlers record a consumer's pacts as the HTTP mock does
// (serve --pact-consumer), with the state set by `pact.given` and the files given as data.

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'slk-msw-pacts-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const SHOP = 'http://shop.test/api';
const SDK = { 'x-publishable-api-key': 'pk_test', authorization: 'Bearer some-token' };

/** The storefront's suite: states and requests, through `given` (MSW) or the provider-state door (the mock). */
async function suite(base: string, given: (state: string, params: Record<string, unknown>) => Promise<void>, clear: () => Promise<void>): Promise<void> {
  const get = async (path: string, headers: Record<string, string> = SDK) => (await fetch(`${base}${path}`, { headers })).status;
  await given('reviews exist', { count: 12 });
  expect(await get('/store/products/reviews?limit=5&offset=10')).toBe(200);
  expect(await get('/store/products/reviews?offset=10&limit=5')).toBe(200);
  expect(await get('/store/products/reviews?limit=5', {})).toBe(400);
  await given('wishlist has items', { wishlist_id: 'wl_01MSWSHOP', count: 4 });
  expect(await get('/store/wishlists/wl_01MSWSHOP/items?limit=3&offset=3')).toBe(200);
  expect(await get('/store/products/reviews?limit=5')).toBe(200); // not fixed by "wishlist has items"
  await clear();
  expect(await get('/store/wishlists?limit=5')).toBe(200);
}

function withMsw<T>(pact: PactRecording, run: () => Promise<T>): Promise<T> {
  const server = setupServer(...createStoreHandlers({ dialect: 'alphabite', baseUrl: SHOP, pact }));
  server.listen({ onUnhandledRequest: 'error' });
  return run().finally(() => server.close());
}

describe('createStoreHandlers({ pact }): pacts from the MSW handlers', () => {
  it('records what the HTTP mock records, byte for byte, and names what it leaves out', async () => {
    const pact = createPactRecording({ consumer: 'msw-shop' });
    await withMsw(pact, () =>
      suite(
        SHOP,
        async (state, params) => pact.given(state, params),
        async () => pact.clear(),
      ),
    );
    expect(pact.report().interactions).toEqual({ 'product-reviews': 2, wishlist: 1 });
    expect(pact.report().leftOut.map((l) => [l.reason, l.count, l.first])).toEqual([
      [expect.stringContaining("under the state 'wishlist has items', which does not fix what /store/products/reviews answers"), 1, 'GET /store/products/reviews'],
      [LEFT_OUT.noState, 1, 'GET /store/wishlists'],
    ]);
    const fromMsw = tempDir();
    expect(writePactFiles(pact, fromMsw)).toEqual([join(fromMsw, 'msw-shop-product-reviews.json'), join(fromMsw, 'msw-shop-wishlist.json')]);

    const fromMock = tempDir();
    const mock = await startMockServer({ seed: 5, dialect: 'alphabite', pactConsumer: 'msw-shop', pactDir: fromMock });
    const door = async (body: object) => {
      const response = await fetch(`${mock.url}${PROVIDER_STATES_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect(response.status).toBe(200);
      await response.text();
    };
    await suite(
      mock.url,
      (state, params) => door({ state, params }),
      () => door({ state: 'reviews exist', action: 'teardown' }),
    );
    await mock.close();
    for (const name of ['msw-shop-product-reviews.json', 'msw-shop-wishlist.json']) expect(readFileSync(join(fromMsw, name), 'utf8')).toBe(readFileSync(join(fromMock, name), 'utf8'));
  });

  it('a write under the state leaves the listings after it out; a state no provider can set up is refused by name', async () => {
    const pact = createPactRecording({ consumer: 'msw-shop' });
    expect(() => pact.given('reviews galore', {})).toThrow(/unknown provider state 'reviews galore'; known states: 'reviews exist'/);
    expect(() => pact.given('reviews exist', { count: -1 })).toThrow(/provider state 'reviews exist': /);
    expect(() => createPactRecording({ consumer: 'a/b' })).toThrow(TypeError);
    const jwt = ['{"alg":"none"}', '{"actor_id":"cus_01MSW"}'].map((part) => Buffer.from(part).toString('base64url')).join('.') + '.sig';
    const headers = { ...SDK, authorization: `Bearer ${jwt}` };
    await withMsw(pact, async () => {
      pact.given('wishlists exist', { count: 3 });
      expect((await fetch(`${SHOP}/store/wishlists?limit=2`, { headers })).status).toBe(200);
      const created = await fetch(`${SHOP}/store/wishlists`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ sales_channel_id: 'sc_01MSW' }) });
      expect(created.status).toBeLessThan(300);
      expect((await fetch(`${SHOP}/store/wishlists?limit=2`, { headers })).status).toBe(200);
    });
    expect(pact.report().interactions).toEqual({ 'product-reviews': 0, wishlist: 1 });
    expect(pact.leftOutLines()).toEqual([`1 request left out: ${LEFT_OUT.write} (first: POST /store/wishlists)`, `1 request left out: ${LEFT_OUT.changed} (first: GET /store/wishlists)`]);
    const [file] = pact.files();
    expect(file!.name).toBe('msw-shop-wishlist.json');
    expect(JSON.parse(file!.text).interactions[0].response.body.content).toMatchObject({ count: 3, currentPage: 1, totalPages: 2 });
  });
});
