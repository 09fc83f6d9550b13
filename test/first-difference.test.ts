/**
 * properties/catalog/common.ts's firstDifference names the path only once it finds a difference (a
 * walk of two large equal bodies builds no strings). It must name the same first difference as the
 * plain recursive walk it replaced, which is kept here as the reference.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstDifference } from '../properties/catalog/common.ts';

function reference(expected: unknown, actual: unknown, path = '', extraKeysAllowed = false): { path: string; expected: unknown; actual: unknown } | undefined {
  if (Object.is(expected, actual)) return undefined;
  if (Array.isArray(expected) && Array.isArray(actual)) {
    for (let i = 0; i < Math.max(expected.length, actual.length); i++) {
      const d = reference(expected[i], actual[i], `${path}[${i}]`, extraKeysAllowed);
      if (d) return expected.length !== actual.length && i >= Math.min(expected.length, actual.length) ? { path: `${path}.length`, expected: expected.length, actual: actual.length } : d;
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
      const d = reference(e, a, path ? `${path}.${k}` : k, extraKeysAllowed);
      if (d) return d;
    }
    return undefined;
  }
  return { path: path || '(body)', expected, actual };
}

// Small keys and values, so that two generated values often share most of their shape.
const json = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(0, 1, 'a', 'b', null, true),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom('a', 'b', 'c', 'length'), tie('value'), { maxKeys: 3 }),
  ),
})).value;

describe('firstDifference', () => {
  it('names the same first difference as the plain walk, with and without extra keys allowed', () => {
    fc.assert(
      fc.property(json, json, fc.constantFrom('', 'data'), fc.boolean(), (expected, actual, path, extra) => {
        expect(firstDifference(expected, actual, path, extra)).toEqual(reference(expected, actual, path, extra));
        // A value and a copy of it with one change deep inside.
        const copy = JSON.parse(JSON.stringify(expected ?? null)) as unknown;
        expect(firstDifference(expected ?? null, copy, path, extra)).toEqual(reference(expected ?? null, copy, path, extra));
      }),
      { seed: 23, numRuns: 3000 },
    );
  });

  it('names a difference deep inside, and a length', () => {
    const body = { data: [{ id: 'a', items: [1, 2] }, { id: 'b', items: [3] }] };
    expect(firstDifference(body, { data: [{ id: 'a', items: [1, 2] }, { id: 'b', items: [4] }] })).toEqual({ path: 'data[1].items[0]', expected: 3, actual: 4 });
    expect(firstDifference(body, { data: [{ id: 'a', items: [1, 2] }] })).toEqual({ path: 'data.length', expected: 2, actual: 1 });
    expect(firstDifference([1], [1, 2])).toEqual({ path: '.length', expected: 1, actual: 2 });
    expect(firstDifference(1, 2)).toEqual({ path: '(body)', expected: 1, actual: 2 });
  });
});
