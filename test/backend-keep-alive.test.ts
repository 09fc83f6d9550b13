/**
 * `serve --backend` (and so `proxy`) and the backend's idle connections (issue 35): Medusa answers
 * with `Keep-Alive: timeout=5` and closes a connection idle for that long; a request the kit sent
 * on a pooled connection just as the backend closed it got a 502 `socket hang up`. Now the pool lets
 * a connection go before the hint runs out (mock-server/backend/backend-agent.ts), and a GET or
 * HEAD that meets a closing connection anyway (a backend that sends no hint) is sent again once on
 * a fresh connection (backend/overlay.ts). The backend is test/support/raw-backend.ts: it meets a
 * request that arrives on a connection idle past its timeout with the close, as a request that
 * crosses the server's close on the wire is met, so each case below is certain, not a race; the
 * assertions are on outcomes (statuses, connections, crossed requests), never on durations.
 */
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { keepAliveIdleMs } from '../mock-server/backend/backend-agent.ts';
import { startMockServer, type MockServer } from '../mock-server/server.ts';
import { okBody, startRawBackend, type RawBackend, type RawBackendOptions } from './support/raw-backend.ts';

interface Answer {
  status: number;
  text: string;
}

/** One request on a connection of its own (the client's side is not under test here). */
function send(base: string, method: string, path: string): Promise<Answer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, method, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

let backend: RawBackend | undefined;
let mock: MockServer | undefined;
afterEach(async () => {
  await mock?.close();
  await backend?.close();
  mock = backend = undefined;
});

async function start(options: RawBackendOptions): Promise<{ backend: RawBackend; mock: MockServer }> {
  backend = await startRawBackend(options);
  mock = await startMockServer({ seed: 1, backend: backend.url });
  return { backend, mock };
}

describe('keepAliveIdleMs: how long a pooled connection may idle after an answer with this Keep-Alive header', () => {
  it('the hint less a second, as Node\'s agent reads it; 0 (not kept) when that leaves nothing; none without a timeout', () => {
    expect(keepAliveIdleMs('timeout=5')).toBe(4000);
    expect(keepAliveIdleMs('timeout=5, max=1000')).toBe(4000);
    expect(keepAliveIdleMs('max=100, Timeout = 30')).toBe(29_000);
    expect(keepAliveIdleMs('timeout="2"')).toBe(1000);
    expect(keepAliveIdleMs('timeout=1')).toBe(0);
    expect(keepAliveIdleMs('timeout=0')).toBe(0);
    // Past Node's longest timer (which would fire at once, with a warning): that timer.
    expect(keepAliveIdleMs('timeout=999999999')).toBe(2 ** 31 - 1);
    expect(keepAliveIdleMs(undefined)).toBeUndefined();
    expect(keepAliveIdleMs('max=5')).toBeUndefined();
    expect(keepAliveIdleMs('timeout=abc')).toBeUndefined();
    expect(keepAliveIdleMs('xtimeout=5')).toBeUndefined();
  });
});

describe('the backend\'s Keep-Alive hint is honoured, though the header is not passed on to the client', () => {
  it('timeout=2: reused at once, let go after a second idle; no request is ever sent on a connection the backend is closing', async () => {
    const { backend, mock } = await start({ keepAliveHint: 'timeout=2', crossIdleAfterMs: 2000 });
    expect(await send(mock.url, 'GET', '/store/products?n=1')).toEqual({ status: 200, text: okBody('/store/products?n=1') });
    expect(await send(mock.url, 'GET', '/store/products?n=2')).toEqual({ status: 200, text: okBody('/store/products?n=2') });
    expect(backend.connections).toBe(1);
    // Past the backend's own timeout: the kit let the connection go at 1 s, so it sends on a new one.
    await pause(2100);
    expect(await send(mock.url, 'GET', '/store/products?n=3')).toEqual({ status: 200, text: okBody('/store/products?n=3') });
    expect(backend.crossed).toBe(0);
    expect(backend.connections).toBe(2);
  });

  it('timeout=1 leaves no safe idle time: every request on a new connection (as Node\'s agent)', async () => {
    const { backend, mock } = await start({ keepAliveHint: 'timeout=1' });
    for (const n of [1, 2, 3]) expect((await send(mock.url, 'GET', `/store/products?n=${n}`)).status).toBe(200);
    expect(backend.connections).toBe(3);
  });
});

describe('a GET or HEAD that meets a closing pooled connection is sent again once, on a fresh one', () => {
  it('a backend without a hint that closed as the request came: the request is sent again and answered, for GET and HEAD', async () => {
    const { backend, mock } = await start({ crossIdleAfterMs: 300 });
    expect((await send(mock.url, 'GET', '/store/products?n=1')).status).toBe(200);
    await pause(400);
    expect(await send(mock.url, 'GET', '/store/products?n=2')).toEqual({ status: 200, text: okBody('/store/products?n=2') });
    expect(backend.crossed).toBe(1);
    // The fresh connection is not pooled: this one opens the next pooled connection.
    expect((await send(mock.url, 'GET', '/store/products?n=3')).status).toBe(200);
    await pause(400);
    expect(await send(mock.url, 'HEAD', '/store/products?n=4')).toEqual({ status: 200, text: '' });
    expect(backend.crossed).toBe(2);
    // Each crossed request was received twice: crossed, then on the fresh connection.
    expect(backend.requests.filter((line) => line.includes('n=2')).length).toBe(2);
    expect(backend.requests.filter((line) => line.includes('n=4')).length).toBe(2);
  });

  it('a POST is not sent again (it may have been acted on): the 502 names the cause', async () => {
    const { backend, mock } = await start({ crossIdleAfterMs: 300 });
    expect((await send(mock.url, 'GET', '/store/products?n=1')).status).toBe(200);
    await pause(400);
    const answer = await send(mock.url, 'POST', '/store/carts');
    expect(answer.status).toBe(502);
    expect(JSON.parse(answer.text)).toEqual({ type: 'unknown_error', message: expect.stringMatching(/^Bad gateway: the backend .* could not be reached \(socket hang up\): POST \/store\/carts/) });
    expect(backend.crossed).toBe(1);
    expect(backend.requests.filter((line) => line.startsWith('POST')).length).toBe(1);
  });

  it('a backend whose connections are done at 300 ms idle and closed at 350 ms, requests paused all around: never a 502', async () => {
    const { mock } = await start({ closeIdleAfterMs: 350, crossIdleAfterMs: 300 });
    const statuses: number[] = [];
    for (let ms = 200; ms <= 440; ms += 20) {
      await pause(ms);
      statuses.push((await send(mock.url, 'GET', `/store/products?paused=${ms}`)).status);
    }
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
  });
});
