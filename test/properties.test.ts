/**
 * Self-test of the property suite: it passes a correct implementation (the mock, and an independent
 * reference server built on lib/paging.ts), also with --strict, and fails each deliberately broken
 * one, naming the property that catches the bug and the exact request that shows it.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../mock-server/server.ts';
import { PROPERTY_IDS } from '../properties/catalog/index.ts';
import { sizeArb, startArb, walkSizeArb } from '../properties/generators.ts';
import { failureText } from '../properties/report.ts';
import { runListingProperties, type CheckReport } from '../properties/runner.ts';
import { BUGS, startReferenceServer, type BugName, type ReferenceServer } from './support/reference-server.ts';

const RUNS = 15;
const SEED = 7;
const failedIds = (r: CheckReport) => [...new Set(r.results.filter((x) => x.status === 'failed').map((x) => x.property))];

describe('generators hit the edges', () => {
  const sample = <T>(arb: fc.Arbitrary<T>) => fc.sample(arb, { numRuns: 400, seed: 1 });

  it('page sizes include 1, count, count ± 1 and the largest size, never above it', () => {
    const sizes = sample(sizeArb(23, 100));
    for (const s of [1, 22, 23, 24, 100]) expect(sizes).toContain(s);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(100);
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(1);
    expect(Math.max(...sample(sizeArb(500, 100)))).toBe(100);
  });

  it('starts include 0, count - 1, count, unaligned ones and past the end', () => {
    const starts = sample(startArb(5, { count: 23 }));
    for (const s of [0, 20, 22, 23, 24, 25, 28, 39]) expect(starts).toContain(s);
    expect(starts.some((s) => s % 5 !== 0)).toBe(true);
  });

  it('walk sizes keep a walk within the page cap when the set allows it', () => {
    expect(Math.min(...sample(walkSizeArb(1000, 100, 50)))).toBe(20);
    expect(Math.min(...sample(walkSizeArb(10_000, 100, 50)))).toBe(100);
    // mostly sizes that make several pages, including 1, count - 1 and count
    const sizes = sample(walkSizeArb(12, 100, 50));
    for (const s of [1, 11, 12, 13]) expect(sizes).toContain(s);
    expect(sizes.filter((s) => s < 12).length).toBeGreaterThan(sizes.length / 2);
  });
});

describe('every property is shown to catch a broken implementation', () => {
  it('each property id is the expected catcher of at least one bug', () => {
    const caught = new Set<string>(Object.values(BUGS).flatMap((b) => b.caughtBy));
    expect(PROPERTY_IDS.filter((id) => !caught.has(id))).toEqual([]);
    expect(Object.keys(BUGS).length).toBeGreaterThanOrEqual(10);
  });
});

describe('passes correct implementations', () => {
  let mock: MockServer;
  let reference: ReferenceServer;
  beforeAll(async () => {
    [mock, reference] = await Promise.all([startMockServer({ seed: 1 }), startReferenceServer()]);
  });
  afterAll(async () => {
    await Promise.all([mock?.close(), reference?.close()]);
  });

  for (const strict of [false, true]) {
    it(`the mock server${strict ? ', strict' : ''}`, async () => {
      const report = await runListingProperties({ baseUrl: mock.url, seed: SEED, runs: 15, strict });
      expect(report.results.filter((r) => r.status === 'failed').map(failureText)).toEqual([]);
      expect(report.results.filter((r) => r.status === 'skipped')).toEqual([]);
      expect(report.passed).toBe(true);
      // strict adds the [kit] properties
      expect(report.results.some((r) => r.rule === 'kit')).toBe(strict);
    }, 120_000);

    it(`the bug-free reference server${strict ? ', strict' : ''}`, async () => {
      const report = await runListingProperties({ baseUrl: reference.url, seed: SEED, runs: RUNS, strict });
      expect(report.results.filter((r) => r.status === 'failed').map(failureText)).toEqual([]);
      expect(report.passed).toBe(true);
    }, 60_000);
  }

  it('passes, without --strict, a correct server that made the other choice on every [kit] rule the pacts do not pin; --strict fails it on those', async () => {
    const other = await startReferenceServer({ otherKitChoices: true });
    try {
      const spec = await runListingProperties({ baseUrl: other.url, seed: SEED, runs: RUNS });
      expect(spec.results.filter((r) => r.status === 'failed').map(failureText)).toEqual([]);
      const strict = await runListingProperties({ baseUrl: other.url, seed: SEED, runs: RUNS, strict: true });
      expect(failedIds(strict)).toEqual(
        expect.arrayContaining(['current-page', 'next-and-prev-page', 'order-sorts-whole-set', 'bad-parameters-400', 'items-id-query']),
      );
      // what the pacts pin is checked without --strict: the other server keeps those choices
      for (const pinned of ['defaults', 'total-pages', 'bad-paging-400', 'record-shape']) expect(failedIds(strict)).not.toContain(pinned);
      // only [kit] rules, or [spec] properties in their strict-only part, fail
      expect(failedIds(strict)).not.toContain('page-length');
      expect(failedIds(strict)).not.toContain('walk-visits-each-once');
    } finally {
      await other.close();
    }
  }, 60_000);

  it('varies the dataset through the provider-state door when asked (mock, strict), and restores it', async () => {
    const before = await (await fetch(`${mock.url}/store/products/reviews?limit=1`)).json();
    const report = await runListingProperties({ baseUrl: mock.url, seed: SEED, runs: 5, strict: true, varyDataset: true, properties: ['page-length', 'total-pages', 'next-and-prev-page', 'walk-visits-each-once'] });
    expect(report.results.filter((r) => r.status === 'failed').map(failureText)).toEqual([]);
    const datasets = new Set(report.results.map((r) => r.dataset).filter(Boolean));
    expect([...datasets]).toEqual(expect.arrayContaining(['reviews exist {"count":0}', 'reviews exist {"count":21}', 'wishlist has items {"wishlist_id":"wl_01PROPERTYPROBE","count":10}']));
    expect(datasets.size).toBe(15);
    const after = await (await fetch(`${mock.url}/store/products/reviews?limit=1`)).json();
    expect(after).toEqual(before);
  }, 60_000);

  it('says the dataset was not varied when the target has no provider-state door', async () => {
    const report = await runListingProperties({ baseUrl: reference.url, seed: SEED, runs: 3, varyDataset: true, properties: ['page-length'] });
    expect(report.passed).toBe(true);
    expect(report.results.every((r) => r.dataset === undefined)).toBe(true);
    expect(report.notes.join('\n')).toMatch(/no provider-state door \(POST \/__admin\/provider-states answered 404\)/);
    await expect(runListingProperties({ baseUrl: mock.url, dataset: 'carts exist' })).rejects.toThrow(/unknown dataset 'carts exist'; known: 'reviews exist \{"count":0\}'/);
  }, 30_000);

  it('caps the requests of walks and of the reference sets, and says so', async () => {
    const report = await runListingProperties({
      baseUrl: reference.url,
      seed: SEED,
      runs: 10,
      maxPageSize: 5,
      maxWalkPages: 2,
      maxReferencePages: 2,
      endpoints: ['reviews'],
      properties: ['walk-visits-each-once', 'page-contents'],
    });
    expect(report.passed).toBe(true);
    expect(report.notes.join('\n')).toMatch(/stop after 2 pages/);
    expect(report.notes.join('\n')).toMatch(/fetched the first 10/);
    // 2 reference pages per order + at most 3 walk pages per run
    const walk = report.results.find((r) => r.property === 'walk-visits-each-once')!;
    expect(walk.requests).toBeLessThanOrEqual(walk.runs * 3 + 7 * 2);
  }, 30_000);
});

describe('cannot run', () => {
  it('says so when the server allows smaller pages than --max-page-size, and runs with the right one', async () => {
    const small = await startReferenceServer({ maxPageSize: 50 });
    try {
      await expect(runListingProperties({ baseUrl: small.url, seed: SEED, runs: 5 })).rejects.toThrow(
        /answered 400 .*'limit' must be an integer from 1 to 50.*pass --max-page-size/,
      );
      const report = await runListingProperties({ baseUrl: small.url, seed: SEED, runs: 5, maxPageSize: 50, strict: true });
      expect(report.results.filter((r) => r.status === 'failed').map(failureText)).toEqual([]);
    } finally {
      await small.close();
    }
  }, 30_000);
});

describe('fails each broken implementation, with a readable, replayable counterexample', () => {
  for (const [name, bug] of Object.entries(BUGS) as Array<[BugName, (typeof BUGS)[BugName]]>) {
    it(`${name}: ${bug.does} → ${bug.caughtBy.join(', ')}${bug.strict ? ' (strict)' : ''}`, async () => {
      const server = await startReferenceServer({ bug: name });
      try {
        const report = await runListingProperties({ baseUrl: server.url, seed: SEED, runs: RUNS, strict: bug.strict });
        expect(report.passed).toBe(false);
        for (const id of bug.caughtBy) expect(failedIds(report)).toContain(id);
        const failure = report.results.find((r) => r.property === bug.caughtBy[0] && r.status === 'failed')!;
        // the exact request, the field that differs, both sides, and the command that replays it
        expect(failure.violation?.url).toMatch(new RegExp(`^${server.url}/store/`));
        expect(failure.violation?.field).toBeTruthy();
        expect(failure.violation).toHaveProperty('expected');
        expect(failure.replay).toContain(`--seed ${SEED}`);
        expect(failure.replay).toContain(`--properties ${failure.property}`);
        const text = failureText(failure);
        expect(text).toContain(`curl -sS '${failure.violation!.url}'`);
        expect(text).toMatch(/expected: .*\n {2}actual: /);

        // The printed replay path reproduces the same failing request in a single run.
        if (failure.counterexamplePath) {
          const replayed = await runListingProperties({
            baseUrl: server.url,
            seed: SEED,
            runs: RUNS,
            strict: bug.strict,
            endpoints: [failure.endpoint],
            properties: [failure.property],
            replayPath: failure.counterexamplePath,
          });
          const again = replayed.results[0]!;
          expect(again.status).toBe('failed');
          expect(again.violation?.url).toBe(failure.violation?.url);
        }
      } finally {
        await server.close();
      }
    }, 60_000);
  }
});
