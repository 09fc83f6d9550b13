/**
 * The orders a first request needs are built between requests, one build at a time (issue 27, "the
 * uncached page is back"): a client paging at random right after start asks for every order at
 * once, and builds interleaved held all their intermediate arrays at once (about 100 MB at a million
 * reviews), which left the server larger and every later request dearer. These checks count the
 * order the builds' steps ran in, not time.
 */
import { describe, expect, it } from 'vitest';
import { generateDataset } from '../fixtures/dataset.ts';
import type { Steps } from '../fixtures/steps.ts';
import { DatasetHolder } from '../mock-server/dataset/holder.ts';
import { listingAnswers } from '../mock-server/front/app.ts';
import { SLICE_MS } from '../mock-server/dataset/builder.ts';

/** Steps that note each step in `log`, the first one lasting past a slice so that the builder lets others run. */
function* noted(name: string, log: string[], steps: number): Steps<void> {
  for (let i = 0; i < steps; i++) {
    if (i === 0) for (const start = performance.now(); performance.now() - start <= SLICE_MS; );
    log.push(`${name}${i}`);
    yield;
  }
}

describe('building what first requests need', () => {
  const answers = () => listingAnswers(new DatasetHolder(generateDataset({ seed: 5, reviews: 50, products: 3, wishlists: 2, maxItems: 2 })), {});

  it('runs one build at a time, in the order asked, even when each lets requests run between its slices', async () => {
    const listing = answers();
    listing.bodies();
    const log: string[] = [];
    const first = listing.build({ key: 'a', steps: noted('a', log, 3) });
    const second = listing.build({ key: 'b', steps: noted('b', log, 3) });
    await Promise.all([first, second]);
    expect(log).toEqual(['a0', 'a1', 'a2', 'b0', 'b1', 'b2']);
  });

  it('gives a request the build already asked for the same thing, and goes on after a build that failed', async () => {
    const listing = answers();
    listing.bodies();
    const log: string[] = [];
    const failing = (function* (): Steps<void> {
      log.push('x0');
      yield;
      throw new Error('broken');
    })();
    const broken = listing.build({ key: 'x', steps: failing });
    const a = listing.build({ key: 'a', steps: noted('a', log, 2) });
    expect(listing.build({ key: 'a', steps: noted('again', log, 2) })).toBe(a);
    await expect(broken).rejects.toThrow('broken');
    await a;
    expect(log).toEqual(['x0', 'a0', 'a1']);
  });

  it('builds every review order of a real dataset when they are asked at once', async () => {
    const listing = answers();
    const table = listing.bodies().dataset.reviews;
    const orders = (['created_at', 'updated_at', 'rating'] as const).flatMap((field) => [false, true].map((descending) => ({ field, descending })));
    await Promise.all(orders.map((order) => listing.build({ key: `${order.descending ? '-' : ''}${order.field}`, steps: table.prepare(order, false) })));
    for (const order of orders) expect(table.isPrepared(order, false)).toBe(true);
  });
});
