/**
 * Issue 35 item 8: in `proxy`, and for the requests `serve --backend` passes through, faults and
 * latency act on what passes through (mock-server/backend/pass-faults.ts): an injected error is
 * answered instead of forwarding (a write the fault refuses never reaches the backend), latency holds
 * the request before it is forwarded, the per-request headers are honoured, CORS preflights pass
 * unfaulted, and the draws are the mock's own sequence. The validating proxy's dataset doors (reset,
 * dataset, provider states) are refused with a 404 naming why instead of answering a change that
 * changes nothing. (Before: `PUT /__admin/faults {"errorRate":1}` answered `active: true` and every
 * request still passed; a reseed of the proxy answered 200.)
 */
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../mock-server/server.ts';
import { generateDataset } from '../fixtures/dataset.ts';
import { FaultInjector, faultSettings } from '../mock-server/state/faults.ts';
import type { RecordedRequest } from '../mock-server/journal/journal-entry.ts';
import { startFakeBackend, type FakeBackend } from './support/fake-backend.ts';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/** One request on a connection of its own, with exactly this path and these headers. */
function send(base: string, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, method, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const JSON_HEADERS = { 'Content-Type': 'application/json' };
const admin = (mock: MockServer, method: string, path: string, body?: unknown) => send(mock.url, method, `/__admin${path}`, JSON_HEADERS, body === undefined ? undefined : JSON.stringify(body));
const setFaults = async (mock: MockServer, settings: Record<string, unknown>) => {
  const answer = await admin(mock, 'PUT', '/faults', settings);
  expect(answer.status).toBe(200);
  return JSON.parse(answer.text) as { active: boolean; requestsSeen: number };
};

/** Records what the server's journal is given, as well as keeping it. */
function spyOnJournal(mock: MockServer): RecordedRequest[] {
  const recorded: RecordedRequest[] = [];
  const journal = mock.ops.journal;
  const record = journal.record.bind(journal);
  journal.record = (entry, at) => {
    recorded.push(entry);
    record(entry, at);
  };
  return recorded;
}

/** Waits until `ready()` holds, checking every few ms (no fixed sleep). */
async function until(ready: () => boolean | Promise<boolean>, what: string, limitMs = 10_000): Promise<void> {
  const end = Date.now() + limitMs;
  while (!(await ready())) {
    if (Date.now() > end) throw new Error(`${what}: not within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe.each([
  ['proxy', { mode: 'proxy' as const }],
  ['serve --backend', { dialect: 'alphabite' as const, dataset: generateDataset({ seed: 5, reviews: 20, products: 3, wishlists: 4, maxItems: 3 }) }],
])('faults on passed-through requests: %s', (_name, options) => {
  let backend: FakeBackend;
  let mock: MockServer;
  let recorded: RecordedRequest[];

  beforeAll(async () => {
    backend = await startFakeBackend();
    mock = await startMockServer({ ...options, backend: backend.url, journalSize: 100 });
    recorded = spyOnJournal(mock);
  });
  afterAll(async () => {
    await mock?.close();
    await backend?.close();
  });

  it('an error rate of 1 answers the injected error instead of forwarding, reads and writes alike; off again, they pass', async () => {
    expect((await setFaults(mock, { errorRate: 1, errorStatus: 503 })).active).toBe(true);
    const hits = backend.hits.length;
    const from = recorded.length;
    const read = await send(mock.url, 'GET', '/store/carts/cart_1');
    expect(read.status).toBe(503);
    expect(JSON.parse(read.text)).toEqual({ type: 'unknown_error', message: 'An unknown error occurred.' });
    expect(read.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(read.headers['retry-after']).toBe('1');
    const write = await send(mock.url, 'POST', '/store/carts', JSON_HEADERS, '{"region_id":"reg_1"}');
    expect(write.status).toBe(503);
    const head = await send(mock.url, 'HEAD', '/store/regions');
    expect(head).toMatchObject({ status: 503, text: '' });
    // Never forwarded: the backend saw none of them.
    expect(backend.hits.length).toBe(hits);
    // Journaled as the mock's answers (no backend part), with the injected body.
    await until(() => recorded.length >= from + 3, 'three entries');
    for (const entry of recorded.slice(from, from + 3)) {
      expect(entry.status).toBe(503);
      expect(entry.answeredBy).toBeUndefined();
      expect(entry.backend).toBeUndefined();
    }
    expect(Buffer.from(recorded[from]!.responseBody!.bytes).toString('utf8')).toContain('unknown_error');

    expect((await admin(mock, 'DELETE', '/faults')).status).toBe(200);
    const passed = await send(mock.url, 'POST', '/store/carts', JSON_HEADERS, '{"region_id":"reg_1"}');
    expect(passed.status).toBe(200);
    expect(JSON.parse(passed.text)).toMatchObject({ method: 'POST', url: '/store/carts' });
    expect(backend.hits.slice(hits)).toEqual([{ method: 'POST', url: '/store/carts' }]);
  });

  it('4xx statuses answer their documented body; the page that asked may read it (its Origin echoed, with credentials)', async () => {
    await setFaults(mock, { errorRate: 1, errorStatus: 429 });
    const hits = backend.hits.length;
    const answer = await send(mock.url, 'GET', '/store/products?limit=1', { Origin: 'http://localhost:8000' });
    expect(answer.status).toBe(429);
    expect(JSON.parse(answer.text)).toEqual({ type: 'not_allowed', message: 'Too many requests (injected fault).' });
    expect(answer.headers).toMatchObject({ 'access-control-allow-origin': 'http://localhost:8000', 'access-control-allow-credentials': 'true', 'retry-after': '1', vary: 'Origin' });
    expect(answer.headers['access-control-expose-headers']).toContain('Retry-After');
    // A CORS preflight is never faulted: the backend's own policy answers it.
    const preflight = await send(mock.url, 'OPTIONS', '/store/carts', { Origin: 'http://localhost:8000', 'Access-Control-Request-Method': 'POST' });
    expect(preflight.status).toBe(200);
    expect(backend.hits.slice(hits)).toEqual([{ method: 'OPTIONS', url: '/store/carts' }]);
    await admin(mock, 'DELETE', '/faults');
  });

  it('per-request headers: x-mock-status answers that status unforwarded, a bad x-mock-delay is the 400, and without them requests pass', async () => {
    await setFaults(mock, { headers: true });
    const hits = backend.hits.length;
    expect((await send(mock.url, 'DELETE', '/store/customers/me/addresses/addr_1', { 'x-mock-status': '404' })).status).toBe(404);
    const bad = await send(mock.url, 'GET', '/store/regions', { 'x-mock-delay': 'soon' });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.text)).toMatchObject({ type: 'invalid_data' });
    expect(JSON.parse(bad.text).message).toContain("header 'x-mock-delay' must be an integer from 0 to 60000");
    expect(backend.hits.length).toBe(hits);
    // Without the headers, or with a delay of 0, a request goes to the backend (the headers with it).
    expect((await send(mock.url, 'GET', '/store/regions')).status).toBe(200);
    const echoed = JSON.parse((await send(mock.url, 'GET', '/store/regions?again', { 'x-mock-delay': '0' })).text);
    expect(echoed.headers).toContain('x-mock-delay');
    expect(backend.hits.slice(hits).map((hit) => hit.url)).toEqual(['/store/regions', '/store/regions?again']);
    await admin(mock, 'DELETE', '/faults');
  });

  it('the draws are the sequence of the settings: the n-th request gets draw(n), passed through or not', async () => {
    const settings = { errorRate: 0.5, errorStatus: 502, seed: 4242 };
    await setFaults(mock, settings);
    const expected = new FaultInjector(1, faultSettings(settings));
    const statuses: number[] = [];
    // Passed-through requests between listing requests (with serve --backend, the mock's own): one sequence.
    const key = { 'x-publishable-api-key': 'pk_test' };
    for (let n = 0; n < 24; n++) statuses.push((await send(mock.url, 'GET', n % 3 === 2 ? `/store/products/reviews?limit=1&offset=${n}` : `/store/regions?n=${n}`, key)).status);
    expect(statuses).toEqual(Array.from({ length: 24 }, (_, n) => expected.draw(n).status ?? 200));
    expect(new Set(statuses)).toEqual(new Set([200, 502]));
    await admin(mock, 'DELETE', '/faults');
  });

  it('latency holds a request before it is forwarded: a client that goes while it waits never reaches the backend', async () => {
    await setFaults(mock, { latency: '60000' });
    const hits = backend.hits.length;
    const from = recorded.length;
    const { hostname, port } = new URL(mock.url);
    const req = request({ hostname, port, path: '/store/carts', method: 'POST', headers: JSON_HEADERS, agent: false });
    req.on('error', () => {});
    req.end('{}');
    // Drawn for: the request is held.
    await until(async () => (JSON.parse((await admin(mock, 'GET', '/faults')).text) as { requestsSeen: number }).requestsSeen === 1, 'the draw');
    expect(backend.hits.length).toBe(hits);
    req.destroy();
    await until(() => recorded.length > from, 'the entry of the request the client gave up');
    expect(recorded[from]).toMatchObject({ method: 'POST', url: '/store/carts', status: 499 });
    expect(backend.hits.length).toBe(hits);
    await admin(mock, 'DELETE', '/faults');
  });
});

describe('latency on a passed-through request', () => {
  let backend: Server;
  let arrivals: number[];
  let mock: MockServer;
  beforeAll(async () => {
    arrivals = [];
    backend = createServer((req, res) => {
      arrivals.push(performance.now());
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{}');
    });
    await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve));
    mock = await startMockServer({ mode: 'proxy', backend: `http://127.0.0.1:${(backend.address() as AddressInfo).port}` });
  });
  afterAll(async () => {
    await mock?.close();
    await new Promise<void>((resolve) => backend.close(() => resolve()));
  });

  it('the backend gets it no sooner than the delay after it was sent', async () => {
    await setFaults(mock, { latency: '150' });
    const sent = performance.now();
    expect((await send(mock.url, 'GET', '/store/regions')).status).toBe(200);
    expect(arrivals).toHaveLength(1);
    // A lower bound only, with room for a timer's millisecond rounding (unheld, it arrives within a few ms): never flaky on a loaded machine.
    expect(arrivals[0]! - sent).toBeGreaterThanOrEqual(140);
  });
});

describe('the validating proxy serves no dataset: its dataset doors are refused, naming why', () => {
  let backend: FakeBackend;
  let mock: MockServer;
  beforeAll(async () => {
    backend = await startFakeBackend();
    mock = await startMockServer({ mode: 'proxy', backend: backend.url });
  });
  afterAll(async () => {
    await mock?.close();
    await backend?.close();
  });

  it.each([
    ['POST', '/dataset', { seed: 7 }],
    ['POST', '/dataset', {}],
    ['POST', '/reset', undefined],
    ['POST', '/reset', { customer: 'cus_1' }],
    ['POST', '/provider-states', { state: 'no reviews exist' }],
    ['GET', '/provider-states', undefined],
    ['DELETE', '/provider-states', undefined],
    ['POST', '/Dataset/', { seed: 7 }],
  ])('%s /__admin%s: 404 not_found with a sentence', async (method, path, body) => {
    const version = mock.dataset.version;
    const answer = await admin(mock, method, path, body);
    expect(answer.status).toBe(404);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    const error = JSON.parse(answer.text) as { type: string; message: string };
    expect(error.type).toBe('not_found');
    expect(error.message).toContain(`${method} /__admin${path}`);
    expect(error.message).toContain('the validating proxy serves no dataset of its own');
    expect(error.message).toContain('/__admin/faults');
    expect(mock.dataset.version).toBe(version);
    expect(backend.hits).toEqual([]);
  });

  it('the doors it has still answer: health, config, journal, faults', async () => {
    for (const path of ['/health', '/config', '/journal', '/faults']) expect((await admin(mock, 'GET', path)).status).toBe(200);
    const config = JSON.parse((await admin(mock, 'GET', '/config')).text) as { server: { mode: string } };
    expect(config.server.mode).toBe('proxy');
  });
});
