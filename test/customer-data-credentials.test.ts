/**
 * `serve --backend` in front of a backend with the plugins (issue 36): what the mock sends on a
 * customer's behalf names the customer the mock judged the request to be. The mock names a customer
 * by their bearer token first, then their session (lib/customers.ts); Medusa reads a session first
 * (its `authenticate` middleware), but on 4.3, which takes a bearer token only. A request carrying
 * both, sent on as it came, was read as one customer on some routes and as the other on the rest.
 *
 * The backend here is the kit's own mock (alphabite dialect, which answers as the plugins do) behind
 * a front that reads credentials as Medusa does and keeps what each request carried.
 */
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerOf } from '../lib/customers.ts';
import { startMockServer, type MockServer } from '../mock-server/server.ts';
import { customerToken } from './support/customer-token.ts';
import { fakeProducts } from './support/fake-medusa-catalogue.ts';
import { get } from './support/http.ts';

const KEY = 'pk_credentials';
const BOB = `Bearer ${customerToken('cus_bob')}`;
const ALICE_SESSION = 'connect.sid=s%3Aalice-session';
const key = { 'x-publishable-api-key': KEY };

interface Seen {
  path: string;
  authorization: string | undefined;
  cookie: string | undefined;
}

/** Medusa's reading of credentials: a session first, but on 4.3 (`GET /store/wishlists`), which takes a bearer token only. */
function asMedusaReads(path: string, headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const { authorization, cookie, ...rest } = headers;
  if (/^\/store\/wishlists\/?$/.test(path)) return authorization === undefined ? rest : { ...rest, authorization };
  if (customerOf({ cookie })?.via === 'session') return { ...rest, cookie };
  return authorization === undefined ? rest : { ...rest, authorization };
}

let plugins: MockServer;
let front: Server;
let frontUrl: string;
const seen: Seen[] = [];

beforeAll(async () => {
  plugins = await startMockServer({ seed: 36, dialect: 'alphabite', reviews: 40, wishlists: 12 });
  const inner = new URL(plugins.url);
  const catalogue = fakeProducts(3);
  front = createServer((req, res) => {
    const url = req.url ?? '/';
    const path = url.split('?')[0]!;
    if (path === '/store/products') {
      const body = JSON.stringify({ products: catalogue, count: catalogue.length, offset: 0, limit: 200 });
      return res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) }).end(body);
    }
    seen.push({ path, authorization: req.headers.authorization, cookie: req.headers.cookie });
    const { host: _host, ...headers } = req.headers;
    const upstream = request({ host: inner.hostname, port: inner.port, method: req.method, path: url, headers: asMedusaReads(path, headers) }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  frontUrl = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
});

afterAll(async () => {
  front.closeAllConnections();
  await new Promise<void>((resolve) => front.close(() => resolve()));
  await plugins.close();
});

describe("serve --backend with the plugins: a customer's data is read as the customer the mock judged", () => {
  it('a request with a bearer token and a session: read with the token alone, so its wishlists and their items are the token customer\'s, byte for byte', async () => {
    const mock = await startMockServer({ dialect: 'alphabite', backend: frontUrl });
    try {
      seen.length = 0;
      const both = { ...key, authorization: BOB, cookie: ALICE_SESSION };
      const listed = await get(mock.url, '/store/wishlists?limit=50', { headers: both });
      expect(listed.status).toBe(200);
      // The plugin's settings are no customer's: read with the key alone.
      expect(seen.filter((s) => s.path === '/store/wishlists/settings')).toEqual([{ path: '/store/wishlists/settings', authorization: undefined, cookie: undefined }]);
      const reads = seen.filter((s) => s.path !== '/store/wishlists/settings');
      expect(reads.length).toBeGreaterThan(2);
      for (const read of reads) expect(read, read.path).toMatchObject({ authorization: BOB, cookie: undefined });
      // As the plugins answer bob himself.
      const bobs = await get(plugins.url, '/store/wishlists?limit=50', { headers: { ...key, authorization: BOB } });
      expect(listed.text).toBe(bobs.text);
      const { data } = JSON.parse(bobs.text) as { data: Array<{ id: string }> };
      expect(data.length).toBeGreaterThan(0);
      for (const { id } of data) {
        const items = await get(mock.url, `/store/wishlists/${id}/items?limit=100`, { headers: both });
        expect(items.status, id).toBe(200);
        expect(items.text).toBe((await get(plugins.url, `/store/wishlists/${id}/items?limit=100`, { headers: { ...key, authorization: BOB } })).text);
      }
    } finally {
      await mock.close();
    }
  });

  it("4.4 of a wishlist the mock does not know for the token's customer is the backend's answer to that customer, the session left out", async () => {
    const mock = await startMockServer({ dialect: 'alphabite', backend: frontUrl });
    try {
      const alice = { ...key, cookie: ALICE_SESSION };
      const { data } = JSON.parse((await get(plugins.url, '/store/wishlists?limit=50', { headers: { ...key, authorization: `Bearer ${customerToken('cus_alice')}` } })).text) as { data: Array<{ id: string; items_count?: number }> };
      const theirs = data[0]!.id;
      await get(mock.url, '/store/wishlists', { headers: { ...key, authorization: BOB, cookie: ALICE_SESSION } });
      seen.length = 0;
      const asked = await get(mock.url, `/store/wishlists/${theirs}/items`, { headers: { ...key, authorization: BOB, cookie: ALICE_SESSION } });
      expect(seen.map((s) => [s.path, s.authorization, s.cookie])).toEqual([[`/store/wishlists/${theirs}/items`, BOB, undefined]]);
      const bobAsks = await get(plugins.url, `/store/wishlists/${theirs}/items`, { headers: { ...key, authorization: BOB } });
      expect([asked.status, asked.text]).toEqual([bobAsks.status, bobAsks.text]);
      // The session alone is another customer, read with the session (4.3 refuses it, as Medusa's does: then
      // their reviews are read as a guest's, with the key alone), never with bob's token.
      seen.length = 0;
      expect((await get(mock.url, '/store/products/reviews?limit=5', { headers: alice })).status).toBe(200);
      expect(seen.filter((s) => s.cookie === ALICE_SESSION).length).toBeGreaterThan(0);
      for (const read of seen) expect(read, read.path).toMatchObject({ authorization: undefined });
    } finally {
      await mock.close();
    }
  });

  it('a guest (an Authorization that is no bearer token, no session) is read with the publishable key alone', async () => {
    const mock = await startMockServer({ dialect: 'alphabite', backend: frontUrl });
    try {
      seen.length = 0;
      const guest = await get(mock.url, '/store/products/reviews?limit=5', { headers: { ...key, authorization: 'Basic c2tfdGVzdDo=', cookie: 'theme=dark' } });
      expect(guest.status).toBe(200);
      expect(seen.length).toBeGreaterThan(0);
      for (const read of seen) expect(read, read.path).toMatchObject({ authorization: undefined, cookie: undefined });
    } finally {
      await mock.close();
    }
  });
});
