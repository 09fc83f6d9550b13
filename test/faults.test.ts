import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FaultInjector, NO_FAULTS, faultBody, faultSettings, parseLatency } from '../mock-server/state/faults.ts';
import { startMockServer, type MockServer } from '../mock-server/server.ts';
import { get } from './support/http.ts';

const put = (base: string, settings: unknown) =>
  get(base, '/__admin/faults', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(settings) });

describe('fault draws', () => {
  const settings = faultSettings({ latency: { min: 100, max: 400 }, errorRate: 0.2, errorStatus: 503 });

  it('are a pure function of the seed and the request number', () => {
    const a = new FaultInjector(7, settings);
    const b = new FaultInjector(7, settings);
    const c = new FaultInjector(8, settings);
    const draws = (f: FaultInjector) => Array.from({ length: 200 }, (_, n) => f.draw(n));
    expect(draws(a)).toEqual(draws(b));
    expect(draws(a)).not.toEqual(draws(c));
    // The settings' own seed wins over the default one.
    expect(draws(new FaultInjector(1, { ...settings, seed: 7 }))).toEqual(draws(a));
  });

  it('keep delays inside the range and fail about the share asked for', () => {
    const f = new FaultInjector(11, settings);
    const draws = Array.from({ length: 5000 }, (_, n) => f.draw(n));
    for (const d of draws) {
      expect(d.delay).toBeGreaterThanOrEqual(100);
      expect(d.delay).toBeLessThanOrEqual(400);
      expect([null, 503]).toContain(d.status);
    }
    const failed = draws.filter((d) => d.status !== null).length / draws.length;
    expect(failed).toBeGreaterThan(0.17);
    expect(failed).toBeLessThan(0.23);
    expect(new Set(draws.map((d) => d.delay)).size).toBeGreaterThan(250);
  });

  it('are off by default and draw no fault then', () => {
    const f = new FaultInjector(1);
    expect(f.active).toBe(false);
    expect(f.settings).toEqual(NO_FAULTS);
    expect(f.draw(0)).toEqual({ delay: 0, status: null });
    f.set(faultSettings({ headers: true }));
    expect(f.active).toBe(true);
  });

  it('parse latency as one value or a range, within bounds', () => {
    expect(parseLatency('250')).toEqual({ min: 250, max: 250 });
    expect(parseLatency('100-400')).toEqual({ min: 100, max: 400 });
    for (const bad of ['', '-1', '400-100', '1e3', '100-', 'abc', '100-999999', '10.5']) expect(parseLatency(bad), bad).toBeUndefined();
  });

  it('answer the documented body for each status', () => {
    expect(faultBody(500)).toEqual({ type: 'unknown_error', message: 'An unknown error occurred.' });
    expect(faultBody(503).type).toBe('unknown_error');
    expect(faultBody(404).type).toBe('not_found');
    expect(faultBody(400).type).toBe('invalid_data');
    expect(faultBody(401).type).toBe('unauthorized');
  });
});

describe('fault injection over HTTP', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ seed: 5, reviews: 30, wishlists: 4, maxItems: 3 });
  });
  afterAll(() => mock.close());
  afterEach(() => get(mock.url, '/__admin/faults', { method: 'DELETE', headers: { 'x-requested-by': 'faults.test' } }));

  it('is off by default: the fault headers change nothing', async () => {
    const res = await get(mock.url, '/store/wishlists', { headers: { 'x-mock-status': '500', 'x-mock-delay': '60000' } });
    expect(res.status).toBe(200);
  });

  it('fails the requests the draws say, the same ones again after the settings are set again', async () => {
    const settings = { errorRate: 0.3, errorStatus: 503, seed: 9 };
    const expected = Array.from({ length: 40 }, (_, n) => new FaultInjector(0, faultSettings(settings)).draw(n).status ?? 200);
    expect(expected).toContain(503);
    expect(expected).toContain(200);
    for (let round = 0; round < 2; round++) {
      expect((await put(mock.url, settings)).status).toBe(200);
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) {
        const res = await get(mock.url, '/store/products/reviews?limit=2');
        statuses.push(res.status);
        if (res.status === 503) {
          expect(res.json).toEqual({ type: 'unknown_error', message: 'An unknown error occurred.' });
          expect(res.contentType).toMatch(/^application\/json/);
          expect(res.headers.get('retry-after')).toBe('1');
        }
      }
      expect(statuses).toEqual(expected);
    }
  });

  it('answers the documented 500 at error rate 1, and never touches the admin API', async () => {
    await put(mock.url, { errorRate: 1, headers: true });
    for (const path of ['/store/products/reviews', '/store/wishlists', '/store/nope']) {
      const res = await get(mock.url, path);
      expect(res.status).toBe(500);
      expect(res.json).toEqual({ type: 'unknown_error', message: 'An unknown error occurred.' });
    }
    const health = await get(mock.url, '/__admin/health', { headers: { 'x-mock-status': '503' } });
    expect(health.status).toBe(200);
    // Pact's provider states live under /__admin too (mounted after the faults): untouched as well.
    const state = await get(mock.url, '/__admin/provider-states', { method: 'POST', headers: { 'content-type': 'application/json', 'x-mock-status': '503' }, body: JSON.stringify({ state: 'no reviews exist', action: 'teardown' }) });
    expect(state.status).toBe(200);
    expect((await get(mock.url, '/__admin/faults')).json.requestsSeen).toBe(3);
  });

  it('honours x-mock-status and x-mock-delay per request when headers are on, refusing bad values', async () => {
    await put(mock.url, { headers: true });
    const notFound = await get(mock.url, '/store/wishlists', { headers: { 'x-mock-status': '404' } });
    expect(notFound.status).toBe(404);
    expect(notFound.json.type).toBe('not_found');
    const limited = await get(mock.url, '/store/wishlists', { headers: { 'x-mock-status': '429' } });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect((await get(mock.url, '/store/wishlists')).status).toBe(200);
    for (const [name, value] of [['x-mock-status', '200'], ['x-mock-status', '5xx'], ['x-mock-delay', '-1'], ['x-mock-delay', '60001']]) {
      const res = await get(mock.url, '/store/wishlists', { headers: { [name as string]: value as string } });
      expect(res.status, `${name}: ${value}`).toBe(400);
      expect(res.json.message).toContain(name);
    }
    // A delayed request is overtaken by one sent after it.
    const order: string[] = [];
    const slow = get(mock.url, '/store/wishlists?take=1', { headers: { 'x-mock-delay': '400' } }).then((r) => order.push(`slow ${r.status}`));
    await new Promise((r) => setTimeout(r, 20));
    const quick = get(mock.url, '/store/wishlists?take=2').then((r) => order.push(`quick ${r.status}`));
    await Promise.all([slow, quick]);
    expect(order).toEqual(['quick 200', 'slow 200']);
  });

  it('changes on PUT only the settings the body names: per-request headers and the seed stay until changed, DELETE turns all off', async () => {
    const started = await startMockServer({ seed: 5, reviews: 3, wishlists: 1, faults: faultSettings({ headers: true, seed: 11 }) });
    try {
      const byHeader = () => get(started.url, '/store/wishlists', { headers: { 'x-mock-status': '418' } }).then((res) => res.status);
      expect(await byHeader()).toBe(418);
      const changed = await put(started.url, { latency: '1-2', errorStatus: 503 });
      expect(changed.json).toMatchObject({ latency: { min: 1, max: 2 }, errorRate: 0, errorStatus: 503, headers: true, seed: 11, active: true });
      expect(await byHeader()).toBe(418);
      expect((await put(started.url, { latency: null, seed: null })).json).toMatchObject({ latency: null, errorStatus: 503, headers: true, seed: null });
      expect((await put(started.url, { headers: false })).json).toMatchObject({ headers: false, errorStatus: 503, active: false });
      expect(await byHeader()).toBe(200);
      await put(started.url, { headers: true, errorRate: 0.5 });
      const off = await get(started.url, '/__admin/faults', { method: 'DELETE', headers: { 'x-requested-by': 'faults.test' } });
      expect(off.json).toMatchObject({ ...NO_FAULTS, active: false });
      expect(await byHeader()).toBe(200);
    } finally {
      await started.close();
    }
  });

  it('starts with the faults given to startMockServer', async () => {
    const faulty = await startMockServer({ seed: 5, reviews: 3, wishlists: 1, faults: faultSettings({ errorRate: 1, errorStatus: 502 }) });
    try {
      const res = await get(faulty.url, '/store/wishlists');
      expect(res.status).toBe(502);
      expect(res.json).toEqual({ type: 'unknown_error', message: 'An unknown error occurred.' });
      expect((await get(faulty.url, '/__admin/faults')).json).toMatchObject({ errorRate: 1, errorStatus: 502, active: true });
    } finally {
      await faulty.close();
    }
  });
});
