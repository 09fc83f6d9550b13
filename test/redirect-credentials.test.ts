/**
 * Credentials stay on their origin (issue 35 item 6): every client of the kit that follows a
 * redirect (client/http.ts: `check`, `verify`'s own calls, `fixtures --from`, a backend's catalogue
 * read) sends the `--header` authorization, cookie and proxy-authorization, and the publishable
 * key, only to the origin they were given for, as fetch does; a redirect within that origin keeps
 * them. A front server redirects `/away/...` to a second server on another port and `/same/...` to
 * itself; both pass what they get on to the server under test and keep each request's headers.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../client/http.ts';
import { startMockServer, type MockServer } from '../mock-server/server.ts';
import { fakeProducts, startFakeCatalogueBackend, type FakeCatalogueBackend } from './support/fake-medusa-catalogue.ts';
import { runCli } from './support/cli-process.ts';

const SECRET_HEADERS = ['authorization', 'cookie', 'proxy-authorization', 'x-publishable-api-key'] as const;
const KEY = 'pk_shop';

interface Hop {
  url: string;
  /** The headers of every request it got, with its target. */
  seen: Array<{ target: string; headers: IncomingHttpHeaders }>;
  close(): Promise<void>;
}

/**
 * A server that keeps each request's headers, redirects `/away/<rest>` to `<away>/<rest>` and
 * `/same/<rest>` to `/<rest>` on itself (status `redirect`), and passes any other request on to `target`.
 */
async function startHop(target: string, away?: string, redirect = 307): Promise<Hop> {
  const seen: Hop['seen'] = [];
  const to = new URL(target);
  const server: Server = createServer((req, res) => {
    const url = req.url ?? '/';
    seen.push({ target: url, headers: req.headers });
    const location = away !== undefined && url.startsWith('/away/') ? `${away}${url.slice('/away'.length)}` : url.startsWith('/same/') ? `http://${req.headers.host}${url.slice('/same'.length)}` : undefined;
    if (location !== undefined) {
      res.writeHead(redirect, { location, 'content-length': '0' });
      return res.end();
    }
    const upstream = httpRequest({ host: to.hostname, port: to.port, method: req.method, path: url, headers: { ...req.headers, host: to.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The credential headers among those a hop saw, by name. */
const credentialsSeen = (hop: Hop) => [...new Set(hop.seen.flatMap((r) => SECRET_HEADERS.filter((name) => r.headers[name] !== undefined)))].sort();

const headerFlags = ['--header', 'authorization: Bearer s3cret', '--header', 'cookie: session=abc', '--header', 'proxy-authorization: Basic cHJveHk=', '--header', `x-publishable-api-key: ${KEY}`];

let mock: MockServer;
let second: Hop;
let first: Hop;
beforeAll(async () => {
  mock = await startMockServer({ seed: 1 });
  second = await startHop(mock.url);
  first = await startHop(mock.url, second.url);
});
afterAll(async () => {
  await Promise.all([first.close(), second.close()]);
  await mock.close();
});
const reset = () => {
  first.seen.length = 0;
  second.seen.length = 0;
};

describe('the kit\'s HTTP client on a redirect', () => {
  it.each([301, 302, 303, 307, 308])('%i to another origin: none of the credentials go there; within the origin they all do', async (status) => {
    const front = await startHop(mock.url, second.url, status);
    try {
      reset();
      const headers = { authorization: 'Bearer s3cret', Cookie: 'session=abc', 'Proxy-Authorization': 'Basic cHJveHk=', 'X-Publishable-Api-Key': KEY, 'x-other': 'kept' };
      const away = await request(`${front.url}/away/store/products/reviews?limit=1`, { timeoutMs: 10_000 }, { headers });
      expect(away.status).toBe(200);
      expect(second.seen).toHaveLength(1);
      expect(credentialsSeen(second)).toEqual([]);
      expect(second.seen[0]!.headers['x-other']).toBe('kept');
      const same = await request(`${front.url}/same/store/products/reviews?limit=1`, { timeoutMs: 10_000 }, { headers });
      expect(same.status).toBe(200);
      expect(front.seen.map((r) => r.target)).toEqual(['/away/store/products/reviews?limit=1', '/same/store/products/reviews?limit=1', '/store/products/reviews?limit=1']);
      expect(SECRET_HEADERS.map((name) => front.seen[2]!.headers[name] !== undefined)).toEqual([true, true, true, true]);
    } finally {
      await front.close();
    }
  });

  it('a POST redirected by a 303 becomes a GET without the body and its content-type; by a 307 it stays a POST with both', async () => {
    const bodies: Array<{ method: string; type: string | undefined; length: string | undefined }> = [];
    const target = createServer((req, res) => {
      bodies.push({ method: req.method ?? '', type: req.headers['content-type'], length: req.headers['content-length'] });
      req.resume();
      req.on('end', () => res.end('{}'));
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
    const hops = [await startHop(targetUrl, targetUrl, 303), await startHop(targetUrl, targetUrl, 307)];
    try {
      for (const hop of hops) await request(`${hop.url}/away/x`, { timeoutMs: 10_000 }, { method: 'POST', body: '{"a":1}', headers: { 'Content-Type': 'application/json' } });
      expect(bodies).toEqual([
        { method: 'GET', type: undefined, length: undefined },
        { method: 'POST', type: 'application/json', length: '7' },
      ]);
    } finally {
      await Promise.all(hops.map((hop) => hop.close()));
      await new Promise<void>((resolve) => target.close(() => resolve()));
    }
  });
});

describe('the commands on a redirect to another origin', () => {
  it('check: the second server gets no credentials; through a redirect within the origin they arrive', async () => {
    reset();
    const args = ['--seed', '1', '--runs', '2', '--endpoints', 'reviews', '--properties', 'page-length'];
    const away = await runCli(['check', '--base-url', `${first.url}/away`, ...args, ...headerFlags]);
    expect(away.code, away.stderr).toBe(0);
    expect(second.seen.length).toBeGreaterThan(0);
    expect(credentialsSeen(second)).toEqual([]);
    reset();
    const same = await runCli(['check', '--base-url', `${first.url}/same`, ...args, ...headerFlags]);
    expect(same.code, same.stderr).toBe(0);
    const passed = first.seen.filter((r) => !r.target.startsWith('/same/'));
    expect(passed.length).toBeGreaterThan(0);
    for (const { headers } of passed) expect(headers.authorization).toBe('Bearer s3cret');
  }, 120_000);

  it('fixtures --from: the second server gets no credentials', async () => {
    reset();
    const away = await runCli(['fixtures', '--from', `${first.url}/away`, '--max-records', '20', ...headerFlags]);
    expect(away.code, away.stderr).toBe(0);
    expect(second.seen.length).toBeGreaterThan(0);
    expect(credentialsSeen(second)).toEqual([]);
    reset();
    const same = await runCli(['fixtures', '--from', `${first.url}/same`, '--max-records', '20', ...headerFlags]);
    expect(same.code, same.stderr).toBe(0);
    for (const { headers } of first.seen.filter((r) => !r.target.startsWith('/same/'))) expect(headers.cookie).toBe('session=abc');
  }, 120_000);

  it('verify: a provider base URL that redirects to another origin is exit 2 before Pact replays (Pact would carry the key there); within the origin the preflight carries them', async () => {
    reset();
    const away = await runCli(['verify', '--provider-base-url', `${first.url}/away`, '--provider', 'product-reviews', ...headerFlags]);
    expect(away.code).toBe(2);
    expect(away.stderr.trim().split('\n')).toHaveLength(1);
    expect(away.stderr).toContain(`redirects to another origin (${second.url}/store/products/reviews?limit=1), and Pact's replay would send the --header authorization, cookie, proxy-authorization, x-publishable-api-key there`);
    expect(credentialsSeen(second)).toEqual([]);
    reset();
    const same = await runCli(['verify', '--provider-base-url', `${first.url}/same`, '--provider', 'product-reviews', ...headerFlags]);
    // Past the preflight (Pact's own replay then fails to follow the redirect: Pact's matter, not the kit's).
    expect(same.stderr).not.toContain('redirects to another origin');
    const preflight = first.seen.find((r) => r.target === '/store/products/reviews?limit=1');
    expect(preflight?.headers['x-publishable-api-key']).toBe(KEY);
    expect(credentialsSeen(second)).toEqual([]);
  }, 180_000);
});

describe('a backend\'s catalogue read on a redirect', () => {
  let shop: FakeCatalogueBackend;
  let elsewhere: FakeCatalogueBackend;
  let front: Hop;
  beforeAll(async () => {
    shop = await startFakeCatalogueBackend(fakeProducts(3), KEY);
    elsewhere = await startFakeCatalogueBackend(fakeProducts(3, 2, 'ELSE'), KEY);
    front = await startHop(shop.url, elsewhere.url);
  });
  afterAll(async () => {
    await front.close();
    await Promise.all([shop.close(), elsewhere.close()]);
  });

  it('the publishable key does not go to another origin (the read is refused there); within the origin it does', async () => {
    await expect(startMockServer({ dialect: 'alphabite', backend: `${front.url}/away`, publishableKeys: [KEY] })).rejects.toThrow(/status 400/);
    expect(elsewhere.requests.map((r) => r.key)).toEqual([undefined]);
    const same = await startMockServer({ dialect: 'alphabite', backend: `${front.url}/same`, publishableKeys: [KEY] });
    try {
      expect(same.dataset.current.summary.catalogue).toMatchObject({ products: 3 });
      expect(shop.requests.map((r) => r.key)).toEqual([KEY]);
    } finally {
      await same.close();
    }
  });
});
