/**
 * The baseline file and its comparison (lib/baseline.ts), and what a failure is for each command
 * (contracts/verify-baseline.ts, properties/check-baseline.ts, the mismatch kinds of
 * contracts/outcomes.ts), without a server: the key holds no value, the text is the same whatever
 * the order of the failures, and the comparison tells new, known, passing and unchecked apart.
 */
import { describe, expect, it } from 'vitest';
import { BaselineError, baselineText, compareWithBaseline, comparisonLines, parseBaseline } from '../lib/baseline.ts';
import { interactionOutcomes, mismatchKind, parseVerification } from '../contracts/outcomes.ts';
import { VERIFY_BASELINE, verifyBaselineEntries, type VerifyBaselineEntry } from '../contracts/verify-baseline.ts';
import { CHECK_BASELINE, checkBaselineEntries } from '../properties/check-baseline.ts';
import type { PropertyResult } from '../properties/runner.ts';
import type { ProviderResult } from '../contracts/verify.ts';

describe('the kind of a Pact mismatch: its type and where, no value', () => {
  it('array positions are [*], a header is named in lower case, a missing key is named', () => {
    expect(mismatchKind({ type: 'BodyMismatch', path: '$.reviews[3].id', expected: 'rev_1', actual: '1' })).toBe('BodyMismatch $.reviews[*].id');
    expect(mismatchKind({ type: 'BodyMismatch', path: '$.data.12.product_variant.id' })).toBe('BodyMismatch $.data[*].product_variant.id');
    expect(mismatchKind({ type: 'HeaderMismatch', key: 'Content-Type', expected: 'application/json', actual: 'text/html' })).toBe('HeaderMismatch content-type');
    expect(mismatchKind({ type: 'StatusMismatch', expected: 200, actual: 500 })).toBe('StatusMismatch');
    expect(mismatchKind({ type: 'BodyMismatch', path: '$', mismatch: 'Actual map is missing the following keys: totalPages, prevPage' })).toBe('BodyMismatch $ lacks prevPage, totalPages');
  });
});

/** Pact's JSON result for one failing interaction, as its verifier gives it. */
function pactResult(mismatches: Array<Record<string, unknown>>): string {
  return JSON.stringify({
    result: false,
    interactionResults: [
      { description: 'a request for the first page of reviews', result: 'Failed', duration: '5ms' },
      { description: 'a request for reviews when there are none', result: 'OK', duration: '5ms' },
    ],
    errors: [{ interaction: 'Verifying a pact between storefront and product-reviews Given reviews exist - a request for the first page of reviews', mismatch: { type: 'mismatches', mismatches } }],
  });
}

function providerResult(mismatches: Array<Record<string, unknown>>): ProviderResult {
  const { outcomes } = interactionOutcomes({
    interactions: [
      { description: 'a request for the first page of reviews', states: [{ name: 'reviews exist', params: { count: 12 } }], request: { method: 'GET', path: '/store/products/reviews', query: { limit: ['5'] } } },
      { description: 'a request for reviews when there are none', states: [{ name: 'no reviews exist' }], request: { method: 'GET', path: '/store/products/reviews' } },
    ],
    verification: parseVerification(pactResult(mismatches))!,
    stateFailures: [],
  });
  return { provider: 'product-reviews', consumer: 'storefront', ok: false, mismatches: [], interactions: outcomes, durationMs: 1 };
}

describe("verify's failures as a baseline records them", () => {
  const ids = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => ({ type: 'BodyMismatch', path: `$.reviews[${i}].id`, mismatch: `Expected '${prefix}${i}' to match '^rev_'`, expected: '^rev_', actual: `${prefix}${i}` }));

  it('one entry per failing interaction: states with params, the endpoint, the kinds once each; the same whatever the values and how many', () => {
    const a = verifyBaselineEntries([providerResult([...ids(5, 'x'), { type: 'BodyMismatch', path: '$.count', expected: 12, actual: 11 }])]);
    const b = verifyBaselineEntries([providerResult([{ type: 'BodyMismatch', path: '$.count', expected: 12, actual: 99 }, ...ids(2, 'other')])]);
    expect(a).toEqual([
      { consumer: 'storefront', provider: 'product-reviews', interaction: 'a request for the first page of reviews', states: ['reviews exist {"count":12}'], endpoint: '4.1 GET /store/products/reviews', kinds: ['BodyMismatch $.count', 'BodyMismatch $.reviews[*].id'] },
    ]);
    expect(b).toEqual(a);
  });

  it('the summary shows each kind once, with how many more lines of it there are', () => {
    const [failed] = providerResult(ids(5, 'x')).interactions;
    expect(failed!.distinct).toEqual([{ kind: 'BodyMismatch $.reviews[*].id', detail: expect.stringContaining('$.reviews[0].id') as unknown as string, alike: 4 }]);
    expect(failed!.mismatches).toHaveLength(5);
  });
});

const entry = (interaction: string, kinds: string[]): VerifyBaselineEntry => ({ consumer: 'storefront', provider: 'wishlist', interaction, states: [], endpoint: '4.3 GET /store/wishlists', kinds });

describe('the baseline file', () => {
  it('is the same text whatever the order of the failures: sorted, versioned, naming its command and dialect', () => {
    const one = baselineText(VERIFY_BASELINE, 'spec', [entry('b', ['X']), entry('a', ['Y'])]);
    const two = baselineText(VERIFY_BASELINE, 'spec', [entry('a', ['Y']), entry('b', ['X'])]);
    expect(one).toBe(two);
    expect(JSON.parse(one)).toMatchObject({ version: 1, tool: 'store-listing-kit verify', dialect: 'spec', failures: [{ interaction: 'a' }, { interaction: 'b' }] });
    expect(parseBaseline(VERIFY_BASELINE, 'spec', 'f.json', one)).toEqual([entry('a', ['Y']), entry('b', ['X'])]);
  });

  it('refuses, in one sentence naming the file, what is not a baseline of this command and dialect', () => {
    const text = baselineText(VERIFY_BASELINE, 'spec', [entry('a', ['Y'])]);
    const refusal = (format: typeof VERIFY_BASELINE | typeof CHECK_BASELINE, dialect: string, t: string) => {
      try {
        parseBaseline(format as typeof VERIFY_BASELINE, dialect, 'f.json', t);
      } catch (error) {
        expect(error).toBeInstanceOf(BaselineError);
        return (error as Error).message;
      }
      return 'accepted';
    };
    expect(refusal(CHECK_BASELINE, 'spec', text)).toMatch(/^the baseline f\.json was written by `store-listing-kit verify`, not `store-listing-kit check`/);
    expect(refusal(VERIFY_BASELINE, 'alphabite', text)).toMatch(/written with --dialect spec, and this run is --dialect alphabite/);
    expect(refusal(VERIFY_BASELINE, 'spec', text.replace('"version": 1', '"version": 7'))).toMatch(/has version 7/);
    expect(refusal(VERIFY_BASELINE, 'spec', text.replace('"kinds": [', '"kinds": "Y", "x": ['))).toMatch(/malformed failure 1: "kinds" must be a non-empty list of strings/);
    const twice = JSON.stringify({ ...JSON.parse(text), failures: [entry('a', ['Y']), entry('a', ['Z'])] });
    expect(refusal(VERIFY_BASELINE, 'spec', twice)).toMatch(/lists failure 2 \(.*\) twice/);
    for (const message of [refusal(VERIFY_BASELINE, 'spec', 'nope'), refusal(VERIFY_BASELINE, 'spec', '{}')]) expect(message.split('\n')).toHaveLength(1);
  });

  it("names a new file for this run's baseline, never the one given, which holds another run's", () => {
    const verifyText = baselineText(VERIFY_BASELINE, 'spec', [entry('a', ['Y'])]);
    const remedy = (format: typeof VERIFY_BASELINE | typeof CHECK_BASELINE, dialect: string, file: string, t: string) => {
      try {
        parseBaseline(format as typeof VERIFY_BASELINE, dialect, file, t);
      } catch (error) {
        return /--write-baseline (\S+)$/.exec((error as Error).message)?.[1];
      }
      return 'accepted';
    };
    // `check --baseline <verify's baseline>` used to suggest `--write-baseline` on that very file.
    expect(remedy(CHECK_BASELINE, 'spec', 'ci/verify.json', verifyText)).toBe('ci/check-spec-baseline.json');
    expect(remedy(VERIFY_BASELINE, 'alphabite', 'verify.json', verifyText)).toBe('verify-alphabite-baseline.json');
    expect(remedy(CHECK_BASELINE, 'spec', 'ci/check-spec-baseline.json', verifyText)).toBe('ci/check-baseline.new.json');
    for (const file of ['verify.json', 'ci/check-spec-baseline.json', 'package.json']) {
      for (const t of [verifyText, '[1]', '{}', verifyText.replace('"version": 1', '"version": 7')]) {
        const named = remedy(CHECK_BASELINE, 'spec', file, t);
        expect(named).toBeDefined();
        expect(named).not.toBe(file);
      }
    }
  });
});

describe('a run against its baseline', () => {
  const recorded = [entry('a', ['BodyMismatch $.count']), entry('b', ['BodyMismatch $.data', 'BodyMismatch $.take']), entry('c', ['StatusMismatch']), entry('d', ['NotVerified'])];
  const keys = (list: VerifyBaselineEntry[]) => list.map((e) => e.interaction);

  it('tells apart the new, the known, the now passing, the fewer kinds and the not checked', () => {
    const current = [entry('a', ['BodyMismatch $.count', 'BodyMismatch $.limit']), entry('b', ['BodyMismatch $.data']), entry('e', ['StatusMismatch'])];
    const passed = new Set([VERIFY_BASELINE.key(entry('c', []))]);
    const c = compareWithBaseline(VERIFY_BASELINE, recorded, current, (key) => passed.has(key));
    expect(c.added.map((a) => [a.entry.interaction, a.kinds, a.known])).toEqual([
      ['a', ['BodyMismatch $.limit'], true],
      ['e', ['StatusMismatch'], false],
    ]);
    expect(keys(c.still)).toEqual(['b']);
    expect(keys(c.passing)).toEqual(['c']);
    expect(c.fewerKinds.map((f) => [f.entry.interaction, f.gone])).toEqual([['b', ['BodyMismatch $.take']]]);
    expect(keys(c.unchecked)).toEqual(['d']);
    const lines = comparisonLines(VERIFY_BASELINE, 'f.json', c).join('\n');
    expect(lines).toContain('FAIL against the baseline f.json: 2 new failures');
    expect(lines).toContain('  NEW wishlist: a (4.3 GET /store/wishlists) (recorded, failing in a new way)\n        BodyMismatch $.limit');
    expect(lines).toContain('    - wishlist: b (4.3 GET /store/wishlists): no longer BodyMismatch $.take');
  });

  it('the recorded failures or fewer: no new one', () => {
    const c = compareWithBaseline(VERIFY_BASELINE, recorded, recorded.slice(0, 2), () => true);
    expect(c.added).toEqual([]);
    expect(comparisonLines(VERIFY_BASELINE, 'f.json', c).join('\n')).toContain('OK against the baseline f.json: no new failure (2 of 4 recorded failures still fail)');
  });
});

describe("check's failures as a baseline records them", () => {
  const result = (over: Partial<PropertyResult>): PropertyResult => ({
    property: 'page-length',
    title: 'a page holds min(limit, count - offset) records',
    rule: 'spec',
    endpoint: 'wishlists',
    section: '4.3',
    path: '/store/wishlists',
    status: 'failed',
    runs: 7,
    shrinks: 3,
    seed: 42,
    counterexample: { take: 3, skip: 9 },
    violation: { message: 'the page holds 2 records', url: 'http://x/store/wishlists?take=3', expected: 3, actual: 2 },
    requests: 12,
    durationMs: 40,
    ...over,
  });

  it('by property, endpoint and dataset: never the seed, counterexample, message or counts', () => {
    const one = checkBaselineEntries({ results: [result({}), result({ property: 'envelope-shape', status: 'passed' })] });
    const other = checkBaselineEntries({ results: [result({ seed: 7, runs: 1, counterexample: { take: 1, skip: 0 }, violation: { message: 'the page holds 0 records' }, requests: 3 })] });
    expect(other).toEqual(one);
    expect(one).toEqual([{ property: 'page-length', endpoint: '4.3 GET /store/wishlists', rule: '[spec] a page holds min(limit, count - offset) records' }]);
    expect(checkBaselineEntries({ results: [result({ dataset: 'wishlists exist {"count":0}' })] })[0]).toMatchObject({ dataset: 'wishlists exist {"count":0}' });
  });
});
