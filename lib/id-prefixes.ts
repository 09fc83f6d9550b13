/**
 * How record ids look (API.md, "Records"): a prefix per kind of record, `_`, and at least one
 * character that is not white space. Without zod, so that the data generator can check a given
 * catalogue's ids (fixtures/catalogue.ts) without loading it at start-up; lib/records.ts's schemas
 * are built from the same rule.
 */

/** The id prefix of each kind of record (`rev_…`, `prod_…`, ...). */
export const ID_PREFIXES = { review: 'rev', product: 'prod', wishlist: 'wl', item: 'wli', variant: 'variant', salesChannel: 'sc', customer: 'cus' } as const;

/** The pattern of an id with that prefix. */
export function idPattern(prefix: string): RegExp {
  return new RegExp(`^${prefix}_\\S+$`);
}

/** What is wrong with an id that does not match `idPattern(prefix)`. */
export function idPatternMessage(prefix: string): string {
  return `must be a string id starting with '${prefix}_'`;
}
