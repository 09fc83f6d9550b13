import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateDataset } from '../fixtures/index.ts';
import { adminAccessMode, adminGuard, isLoopbackHost } from '../mock-server/admin/access.ts';
import { isAdminPath } from '../lib/admin-paths.ts';
import { createOps } from '../mock-server/state/ops.ts';
import { createApp } from '../mock-server/front/app.ts';
import { DatasetHolder } from '../mock-server/dataset/holder.ts';
import { Journal } from '../mock-server/journal/journal.ts';
import { startMockServer, type MockServer } from '../mock-server/server.ts';
import { get } from './support/http.ts';

/** An admin call as a script makes it: a JSON body, or (without one) the X-Requested-By header the admin API asks of a change. */
const send = (base: string, path: string, method: string, body?: unknown, headers: Record<string, string> = {}) =>
  get(base, path, {
    method,
    headers: { ...(body === undefined ? { 'x-requested-by': 'admin.test' } : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });

function expectError(res: Awaited<ReturnType<typeof get>>, status: number, type: string, mentions?: RegExp): void {
  expect(res.status, res.text).toBe(status);
  expect(res.contentType).toMatch(/^application\/json/);
  expect(res.json).toEqual({ type, message: expect.any(String) });
  if (mentions) expect(res.json.message).toMatch(mentions);
}

describe('admin API on loopback (the default)', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ seed: 3, reviews: 50, products: 4, wishlists: 6, maxItems: 5, journalSize: 5 });
  });
  afterAll(() => mock.close());
  afterEach(async () => {
    await send(mock.url, '/__admin/reset', 'POST');
    await send(mock.url, '/__admin/journal', 'DELETE');
  });

  it('reports health: status, uptime, memory and the dataset version', async () => {
    const res = await get(mock.url, '/__admin/health');
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: 'ok', pid: process.pid, datasetVersion: mock.dataset.version });
    expect(res.json.workerPids).toBeUndefined();
    expect(res.json.memory.rss).toBeGreaterThan(0);
  });

  it('reports the configuration: server, dataset and how it was generated, faults, access mode', async () => {
    const res = await get(mock.url, '/__admin/config');
    expect(res.status).toBe(200);
    expect(res.json.server).toMatchObject({ url: mock.url, port: mock.port, host: '127.0.0.1', maxPageSize: 1000, pid: process.pid, workers: 1 });
    expect(res.json.admin).toEqual({ access: 'loopback' });
    expect(res.json.journalSize).toBe(5);
    expect(res.json.dataset.current).toEqual(mock.dataset.current.summary);
    expect(res.json.dataset.generation).toEqual({ seed: 3, reviews: 50, products: 4, wishlists: 6, maxItems: 5 });
    expect(res.json.faults).toMatchObject({ active: false, latency: null, errorRate: 0, headers: false });
  });

  it('reseeds and resizes, and resets to the dataset the server started with, byte for byte', async () => {
    const original = (await get(mock.url, '/store/products/reviews?limit=5')).text;
    const reseeded = await send(mock.url, '/__admin/dataset', 'POST', { seed: 77, reviews: 12 });
    expect(reseeded.status).toBe(200);
    expect(reseeded.json.generation).toEqual({ seed: 77, reviews: 12, products: 4, wishlists: 6, maxItems: 5 });
    const page = (await get(mock.url, '/store/products/reviews?limit=5')).json;
    expect(page.count).toBe(12);
    expect(JSON.stringify(page)).not.toBe(original);
    expect(page).toEqual(JSON.parse(JSON.stringify((await import('../lib/paging.ts')).reviewsEnvelope(generateDataset({ seed: 77, reviews: 12, products: 4, wishlists: 6, maxItems: 5 }).reviews.page({ field: 'created_at', descending: false }, 0, 5).records, 12, 0, 5))));

    const reset = await send(mock.url, '/__admin/reset', 'POST');
    expect(reset.status).toBe(200);
    expect(reset.json.current).toEqual(reset.json.initial);
    expect((await get(mock.url, '/store/products/reviews?limit=5')).text).toBe(original);
    expect((await get(mock.url, '/__admin/config')).json.dataset.generation.seed).toBe(3);
  });

  it('refuses bad dataset changes with a 400 naming the field', async () => {
    expectError(await send(mock.url, '/__admin/dataset', 'POST', { seed: -1 }), 400, 'invalid_data', /'seed'/);
    expectError(await send(mock.url, '/__admin/dataset', 'POST', { reviews: '10' }), 400, 'invalid_data', /'reviews'/);
    expectError(await send(mock.url, '/__admin/dataset', 'POST', { seeds: 5 }), 400, 'invalid_data', /unknown field\(s\) 'seeds'/);
    expectError(await send(mock.url, '/__admin/dataset', 'POST', { products: 0 }), 400, 'invalid_data', /'products'/);
    expectError(await send(mock.url, '/__admin/dataset', 'POST', '{"seed":'), 400, 'invalid_data');
    expectError(await send(mock.url, '/__admin/dataset', 'POST', [1, 2]), 400, 'invalid_data');
    // Valid JSON that is not an object is named as what it is, not as a syntax error.
    for (const [path, method] of [['/__admin/dataset', 'POST'], ['/__admin/faults', 'PUT'], ['/__admin/provider-states', 'POST']] as const) {
      expectError(await send(mock.url, path, method, 'null'), 400, 'invalid_data', /^Invalid request: the body must be a JSON object, got null$/);
      expectError(await send(mock.url, path, method, '42'), 400, 'invalid_data', /^Invalid request: the body must be a JSON object, got number$/);
      expectError(await send(mock.url, path, method, '"x"'), 400, 'invalid_data', /^Invalid request: the body must be a JSON object, got string$/);
    }
    expect(mock.dataset.version).toBe((await get(mock.url, '/__admin/health')).json.datasetVersion);
    expect((await get(mock.url, '/__admin/config')).json.dataset.current.seed).toBe(3);
  });

  it('refuses a body that is not declared JSON with a 415, and changes nothing', async () => {
    const version = mock.dataset.version;
    for (const [path, method] of [['/__admin/dataset', 'POST'], ['/__admin/faults', 'PUT'], ['/__admin/provider-states', 'POST']] as const) {
      expectError(await send(mock.url, path, method, '{"seed":42}', { 'content-type': 'text/plain' }), 415, 'invalid_data', /Content-Type: application\/json.*got 'text\/plain'/);
      // Also when the change says it comes from a script: the body still has to be JSON.
      expectError(await send(mock.url, path, method, '{"seed":42}', { 'content-type': 'text/plain', 'x-requested-by': 'admin.test' }), 415, 'invalid_data', /Content-Type: application\/json, got 'text\/plain'/);
      expectError(await send(mock.url, path, method, '{"seed":42}', { 'content-type': '' }), 415, 'invalid_data', /no Content-Type/);
    }
    expect(mock.dataset.version).toBe(version);
    expect((await get(mock.url, '/__admin/config')).json.dataset.current.seed).toBe(3);
    // No body at all is still a plain request: reseed with what the server has.
    expect((await send(mock.url, '/__admin/reset', 'POST')).status).toBe(200);
  });

  it('journals recent listing requests (method, URL, status, duration), bounded, oldest first, without its own', async () => {
    const paths = ['/store/wishlists?take=1', '/store/wishlists?take=2', '/store/nope', '/store/products/reviews?limit=x', '/store/wishlists?take=3', '/store/wishlists?take=4', '/store/wishlists?take=5'];
    for (const path of paths) await get(mock.url, path);
    await get(mock.url, '/__admin/health');
    const journal = (await get(mock.url, '/__admin/journal')).json;
    expect(journal.capacity).toBe(5);
    expect(journal.recorded).toBe(paths.length);
    expect(journal.entries.map((e: { url: string }) => e.url)).toEqual(paths.slice(-5));
    expect(journal.entries.map((e: { status: number }) => e.status)).toEqual([404, 400, 200, 200, 200]);
    for (const entry of journal.entries) {
      expect(entry.method).toBe('GET');
      expect(entry.durationMs).toBeGreaterThanOrEqual(0);
      expect(Number.isNaN(Date.parse(entry.time))).toBe(false);
    }
    expect((await get(mock.url, '/__admin/journal?limit=2')).json.entries.map((e: { url: string }) => e.url)).toEqual(paths.slice(-2));
    expectError(await get(mock.url, '/__admin/journal?limit=0'), 400, 'invalid_data', /'limit'/);
    expectError(await get(mock.url, '/__admin/journal?since=1'), 400, 'invalid_data', /'since'/);
    expect((await send(mock.url, '/__admin/journal', 'DELETE')).json).toEqual({ cleared: 5 });
    expect((await get(mock.url, '/__admin/journal')).json).toMatchObject({ recorded: 0, entries: [] });
  });

  it('gets, replaces and turns off the fault settings, refusing bad ones', async () => {
    const put = await send(mock.url, '/__admin/faults', 'PUT', { latency: '5-10', errorRate: 0.25, errorStatus: 503, headers: true, seed: 4 });
    expect(put.status).toBe(200);
    expect(put.json).toMatchObject({ latency: { min: 5, max: 10 }, errorRate: 0.25, errorStatus: 503, headers: true, seed: 4, active: true });
    expect((await get(mock.url, '/__admin/faults')).json).toEqual(put.json);
    expect((await get(mock.url, '/__admin/config')).json.faults).toEqual(put.json);
    expectError(await send(mock.url, '/__admin/faults', 'PUT', { errorRate: 2 }), 400, 'invalid_data', /'errorRate'/);
    expectError(await send(mock.url, '/__admin/faults', 'PUT', { errorStatus: 200 }), 400, 'invalid_data', /'errorStatus'/);
    expectError(await send(mock.url, '/__admin/faults', 'PUT', { latency: '400-100' }), 400, 'invalid_data', /'latency'/);
    expectError(await send(mock.url, '/__admin/faults', 'PUT', { latency: { min: 1, max: 999_999 } }), 400, 'invalid_data', /'latency/);
    expectError(await send(mock.url, '/__admin/faults', 'PUT', '{"__proto__":{"errorRate":1},"constructor":1}'), 400, 'invalid_data', /constructor/);
    expectError(await send(mock.url, '/__admin/faults', 'PUT', 'errorRate=1', { 'content-type': 'text/plain' }), 415, 'invalid_data', /application\/json/);
    expectError(await send(mock.url, '/__admin/faults', 'PUT'), 400, 'invalid_data', /JSON object/);
    // Refusals leave the settings as they were.
    expect((await get(mock.url, '/__admin/faults')).json).toEqual(put.json);
    const off = await send(mock.url, '/__admin/faults', 'DELETE');
    expect(off.json).toMatchObject({ active: false, latency: null, errorRate: 0, headers: false });
  });

  it('answers unknown admin routes, methods and query parameters with documented JSON', async () => {
    expectError(await get(mock.url, '/__admin/nope'), 404, 'not_found');
    expectError(await send(mock.url, '/__admin/health', 'DELETE'), 404, 'not_found');
    expectError(await get(mock.url, '/__admin/health?verbose=1'), 400, 'invalid_data', /no query parameters/);
    expectError(await send(mock.url, '/__admin/dataset', 'POST', JSON.stringify({ seed: 1, pad: 'x'.repeat(20_000) })), 413, 'invalid_data');
  });
});

describe('admin access', () => {
  const servers: Server[] = [];
  afterAll(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))));

  /** The app as a server on `host` would build it, listening on loopback only (the tests never bind elsewhere). */
  async function appFor(access: { host: string; token?: string }): Promise<string> {
    const holder = new DatasetHolder(generateDataset({ seed: 2, reviews: 5, wishlists: 2 }));
    const server = createServer(createApp(holder, { ops: createOps({ access }) }));
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it('is off on a non-loopback host without a token, for every admin route including provider states', async () => {
    const base = await appFor({ host: '0.0.0.0' });
    expectError(await get(base, '/__admin/health'), 404, 'not_found', /--admin-token/);
    expectError(await send(base, '/__admin/reset', 'POST'), 404, 'not_found', /--admin-token/);
    expectError(await send(base, '/__admin/provider-states', 'POST', { state: 'no reviews exist' }), 404, 'not_found', /--admin-token/);
    expectError(await send(base, '/__ADMIN/faults', 'PUT', { errorRate: 1 }), 404, 'not_found', /--admin-token/);
    // The listings are unaffected.
    expect((await get(base, '/store/products/reviews?limit=1')).status).toBe(200);
  });

  it('requires the bearer token when one is set, wherever the server listens', async () => {
    for (const host of ['0.0.0.0', '127.0.0.1']) {
      const base = await appFor({ host, token: 's3cret-token' });
      const missing = await get(base, '/__admin/health');
      expectError(missing, 401, 'unauthorized', /Bearer/);
      expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expectError(await get(base, '/__admin/health', { headers: { authorization: 'Bearer wrong-token' } }), 401, 'unauthorized');
      expectError(await get(base, '/__admin/health', { headers: { authorization: 's3cret-token' } }), 401, 'unauthorized');
      expectError(await send(base, '/__admin/provider-states', 'POST', { state: 'no reviews exist' }), 401, 'unauthorized');
      expect((await get(base, '/__admin/health', { headers: { authorization: 'Bearer s3cret-token' } })).status).toBe(200);
      expect((await get(base, '/__admin/config', { headers: { authorization: 'bearer s3cret-token' } })).json.admin).toEqual({ access: 'token' });
    }
  });

  it('on loopback without a token, answers only clients on this machine', () => {
    const guard = adminGuard({ host: '127.0.0.1' });
    const outcome = (remoteAddress: string) => {
      let status = 0;
      let passed = false;
      const res = { status: (s: number) => ((status = s), res), type: () => res, send: () => res, setHeader: () => res };
      guard({ method: 'GET', headers: { host: '127.0.0.1:9000' }, socket: { remoteAddress } } as never, res as never, () => (passed = true));
      return passed ? 'next' : status;
    };
    expect(outcome('127.0.0.1')).toBe('next');
    expect(outcome('::1')).toBe('next');
    expect(outcome('::ffff:127.0.0.1')).toBe('next');
    expect(outcome('10.1.2.3')).toBe(404);
    expect(outcome('::ffff:192.168.1.9')).toBe(404);
  });

  it('knows loopback hosts and the admin prefix as Express matches it', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1']) expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['0.0.0.0', '::', '192.168.0.2', '10.0.0.1', 'example.com', '128.0.0.1', '127.0.0.1.nip.io']) expect(isLoopbackHost(host), host).toBe(false);
    expect(adminAccessMode({ host: '0.0.0.0' })).toBe('off');
    expect(adminAccessMode({ host: '0.0.0.0', token: 'x' })).toBe('token');
    expect(adminAccessMode({})).toBe('loopback');
    for (const path of ['/__admin', '/__admin/', '/__admin/health', '/__ADMIN/x', '/__admin?x=1']) expect(isAdminPath(path), path).toBe(true);
    for (const path of ['/__adminx', '/store/__admin', '/_admin', '/%5F%5Fadmin']) expect(isAdminPath(path), path).toBe(false);
  });
});

describe('journal', () => {
  it('keeps the last `capacity` entries, oldest first, and nothing at capacity 0', () => {
    const journal = new Journal({ capacity: 3 });
    for (let i = 0; i < 7; i++) journal.record({ arrivedMs: i, method: 'GET', url: `/${i}`, status: 200, durationMs: i });
    expect(journal.entries().map((e) => e.url)).toEqual(['/4', '/5', '/6']);
    expect(journal.entries(1).map((e) => e.url)).toEqual(['/6']);
    expect(journal.recorded).toBe(7);
    const none = new Journal({ capacity: 0 });
    none.record({ arrivedMs: 0, method: 'GET', url: '/', status: 200, durationMs: 0 });
    expect(none.entries()).toEqual([]);
    expect(() => new Journal({ capacity: -1 })).toThrow(RangeError);
  });
});

describe('request logs', () => {
  it('are silent by default and one JSON line per request at info', async () => {
    const quiet = await startMockServer({ seed: 1, reviews: 3, wishlists: 1 });
    expect(quiet.ops.logger.level).toBe('silent');
    await quiet.close();

    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    const mock = await startMockServer({ seed: 1, reviews: 3, wishlists: 1, logger: pino({ level: 'info' }, sink) });
    await get(mock.url, '/store/wishlists?take=2');
    await get(mock.url, '/store/wishlists?take=-1');
    await mock.close();
    const requests = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request');
    expect(requests).toEqual([
      expect.objectContaining({ level: 30, method: 'GET', url: '/store/wishlists?take=2', status: 200, durationMs: expect.any(Number) }),
      expect.objectContaining({ level: 30, method: 'GET', url: '/store/wishlists?take=-1', status: 400 }),
    ]);
  });
});
