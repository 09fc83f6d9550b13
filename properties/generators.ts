/**
 * Paging windows that hit the edges, not just random middles: size 1, size = count, count ± 1,
 * the largest size; start 0, aligned page starts, count - 1, count, past the end, unaligned.
 * Every generator is bounded by the largest page size the suite may ask for.
 */
import fc from 'fast-check';
import { currentPage, pageStart, totalPages } from '../lib/paging.ts';

export interface WindowBounds {
  /** The listing's count (as the target answered it). */
  count: number;
  /** The largest page size the suite asks for. */
  maxSize: number;
}

const unique = (xs: number[]) => [...new Set(xs)];

/** Page sizes: the edges first (fast-check shrinks towards the first), then any size. */
export function sizeArb(count: number, maxSize: number, minSize = 1): fc.Arbitrary<number> {
  const clip = (n: number) => Math.min(maxSize, Math.max(minSize, n));
  const edges = unique([minSize, clip(1), clip(2), clip(count), clip(count - 1), clip(count + 1), clip(maxSize)]);
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...edges) },
    { weight: 2, arbitrary: fc.integer({ min: minSize, max: clip(Math.max(count + 1, 10)) }) },
    { weight: 1, arbitrary: fc.integer({ min: minSize, max: maxSize }) },
  );
}

/**
 * Starts for a page size: 0, aligned page starts, count - 1, count, past the end, unaligned.
 * Past the end is the spec's case too (skipping more records than there are is an empty
 * page); only its exact prevPage is the kit's choice.
 */
export function startArb(size: number, { count }: Pick<WindowBounds, 'count'>): fc.Arbitrary<number> {
  const lastAligned = pageStart(currentPage(Math.max(count - 1, 0), size), size);
  const edges = [0, lastAligned, Math.max(count - 1, 0), count, count + 1, lastAligned + size, count + size, count + 3 * size + 1];
  const pages = totalPages(count, size);
  const limit = count + 2 * size;
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...unique(edges)) },
    { weight: 2, arbitrary: fc.integer({ min: 0, max: Math.max(pages - 1, 0) }).map((p) => p * size) },
    { weight: 2, arbitrary: fc.integer({ min: 0, max: limit }) },
  );
}

export interface SizedWindow {
  size: number;
  start: number;
}

export function windowArb(bounds: WindowBounds): fc.Arbitrary<SizedWindow> {
  return sizeArb(bounds.count, bounds.maxSize).chain((size) => startArb(size, bounds).map((start) => ({ size, start })));
}

/**
 * Page sizes for walking a whole set: at most `maxPages` pages when the set allows it
 * (a set larger than maxPages × maxSize is walked partly; the walk says so).
 */
export function walkSizeArb(count: number, maxSize: number, maxPages: number): fc.Arbitrary<number> {
  const minSize = Math.min(maxSize, Math.max(1, Math.ceil(count / maxPages)));
  const clip = (n: number) => Math.min(maxSize, Math.max(minSize, n));
  // Mostly sizes that make several pages: a walk of one page shows little.
  const edges = unique([minSize, clip(2), clip(Math.ceil(count / 3)), clip(Math.ceil(count / 2)), clip(count - 1), clip(count), clip(count + 1)]);
  return fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom(...edges) },
    { weight: 2, arbitrary: fc.integer({ min: minSize, max: clip(count + 1) }) },
  );
}
