/** `POST /__admin/dataset` builds a large dataset between requests, and the last change asked wins. */
import { Agent, request } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { generateDataset, generateDatasetInSteps } from '../fixtures/dataset.ts';
import { finish } from '../fixtures/steps.ts';
import { createOps } from '../mock-server/state/ops.ts';
import { ChangeApplier } from '../mock-server/state/changes.ts';
import { buildBetweenRequests } from '../mock-server/dataset/builder.ts';
import { DatasetHolder } from '../mock-server/dataset/holder.ts';
import { startMockServer } from '../mock-server/server.ts';

const agent = new Agent({ keepAlive: true });
afterAll(() => agent.destroy());

function call(url: string, method = 'GET', body?: unknown): Promise<{ status: number; text: string; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(url, { method, agent, headers: payload ? { 'content-type': 'application/json' } : {} }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text, ms: performance.now() - started }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

describe('building a dataset off the request path', () => {
  it('builds, in steps, the dataset generateDataset builds at once', () => {
    const options = { seed: 12, reviews: 70_000, products: 30, wishlists: 40_000, maxItems: 4 };
    const steps = generateDatasetInSteps(options);
    let yields = 0;
    let step = steps.next();
    for (; !step.done; step = steps.next()) yields++;
    expect(yields).toBeGreaterThan(4);
    const stepped = step.value;
    const whole = generateDataset(options);
    expect(stepped.summary).toEqual(whole.summary);
    const order = { field: 'updated_at', descending: true } as const;
    expect(stepped.reviews.page(order, 69_990, 10)).toEqual(whole.reviews.page(order, 69_990, 10));
    expect(stepped.wishlists.page(39_995, 5)).toEqual(whole.wishlists.page(39_995, 5));
    expect(finish(generateDatasetInSteps({ seed: 3 })).summary).toEqual(generateDataset({ seed: 3 }).summary);
  });

  it('abandons a build when asked to', async () => {
    let checks = 0;
    const built = await buildBetweenRequests(generateDatasetInSteps({ reviews: 2_000_000 }), () => ++checks >= 1);
    expect(built).toBeUndefined();
    expect(checks).toBe(1);
  });

  it('of two dataset changes asked one after the other, the later one is served, whichever finishes first', async () => {
    const holder = new DatasetHolder(generateDataset({ seed: 1, reviews: 5 }));
    const applier = new ChangeApplier(holder, createOps());
    const slow = { kind: 'reseed', generation: { seed: 2, reviews: 1_000_000, products: 8, wishlists: 5, maxItems: 3 } } as const;
    const quick = { kind: 'reseed', generation: { seed: 3, reviews: 10, products: 8, wishlists: 5, maxItems: 3 } } as const;
    const first = applier.apply(slow, applier.nextTicket());
    const second = applier.apply(quick, applier.nextTicket());
    expect(await second).toEqual({ superseded: false, cleared: 0 });
    expect(await first).toEqual({ superseded: true, cleared: 0 });
    expect(holder.current.summary).toMatchObject({ seed: 3, reviews: 10 });
    expect(holder.version).toBe(2);

    // A reset asked while a reseed builds wins over it too.
    const third = applier.apply(slow, applier.nextTicket());
    expect(await applier.apply({ kind: 'reset' }, applier.nextTicket())).toEqual({ superseded: false, cleared: 0 });
    expect(await third).toEqual({ superseded: true, cleared: 0 });
    expect(holder.current).toBe(holder.initial);
    expect(holder.version).toBe(4);
  });

  it('keeps answering listings, with the old data, while a million reviews are built; then serves the new data', async () => {
    const mock = await startMockServer({ seed: 1 });
    const change = { seed: 8, reviews: 1_000_000 };
    const reference = await startMockServer({ ...change, products: 8, wishlists: 45, maxItems: 35 });
    try {
      // Pages whose first answer after the swap stays cheap (no sort of a million times).
      const paths = ['/store/wishlists?take=2', '/store/products/reviews?limit=3&order=rating'];
      const before = await Promise.all(paths.map(async (path) => (await call(`${mock.url}${path}`)).text));
      const after = await Promise.all(paths.map(async (path) => (await call(`${reference.url}${path}`)).text));
      let answered = false;
      const reseed = call(`${mock.url}/__admin/dataset`, 'POST', change).finally(() => (answered = true));
      const during: { path: number; text: string; ms: number }[] = [];
      for (let i = 0; !answered; i++) {
        const res = await call(`${mock.url}${paths[i % paths.length]}`);
        expect(res.status).toBe(200);
        during.push({ path: i % paths.length, ...res });
      }
      const res = await reseed;
      expect(res.status, res.text).toBe(200);
      expect(JSON.parse(res.text).current).toMatchObject({ seed: 8, reviews: 1_000_000 });

      for (const { ms } of during) expect(ms).toBeLessThan(500);
      // Old bytes until the swap, new bytes after it, never old again.
      const era = during.map(({ path, text }) => (text === before[path] ? 'old' : text === after[path] ? 'new' : 'other'));
      expect(era).not.toContain('other');
      // Many answers while building (a build that held the event loop would allow none).
      expect(era.filter((e) => e === 'old').length).toBeGreaterThanOrEqual(3);
      expect(era.slice(era.indexOf('new') >= 0 ? era.indexOf('new') : era.length)).not.toContain('old');
      for (const [i, path] of paths.entries()) expect((await call(`${mock.url}${path}`)).text).toBe(after[i]);
    } finally {
      await reference.close();
      await mock.close();
    }
  });
});
