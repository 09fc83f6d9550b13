/**
 * Provider states change what every client sees (issue 19): a teardown serves again exactly what was
 * served before the setup, and /__admin/config says so; one run at a time holds the provider state
 * (the others get a 409 that says what to do), a killed run's hold lapses, and verify's and check's
 * command lines turn the 409 into exit 2 with one sentence.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateDataset } from '../fixtures/index.ts';
import { STATE_LEASE_HEADER, STATE_RUN_HEADER } from '../lib/admin-paths.ts';
import { StateRun } from '../client/state-run.ts';
import { runListingProperties } from '../properties/runner.ts';
import { DatasetHolder } from '../mock-server/dataset/holder.ts';
import { StateLease } from '../mock-server/state/state-lease.ts';
import { startMockServer, type MockServer } from '../mock-server/server.ts';
import { get } from './support/http.ts';
import { runCli, type CliRun } from './support/cli-process.ts';

const STATES = '/__admin/provider-states';

type Run = CliRun;
const cli = (args: string[]) => runCli([...args], 120_000);

const send = (base: string, path: string, method: string, body?: unknown, run?: string) =>
  get(base, path, {
    method,
    // A change without a body says it comes from a script, as the admin API asks (mock-server/admin/access.ts).
    headers: { ...(body === undefined ? { 'x-requested-by': 'provider-state-lease.test' } : { 'content-type': 'application/json' }), ...(run ? { [STATE_RUN_HEADER]: run } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

const setup = (base: string, run?: string, count = 12) => send(base, STATES, 'POST', { state: 'reviews exist', params: { count }, action: 'setup' }, run);
const teardown = (base: string, run?: string) => send(base, STATES, 'POST', { state: 'reviews exist', params: {}, action: 'teardown' }, run);
const reviewCount = async (base: string) => (await get(base, '/store/products/reviews?limit=1')).json.count as number;
const config = async (base: string) => (await get(base, '/__admin/config')).json;

function expectConflict(res: Awaited<ReturnType<typeof get>>, mentions: RegExp): void {
  expect(res.status, res.text).toBe(409);
  expect(res.json).toEqual({ type: 'conflict', message: expect.any(String) });
  expect(res.json.message).toMatch(mentions);
  expect(res.json.message).toMatch(/POST \/__admin\/reset/);
}

describe('a teardown serves again what was served before the setup', () => {
  it('in the holder: the dataset and its generation, across several setups, and a replace forgets it', () => {
    const initial = generateDataset({ seed: 1, reviews: 5 });
    const holder = new DatasetHolder(initial);
    const reseeded = generateDataset({ seed: 42, reviews: 9 });
    holder.replace(reseeded, undefined, { seed: 42, reviews: 9 });
    holder.installState(generateDataset({ seed: 4, reviews: 2 }));
    expect(holder.generation).toBeUndefined();
    holder.installState(generateDataset({ seed: 4, reviews: 3 }));
    expect(holder.inProviderState).toBe(true);
    expect(holder.restoreState()).toBe(true);
    expect(holder.current).toBe(reseeded);
    expect(holder.generation).toEqual({ seed: 42, reviews: 9 });
    expect(holder.restoreState()).toBe(false);
    expect(holder.current).toBe(reseeded);

    holder.installState(generateDataset({ seed: 4, reviews: 2 }));
    holder.replace(initial);
    expect(holder.restoreState()).toBe(false);
    expect(holder.current).toBe(initial);
  });

  describe('over HTTP, with /__admin/config telling the truth', () => {
    let mock: MockServer;
    beforeAll(async () => {
      mock = await startMockServer({ seed: 1 });
    });
    afterAll(() => mock.close());
    afterEach(async () => {
      expect((await send(mock.url, '/__admin/reset', 'POST')).status).toBe(200);
    });

    const expectReseeded = async () => {
      const dataset = (await config(mock.url)).dataset;
      expect(dataset.generation).toMatchObject({ seed: 42, reviews: 5000 });
      expect(dataset.current).toMatchObject({ seed: 42, reviews: 5000 });
      expect(await reviewCount(mock.url)).toBe(5000);
    };

    it('after `verify --provider wishlist` (the CLI), the reseeded data is back, config says so, and the next reseed starts from it', async () => {
      expect((await send(mock.url, '/__admin/dataset', 'POST', { seed: 42, reviews: 5000 })).status).toBe(200);
      const run = await cli(['verify', '--provider-base-url', mock.url, '--provider', 'wishlist']);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      await expectReseeded();
      // The run released its hold when it ended: nobody holds the provider state.
      expect((await config(mock.url)).providerStates).toMatchObject({ hold: null, lapseSeconds: 30 });
      expect((await setup(mock.url, 'next-run')).status).toBe(200);
      expect((await send(mock.url, STATES, 'DELETE', undefined, 'next-run')).status).toBe(200);

      const resized = await send(mock.url, '/__admin/dataset', 'POST', { wishlists: 3 });
      expect(resized.status).toBe(200);
      expect(resized.json.generation).toMatchObject({ seed: 42, reviews: 5000, wishlists: 3 });
      expect(resized.json.current).toMatchObject({ seed: 42, reviews: 5000, wishlists: 3 });
    }, 120_000);

    it('after `check --vary-dataset` (in-process), likewise', async () => {
      expect((await send(mock.url, '/__admin/dataset', 'POST', { seed: 42, reviews: 5000 })).status).toBe(200);
      const report = await runListingProperties({ baseUrl: mock.url, seed: 7, runs: 5, varyDataset: true, endpoints: ['reviews'], properties: ['page-length', 'total-pages'] });
      expect(report.passed).toBe(true);
      expect(new Set(report.results.map((r) => r.dataset).filter(Boolean)).size).toBe(4);
      await expectReseeded();
      expect((await config(mock.url)).providerStates.hold).toBeNull();
    }, 60_000);

    it('while a state is set up, config reports its data, no generation, and who holds it', async () => {
      expect((await setup(mock.url, 'run-a')).status).toBe(200);
      const during = await config(mock.url);
      expect(during.dataset.current).toMatchObject({ reviews: 12, wishlists: 0 });
      expect(during.dataset.generation).toBeNull();
      expect(during.providerStates.hold).toMatchObject({ run: 'run-a', state: 'reviews exist', params: { count: 12 } });
      expect((await teardown(mock.url, 'run-a')).status).toBe(200);
      const after = await config(mock.url);
      expect(after.dataset.current).toEqual(mock.dataset.initial.summary);
      expect(after.dataset.generation).toMatchObject({ seed: 1, reviews: 300 });
      // A run that names itself keeps its hold between two states, until it releases it.
      expect(after.providerStates.hold).toMatchObject({ run: 'run-a', state: null });
      expect((await send(mock.url, STATES, 'DELETE', undefined, 'run-a')).json).toMatchObject({ hold: null });
    });
  });
});

describe('one run at a time holds the provider state', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ seed: 1 });
  });
  afterAll(() => mock.close());
  afterEach(async () => {
    expect((await send(mock.url, '/__admin/reset', 'POST')).status).toBe(200);
  });

  it('refuses another run\'s setup, teardown, release and any reseed with a 409 naming the holder; the holder carries on', async () => {
    const first = await setup(mock.url, 'run-a', 12);
    expect(first.status).toBe(200);
    expect(first.headers.get(STATE_LEASE_HEADER)).toBe('30');
    expectConflict(await setup(mock.url, 'run-b', 17), /^another run holds the mock's provider state \(run 'run-a' has 'reviews exist' set up/);
    expectConflict(await teardown(mock.url, 'run-b'), /run 'run-a'/);
    expectConflict(await send(mock.url, STATES, 'DELETE', undefined, 'run-b'), /run 'run-a'/);
    expectConflict(await setup(mock.url), /run 'run-a'/);
    expectConflict(await send(mock.url, '/__admin/dataset', 'POST', { seed: 9 }), /a reseed now would change the data under it/);
    // None of it changed the holder's data.
    expect(await reviewCount(mock.url)).toBe(12);
    expect((await get(mock.url, STATES)).json).toMatchObject({ hold: { run: 'run-a', state: 'reviews exist' }, lapseSeconds: 30 });

    // Between its states, the run still holds it; once it releases it, the next run may go.
    expect((await teardown(mock.url, 'run-a')).status).toBe(200);
    expect(await reviewCount(mock.url)).toBe(300);
    expectConflict(await setup(mock.url, 'run-b'), /run 'run-a' is between two states/);
    expect((await send(mock.url, STATES, 'DELETE', undefined, 'run-a')).status).toBe(200);
    expect((await setup(mock.url, 'run-b', 17)).status).toBe(200);
    expect(await reviewCount(mock.url)).toBe(17);
  });

  it('a caller that names no run holds it from a setup to its teardown', async () => {
    expect((await setup(mock.url)).status).toBe(200);
    expectConflict(await setup(mock.url, 'run-b'), /a run that names none \(no x-provider-state-run header\)/);
    // The same anonymous caller (Pact's own providerStatesSetupUrl) may set the next state.
    expect((await setup(mock.url, undefined, 5)).status).toBe(200);
    expect((await teardown(mock.url)).status).toBe(200);
    expect(await reviewCount(mock.url)).toBe(300);
    expect((await get(mock.url, STATES)).json.hold).toBeNull();
    expect((await setup(mock.url, 'run-b')).status).toBe(200);
  });

  it('POST /__admin/reset ends any hold, and a teardown with nothing set up changes nothing', async () => {
    expect((await setup(mock.url, 'run-a')).status).toBe(200);
    expect((await send(mock.url, '/__admin/reset', 'POST')).status).toBe(200);
    expect(await reviewCount(mock.url)).toBe(300);
    const version = mock.dataset.version;
    expect((await teardown(mock.url, 'run-b')).status).toBe(200);
    expect((await send(mock.url, STATES, 'DELETE', undefined, 'run-b')).status).toBe(200);
    expect(mock.dataset.version).toBe(version);
    expect((await setup(mock.url, 'run-b')).status).toBe(200);
  });

  it('refuses a run name longer than 200 characters with a 400', async () => {
    const res = await setup(mock.url, 'x'.repeat(201));
    expect(res.status).toBe(400);
    expect(res.json.type).toBe('invalid_data');
  });
});

describe('a hold lapses after its run has gone quiet', () => {
  it('tears the state down: the data served before it is back (a killed run)', async () => {
    const mock = await startMockServer({ seed: 1, stateLeaseMs: 300 });
    try {
      expect((await send(mock.url, '/__admin/dataset', 'POST', { seed: 42, reviews: 50 })).status).toBe(200);
      const version = mock.dataset.version;
      expect((await setup(mock.url, 'killed-run')).status).toBe(200);
      await vi.waitFor(async () => expect((await get(mock.url, STATES)).json.hold).toBeNull(), { timeout: 15_000, interval: 100 });
      // Installed, then torn down: two swaps.
      expect(mock.dataset.version).toBe(version + 2);
      expect(await reviewCount(mock.url)).toBe(50);
      expect((await config(mock.url)).dataset.generation).toMatchObject({ seed: 42, reviews: 50 });
      expect((await setup(mock.url, 'next-run')).status).toBe(200);
    } finally {
      await mock.close();
    }
  });

  it('a run that holds a state long (check --vary-dataset) keeps it with heartbeats; once they stop, it lapses', async () => {
    const mock = await startMockServer({ seed: 1, stateLeaseMs: 3000 });
    try {
      const run = new StateRun(`${mock.url}${STATES}`, 'check', 10_000);
      expect((await run.change('reviews exist', { count: 12 }, 'setup')).status).toBe(200);
      await run.holding(() => new Promise((resolve) => setTimeout(resolve, 7000)));
      expect((await get(mock.url, STATES)).json.hold).toMatchObject({ run: run.id, state: 'reviews exist' });
      expect(await reviewCount(mock.url)).toBe(12);
      await vi.waitFor(async () => expect((await get(mock.url, STATES)).json.hold).toBeNull(), { timeout: 15_000, interval: 100 });
      expect(await reviewCount(mock.url)).toBe(300);
    } finally {
      await mock.close();
    }
  }, 30_000);

  it('is refused up front when its lapse time is not a whole number of milliseconds from 1 to an hour', async () => {
    await expect(startMockServer({ stateLeaseMs: 0 })).rejects.toThrow(/stateLeaseMs must be a whole number of milliseconds from 1 to 3600000, got 0/);
    await expect(startMockServer({ stateLeaseMs: 1.5 })).rejects.toThrow(RangeError);
  });

  describe('the lease itself (fake clock)', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('lapses lapseMs after the run\'s last state change or heartbeat, releasing the state it had set up', () => {
      vi.useFakeTimers();
      const lapsed: unknown[] = [];
      const lease = new StateLease(30_000, (release) => lapsed.push(release));
      const setupChange = { kind: 'providerState', run: 'run-a', change: { action: 'setup', key: 'reviewsExist', state: 'reviews exist', params: { count: 1 } } } as const;
      expect(lease.admit(setupChange)).toEqual({ apply: setupChange });
      vi.advanceTimersByTime(20_000);
      // A heartbeat from another run renews nothing; one from the holder does.
      lease.status('run-b');
      lease.status('run-a');
      vi.advanceTimersByTime(20_000);
      expect(lapsed).toEqual([]);
      expect(lease.status().hold).toMatchObject({ run: 'run-a', state: 'reviews exist', idleSeconds: 20, lapsesInSeconds: 10 });
      vi.advanceTimersByTime(10_000);
      expect(lapsed).toEqual([{ kind: 'releaseState', run: 'run-a', lapsed: { state: 'reviews exist', idleSeconds: 30 } }]);
      expect(lease.status().hold).toBeNull();
      expect('apply' in lease.admit({ ...setupChange, run: 'run-b' })).toBe(true);
    });

    it('lets a reset through at any time, ending the hold; a release with nothing set up applies nothing', () => {
      vi.useFakeTimers();
      const lease = new StateLease(1000, () => {
        throw new Error('no lapse expected');
      });
      const setupChange = { kind: 'providerState', run: 'run-a', change: { action: 'setup', key: 'noReviewsExist', state: 'no reviews exist', params: {} } } as const;
      lease.admit(setupChange);
      expect('refused' in lease.admit({ kind: 'reseed', generation: { seed: 1, reviews: 1, products: 1, wishlists: 1, maxItems: 1 } })).toBe(true);
      expect(lease.admit({ kind: 'reset' })).toEqual({ apply: { kind: 'reset' } });
      vi.advanceTimersByTime(5000);
      lease.admit(setupChange);
      expect(lease.admit({ kind: 'providerState', run: 'run-a', change: { action: 'teardown' } })).toEqual({ apply: { kind: 'providerState', run: 'run-a', change: { action: 'teardown' } } });
      expect(lease.admit({ kind: 'releaseState', run: 'run-a' })).toEqual({ apply: undefined });
      vi.advanceTimersByTime(5000);
    });
  });
});

describe('verify and check: another run\'s hold is exit 2, with one sentence', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ seed: 1 });
  });
  afterAll(() => mock.close());

  it('while another run holds the state, both stop (2) without touching it; once it is released, verify passes', async () => {
    expect((await setup(mock.url, 'other-run', 12)).status).toBe(200);
    const [verify, check] = await Promise.all([
      cli(['verify', '--provider-base-url', mock.url, '--provider', 'product-reviews']),
      cli(['check', '--base-url', mock.url, '--seed', '1', '--runs', '3', '--endpoints', 'reviews', '--properties', 'page-length', '--vary-dataset']),
    ]);
    expect(verify.code).toBe(2);
    expect(verify.stderr).toMatch(/^error: another run holds the mock's provider state \(run 'other-run' has 'reviews exist' set up, last heard from \d+ s ago\): wait for it to end .* or POST \/__admin\/reset to end it now\n$/);
    expect(check.code).toBe(2);
    expect(check.stderr).toMatch(/^error: cannot run the check: another run holds the mock's provider state \(run 'other-run'/);
    expect(check.stderr.trim().split('\n')).toHaveLength(1);
    expect(await reviewCount(mock.url)).toBe(12);
    expect((await get(mock.url, STATES)).json.hold).toMatchObject({ run: 'other-run', state: 'reviews exist' });

    expect((await send(mock.url, STATES, 'DELETE', undefined, 'other-run')).status).toBe(200);
    const again = await cli(['verify', '--provider-base-url', mock.url, '--provider', 'product-reviews']);
    expect(again.code).toBe(0);
    expect(await reviewCount(mock.url)).toBe(300);
  }, 180_000);

  it('a 409 in the middle of the replay stops verify (2) after that provider; a door that keeps no holds gets no release', async () => {
    const calls: Array<{ method: string; action?: string; run?: string }> = [];
    const door = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        const action = body ? (JSON.parse(body) as { action: string }).action : undefined;
        calls.push({ method: req.method ?? '', ...(action ? { action } : {}), run: req.headers[STATE_RUN_HEADER] as string });
        const refuse = action === 'setup';
        res.writeHead(refuse ? 409 : 200, { 'content-type': 'application/json' });
        res.end(refuse ? JSON.stringify({ type: 'conflict', message: 'the fixtures are being reloaded' }) : '{}');
      });
    });
    await new Promise<void>((resolve) => door.listen(0, '127.0.0.1', resolve));
    const doorUrl = `http://127.0.0.1:${(door.address() as AddressInfo).port}${STATES}`;
    try {
      const run = await cli(['verify', '--provider-base-url', mock.url, '--provider-states-setup-url', doorUrl, '--verbose']);
      expect(run.code).toBe(2);
      expect(run.stderr).toBe(`error: another run holds the provider state at ${doorUrl}: it answered 409 (the fixtures are being reloaded)\n`);
      // It stopped after the first provider, named itself on every call, and sent no DELETE.
      expect(run.stdout).toMatch(/Verifying a pact between \S+ and product-reviews/);
      expect(run.stdout).not.toMatch(/Verifying a pact between \S+ and wishlist/);
      expect(calls.length).toBeGreaterThan(2);
      expect(new Set(calls.map((c) => c.run)).size).toBe(1);
      expect(calls[0]!.run).toMatch(/^verify-[0-9a-f]{8}$/);
      expect(calls.every((c) => c.method === 'POST')).toBe(true);
    } finally {
      await new Promise<void>((resolve) => door.close(() => resolve()));
    }
  }, 120_000);

  it('two verify runs at once: neither verifies on the other\'s data (no exit 1); one passes, any other stops with the sentence', async () => {
    const runs = await Promise.all([0, 1].map(() => cli(['verify', '--provider-base-url', mock.url, '--provider', 'wishlist'])));
    expect(runs.map((r) => r.code).sort()).toEqual(runs.some((r) => r.code === 2) ? [0, 2] : [0, 0]);
    for (const run of runs.filter((r) => r.code === 2)) expect(run.stderr).toMatch(/^error: another run holds the mock's provider state \(run 'verify-[0-9a-f]{8}'/);
    expect((await get(mock.url, STATES)).json.hold).toBeNull();
    expect(mock.dataset.current).toBe(mock.dataset.initial);
  }, 180_000);
});
