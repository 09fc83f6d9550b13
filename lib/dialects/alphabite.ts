/**
 * The alphabite dialect: the four listings as the published plugins answer them
 * (@alphabite/medusa-reviews 0.7.2, @alphabite/medusa-wishlist 0.7.4, on Medusa 2.x), so
 * that a storefront built on @alphabite/medusa-sdk meets in development what it meets in
 * production, bugs included. Every rule names where it comes from; docs/dialects.md lists
 * each difference from the spec, and notes/alphabite-plugins.md quotes the plugins' code.
 */
import { clampedPageNumbers, PAGE_RULES } from '../paging.ts';
import type { QueryPairs } from '../query.ts';
import { refusal, type Dialect, type EndpointName, type EndpointRules, type ListingOrder, type ListingQuery, type ListingRequest, type Refusal } from './types.ts';
import { medusaBehaviour, NEWEST_MEDUSA_BEHAVIOUR as NEWEST_MEDUSA, type MedusaBehaviour } from './medusa-behaviour.ts';
import { validateQuery, type FieldType } from './medusa-validation.ts';
import { medusaQueryFields, relationsLimitRefusal, throughUnknownRelation, type PluginEntity } from './medusa-fields.ts';

export type { FieldType } from './medusa-validation.ts';
export { medusaQuery, NESTED } from './medusa-query.ts';
export { medusaQueryFields, relationsDepth } from './medusa-fields.ts';

/** Medusa's `createFindParams()` defaults (@medusajs/medusa 2.x, api/utils/validators.js). */
export const ALPHABITE_DEFAULT_LIMIT = 20;
export const ALPHABITE_DEFAULT_OFFSET = 0;
export const PUBLISHABLE_KEY_HEADER = 'x-publishable-api-key';

export const BASE_FIELDS: Array<[string, FieldType]> = [
  ['fields', 'string'],
  ['offset', 'int'],
  ['limit', 'int'],
  ['order', 'string'],
  ['with_deleted', 'with_deleted'],
];
const REVIEW_FILTERS: Array<[string, FieldType]> = [
  ['my_reviews_only', 'flag'],
  ['verified_purchase_only', 'flag'],
  ['include_product', 'flag'],
  ['rating', 'rating'],
  ['sort_by', 'string'],
];
/** Each endpoint's accepted parameters, in the order zod reports them. */
export const ALPHABITE_QUERY_FIELDS = {
  reviews: [...BASE_FIELDS, ['product_ids', 'csv-list'] as [string, FieldType], ...REVIEW_FILTERS],
  productReviews: [...BASE_FIELDS, ...REVIEW_FILTERS, ['include_aggregated_counts', 'flag'] as [string, FieldType]],
  wishlists: [...BASE_FIELDS, ['items_fields', 'array'] as [string, FieldType]],
  wishlistItems: BASE_FIELDS,
} as const satisfies Record<EndpointName, ReadonlyArray<readonly [string, FieldType]>>;

/**
 * Medusa's strict `validateAndTransformQuery` as the Medusa version `medusa` words it
 * (medusa-validation.ts), then, on every /store route from 2.20, the relations limit on the fields the
 * query will ask for (medusa-fields.ts `relationsLimitRefusal`).
 */
export function validate(schema: ReadonlyArray<readonly [string, FieldType]>, pairs: QueryPairs, medusa: MedusaBehaviour = NEWEST_MEDUSA): Map<string, unknown> | Refusal {
  const values = validateQuery(schema, pairs, medusa);
  if (!(values instanceof Map)) return values;
  return relationsLimitRefusal(values.get('fields') as string | undefined, medusa) ?? values;
}

/** Medusa's error handler for anything that is not a MedusaError (a database error, say). */
const UNKNOWN_ERROR = refusal(500, { code: 'unknown_error', type: 'unknown_error', message: 'An unknown error occurred.' });
/** Columns the mock can sort by; any other `order` is a column the database does not have (500). */
export const ALPHABITE_SORTABLE = {
  reviews: ['id', 'created_at', 'updated_at', 'rating'],
  wishlists: ['id', 'created_at'],
} as const;

/**
 * Why a listing answered its empty 500 (the wishlist listings', and 4.1's before Medusa 2.16), which does not say (the mock's header
 * `x-store-listing-kit-reason`, docs/writes.md): one short plain-ASCII sentence per cause, never the
 * request's own text. The one place these sentences live (the write routes' are
 * mock-server/writes/reasons.ts).
 */
export const ALPHABITE_LISTING_REASONS = {
  negativeWindow: 'a negative limit or offset reaches the database, which refuses it',
  // Not "no such column": a real column the mock does not sort by (updated_at, name) is its 500 too (docs/dialects.md).
  unknownColumn: `order names no column the mock sorts by (${ALPHABITE_SORTABLE.wishlists.join(' or ')}, - first for descending)`,
  recordsWithoutWishlist: 'fields leaves out the wishlist, which the route reads from the first item it lists',
  wishlistOfAnother: 'the wishlist belongs to another customer (the route checks the owner of the first item it lists)',
  // Medusa before 2.16 (MEDUSA_CHANGES.unknownRelationsIgnored)
  unknownRelation: 'fields names a relation the records lack: the query of Medusa before 2.16 fails on it',
  dotInFields: 'fields holds a dot; the route passes its characters on as fields, and Medusa before 2.16 fails on "."',
} as const;

/** The wishlist routes and 4.1 catch every error themselves and answer `res.status(500).end()`: the mock says why. */
const EMPTY_500 = {
  negativeWindow: refusal(500, null, ALPHABITE_LISTING_REASONS.negativeWindow),
  unknownColumn: refusal(500, null, ALPHABITE_LISTING_REASONS.unknownColumn),
  recordsWithoutWishlist: refusal(500, null, ALPHABITE_LISTING_REASONS.recordsWithoutWishlist),
  wishlistOfAnother: refusal(500, null, ALPHABITE_LISTING_REASONS.wishlistOfAnother),
  unknownRelation: refusal(500, null, ALPHABITE_LISTING_REASONS.unknownRelation),
  dotInFields: refusal(500, null, ALPHABITE_LISTING_REASONS.dotInFields),
};

/** The defaults of each route's fields (its `validateAndTransformQuery` config). */
const REVIEW_DEFAULT_FIELDS = ['customer.first_name', 'customer.last_name'];
/** The 4.4 route's default fields (the plugin's `defaultItemsFields` and `wishlist.*`, which the route reads and strips). */
const ITEM_DEFAULT_FIELDS = ['id', 'wishlist_id', 'product_variant.id', 'product_variant.title', 'product_variant.product.id', 'product_variant.product.handle', 'product_variant.product.thumbnail', 'wishlist.*'];

/**
 * Before 2.16 (MEDUSA_CHANGES.unknownRelationsIgnored) the query a route makes fails on a field
 * through a relation its entity does not have. 4.1 and 4.2 pass the characters of `fields` on as
 * fields (`...(fields || [])` of a string): a `.` is the field `.`, through the relation ''.
 */
const dotFails = (medusa: MedusaBehaviour, fields: string | undefined) => medusa.unknownRelationsFail && fields !== undefined && fields.includes('.');
/** ...and 4.2, 4.3 and 4.4 pass the fields Medusa parsed from it (with the route's defaults). */
const relationFails = (medusa: MedusaBehaviour, fields: string | undefined, entity: PluginEntity, defaults: readonly string[]) =>
  medusa.unknownRelationsFail && fields !== undefined && medusaQueryFields(fields, defaults, medusa).some((f) => throughUnknownRelation(f, entity));

function orderOf(raw: unknown, columns: readonly string[]): ListingOrder | 'unknown column' {
  if (raw === undefined) return { field: 'id', descending: false }; // Medusa's default: primary key ascending
  const text = raw as string;
  const descending = text.startsWith('-');
  const field = descending ? text.slice(1) : text;
  return columns.includes(field) ? { field: field as ListingOrder['field'], descending } : 'unknown column';
}

/**
 * limit/offset as validated; a negative one reaches the database, which refuses it. An offset
 * beyond Number.MAX_SAFE_INTEGER does not reach the query (seen on the running backend): the
 * records start from the first, while the envelope echoes the offset.
 */
function windowOf(values: Map<string, unknown>): { start: number; size: number; listFrom?: number } | 'negative' {
  const size = (values.get('limit') as number | undefined) ?? ALPHABITE_DEFAULT_LIMIT;
  const start = (values.get('offset') as number | undefined) ?? ALPHABITE_DEFAULT_OFFSET;
  if (size < 0 || start < 0) return 'negative';
  return start > Number.MAX_SAFE_INTEGER ? { start, size, listFrom: 0 } : { start, size };
}

/**
 * The window a request asks for, as Medusa's validation reads it (parseInt, the defaults 20 and 0),
 * on every listing, 4.1 included, whose route then ignores it: what a checker of one answer holds
 * the answer to. Undefined when validation refuses the request or the database would (negative).
 */
export function askedAlphabiteWindow(endpoint: EndpointName, pairs: QueryPairs, medusa: MedusaBehaviour = NEWEST_MEDUSA): { start: number; size: number } | undefined {
  const values = validate(ALPHABITE_QUERY_FIELDS[endpoint], pairs, medusa);
  if (!(values instanceof Map)) return undefined;
  const window = windowOf(values);
  return window === 'negative' ? undefined : { start: window.start, size: window.size };
}

const bearer = (headers: ListingRequest['headers']) => /^Bearer\s+\S+/i.test(String(headers.authorization ?? ''));
/** A customer is logged in by a bearer token or a session cookie (the mock checks neither). */
const authenticated = (headers: ListingRequest['headers']) => bearer(headers) || Boolean(headers.cookie);

function reviewFilters(values: Map<string, unknown>): ListingQuery['filters'] {
  return {
    // Read only where a customer's own reviews are listed (mock-server/writes): the seeded reviews belong to nobody the mock knows.
    ...(values.get('my_reviews_only') ? { myReviewsOnly: true } : {}),
    ...(values.has('product_ids') && (values.get('product_ids') as string[]).length > 0 ? { productIds: values.get('product_ids') as string[] } : {}),
    ...(values.get('verified_purchase_only') ? { verifiedPurchaseOnly: true } : {}),
    ...(values.has('rating') ? { rating: values.get('rating') as number } : {}),
  };
}

type Window = { start: number; size: number };
const windowOfQuery = (query: ListingQuery): Window => (query.window === 'all' ? { start: 0, size: 0 } : query.window);

/** The reviews plugin's `getPagination` keys after the page numbers: `take`, `skip` (defaults 5 and 0 when it gets no metadata). */
function reviewsPagination(metadata: { count: number; take: number; skip: number } | undefined) {
  const { count = 0, take = 5, skip = 0 } = metadata ?? {};
  return { ...clampedPageNumbers(count, skip, take), take, skip };
}

/** Medusa's `createFindParams()`: every listing pages with `limit`/`offset`. */
const LIMIT_OFFSET: EndpointRules['paging'] = { size: 'limit', start: 'offset' };

/** 4.1's envelope: getPagination without metadata, whatever is listed. */
const CONSTANT_PAGINATION = {
  name: `${PAGE_RULES.clampedPageNumbers.name} without metadata`,
  formula: 'the route passes getPagination no metadata: count 0, take 5, skip 0 (so totalPages 1, currentPage 1, nextPage 1, prevPage 1), whatever is listed; limit and offset are validated, then ignored',
};

function reviewsList(medusa: MedusaBehaviour): EndpointRules {
  return {
    recordsKey: 'data',
    paging: LIMIT_OFFSET,
    pageRule: CONSTANT_PAGINATION,
    read: (request) => {
      const values = validate(ALPHABITE_QUERY_FIELDS.reviews, request.query, medusa);
      if (!(values instanceof Map)) return values;
      // The route's query gets the characters of `fields` (and catches its failure: an empty 500).
      if (dotFails(medusa, values.get('fields') as string | undefined)) return EMPTY_500.dotInFields;
      // The route spreads `req.queryConfig.fields` and never passes the pagination on:
      // limit, offset and order are validated, then ignored; every matching review comes back, by id.
      return { window: 'all', order: { field: 'id', descending: false }, filters: reviewFilters(values), aggregates: false };
    },
    // ...and with no query metadata, the envelope is the same constant whatever came back.
    envelope: () => ({ data: [], ...reviewsPagination(undefined) }),
  };
}

function productReviews(medusa: MedusaBehaviour): EndpointRules {
  return {
    recordsKey: 'data',
    paging: LIMIT_OFFSET,
    pageRule: PAGE_RULES.clampedPageNumbers,
    read: (request) => {
      const values = validate(ALPHABITE_QUERY_FIELDS.productReviews, request.query, medusa);
      if (!(values instanceof Map)) return values;
      const window = windowOf(values);
      const order = orderOf(values.get('order'), ALPHABITE_SORTABLE.reviews);
      // The workflow's query fails (Medusa's error handler answers): a database error, or (before 2.16) a relation the review lacks.
      if (window === 'negative' || order === 'unknown column') return UNKNOWN_ERROR;
      const fields = values.get('fields') as string | undefined;
      if (dotFails(medusa, fields) || relationFails(medusa, fields, 'review', REVIEW_DEFAULT_FIELDS)) return UNKNOWN_ERROR;
      return { window, order, filters: reviewFilters(values), aggregates: Boolean(values.get('include_aggregated_counts')) };
    },
    envelope: ({ count, query, aggregate }) => {
      const { start, size } = windowOfQuery(query);
      return { data: [], ...reviewsPagination({ count, take: size, skip: start }), ...(aggregate ?? {}) };
    },
  };
}

/** The wishlist plugin's `getPagination` (no `take`/`skip` keys: the routes write those themselves, `take || 5`). */
function wishlistRules(medusa: MedusaBehaviour, endpoint: 'wishlists' | 'wishlistItems'): EndpointRules {
  const items = endpoint === 'wishlistItems';
  const selectsWishlist = (fields: string) => medusaQueryFields(fields, ITEM_DEFAULT_FIELDS, medusa).some((f) => /^wishlist(\.|$)/.test(f));
  return {
    recordsKey: 'data',
    paging: LIMIT_OFFSET,
    pageRule: PAGE_RULES.clampedPageNumbers,
    read: (request) => {
      const values = validate(ALPHABITE_QUERY_FIELDS[endpoint], request.query, medusa);
      if (!(values instanceof Map)) return values;
      if (items && !authenticated(request.headers)) {
        // The route checks the plugin option allowGuestWishlist (off by default) after validation.
        return refusal(401, { type: 'unauthorized', message: 'Guest wishlists are now allowed' });
      }
      const fields = values.get('fields') as string | undefined;
      if (relationFails(medusa, fields, items ? 'wishlist_item' : 'wishlist', items ? ITEM_DEFAULT_FIELDS : [])) return EMPTY_500.unknownRelation;
      const window = windowOf(values);
      const order = orderOf(values.get('order'), ALPHABITE_SORTABLE.wishlists);
      if (window === 'negative') return EMPTY_500.negativeWindow;
      if (order === 'unknown column') return EMPTY_500.unknownColumn;
      // 4.4 reads `wishlist_items[0].wishlist.customer_id`: with fields that leave the wishlist out, a
      // page with records fails there (TypeError, caught: an empty 500); an empty page does not.
      const failsOnRecords = items && fields !== undefined && !selectsWishlist(fields);
      return { window, order, filters: {}, aggregates: false, ...(failsOnRecords ? { refuseRecords: EMPTY_500.recordsWithoutWishlist } : {}) };
    },
    envelope: ({ count, query }) => {
      const { start, size } = windowOfQuery(query);
      const echo = items ? { skip: start || 0, take: size || 5 } : { take: size || 5, skip: start || 0 };
      return { data: [], ...echo, ...clampedPageNumbers(count, start, size) };
    },
  };
}

export interface AlphabiteOptions {
  /**
   * The publishable keys the backend has: any other key is refused as Medusa refuses an unknown
   * one. None (the default): any non-empty key is taken.
   */
  publishableKeys?: readonly string[];
  /**
   * The Medusa version the plugins run on, x.y.z from the oldest they accept to the newest the kit is
   * tested on (default the newest, NEWEST_MEDUSA_VERSION): the answers that differ between versions
   * follow it (lib/dialects/medusa-behaviour.ts). Any other value throws a RangeError naming the range.
   */
  medusaVersion?: string;
}

/** Medusa's answers when the key is missing and when it names no key of the store (`ensurePublishableApiKeyMiddleware`). */
const MISSING_KEY = refusal(400, {
  type: 'not_allowed',
  message: `Publishable API key required in the request header: ${PUBLISHABLE_KEY_HEADER}. You can manage your keys in settings in the dashboard.`,
});
const UNKNOWN_KEY = refusal(400, { type: 'not_allowed', message: 'A valid publishable key is required to proceed with the request' });

export function alphabiteDialect(options: AlphabiteOptions = {}): Dialect {
  const keys = options.publishableKeys?.length ? new Set(options.publishableKeys) : undefined;
  const medusa = options.medusaVersion === undefined ? NEWEST_MEDUSA : medusaBehaviour(options.medusaVersion);
  return {
    name: 'alphabite',
    summary: `the published plugins @alphabite/medusa-reviews 0.7.2 and @alphabite/medusa-wishlist 0.7.4 on Medusa ${medusa.version} (limit/offset everywhere, their envelopes and bugs)`,
    medusa,
    guard: (request) => {
      const key = request.headers[PUBLISHABLE_KEY_HEADER];
      if (!key) return MISSING_KEY;
      if (keys && !(typeof key === 'string' && keys.has(key))) return UNKNOWN_KEY;
      // GET /store/wishlists: authenticate("customer", ["bearer"]) before validation; a session cookie is not enough.
      if (request.endpoint === 'wishlists' && !bearer(request.headers)) return refusal(401, { message: 'Unauthorized' });
      return undefined;
    },
    variant: (headers) => (authenticated(headers) ? '' : 'guest'),
    endpoints: {
      reviews: reviewsList(medusa),
      productReviews: productReviews(medusa),
      wishlists: wishlistRules(medusa, 'wishlists'),
      wishlistItems: wishlistRules(medusa, 'wishlistItems'),
    },
    recordsAsIs: false,
    // includeWishlistItems is off by default: 4.3 shows no items (see `project.wishlist`).
    embedsWishlistItems: false,
    // The GET route filters by the caller (`filters: { customer_id }`); 4.4 refuses another's wishlist with items.
    wishlistsPerCustomer: { refusedToOthers: EMPTY_500.wishlistOfAnother },
    // An unknown wishlist is an empty listing: the route filters items by wishlist_id and finds none.
    unknownWishlist: () => 'empty',
    project: {
      review: (r) => {
        const { id, product_id, title, content, image_urls, created_at, updated_at, rating, is_verified_purchase, customer } = r as Record<string, unknown>;
        return { id, product_id, title, content, image_urls, created_at, updated_at, rating, is_verified_purchase, customer };
      },
      // includeWishlistItems is off by default: the wishlist's own columns, no items.
      wishlist: (w) => {
        const { id, name, customer_id, sales_channel_id, created_at, updated_at } = w as Record<string, unknown>;
        return { id, name, customer_id, sales_channel_id, created_at, updated_at, deleted_at: null };
      },
      item: (i) => {
        const { id, wishlist_id, product_variant_id, product_variant } = i as { id: string; wishlist_id: string; product_variant_id: string; product_variant: { id: string; title: string; product: { id: string; handle: string; thumbnail: string | null } } };
        const { product } = product_variant;
        // Medusa adds the variant's foreign key product_id (after title) to the relation it selects.
        return { id, wishlist_id, product_variant_id, product_variant: { id: product_variant.id, title: product_variant.title, product_id: product.id, product: { id: product.id, handle: product.handle, thumbnail: product.thumbnail } } };
      },
    },
  };
}
