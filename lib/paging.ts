/**
 * The page arithmetic of the listing API, in one place.
 *
 * Every other module (mock server, contracts, property suite) imports these
 * functions instead of re-deriving them. Everything here is pure: numbers in,
 * numbers out, no I/O and no knowledge of records.
 *
 * Vocabulary: `count` is the number of matching records, `start` the number of
 * records skipped (`offset` / `skip`) and `size` the page size (`limit` / `take`).
 */

/** The navigation numbers shared by both dialects; `null` means "there is none". */
export interface PageNumbers {
  totalPages: number;
  /** 1-based. */
  currentPage: number;
  nextPage: number | null;
  prevPage: number | null;
}

/** Navigation metadata of the reviews endpoints (4.1, 4.2): none is `null`. */
export interface ReviewsPageMeta {
  count: number;
  limit: number;
  offset: number;
  totalPages: number;
  currentPage: number;
  nextPage: number | null;
  prevPage: number | null;
}

/** Navigation metadata of the wishlist endpoints (4.3, 4.4): none is an absent key. */
export interface WishlistPageMeta {
  count: number;
  skip: number;
  take: number;
  totalPages: number;
  currentPage: number;
  nextPage?: number;
  prevPage?: number;
}

export interface ReviewsEnvelope<T> extends ReviewsPageMeta {
  reviews: T[];
}

export interface WishlistEnvelope<T> extends WishlistPageMeta {
  data: T[];
}

function assertWindow(count: number, start: number, size: number): void {
  if (!Number.isSafeInteger(count) || count < 0) throw new RangeError(`count must be a non-negative safe integer, got ${count}`);
  if (!Number.isSafeInteger(start) || start < 0) throw new RangeError(`start must be a non-negative safe integer, got ${start}`);
  if (!Number.isSafeInteger(size) || size < 1) throw new RangeError(`size must be a positive safe integer, got ${size}`);
}

/** `ceil(count / size)`, which is 0 for an empty set. */
export function totalPages(count: number, size: number): number {
  return Math.ceil(count / size);
}

/** `floor(start / size) + 1`: the page that holds record `start + 1`, also when `start` is unaligned or past the end. */
export function currentPage(start: number, size: number): number {
  return Math.floor(start / size) + 1;
}

/** Total, current, next and previous page for a window; next/previous are `null` when there is none. */
export function pageNumbers(count: number, start: number, size: number): PageNumbers {
  assertWindow(count, start, size);
  const total = totalPages(count, size);
  const current = currentPage(start, size);
  return {
    totalPages: total,
    currentPage: current,
    nextPage: current < total ? current + 1 : null,
    prevPage: current > 1 ? current - 1 : null,
  };
}

/**
 * The positions `[from, to)` of the ordered set that the page holds:
 * records `start + 1 … min(start + size, count)`, empty past the end.
 */
export function pageSlice(count: number, start: number, size: number): { from: number; to: number } {
  assertWindow(count, start, size);
  const from = Math.min(start, count);
  const to = Math.min(count, start + size);
  return { from, to: Math.max(from, to) };
}

/** Number of records on the page: `max(0, min(size, count - start))`. */
export function pageLength(count: number, start: number, size: number): number {
  const { from, to } = pageSlice(count, start, size);
  return to - from;
}

/** The offset (`start`) at which 1-based page `page` begins for a page size. */
export function pageStart(page: number, size: number): number {
  return (page - 1) * size;
}

/** Reviews dialect: every key present, `null` where there is no next/previous page. Key order follows the spec. */
export function reviewsPageMeta(count: number, offset: number, limit: number): ReviewsPageMeta {
  const n = pageNumbers(count, offset, limit);
  return {
    count,
    limit,
    offset,
    totalPages: n.totalPages,
    currentPage: n.currentPage,
    nextPage: n.nextPage,
    prevPage: n.prevPage,
  };
}

/** Wishlist dialect: `nextPage`/`prevPage` only when there is one (never `null`). Key order follows the spec. */
export function wishlistPageMeta(count: number, skip: number, take: number): WishlistPageMeta {
  const n = pageNumbers(count, skip, take);
  const meta: WishlistPageMeta = {
    count,
    skip,
    take,
    totalPages: n.totalPages,
    currentPage: n.currentPage,
  };
  if (n.nextPage !== null) meta.nextPage = n.nextPage;
  if (n.prevPage !== null) meta.prevPage = n.prevPage;
  return meta;
}

/** A whole reviews envelope, records first as the spec lists them. */
export function reviewsEnvelope<T>(reviews: T[], count: number, offset: number, limit: number): ReviewsEnvelope<T> {
  return { reviews, ...reviewsPageMeta(count, offset, limit) };
}

/** A whole wishlist envelope, records first as the spec lists them. */
export function wishlistEnvelope<T>(data: T[], count: number, skip: number, take: number): WishlistEnvelope<T> {
  return { data, ...wishlistPageMeta(count, skip, take) };
}

/**
 * The page numbers the published alphabite plugins compute (`getPagination` in
 * @alphabite/medusa-reviews 0.7.2 and @alphabite/medusa-wishlist 0.7.4, `utils/utils.js`),
 * kept here beside the spec's so the arithmetic stays in one module. It differs from the
 * spec: `totalPages` is at least 1, `currentPage = skip / take + 1` is not floored, and
 * `nextPage`/`prevPage` are clamped into `[1, totalPages]` instead of being absent or null.
 * With `take` 0 the numbers are `Infinity`/`NaN`, which JSON writes as `null`, as the
 * plugins' answers show.
 */
export interface ClampedPageNumbers {
  count: number;
  nextPage: number;
  currentPage: number;
  prevPage: number;
  totalPages: number;
}

export function clampedPageNumbers(count: number, skip: number, take: number): ClampedPageNumbers {
  const totalPages = Math.max(Math.ceil(count / take), 1);
  const currentPage = skip / take + 1;
  return { count, nextPage: Math.min(currentPage + 1, totalPages), currentPage, prevPage: Math.max(currentPage - 1, 1), totalPages };
}

/**
 * The rules above by name, with what each computes: the dialects name the one their envelope uses
 * (`EndpointRules.pageRule`), and the mock's journal and dashboard show it beside each listing answer.
 */
export const PAGE_RULES = {
  reviewsPageMeta: {
    name: 'reviewsPageMeta',
    formula: 'totalPages = ceil(count / limit); currentPage = floor(offset / limit) + 1; nextPage, prevPage: null when there is none',
  },
  wishlistPageMeta: {
    name: 'wishlistPageMeta',
    formula: 'totalPages = ceil(count / take); currentPage = floor(skip / take) + 1; nextPage, prevPage: absent when there is none',
  },
  clampedPageNumbers: {
    name: 'clampedPageNumbers',
    formula: "the plugins' getPagination: totalPages = max(ceil(count / take), 1); currentPage = skip / take + 1 (not floored); nextPage = min(currentPage + 1, totalPages); prevPage = max(currentPage - 1, 1)",
  },
} as const;
