/** `workers: N` (node:cluster): several processes on one port answer the bytes one server answers, and change as one. */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MockCluster } from '../mock-server/cluster/start-cluster.ts';
import { startMockServer, type MockServer } from '../mock-server/server.ts';

interface Answer {
  status: number;
  body: string;
}

/**
 * One request on a new connection: the cluster's round robin hands each new connection to
 * the next worker, so consecutive calls alternate between the workers.
 */
function fresh(base: string, path: string, method = 'GET', body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    // A change without a body says it comes from a script (X-Requested-By), as the admin API asks.
    const script = payload ? { 'content-type': 'application/json' } : method === 'GET' ? {} : { 'x-requested-by': 'scale-workers.test' };
    const req = request(`${base}${path}`, { method, agent: false, headers: { ...script, ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

const json = async (answer: Promise<Answer>) => JSON.parse((await answer).body);

/** A few pages of all four endpoints, for a dataset with at least one wishlist. */
async function listingPaths(base: string): Promise<string[]> {
  const wishlistId = (await json(fresh(base, '/store/wishlists?take=1'))).data[0].id as string;
  const productId = (await json(fresh(base, '/store/products/reviews?limit=1'))).reviews[0].product_id as string;
  return [
    '/store/products/reviews',
    '/store/products/reviews?limit=7&offset=14&order=-rating',
    '/store/products/reviews?limit=50&offset=100&order=updated_at',
    `/store/reviews/product/${productId}?limit=3&offset=3`,
    `/store/reviews/product/${productId}`,
    '/store/wishlists',
    '/store/wishlists?skip=10&take=5',
    `/store/wishlists/${wishlistId}/items?take=2&skip=1`,
    `/store/wishlists/${wishlistId}/items`,
    '/store/products/reviews?limit=0',
  ];
}

/** Every path, sequentially and each on a new connection, twice (so each worker answers each), matches the reference server byte for byte. */
async function expectSameAnswers(cluster: string, reference: string): Promise<void> {
  const paths = await listingPaths(reference);
  for (let round = 0; round < 2; round++) {
    for (const path of paths) {
      const expected = await fresh(reference, path);
      const actual = await fresh(cluster, path);
      expect(actual.status, path).toBe(expected.status);
      expect(actual.body, path).toBe(expected.body);
    }
  }
}

/** `/__admin/health` from each worker: pid and dataset version, from consecutive connections. */
async function healthOfEach(base: string, count = 4): Promise<Map<number, number>> {
  const versions = new Map<number, number>();
  for (let i = 0; i < count; i++) {
    const health = await json(fresh(base, '/__admin/health'));
    versions.set(health.pid, health.datasetVersion);
  }
  return versions;
}

describe('startMockServer({ workers })', () => {
  const options = { seed: 4, reviews: 3000, wishlists: 25 };
  let single: MockServer;
  let cluster: MockCluster;

  beforeAll(async () => {
    [single, cluster] = await Promise.all([startMockServer(options), startMockServer({ ...options, workers: 2, port: 0, stateLeaseMs: 5000 })]);
  });
  afterAll(async () => {
    await cluster?.close();
    await single?.close();
  });

  it('two workers share one port and answer every listing byte for byte as one in-process server', async () => {
    expect(cluster.workers).toBe(2);
    expect(cluster.summary.reviews).toBe(3000);
    await expectSameAnswers(cluster.url, single.url);
    // consecutive connections go to the workers in turn, neither of which is this process
    const pids = [...(await healthOfEach(cluster.url)).keys()];
    expect(new Set(pids)).toEqual(new Set(cluster.pids));
    expect(pids).not.toContain(process.pid);
  });

  it('a reseed, whichever worker receives it, is served by every worker when the call answers', async () => {
    try {
      const changes = [{ seed: 9 }, { reviews: 120, wishlists: 12 }, { seed: 21, maxItems: 8 }];
      let answer: any;
      for (const change of changes) {
        const res = await fresh(cluster.url, '/__admin/dataset', 'POST', change);
        expect(res.status, res.body).toBe(200);
        answer = JSON.parse(res.body);
      }
      const generation = { seed: 21, reviews: 120, products: 8, wishlists: 12, maxItems: 8 };
      expect(answer.generation).toEqual(generation);
      // Every worker holds the same version of the data.
      const versions = await healthOfEach(cluster.url);
      expect(versions.size).toBe(2);
      expect(new Set(versions.values())).toEqual(new Set([answer.version]));

      const reference = await startMockServer(generation);
      try {
        await expectSameAnswers(cluster.url, reference.url);
      } finally {
        await reference.close();
      }
      // A bad change is refused by whichever worker receives it, and changes nothing anywhere.
      const refused = await fresh(cluster.url, '/__admin/dataset', 'POST', { seed: -1 });
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.body)).toMatchObject({ type: 'invalid_data', message: expect.stringMatching(/'seed'/) });
      expect(new Set((await healthOfEach(cluster.url)).values())).toEqual(new Set([answer.version]));
    } finally {
      expect((await fresh(cluster.url, '/__admin/reset', 'POST')).status).toBe(200);
    }
    await expectSameAnswers(cluster.url, single.url);
  });

  it('fault draws follow one count: the same statuses, request by request, as one server with the same settings', async () => {
    const settings = { errorRate: 0.5, errorStatus: 503, seed: 7 };
    const path = '/store/wishlists?take=1';
    const statuses = async (base: string) => {
      const out: number[] = [];
      for (let i = 0; i < 30; i++) out.push((await fresh(base, path)).status);
      return out;
    };
    try {
      // Set through a fresh connection each time: the worker that receives it differs.
      for (const base of [cluster.url, cluster.url, single.url]) expect((await fresh(base, '/__admin/faults', 'PUT', settings)).status).toBe(200);
      const expected = await statuses(single.url);
      expect(new Set(expected)).toEqual(new Set([200, 503]));
      expect(await statuses(cluster.url)).toEqual(expected);
      // Every worker tells the same count of draws.
      for (let i = 0; i < 2; i++) expect((await json(fresh(cluster.url, '/__admin/faults'))).requestsSeen).toBe(30);
    } finally {
      for (const base of [cluster.url, single.url]) expect((await fresh(base, '/__admin/faults', 'DELETE')).status).toBe(200);
    }
    for (let i = 0; i < 4; i++) expect((await fresh(cluster.url, path)).status).toBe(200);
  });

  it('a provider state set up through one worker is seen by every worker, and torn down everywhere', async () => {
    const state = { state: 'reviews exist', params: { count: 7 }, action: 'setup' };
    const setup = await fresh(cluster.url, '/__admin/provider-states', 'POST', state);
    expect(setup.status, setup.body).toBe(200);
    expect(JSON.parse(setup.body)).toEqual({ count: 7 });
    for (let i = 0; i < 4; i++) expect((await json(fresh(cluster.url, '/store/products/reviews?limit=1'))).count).toBe(7);
    const versions = await healthOfEach(cluster.url);
    expect(versions.size).toBe(2);
    expect(new Set(versions.values()).size).toBe(1);

    const refused = await fresh(cluster.url, '/__admin/provider-states', 'POST', { state: 'no such state' });
    expect(refused.status).toBe(400);

    const teardown = await fresh(cluster.url, '/__admin/provider-states', 'POST', { ...state, action: 'teardown' });
    expect(teardown.status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await json(fresh(cluster.url, '/store/products/reviews?limit=1'))).count).toBe(3000);
    await expectSameAnswers(cluster.url, single.url);
  });

  it('one run at a time holds the provider state, whichever worker each call reaches; a hold that lapses is torn down in every worker', async () => {
    const run = (name: string) => ({ 'x-provider-state-run': name });
    const state = { state: 'reviews exist', params: { count: 7 }, action: 'setup' };
    expect((await fresh(cluster.url, '/__admin/provider-states', 'POST', state, run('run-a'))).status).toBe(200);
    // Consecutive connections reach both workers: each refuses the other run, and the reseed.
    for (let i = 0; i < 2; i++) {
      const refused = await fresh(cluster.url, '/__admin/provider-states', 'POST', { ...state, params: { count: 9 } }, run('run-b'));
      expect(refused.status, refused.body).toBe(409);
      expect(JSON.parse(refused.body)).toEqual({ type: 'conflict', message: expect.stringMatching(/^another run holds the mock's provider state \(run 'run-a' has 'reviews exist' set up/) });
    }
    for (let i = 0; i < 2; i++) expect((await fresh(cluster.url, '/__admin/dataset', 'POST', { seed: 5 })).status).toBe(409);
    for (let i = 0; i < 4; i++) expect((await json(fresh(cluster.url, '/store/products/reviews?limit=1'))).count).toBe(7);
    expect((await json(fresh(cluster.url, '/__admin/provider-states'))).hold).toMatchObject({ run: 'run-a', state: 'reviews exist' });

    // run-a goes quiet: its hold lapses, and every worker serves the data from before its state.
    await vi.waitFor(async () => expect((await json(fresh(cluster.url, '/__admin/provider-states'))).hold).toBeNull(), { timeout: 30_000, interval: 200 });
    for (let i = 0; i < 4; i++) expect((await json(fresh(cluster.url, '/store/products/reviews?limit=1'))).count).toBe(3000);
    await expectSameAnswers(cluster.url, single.url);
    expect((await fresh(cluster.url, '/__admin/provider-states', 'POST', state, run('run-b'))).status).toBe(200);
    expect((await fresh(cluster.url, '/__admin/provider-states', 'DELETE', undefined, run('run-b'))).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await json(fresh(cluster.url, '/store/products/reviews?limit=1'))).count).toBe(3000);
  }, 60_000);

  it('the journal and the config speak for every worker, whichever answers', async () => {
    await fresh(cluster.url, '/store/wishlists');
    expect((await json(fresh(cluster.url, '/__admin/journal', 'DELETE'))).cleared).toBeGreaterThan(0);
    const paths = Array.from({ length: 6 }, (_, i) => `/store/wishlists?take=${i + 1}`);
    for (const path of paths) await fresh(cluster.url, path);
    for (let i = 0; i < 2; i++) {
      const journal = await json(fresh(cluster.url, '/__admin/journal'));
      expect(journal.capacity).toBe(200);
      expect(journal.recorded).toBe(6);
      expect(journal.entries.map((e: { url: string }) => e.url), JSON.stringify(journal.entries)).toEqual(paths);
      expect((await json(fresh(cluster.url, '/__admin/journal?limit=2'))).entries.map((e: { url: string }) => e.url)).toEqual(paths.slice(-2));
    }
    expect(await json(fresh(cluster.url, '/__admin/journal', 'DELETE'))).toEqual({ cleared: 6 });
    expect((await json(fresh(cluster.url, '/__admin/journal'))).entries).toEqual([]);

    const configs = await Promise.all([0, 1, 2, 3].map(async () => (await fresh(cluster.url, '/__admin/config')).body));
    expect(new Set(configs).size).toBe(1);
    const config = JSON.parse(configs[0]!);
    expect(config.server).toMatchObject({ workers: 2, pid: process.pid, url: cluster.url });
    expect(config.dataset.generation).toMatchObject(options);
    const health = await json(fresh(cluster.url, '/__admin/health'));
    expect(health.workerPids).toEqual(cluster.pids);
  });

  it('the journal with bodies, its filters and its cursor work across the workers as in one server', async () => {
    await json(fresh(cluster.url, '/__admin/journal', 'DELETE'));
    const who = (token: string) => ({ authorization: `Bearer ${token}` });
    // Each on a new connection: the workers take them in turn.
    await fresh(cluster.url, '/store/wishlists?take=1', 'GET', undefined, who('alice'));
    await fresh(cluster.url, '/store/wishlists?take=2', 'GET', undefined, who('bob'));
    await fresh(cluster.url, '/store/wishlists?take=-1', 'GET', undefined, who('alice'));
    await fresh(cluster.url, '/store/wishlists?take=3', 'GET', undefined, who('alice'));
    const all = await json(fresh(cluster.url, '/__admin/journal'));
    expect(all.entries.map((e: { url: string }) => e.url)).toEqual(['/store/wishlists?take=1', '/store/wishlists?take=2', '/store/wishlists?take=-1', '/store/wishlists?take=3']);
    expect(new Set(all.entries.map((e: { worker: number }) => e.worker))).toEqual(new Set(cluster.pids));
    expect(all.cursor.split(',').map((part: string) => Number(part.split(':')[0])).sort()).toEqual([...cluster.pids].sort());
    for (const entry of all.entries) {
      expect(entry.request.headers.authorization).toBe('[redacted]');
      expect(entry).toMatchObject({ answeredBy: 'mock', backend: null, check: null });
      if (entry.status === 200) {
        expect(JSON.parse(entry.response.body.text).take).toBe(Number(entry.query[0][1]));
        expect(entry.page).toMatchObject({ rule: 'wishlistPageMeta', matching: 25, size: Number(entry.query[0][1]), start: 0 });
      }
    }
    const alice = all.entries[0].customer as string;
    expect(alice).toMatch(/^cus_mock_/);
    const urls = async (query: string) => (await json(fresh(cluster.url, `/__admin/journal${query}`))).entries.map((e: { url: string }) => e.url);
    expect(await urls(`?customer=${alice}`)).toEqual(['/store/wishlists?take=1', '/store/wishlists?take=-1', '/store/wishlists?take=3']);
    expect(await urls(`?customer=${alice}&status=2xx&limit=1`)).toEqual(['/store/wishlists?take=3']);
    expect(await urls('?status=400&path=wishlists')).toEqual(['/store/wishlists?take=-1']);
    expect(await urls('?by=mock&status=4xx')).toEqual(['/store/wishlists?take=-1']);
    expect(await urls('?by=backend')).toEqual([]);
    expect(await urls('?violations=1')).toEqual([]);
    expect(await urls(`?since=${all.cursor}`)).toEqual([]);
    await fresh(cluster.url, '/store/wishlists?take=4');
    await fresh(cluster.url, '/store/wishlists?take=5');
    expect(await urls(`?since=${all.cursor}`)).toEqual(['/store/wishlists?take=4', '/store/wishlists?take=5']);
    expect((await fresh(cluster.url, '/__admin/journal?status=7xx')).status).toBe(400);
    expect((await fresh(cluster.url, '/__admin/journal?by=proxy')).status).toBe(400);
  });

  it('refuses a Dataset object, which cannot cross processes', async () => {
    await expect(startMockServer({ workers: 2, dataset: {} } as never)).rejects.toThrow(/cannot serve a Dataset object/);
  });
});
