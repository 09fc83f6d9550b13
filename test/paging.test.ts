import { describe, expect, it } from 'vitest';
import {
  currentPage,
  pageLength,
  pageNumbers,
  pageSlice,
  pageStart,
  reviewsEnvelope,
  reviewsPageMeta,
  totalPages,
  wishlistEnvelope,
  wishlistPageMeta,
} from '../lib/paging.ts';

/** An independent model: cut the records 0..count-1 into pages of `size` and look the window up. */
function chunkModel(count: number, start: number, size: number) {
  const pages: number[][] = [];
  for (let i = 0; i < count; i += size) pages.push(Array.from({ length: Math.min(size, count - i) }, (_, k) => i + k));
  const records = Array.from({ length: count }, (_, i) => i).filter((i) => i >= start && i < start + size);
  const page = Math.floor(start / size) + 1;
  return { pages: pages.length, records, page };
}

describe('page arithmetic', () => {
  it('numbers the first, a middle, the last and an only page', () => {
    expect(pageNumbers(25, 0, 10)).toEqual({ totalPages: 3, currentPage: 1, nextPage: 2, prevPage: null });
    expect(pageNumbers(25, 10, 10)).toEqual({ totalPages: 3, currentPage: 2, nextPage: 3, prevPage: 1 });
    expect(pageNumbers(25, 20, 10)).toEqual({ totalPages: 3, currentPage: 3, nextPage: null, prevPage: 2 });
    expect(pageNumbers(7, 0, 10)).toEqual({ totalPages: 1, currentPage: 1, nextPage: null, prevPage: null });
  });

  it('has no pages for an empty set, and page 1 is still current', () => {
    expect(pageNumbers(0, 0, 10)).toEqual({ totalPages: 0, currentPage: 1, nextPage: null, prevPage: null });
    expect(pageSlice(0, 0, 10)).toEqual({ from: 0, to: 0 });
  });

  it('rounds totalPages up, never down', () => {
    expect(totalPages(20, 10)).toBe(2);
    expect(totalPages(21, 10)).toBe(3);
    expect(totalPages(19, 10)).toBe(2);
    expect(totalPages(1, 1000)).toBe(1);
  });

  it('floors an unaligned start to the page that holds its first record', () => {
    expect(currentPage(15, 10)).toBe(2);
    expect(currentPage(9, 10)).toBe(1);
    expect(currentPage(10, 10)).toBe(2);
    expect(pageNumbers(25, 15, 10)).toEqual({ totalPages: 3, currentPage: 2, nextPage: 3, prevPage: 1 });
  });

  it('past the end: empty page, no next page, the previous page still given', () => {
    expect(pageNumbers(25, 50, 10)).toEqual({ totalPages: 3, currentPage: 6, nextPage: null, prevPage: 5 });
    expect(pageLength(25, 50, 10)).toBe(0);
    expect(pageSlice(25, 50, 10)).toEqual({ from: 25, to: 25 });
  });

  it('agrees with cutting the set into pages, for every small window', () => {
    for (let count = 0; count <= 23; count++) {
      for (let size = 1; size <= 12; size++) {
        for (let start = 0; start <= count + size + 2; start++) {
          const model = chunkModel(count, start, size);
          const { from, to } = pageSlice(count, start, size);
          const numbers = pageNumbers(count, start, size);
          expect(Array.from({ length: to - from }, (_, k) => from + k)).toEqual(model.records);
          expect(numbers.totalPages).toBe(model.pages);
          expect(numbers.currentPage).toBe(model.page);
          expect(numbers.nextPage).toBe(model.page < model.pages ? model.page + 1 : null);
          expect(numbers.prevPage).toBe(model.page > 1 ? model.page - 1 : null);
        }
      }
    }
  });

  it('pageStart is where currentPage begins', () => {
    for (let size = 1; size <= 9; size++) for (let page = 1; page <= 9; page++) expect(currentPage(pageStart(page, size), size)).toBe(page);
  });

  it('keeps huge offsets exact', () => {
    const start = Number.MAX_SAFE_INTEGER;
    expect(pageNumbers(10, start, 1000)).toMatchObject({ currentPage: Math.floor(start / 1000) + 1, nextPage: null });
    expect(pageLength(10, start, 1000)).toBe(0);
  });

  it('refuses windows that are not whole numbers', () => {
    expect(() => pageNumbers(10, 0, 0)).toThrow(RangeError);
    expect(() => pageNumbers(10, -1, 10)).toThrow(RangeError);
    expect(() => pageNumbers(10, 1.5, 10)).toThrow(RangeError);
    expect(() => pageNumbers(-1, 0, 10)).toThrow(RangeError);
  });
});

describe('envelope dialects', () => {
  it('reviews: every key present, null for none, in the spec order', () => {
    const envelope = reviewsEnvelope(['a'], 1, 0, 20);
    expect(Object.keys(envelope)).toEqual(['reviews', 'count', 'limit', 'offset', 'totalPages', 'currentPage', 'nextPage', 'prevPage']);
    expect(envelope).toEqual({ reviews: ['a'], count: 1, limit: 20, offset: 0, totalPages: 1, currentPage: 1, nextPage: null, prevPage: null });
  });

  it('wishlists: next and previous only when there is one, never null', () => {
    expect(Object.keys(wishlistPageMeta(5, 0, 10))).toEqual(['count', 'skip', 'take', 'totalPages', 'currentPage']);
    expect(wishlistPageMeta(25, 10, 10)).toEqual({ count: 25, skip: 10, take: 10, totalPages: 3, currentPage: 2, nextPage: 3, prevPage: 1 });
    const first = wishlistEnvelope([], 25, 0, 10);
    expect('prevPage' in first).toBe(false);
    expect(first.nextPage).toBe(2);
    const last = wishlistEnvelope([], 25, 20, 10);
    expect('nextPage' in last).toBe(false);
    expect(JSON.stringify(last)).not.toContain('null');
  });

  it('echoes the page size asked for, not the number of records returned', () => {
    expect(reviewsPageMeta(3, 0, 20).limit).toBe(20);
    expect(wishlistPageMeta(3, 0, 10).take).toBe(10);
  });
});
