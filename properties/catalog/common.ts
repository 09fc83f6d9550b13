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
  // The walk names no path until it finds a difference: most walks find none, over large bodies.
  const found = differenceIn(expected, actual, extraKeysAllowed);
  if (!found) return undefined;
  let at = path;
  for (let i = found.steps.length - 1; i >= 0; i--) {
    const step = found.steps[i]!;
    at = typeof step === 'number' ? `${at}[${step}]` : step === LENGTH_STEP ? `${at}.length` : at ? `${at}.${step.key}` : step.key;
  }
  return { path: at || '(body)', expected: found.expected, actual: found.actual };
}

/** The steps of a path: an index, a key, or the length of the array before it. */
const LENGTH_STEP = Symbol('length');
type Step = number | { key: string } | typeof LENGTH_STEP;
/** A difference found, its steps from the inside out. */
interface Found {
  steps: Step[];
  expected: unknown;
  actual: unknown;
}

function differenceIn(expected: unknown, actual: unknown, extraKeysAllowed: boolean): Found | undefined {
  if (Object.is(expected, actual)) return undefined;
  if (Array.isArray(expected) && Array.isArray(actual)) {
    const longer = Math.max(expected.length, actual.length);
    for (let i = 0; i < longer; i++) {
      const d = differenceIn(expected[i], actual[i], extraKeysAllowed);
      if (!d) continue;
      if (expected.length !== actual.length && i >= Math.min(expected.length, actual.length)) return { steps: [LENGTH_STEP], expected: expected.length, actual: actual.length };
      d.steps.push(i);
      return d;
    }
    return undefined;
  }
  if (expected && actual && typeof expected === 'object' && typeof actual === 'object' && !Array.isArray(expected) && !Array.isArray(actual)) {
    const e = expected as Record<string, unknown>;
    const a = actual as Record<string, unknown>;
    for (const k of Object.keys(e)) {
      const d = keyDifference(e, a, k, extraKeysAllowed);
      if (d) return d;
    }
    if (!extraKeysAllowed) {
      for (const k of Object.keys(a)) {
        if (Object.hasOwn(e, k)) continue;
        const d = keyDifference(e, a, k, extraKeysAllowed);
        if (d) return d;
      }
    }
    return undefined;
  }
  return { steps: [], expected, actual };
}

function keyDifference(expected: Record<string, unknown>, actual: Record<string, unknown>, k: string, extraKeysAllowed: boolean): Found | undefined {
  const ePresent = k in expected;
  const aPresent = k in actual;
  const d: Found | undefined =
    ePresent !== aPresent
      ? { steps: [], expected: ePresent ? expected[k] : undefined, actual: aPresent ? actual[k] : undefined }
      : differenceIn(expected[k], actual[k], extraKeysAllowed);
  d?.steps.push({ key: k });
  return d;
}
