import { REVIEW_ORDER_VALUES, parseReviewOrder, type ReviewOrder } from '../lib/api-rules.ts';
import { invalidRequest, quote } from './errors.ts';

/**
 * The query-parameter rules of API.md, in one place:
 * - only the endpoint's own parameters, each at most once;
 * - integers as plain decimal digits, at most Number.MAX_SAFE_INTEGER, within bounds;
 * - `order` one of the allowed fields, `-` prefixed for descending.
 */

/** The raw query of a request URL, checked for unknown and repeated parameters. */
export function readQuery(url: string, accepted: readonly string[]): Map<string, string> {
  const at = url.indexOf('?');
  const query = new Map<string, string>();
  if (at < 0) return query;
  for (const [name, value] of new URLSearchParams(url.slice(at + 1))) {
    if (!accepted.includes(name)) {
      throw invalidRequest(`unknown query parameter ${quote(name)}; accepted parameters: ${accepted.join(', ')}`);
    }
    if (query.has(name)) throw invalidRequest(`${quote(name)} must be given at most once`);
    query.set(name, value);
  }
  return query;
}

const DIGITS = /^[0-9]+$/;

/** An integer parameter in [min, max], or its default when absent. */
export function integerParam(query: Map<string, string>, name: string, bounds: { min: number; max: number; fallback: number }): number {
  const raw = query.get(name);
  if (raw === undefined) return bounds.fallback;
  const value = DIGITS.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < bounds.min || value > bounds.max) {
    throw invalidRequest(`${quote(name)} must be an integer from ${bounds.min} to ${bounds.max}, got ${quote(raw)}`);
  }
  return value;
}

export function orderParam(query: Map<string, string>, fallback: ReviewOrder): ReviewOrder {
  const raw = query.get('order');
  if (raw === undefined) return fallback;
  const order = parseReviewOrder(raw);
  if (!order) throw invalidRequest(`'order' must be one of ${REVIEW_ORDER_VALUES.join(', ')}, got ${quote(raw)}`);
  return order;
}
