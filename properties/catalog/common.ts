/** Arbitraries shared by the catalog: a listing (target) with a paging window on it. */
import fc from 'fast-check';
import { REVIEW_ORDER_VALUES } from '../../lib/api-rules.ts';
import type { CheckContext, Page, Target } from '../context.ts';
import type { Exchange } from '../http.ts';
import { sendsOrder, type ListingEndpoint } from '../endpoints.ts';
import { windowArb } from '../generators.ts';
import { countedTargets, isSkip, type Skip } from '../property.ts';

/** A generated case: plain data, so fast-check prints it readably. */
export interface WindowCase {
  /** Product or wishlist id for 4.2 / 4.4. */
  id?: string;
  size: number;
  start: number;
  order?: string;
}

export function targetOf(endpoint: ListingEndpoint, c: { id?: string }): Target {
  return c.id === undefined ? { endpoint } : { endpoint, id: c.id };
}

/** Target × window, with edges from each target's count, past the end included. */
export async function windowCases(
  ctx: CheckContext,
  endpoint: ListingEndpoint,
  options: { order?: boolean | 'always' } = {},
): Promise<fc.Arbitrary<WindowCase> | Skip> {
  const targets = await countedTargets(ctx, endpoint);
  if (isSkip(targets)) return targets;
  const orderArb: fc.Arbitrary<string | undefined> =
    !options.order || !sendsOrder(endpoint, ctx.strict)
      ? fc.constant(undefined)
      : options.order === 'always'
        ? fc.constantFrom(...REVIEW_ORDER_VALUES)
        : fc.constantFrom(undefined, ...REVIEW_ORDER_VALUES);
  return fc.constantFrom(...targets).chain(({ target, count }) =>
    fc
      .tuple(windowArb({ count, maxSize: ctx.maxPageSize }), orderArb)
      .map(([w, order]) => {
        const c: WindowCase = { ...(target.id === undefined ? {} : { id: target.id }), size: w.size, start: w.start };
        if (order !== undefined) c.order = order;
        return c;
      }),
  );
}

export function orderQuery(order: string | undefined): Array<[string, string]> {
  return order === undefined ? [] : [['order', order]];
}

/** A property whose runs each fetch one page of a generated window and check it. */
export async function pageProperty(
  ctx: CheckContext,
  endpoint: ListingEndpoint,
  check: (page: Page, c: WindowCase) => void | Promise<void>,
  options: { order?: boolean | 'always' } = {},
): Promise<fc.IAsyncProperty<[WindowCase]> | Skip> {
  const cases = await windowCases(ctx, endpoint, options);
  if (isSkip(cases)) return cases;
  return fc.asyncProperty(cases, async (c) => {
    const page = await ctx.page(targetOf(endpoint, c), { size: c.size, start: c.start }, orderQuery(c.order));
    await check(page, c);
  });
}

/**
 * The first difference between two answers' JSON bodies; none, without walking them, when their
 * texts are the same (most answers compared are: a walk of two large bodies costs more than the request).
 */
export function answerDifference(expected: Exchange, actual: Exchange): ReturnType<typeof firstDifference> {
  return expected.text === actual.text ? undefined : firstDifference(expected.json, actual.json);
}

/**
 * The first path at which two JSON values differ, with both sides there. With `extraKeysAllowed`,
 * keys that only `actual` has are not a difference (for expectations that list only what they need).
 */
export function firstDifference(
  expected: unknown,
  actual: unknown,
  path = '',
  extraKeysAllowed = false,
): { path: string; expected: unknown; actual: unknown } | undefined {
  if (Object.is(expected, actual)) return undefined;
  if (Array.isArray(expected) && Array.isArray(actual)) {
    for (let i = 0; i < Math.max(expected.length, actual.length); i++) {
      const d = firstDifference(expected[i], actual[i], `${path}[${i}]`, extraKeysAllowed);
      if (d) return expected.length !== actual.length && i >= Math.min(expected.length, actual.length)
        ? { path: `${path}.length`, expected: expected.length, actual: actual.length }
        : d;
    }
    return undefined;
  }
  if (expected && actual && typeof expected === 'object' && typeof actual === 'object' && !Array.isArray(expected) && !Array.isArray(actual)) {
    const keys = new Set(extraKeysAllowed ? Object.keys(expected) : [...Object.keys(expected), ...Object.keys(actual)]);
    for (const k of keys) {
      const e = (expected as Record<string, unknown>)[k];
      const a = (actual as Record<string, unknown>)[k];
      const ePresent = k in expected;
      const aPresent = k in actual;
      if (ePresent !== aPresent) return { path: path ? `${path}.${k}` : k, expected: ePresent ? e : undefined, actual: aPresent ? a : undefined };
      const d = firstDifference(e, a, path ? `${path}.${k}` : k, extraKeysAllowed);
      if (d) return d;
    }
    return undefined;
  }
  return { path: path || '(body)', expected, actual };
}
