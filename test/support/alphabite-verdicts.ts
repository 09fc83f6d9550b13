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
 * `check --strict` (the spec's rules) against the plugins, every property and listing. 4.1 keeps
 * its records under `data` (row 9) and 4.3 refuses `take`/`skip` (row 3), so each property of
 * theirs fails at its first request; 4.2 and 4.4 list the products and wishlists found on 4.1 and
 * 4.3, so their properties are skipped for want of them, except `unknown-ids`, which needs none.
 * Without --strict the verdicts are the same for the properties that run ([spec] rules).
 */
export const SPEC_CHECK_VERDICTS: Readonly<Record<string, PropertyResult['status']>> = {
  // 4.1
  'envelope-shape 4.1': 'failed',
  'count-independent-of-paging 4.1': 'failed',
  'echo-size-and-start 4.1': 'failed',
  'page-length 4.1': 'failed',
  'total-pages 4.1': 'failed',
  'current-page 4.1': 'failed',
  'next-and-prev-page 4.1': 'failed',
  'defaults 4.1': 'failed',
  'same-request-same-body 4.1': 'failed',
  'page-contents 4.1': 'failed',
  'walk-visits-each-once 4.1': 'failed',
  'order-sorts-whole-set 4.1': 'failed',
  'bad-parameters-400 4.1': 'failed',
  'record-shape 4.1': 'failed',
  // 4.2
  'envelope-shape 4.2': 'skipped',
  'count-independent-of-paging 4.2': 'skipped',
  'echo-size-and-start 4.2': 'skipped',
  'page-length 4.2': 'skipped',
  'total-pages 4.2': 'skipped',
  'current-page 4.2': 'skipped',
  'next-and-prev-page 4.2': 'skipped',
  'defaults 4.2': 'skipped',
  'same-request-same-body 4.2': 'skipped',
  'page-contents 4.2': 'skipped',
  'walk-visits-each-once 4.2': 'skipped',
  'order-sorts-whole-set 4.2': 'skipped',
  'product-reviews-match 4.2': 'skipped',
  'bad-parameters-400 4.2': 'skipped',
  'unknown-ids 4.2': 'failed',
  'record-shape 4.2': 'skipped',
  // 4.3
  'envelope-shape 4.3': 'failed',
  'count-independent-of-paging 4.3': 'failed',
  'echo-size-and-start 4.3': 'failed',
  'page-length 4.3': 'failed',
  'total-pages 4.3': 'failed',
  'current-page 4.3': 'failed',
  'next-and-prev-page 4.3': 'failed',
  'defaults 4.3': 'failed',
  'same-request-same-body 4.3': 'failed',
  'page-contents 4.3': 'failed',
  'walk-visits-each-once 4.3': 'failed',
  'wishlist-fields-unchanged-by-paging 4.3': 'failed',
  'bad-parameters-400 4.3': 'failed',
  'record-shape 4.3': 'failed',
  // 4.4
  'envelope-shape 4.4': 'skipped',
  'count-independent-of-paging 4.4': 'skipped',
  'echo-size-and-start 4.4': 'skipped',
  'page-length 4.4': 'skipped',
  'total-pages 4.4': 'skipped',
  'current-page 4.4': 'skipped',
  'next-and-prev-page 4.4': 'skipped',
  'defaults 4.4': 'skipped',
  'same-request-same-body 4.4': 'skipped',
  'page-contents 4.4': 'skipped',
  'walk-visits-each-once 4.4': 'skipped',
  'wishlist-items-agree 4.4': 'skipped',
  'items-id-query 4.4': 'skipped',
  'bad-parameters-400 4.4': 'skipped',
  'unknown-ids 4.4': 'failed',
  'record-shape 4.4': 'skipped',
};

/** A run's verdicts in the shape of the lists above. */
export const verdictsOf = (results: readonly PropertyResult[]): Record<string, PropertyResult['status']> =>
  Object.fromEntries(results.map((r) => [`${r.property} ${r.section}`, r.status]));

export const failuresOf = (results: readonly PropertyResult[]): string[] => results.filter((r) => r.status === 'failed').map((r) => `${r.property} ${r.section}`);
