/**
 * The page-arithmetic checks on one response, as the properties use them: each is a rule of
 * lib/answer-rules.ts (one place per rule, shared with the validating proxy), failed on its first
 * violation with the request that shows it. Every expectation comes from lib/paging.ts; which
 * checks apply without --strict follows API.md's [spec] / [kit] marks and what the pacts pin.
 */
import {
  currentPageRule,
  echoedWindow as echoedWindowRule,
  envelopeShapeRule,
  intFieldRule,
  nextPrevRule,
  pageLengthRule,
  specEchoRule,
  totalPagesRule,
} from '../lib/answer-rules.ts';
import type { Page } from './context.ts';
import type { ListingEndpoint } from './endpoints.ts';
import { failOnFirst, failWith } from './violation.ts';

/** A field that must be a non-negative integer for the arithmetic to mean anything. */
export function intField(page: Page, field: string, value: unknown): number {
  const broken = intFieldRule('page-length', field, value);
  if (broken) failWith(page.ex.url, broken);
  return value as number;
}

/** count, size and start as echoed (API.md: the arithmetic uses the echoed values). */
export function echoedWindow(endpoint: ListingEndpoint, page: Page): { count: number; size: number; start: number } {
  const window = echoedWindowRule('page-length', endpoint, page);
  if ('rule' in window) failWith(page.ex.url, window);
  return window;
}

/** Envelope keys and JSON types for the dialect; null and absent are told apart exactly. */
export function checkShape(endpoint: ListingEndpoint, page: Page): void {
  failOnFirst(page.ex.url, envelopeShapeRule(endpoint, page, page.ex.contentType));
}

export function checkEcho(endpoint: ListingEndpoint, page: Page, size: number, start: number): void {
  failOnFirst(page.ex.url, specEchoRule(endpoint, page, size, start));
}

export function checkLength(endpoint: ListingEndpoint, page: Page): void {
  failOnFirst(page.ex.url, pageLengthRule(endpoint, page));
}

export function checkTotalPages(endpoint: ListingEndpoint, page: Page): void {
  failOnFirst(page.ex.url, totalPagesRule(endpoint, page));
}

export function checkCurrentPage(endpoint: ListingEndpoint, page: Page, strict: boolean): void {
  failOnFirst(page.ex.url, currentPageRule(endpoint, page, strict));
}

export function checkNextPrev(endpoint: ListingEndpoint, page: Page, strict: boolean): void {
  failOnFirst(page.ex.url, nextPrevRule(endpoint, page, strict));
}
