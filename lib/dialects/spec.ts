/**
 * The spec dialect: the listing spec plus docs/API.md, as the mock server has always
 * answered. Strict parameters, 1-based floored page numbers, `null` (reviews) or absent
 * (wishlists) next/previous pages, 404 for an unknown wishlist.
 */
import {
  DEFAULT_REVIEW_ORDER,
  REVIEW_ORDER_VALUES,
  REVIEWS_DEFAULT_LIMIT,
  REVIEWS_DEFAULT_OFFSET,
  WISHLIST_DEFAULT_SKIP,
  WISHLIST_DEFAULT_TAKE,
  parseReviewOrder,
} from '../api-rules.ts';
import { PAGE_RULES, reviewsPageMeta, wishlistPageMeta } from '../paging.ts';
import { integerParam, QueryError, quote, strictQuery } from '../query.ts';
import { refusal, type Dialect, type EndpointName, type EndpointRules, type ListingQuery, type ListingRequest, type Refusal } from './types.ts';

export interface SpecDialectOptions {
  /** The largest `limit` / `take` accepted. */
  maxPageSize: number;
}

/** 400 `invalid_data` with the message of API.md. */
export function invalidData(detail: string): Refusal {
  return refusal(400, { type: 'invalid_data', message: `Invalid request: ${detail}` });
}

/** Runs a reader, turning a broken query rule into its 400. */
function reading(read: () => ListingQuery): ListingQuery | Refusal {
  try {
    return read();
  } catch (error) {
    if (error instanceof QueryError) return invalidData(error.message);
    throw error;
  }
}

/** Why `limit`/`offset` are refused on a wishlist listing, and what to do about it. */
export const WISHLIST_PAGING_HINT =
  "wishlists page with 'skip' and 'take'. 'limit'/'offset' is what @alphabite/medusa-sdk sends (the published plugins' dialect): start the mock with --dialect alphabite to answer it";

const wishlistHint = (name: string) => (name === 'limit' || name === 'offset' ? WISHLIST_PAGING_HINT : undefined);

const paged = (window: ListingQuery['window']) => {
  if (window === 'all') throw new Error('the spec dialect always pages');
  return window;
};

/** Each endpoint's accepted query parameters, in the order a refusal lists them. */
export const SPEC_ACCEPTED = {
  reviews: ['limit', 'offset', 'order'],
  productReviews: ['limit', 'offset', 'order'],
  wishlists: ['skip', 'take'],
  wishlistItems: ['skip', 'take', 'id'],
} as const satisfies Record<EndpointName, readonly string[]>;

/** The integer parameters' bounds and defaults: what `read` enforces and the OpenAPI document states. */
export function specIntegerBounds(maxPageSize: number) {
  const size = (fallback: number) => ({ min: 1, max: maxPageSize, fallback });
  const start = (fallback: number) => ({ min: 0, max: Number.MAX_SAFE_INTEGER, fallback });
  return { limit: size(REVIEWS_DEFAULT_LIMIT), offset: start(REVIEWS_DEFAULT_OFFSET), take: size(WISHLIST_DEFAULT_TAKE), skip: start(WISHLIST_DEFAULT_SKIP) };
}

export function specDialect({ maxPageSize }: SpecDialectOptions): Dialect {
  const bounds = specIntegerBounds(maxPageSize);

  const reviews: EndpointRules = {
    recordsKey: 'reviews',
    paging: { size: 'limit', start: 'offset' },
    pageRule: PAGE_RULES.reviewsPageMeta,
    read: (request) =>
      reading(() => {
        const query = strictQuery(request.query, SPEC_ACCEPTED.reviews);
        const raw = query.get('order');
        const order = raw === undefined ? DEFAULT_REVIEW_ORDER : parseReviewOrder(raw);
        if (!order) throw new QueryError(`'order' must be one of ${REVIEW_ORDER_VALUES.join(', ')}, got ${quote(raw as string)}`);
        return {
          window: { start: integerParam(query, 'offset', bounds.offset), size: integerParam(query, 'limit', bounds.limit) },
          order,
          filters: {},
          aggregates: false,
        };
      }),
    envelope: ({ count, query }) => {
      const { start: offset, size: limit } = paged(query.window);
      return { reviews: [], ...reviewsPageMeta(count, offset, limit) };
    },
  };

  const wishlistRules = (accepted: readonly string[], check: (request: ListingRequest, query: Map<string, string>) => void = () => {}): EndpointRules => ({
    recordsKey: 'data',
    paging: { size: 'take', start: 'skip' },
    pageRule: PAGE_RULES.wishlistPageMeta,
    read: (request) =>
      reading(() => {
        const query = strictQuery(request.query, accepted, wishlistHint);
        check(request, query);
        return {
          window: { start: integerParam(query, 'skip', bounds.skip), size: integerParam(query, 'take', bounds.take) },
          order: { field: 'created_at', descending: false },
          filters: {},
          aggregates: false,
        };
      }),
    envelope: ({ count, query }) => {
      const { start: skip, size: take } = paged(query.window);
      return { data: [], ...wishlistPageMeta(count, skip, take) };
    },
  });

  return {
    name: 'spec',
    summary: 'the listing spec and docs/API.md (skip/take on wishlists)',
    maxPageSize,
    guard: () => undefined,
    variant: () => '',
    endpoints: {
      reviews,
      productReviews: reviews,
      wishlists: wishlistRules(SPEC_ACCEPTED.wishlists),
      // 4.4: the id may come again as ?id=, and must then be the path's.
      wishlistItems: wishlistRules(SPEC_ACCEPTED.wishlistItems, (request, query) => {
        const queryId = query.get('id');
        if (queryId !== undefined && queryId !== request.id) {
          throw new QueryError(`'id' must be the wishlist id of the path ${quote(request.id ?? '')}, got ${quote(queryId)}`);
        }
      }),
    },
    unknownWishlist: (request) => {
      const id = request.id ?? '';
      return refusal(404, { type: 'not_found', message: `Wishlist with id: ${id.length > 200 ? `${id.slice(0, 200)}...` : id} was not found` });
    },
    project: { review: (r) => r, wishlist: (w) => w, item: (i) => i },
    recordsAsIs: true,
    embedsWishlistItems: true,
    wishlistsPerCustomer: false,
  };
}
