/**
 * The random uncached page's sequence: `?limit=<size>&offset=<random>&order=<random>` on the reviews
 * listing, drawn from a small deterministic generator, so that every build (this one, an older commit,
 * the GC counter) is sent the same pages in the same order.
 */
import { REVIEWS_PATH } from './peer-configs.ts';

const SEED = 20_240_101;
const ORDERS = ['created_at', '-created_at', 'updated_at', '-updated_at', 'rating', '-rating'];

/** A small deterministic generator (a 32-bit LCG), values in [0, 1). */
function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 0x100000000;
  };
}

/** A fresh generator of random page paths over `reviews` reviews: each call draws the next path. */
export function randomPagePaths(reviews: number, pageSize: number): () => string {
  const random = lcg(SEED);
  return () => {
    const offset = Math.floor(random() * (reviews - pageSize));
    return `${REVIEWS_PATH}?limit=${pageSize}&offset=${offset}&order=${ORDERS[Math.floor(random() * ORDERS.length)]}`;
  };
}

/**
 * One page in each order the random sequence draws: a server builds an order on its first request
 * for it (between other requests, about 0.1 s of CPU per order at a million reviews) and answers
 * that request once the order is built, so their answers, asked one after another, say that every
 * order is built. The bench asks them before it measures, so that a one-time build is not counted
 * as a cost per request; the answer is the signal for every build, older commits' too.
 */
export function orderPagePaths(reviews: number, pageSize: number): string[] {
  return ORDERS.map((order) => `${REVIEWS_PATH}?limit=${pageSize}&offset=${Math.floor(reviews / 2)}&order=${order}`);
}
