/**
 * What `check` reports against the published plugins (@alphabite/medusa-reviews 0.7.2 and
 * @alphabite/medusa-wishlist 0.7.4 on Medusa 2), as data: `serve --dialect alphabite` emulates them,
 * and test/dialect-check.test.ts pins both lists against it. A run against a real Medusa with the
 * plugins (publishable key and customer token given with --header, no --product-id or
 * --wishlist-id) must give the same verdicts: import these to assert it.
 */
import type { PropertyResult } from '../../properties/index.ts';

/**
 * `check --dialect alphabite`: the plugins' bugs that hurt a storefront, as `property section`.
 * All on 4.1, which ignores limit, offset and order and always answers `count: 0`
 * (docs/dialects.md rows 7 and 8). Every other property of the four listings passes.
 */
export const ALPHABITE_CHECK_FAILURES: readonly string[] = ['limit-offset-honoured 4.1', 'count-matches-records 4.1', 'order-honoured 4.1'];

/**
 * The rules of one answer (lib/answer-rules.ts `checkListingAnswer`) that the plugins' answers to
 * @alphabite/medusa-sdk's list calls break, with the rows of docs/dialects.md that explain each: all
 * on 4.1. `echo-size-and-start`: `take: 5` whatever the limit (row 8); `records-within-count`: every
 * review (row 7) for `count: 0` (row 8). On 4.2 to 4.4 the SDK's calls break none.
 */
export const ALPHABITE_ANSWER_RULE_ROWS: Readonly<Partial<Record<string, readonly number[]>>> = {
  'echo-size-and-start': [8],
  'records-within-count': [7, 8],
};

/**
 * `check` by the spec's rules (with or without --strict) against the plugins cannot run (exit 2):
 * its first request, 4.1 with `limit`, is answered in the plugins' envelope (records under `data`,
 * `take`/`skip` echoed: docs/dialects.md row 9), so the check says the server speaks the alphabite
 * dialect instead of failing every property (lib/dialects/detect.ts).
 */
export const SPEC_CHECK_CANNOT_RUN = /^\S+ answers in the alphabite dialect, not spec: GET \S+\/store\/products\/reviews\?limit=100 answered the plugins' envelope \{data,count,[^}]*\} \(add --dialect alphabite, or point at a server that speaks the spec\)$/;

/** A run's verdicts in the shape of the lists above. */
export const verdictsOf = (results: readonly PropertyResult[]): Record<string, PropertyResult['status']> =>
  Object.fromEntries(results.map((r) => [`${r.property} ${r.section}`, r.status]));

export const failuresOf = (results: readonly PropertyResult[]): string[] => results.filter((r) => r.status === 'failed').map((r) => `${r.property} ${r.section}`);
