/**
 * Why the spec's pacts (consumer `storefront`) fail against the published plugins: each mismatch
 * `verify` reports, mapped to the row of the spec-differences table of docs/dialects.md that
 * explains it. A mismatch no rule explains is a difference the table does not list.
 */
import type { Mismatch } from '../../contracts/verify.ts';

interface Rule {
  row: number;
  /** The interaction, as Pact names it: `Given <state> - <description>`. */
  interaction: RegExp;
  detail: RegExp;
}

/** 4.1: the reviews of every product (states `reviews exist`, `no reviews exist`). */
const ALL_REVIEWS = /^Given (no )?reviews exist - /;
/** 4.2: a product's reviews. */
const PRODUCT_REVIEWS = /^Given product has reviews - /;
const REVIEWS = /^Given (no reviews exist|reviews exist|product has reviews) - /;
/** 4.3 and 4.4. */
const WISHLISTS = /^Given (no wishlists exist|wishlists exist|wishlist has items) - /;
/** The wishlist requests that page with skip/take (all but the ?id= one and the unknown wishlist). */
const PAGED_WISHLISTS = /^Given (no wishlists exist - a request for wishlists |wishlists exist - |wishlist has items - (?!.*\?id=))/;
const MISSING_ENVELOPE = /^BodyMismatch \$: expected keys including .*\bcount\b.*\bdata\b.*, got /;

export const SPEC_PACT_RULES: readonly Rule[] = [
  // row 3: skip/take are refused, and the defaults are limit 20 / offset 0 (the spec: take 10)
  { row: 3, interaction: PAGED_WISHLISTS, detail: /^StatusMismatch expected 200, got 400$/ },
  { row: 3, interaction: PAGED_WISHLISTS, detail: MISSING_ENVELOPE },
  { row: 3, interaction: /^Given (wishlists exist|wishlist has items) - .*without paging parameters/, detail: /^BodyMismatch \$\.(take: expected 10, got 20|data: expected have maximum size of 10, got |totalPages: expected \d+, got \d+$)/ },
  // row 5: a negative offset on 4.2 fails in the database
  { row: 5, interaction: new RegExp(`${PRODUCT_REVIEWS.source}.*negative offset`), detail: /^(StatusMismatch expected 400, got 500|BodyMismatch \$\.type: expected "invalid_data", got "unknown_error"|BodyMismatch \$\.message: expected match .*, got 'An unknown error occurred\.')$/ },
  // row 7: 4.1 ignores limit (so a negative one is no error)
  { row: 7, interaction: new RegExp(`${ALL_REVIEWS.source}.*negative limit`), detail: /^(StatusMismatch expected 400, got 200|BodyMismatch \$: expected keys including message, type, got .*)$/ },
  // row 8: 4.1's numbers are constant (count 0, every page number 1)
  { row: 8, interaction: ALL_REVIEWS, detail: /^BodyMismatch \$\.(count|currentPage|nextPage|prevPage|totalPages): expected (\d+|null), got [01]$/ },
  // row 9: records under data, take/skip echoed (no reviews, limit, offset)
  { row: 9, interaction: REVIEWS, detail: /^BodyMismatch \$: expected keys including limit, offset, reviews, got .*$/ },
  // row 10: totalPages is 1 when empty
  { row: 10, interaction: PRODUCT_REVIEWS, detail: /^BodyMismatch \$\.totalPages: expected 0, got 1$/ },
  // row 12: nextPage/prevPage are clamped, never null
  { row: 12, interaction: PRODUCT_REVIEWS, detail: /^BodyMismatch \$\.(nextPage|prevPage): expected null, got \d+$/ },
  // row 21: ?id= is an unrecognized field
  { row: 21, interaction: /^Given wishlist has items - .*\?id=/, detail: /^(StatusMismatch expected 200, got 400|BodyMismatch \$: expected keys including .*, got .*)$/ },
  // row 22: an unknown wishlist is an empty page, not a 404
  { row: 22, interaction: /^Given no wishlists exist - .*does not exist/, detail: /^(StatusMismatch expected 404, got 200|BodyMismatch \$: expected keys including message, type, got .*)$/ },
  // row 23: a wishlist is its own columns, without items
  { row: 23, interaction: WISHLISTS, detail: /^BodyMismatch \$\.data\[\d+\]: expected keys including items, items_count, got .*$/ },
  // row 24: an item is the plugin's default fields
  { row: 24, interaction: WISHLISTS, detail: /^BodyMismatch \$\.data\[\d+\](\.product_variant(\.product)?)?: expected keys including (created_at, updated_at|sku|title), got .*$/ },
];

/** The row of docs/dialects.md that explains a mismatch, or undefined. */
export function rowOf(mismatch: Mismatch): number | undefined {
  const interaction = mismatch.interaction.replace(/^Verifying a pact between \S+ and \S+ /, '');
  return SPEC_PACT_RULES.find((r) => r.interaction.test(interaction) && r.detail.test(mismatch.detail))?.row;
}

/** Each failing interaction with the rows that explain its mismatches (`?` for one no row explains). */
export function rowsByInteraction(mismatches: readonly Mismatch[]): Record<string, string> {
  const rows = new Map<string, Set<string>>();
  for (const m of mismatches) {
    const name = m.interaction.replace(/^Verifying a pact between \S+ and \S+ /, '');
    const set = rows.get(name) ?? new Set<string>();
    set.add(String(rowOf(m) ?? '?'));
    rows.set(name, set);
  }
  return Object.fromEntries([...rows].sort(([a], [b]) => a.localeCompare(b)).map(([name, set]) => [name, [...set].sort((a, b) => Number(a) - Number(b)).join(', ')]));
}
