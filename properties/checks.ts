/**
 * The page-arithmetic checks on one response. Every expectation comes from lib/paging.ts;
 * which checks apply without --strict follows API.md's [spec] / [kit] marks.
 */
import { currentPage, pageLength, pageNumbers, totalPages } from '../lib/paging.ts';
import type { Page } from './context.ts';
import type { ListingEndpoint } from './endpoints.ts';
import { fail } from './violation.ts';

const isInt = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

/** A field that must be a non-negative integer for the arithmetic to mean anything. */
export function intField(page: Page, field: string, value: unknown): number {
  if (!isInt(value)) {
    fail({ message: `'${field}' must be a non-negative integer`, url: page.ex.url, field, expected: 'a non-negative integer', actual: value });
  }
  return value;
}

/** count, size and start as echoed (API.md: the arithmetic uses the echoed values). */
export function echoedWindow(endpoint: ListingEndpoint, page: Page): { count: number; size: number; start: number } {
  const count = intField(page, 'count', page.count);
  const size = intField(page, endpoint.sizeParam, page.size);
  const start = intField(page, endpoint.startParam, page.start);
  if (size === 0) {
    fail({ message: `'${endpoint.sizeParam}' echoes the page size in force, which is at least 1`, url: page.ex.url, field: endpoint.sizeParam, expected: '>= 1', actual: 0 });
  }
  return { count, size, start };
}

/** Envelope keys and JSON types for the dialect; null and absent are told apart exactly. */
export function checkShape(endpoint: ListingEndpoint, page: Page, strict: boolean): void {
  const { body, ex } = page;
  for (const key of ['count', endpoint.sizeParam, endpoint.startParam, 'totalPages', 'currentPage']) {
    if (!(key in body)) fail({ message: `the ${endpoint.dialect} envelope always has '${key}'`, url: ex.url, field: key, expected: 'present', actual: undefined });
    intField(page, key, body[key]);
  }
  if (!(body.currentPage as number >= 1)) {
    fail({ message: `'currentPage' is 1-based`, url: ex.url, field: 'currentPage', expected: '>= 1', actual: body.currentPage });
  }
  for (const key of ['nextPage', 'prevPage']) {
    const value = body[key];
    if (endpoint.dialect === 'reviews') {
      if (!(key in body)) {
        fail({ message: `the reviews envelope always has '${key}' (null when there is none)`, url: ex.url, field: key, expected: 'an integer or null', actual: undefined });
      }
      if (value !== null && !(isInt(value) && value >= 1)) {
        fail({ message: `'${key}' is a page number or null`, url: ex.url, field: key, expected: 'an integer >= 1 or null', actual: value });
      }
    } else if (key in body) {
      if (value === null) {
        fail({ message: `in the wishlist envelope '${key}' is absent when there is none, never null`, url: ex.url, field: key, expected: undefined, actual: null });
      }
      if (!(isInt(value) && value >= 1)) {
        fail({ message: `'${key}' is a page number when present`, url: ex.url, field: key, expected: 'an integer >= 1', actual: value });
      }
    }
  }
  if (strict && !/^application\/json\b/i.test(ex.contentType ?? '')) {
    fail({ message: 'listings answer JSON', url: ex.url, field: 'Content-Type', expected: 'application/json; charset=utf-8', actual: ex.contentType ?? undefined });
  }
}

export function checkEcho(endpoint: ListingEndpoint, page: Page, size: number, start: number): void {
  if (page.size !== size) {
    fail({ message: `'${endpoint.sizeParam}' echoes the page size in force, not the number of records returned`, url: page.ex.url, field: endpoint.sizeParam, expected: size, actual: page.size, note: `${page.records.length} records returned` });
  }
  if (page.start !== start) {
    fail({ message: `'${endpoint.startParam}' echoes the start in force`, url: page.ex.url, field: endpoint.startParam, expected: start, actual: page.start });
  }
}

export function checkLength(endpoint: ListingEndpoint, page: Page): void {
  const { count, size, start } = echoedWindow(endpoint, page);
  const expected = pageLength(count, start, size);
  if (page.records.length !== expected) {
    fail({
      message: `the page holds records ${start + 1}…min(${start + size}, ${count}): its length is max(0, min(size, count - start))`,
      url: page.ex.url,
      field: `${endpoint.recordsKey}.length`,
      expected,
      actual: page.records.length,
      note: `count ${count}, ${endpoint.startParam} ${start}, ${endpoint.sizeParam} ${size}`,
    });
  }
}

export function checkTotalPages(endpoint: ListingEndpoint, page: Page, strict: boolean): void {
  const { count, size } = echoedWindow(endpoint, page);
  if (count === 0 && !strict) return; // 0 pages for an empty set is the kit's choice
  const expected = totalPages(count, size);
  if (page.totalPages !== expected) {
    fail({ message: 'totalPages = ceil(count / size)', url: page.ex.url, field: 'totalPages', expected, actual: page.totalPages, note: `count ${count}, ${endpoint.sizeParam} ${size}` });
  }
}

/** Whether the current/next/previous page numbers are defined by the spec for this window. */
function spec(start: number, size: number, count: number) {
  const aligned = start % size === 0;
  return { current: aligned, next: aligned, prev: aligned && (start < count || start === 0) };
}

export function checkCurrentPage(endpoint: ListingEndpoint, page: Page, strict: boolean): void {
  const { count, size, start } = echoedWindow(endpoint, page);
  if (!strict && !spec(start, size, count).current) return;
  const expected = currentPage(start, size);
  if (page.currentPage !== expected) {
    fail({ message: 'currentPage = floor(start / size) + 1 (1-based: start 0 is page 1)', url: page.ex.url, field: 'currentPage', expected, actual: page.currentPage, note: `${endpoint.startParam} ${start}, ${endpoint.sizeParam} ${size}` });
  }
}

export function checkNextPrev(endpoint: ListingEndpoint, page: Page, strict: boolean): void {
  const { count, size, start } = echoedWindow(endpoint, page);
  const applies = spec(start, size, count);
  const expected = pageNumbers(count, start, size);
  const note = `count ${count}, ${endpoint.startParam} ${start}, ${endpoint.sizeParam} ${size}: totalPages ${expected.totalPages}, currentPage ${expected.currentPage}`;
  for (const key of ['nextPage', 'prevPage'] as const) {
    if (!strict && !(key === 'nextPage' ? applies.next : applies.prev)) continue;
    const want = expected[key];
    const rule = key === 'nextPage' ? 'a next page exists iff currentPage < totalPages' : 'a previous page exists iff currentPage > 1';
    if (endpoint.dialect === 'reviews') {
      if (page.body[key] !== want) fail({ message: `${rule}; none is null`, url: page.ex.url, field: key, expected: want, actual: page.body[key], note });
    } else {
      const present = key in page.body;
      const actual = present ? page.body[key] : undefined;
      if (want === null ? present : actual !== want) {
        fail({ message: `${rule}; none is an absent key`, url: page.ex.url, field: key, expected: want ?? undefined, actual, note });
      }
    }
  }
}
