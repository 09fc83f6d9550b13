/**
 * The fixed choices of the listing API (the spec plus docs/API.md, copied into the
 * kit so that users need nothing beside it): defaults, limits, order fields, paths.
 */

export const REVIEWS_DEFAULT_LIMIT = 20;
export const REVIEWS_DEFAULT_OFFSET = 0;
/** Spec section 8. */
export const WISHLIST_DEFAULT_TAKE = 10;
/** Spec section 8. */
export const WISHLIST_DEFAULT_SKIP = 0;
/** The mock server's default for the largest `limit` / `take` it accepts. */
export const DEFAULT_MAX_PAGE_SIZE = 1000;
/**
 * The smallest maximum page size a server may be given: the largest default page size. A
 * lower maximum would have to answer a request without `limit`/`take` with a page size
 * other than the documented default, which no client and no contract expects.
 */
export const MIN_MAX_PAGE_SIZE = Math.max(REVIEWS_DEFAULT_LIMIT, WISHLIST_DEFAULT_TAKE);
/**
 * The most records one answer of the mock holds: reviews, wishlists and wishlist items each count
 * one, so a wishlist of the spec dialect counts one plus its embedded items. On the reference
 * machine (2 shared cores) a page of this many records is written in well under a second, so every
 * answer arrives promptly and no client waits long behind another's page. A request for more is
 * refused with a 400 that says what to ask for instead (docs/API.md, docs/operations.md).
 */
export const MAX_ANSWER_RECORDS = 5_000;
/**
 * The most characters of JSON one answer holds (its bytes, for ASCII text). Generated records stay far below it (5,000 of them
 * are about 3 MB); it bounds records given in full (a fixtures file) whose text is unusually long.
 */
export const MAX_ANSWER_CHARS = 32 * 1024 * 1024;
/**
 * The most items one wishlist may hold in the mock: a page of the default `take` of wishlists embeds
 * every item of each (4.3 in the spec dialect), and must fit in one answer.
 */
export const MAX_WISHLIST_ITEMS = MAX_ANSWER_RECORDS / WISHLIST_DEFAULT_TAKE - 1;
/** The largest maximum page size a server may be given: a page of that many records must fit in one answer. */
export const MAX_MAX_PAGE_SIZE = MAX_ANSWER_RECORDS;

/** Throws a RangeError, in one sentence, unless `value` is an allowed maximum page size. */
export function assertMaxPageSize(value: number): void {
  if (!Number.isSafeInteger(value) || value < MIN_MAX_PAGE_SIZE || value > MAX_MAX_PAGE_SIZE) {
    throw new RangeError(
      `the maximum page size must be a whole number from ${MIN_MAX_PAGE_SIZE} (the default limit, so that a request without limit/take gets the documented default) to ${MAX_MAX_PAGE_SIZE}, got ${value}`,
    );
  }
}

export const REVIEW_ORDER_FIELDS = ['created_at', 'updated_at', 'rating'] as const;
export type ReviewOrderField = (typeof REVIEW_ORDER_FIELDS)[number];

/** A parsed `order` value: a field, descending when the query value had a `-` prefix. */
export interface ReviewOrder {
  field: ReviewOrderField;
  descending: boolean;
}

/** Without `order`: `created_at` ascending (ties by `id` ascending, as always). */
export const DEFAULT_REVIEW_ORDER: ReviewOrder = { field: 'created_at', descending: false };

/** Every accepted `order` query value, ascending then descending per field. */
export const REVIEW_ORDER_VALUES: readonly string[] = REVIEW_ORDER_FIELDS.flatMap((f) => [f, `-${f}`]);

export function parseReviewOrder(value: string): ReviewOrder | undefined {
  const descending = value.startsWith('-');
  const field = descending ? value.slice(1) : value;
  return (REVIEW_ORDER_FIELDS as readonly string[]).includes(field)
    ? { field: field as ReviewOrderField, descending }
    : undefined;
}

export function formatReviewOrder(order: { field: string; descending: boolean }): string {
  return order.descending ? `-${order.field}` : order.field;
}

export const PATHS = {
  reviews: '/store/products/reviews',
  productReviews: '/store/reviews/product/:product_id',
  wishlists: '/store/wishlists',
  wishlistItems: '/store/wishlists/:id/items',
} as const;

export type EndpointName = keyof typeof PATHS;
export const ENDPOINT_NAMES = Object.keys(PATHS) as EndpointName[];

/** The section of the spec that describes each listing. */
export const SECTIONS: Record<EndpointName, string> = { reviews: '4.1', productReviews: '4.2', wishlists: '4.3', wishlistItems: '4.4' };
