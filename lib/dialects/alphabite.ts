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

/** Medusa's `createFindParams()` defaults (@medusajs/medusa 2.x, api/utils/validators.js). */
export const ALPHABITE_DEFAULT_LIMIT = 20;
export const ALPHABITE_DEFAULT_OFFSET = 0;
export const PUBLISHABLE_KEY_HEADER = 'x-publishable-api-key';

/** How Medusa's query validation types a parameter (createFindParams plus each plugin's schema). */
export type FieldType =
  | 'string'
  /** `parseInt` of a non-empty string; no bounds. */
  | 'int'
  | 'with_deleted'
  /** `z.coerce.boolean()`: any non-empty value is true, `"false"` and `"0"` included. */
  | 'flag'
  /** `Math.round(Number(v))`, 1 to 5. */
  | 'rating'
  /** A string split on commas, or an array. */
  | 'csv-list'
  /** Must arrive as an array (`name[]=a` or `name[0]=a`). */
  | 'array';

/** What `qs` makes of a nested name (`limit[a]=1`, `a[b][c]=1`): an object, which no field of the listings accepts. */
export const NESTED = Object.freeze({ toString: () => '[object Object]' });
type Value = string | string[] | typeof NESTED;

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
 * The query as Medusa's stack reads it: `qs` (`a[0]=x`, `a[]=x` and a repeated name give an
 * array; any other bracket, `a[b]=x`, an object under `a`), then `normalizeQuery`, which splits a
 * one-element array on commas.
 */
export function medusaQuery(pairs: QueryPairs): Map<string, Value> {
  const out = new Map<string, Value>();
  for (const [rawName, value] of pairs) {
    const bracket = /^([^[\]]+)\[(\d*)\]$/.exec(rawName);
    const nested = bracket ? undefined : /^([^[\]]+)\[/.exec(rawName);
    if (nested) {
      out.set(nested[1]!, NESTED);
      continue;
    }
    const name = bracket ? bracket[1]! : rawName;
    const previous = out.get(name);
    if (previous === NESTED) continue;
    if (bracket || previous !== undefined) out.set(name, [...(previous === undefined ? [] : typeof previous === 'string' ? [previous] : (previous as string[])), value]);
    else out.set(name, value);
  }
  for (const [name, value] of out) {
    if (Array.isArray(value) && value.length === 1) out.set(name, value[0]!.split(','));
  }
  return out;
}

interface Parsed {
  values: Map<string, unknown>;
  issues: string[];
}

const shown = (value: Value) => (Array.isArray(value) ? value.join(',') : String(value));
const expected = (type: string, name: string, value: Value) => `Expected type: '${type}' for field '${name}', got: '${shown(value)}'`;

function parseField(name: string, type: FieldType, value: Value, out: Parsed): void {
  const fail = (issue: string) => void out.issues.push(issue);
  switch (type) {
    case 'string':
      return typeof value === 'string' ? void out.values.set(name, value) : fail(expected('string', name, value));
    case 'int': {
      const n = typeof value === 'string' && value !== '' ? parseInt(value) : Number.NaN;
      return Number.isNaN(n) ? fail(expected('number', name, value)) : void out.values.set(name, n);
    }
    case 'with_deleted':
      return value === 'true' || value === 'false' ? void out.values.set(name, value === 'true') : fail(expected('boolean', name, value));
    case 'flag':
      return void out.values.set(name, Array.isArray(value) ? true : Boolean(value));
    case 'rating': {
      const n = Math.round(Number(shown(value)));
      if (Number.isNaN(n)) return fail(expected('number', name, value));
      if (n < 1) return fail(`Value for field '${name}' too small, expected at least: '1'`);
      if (n > 5) return fail(`Value for field '${name}' too big, expected at most: '5'`);
      return void out.values.set(name, n);
    }
    case 'csv-list':
      if (value === NESTED) return fail(expected('array', name, value));
      return void out.values.set(name, typeof value === 'string' ? value.split(',') : value);
    case 'array':
      return Array.isArray(value) ? void out.values.set(name, value) : fail(expected('array', name, value));
  }
}

/**
 * Medusa's strict `validateAndTransformQuery`: 400 `invalid_data` naming at most three issues.
 * Before it, `normalizeQuery` reads a dotted name `a.b` as field `a` and refuses a deeper one
 * (`a.b.c`) with a 500 `invalid_argument` (@medusajs/framework 2.x, http/utils/validate-query.js).
 * After it, on every /store route, the fields the query will ask for must not expand more than
 * ALPHABITE_STORE_RELATIONS_LIMIT relations (2.20+: relationsLimitRefusal).
 */
export function validate(schema: ReadonlyArray<readonly [string, FieldType]>, pairs: QueryPairs): Map<string, unknown> | Refusal {
  const deep = pairs.find(([name]) => name.split('.').length > 2);
  if (deep) return refusal(500, { type: 'invalid_argument', message: `Key accessor more than 2 levels deep: ${deep[0]}` });
  const query = medusaQuery(pairs.map(([name, value]) => [name.includes('.') ? name.slice(0, name.indexOf('.')) : name, value]));
  const parsed: Parsed = { values: new Map(), issues: [] };
  for (const [name, type] of schema) {
    const value = query.get(name);
    if (value !== undefined) parseField(name, type, value, parsed);
  }
  const unknown = [...query.keys()].filter((name) => !schema.some(([known]) => known === name));
  if (unknown.length) parsed.issues.push(`Unrecognized fields: '${unknown.join(', ')}'`);
  if (parsed.issues.length) return refusal(400, { type: 'invalid_data', message: `Invalid request: ${parsed.issues.slice(0, 3).join('; ')}` });
  return relationsLimitRefusal(parsed.values.get('fields') as string | undefined) ?? parsed.values;
}

/**
 * The fields Medusa's query is asked for, as `prepareListQuery` makes them from the `fields`
 * parameter and the route's defaults (@medusajs/framework 2.x, http/utils/field-filtering/field-parser.js,
 * `FieldParser.parse`, and http/utils/get-query-config.js): a field without a modifier (`+`, ` `,
 * `-`, `*f`, `f.*`), or an empty list, replaces the defaults (modifiers stripped, `-` included);
 * otherwise `+f` adds, `-f` removes f and its subfields, `*f` and `f.*` add; `id` is always added;
 * then each `*f` or `f.*` becomes `f.*`, after the others.
 */
export function medusaQueryFields(fields: string | undefined, defaults: readonly string[]): string[] {
  let all = new Set(defaults);
  if (fields !== undefined) {
    const custom = fields.split(',').filter(Boolean);
    const strip = (f: string) => f.replace(/^[+ \t-]+/, '').trim();
    const modifies = (f: string) => f.startsWith('-') || f.startsWith('+') || f.startsWith(' ') || f.startsWith('*') || f.endsWith('.*');
    if (custom.length === 0 || custom.some((f) => !modifies(f))) all = new Set(custom.map(strip));
    else {
      for (const f of custom) {
        if (f.startsWith('+') || f.startsWith(' ')) all.add(strip(f));
        else if (f.startsWith('-')) {
          const name = strip(f);
          for (const s of all) {
            const bare = s.replace(/^\*/, '');
            if (bare === name || bare.startsWith(`${name}.`)) all.delete(s);
          }
        } else all.add(f);
      }
    }
    all.add('id');
  }
  const star = new Set<string>();
  for (const f of all) {
    if (f.startsWith('*') || f.endsWith('.*')) {
      star.add(f.replace(/(^\*|\.\*$)/, ''));
      all.delete(f);
    }
  }
  return [...all, ...[...star].map((f) => `${f}.*`)];
}

/**
 * Medusa's `http.storeRelationsLimit` (@medusajs/framework 2.20+, config/config.js: 3 unless the
 * app's config says otherwise; medusa-app sets none).
 */
export const ALPHABITE_STORE_RELATIONS_LIMIT = 3;

/**
 * How many relations a query field expands (@medusajs/framework 2.20+, http/utils/relations-limit.js,
 * `getRelationsDepth`): a star field (`*a.b`, `a.b.*`) its segments (`a.b`: 2), any other its dots
 * (`a.b.c`: 2, the last segment being a column).
 */
export function relationsDepth(field: string): number {
  const star = field.startsWith('*') || field.endsWith('.*');
  const segments = field.replace(/(^\*|\.\*$)/, '').split('.').length;
  return star ? segments : segments - 1;
}

/**
 * `validateRelationsLimit` on the query's fields: 400 `invalid_data` naming every field past the
 * limit, in the query's order. The route's defaults do not matter here: none expands more than two
 * relations, and they change neither which of the caller's fields are named nor their order.
 */
export function relationsLimitRefusal(fields: string | undefined): Refusal | undefined {
  const invalid = medusaQueryFields(fields, []).filter((f) => relationsDepth(f) > ALPHABITE_STORE_RELATIONS_LIMIT);
  if (invalid.length === 0) return undefined;
  return refusal(400, { type: 'invalid_data', message: `The following fields expand more than the maximum of ${ALPHABITE_STORE_RELATIONS_LIMIT} allowed relations: ${invalid.join(', ')}` });
}

/** Medusa's error handler for anything that is not a MedusaError (a database error, say). */
const UNKNOWN_ERROR = refusal(500, { code: 'unknown_error', type: 'unknown_error', message: 'An unknown error occurred.' });
/** Columns the mock can sort by; any other `order` is a column the database does not have (500). */
export const ALPHABITE_SORTABLE = {
  reviews: ['id', 'created_at', 'updated_at', 'rating'],
  wishlists: ['id', 'created_at'],
} as const;

/**
 * Why a wishlist listing answered its empty 500, which does not say (the mock's header
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
} as const;

/** The wishlist routes catch every error themselves and answer `res.status(500).end()`: the mock says why. */
const EMPTY_500 = {
  negativeWindow: refusal(500, null, ALPHABITE_LISTING_REASONS.negativeWindow),
  unknownColumn: refusal(500, null, ALPHABITE_LISTING_REASONS.unknownColumn),
  recordsWithoutWishlist: refusal(500, null, ALPHABITE_LISTING_REASONS.recordsWithoutWishlist),
  wishlistOfAnother: refusal(500, null, ALPHABITE_LISTING_REASONS.wishlistOfAnother),
};

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
export function askedAlphabiteWindow(endpoint: EndpointName, pairs: QueryPairs): { start: number; size: number } | undefined {
  const values = validate(ALPHABITE_QUERY_FIELDS[endpoint], pairs);
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

const reviewsList: EndpointRules = {
  recordsKey: 'data',
  paging: LIMIT_OFFSET,
  pageRule: CONSTANT_PAGINATION,
  read: (request) => {
    const values = validate(ALPHABITE_QUERY_FIELDS.reviews, request.query);
    if (!(values instanceof Map)) return values;
    // The route spreads `req.queryConfig.fields` and never passes the pagination on:
    // limit, offset and order are validated, then ignored; every matching review comes back, by id.
    return { window: 'all', order: { field: 'id', descending: false }, filters: reviewFilters(values), aggregates: false };
  },
  // ...and with no query metadata, the envelope is the same constant whatever came back.
  envelope: () => ({ data: [], ...reviewsPagination(undefined) }),
};

const productReviews: EndpointRules = {
  recordsKey: 'data',
  paging: LIMIT_OFFSET,
  pageRule: PAGE_RULES.clampedPageNumbers,
  read: (request) => {
    const values = validate(ALPHABITE_QUERY_FIELDS.productReviews, request.query);
    if (!(values instanceof Map)) return values;
    const window = windowOf(values);
    const order = orderOf(values.get('order'), ALPHABITE_SORTABLE.reviews);
    if (window === 'negative' || order === 'unknown column') return UNKNOWN_ERROR;
    return { window, order, filters: reviewFilters(values), aggregates: Boolean(values.get('include_aggregated_counts')) };
  },
  envelope: ({ count, query, aggregate }) => {
    const { start, size } = windowOfQuery(query);
    return { data: [], ...reviewsPagination({ count, take: size, skip: start }), ...(aggregate ?? {}) };
  },
};

/** The 4.4 route's default fields (the plugin's `defaultItemsFields` and `wishlist.*`, which the route reads and strips). */
const ITEM_DEFAULT_FIELDS = ['id', 'wishlist_id', 'product_variant.id', 'product_variant.title', 'product_variant.product.id', 'product_variant.product.handle', 'product_variant.product.thumbnail', 'wishlist.*'];

/** Whether `fields` keeps the wishlist selected in 4.4's query (the route reads it). */
const selectsWishlist = (fields: string) => medusaQueryFields(fields, ITEM_DEFAULT_FIELDS).some((f) => /^wishlist(\.|$)/.test(f));

/** The wishlist plugin's `getPagination` (no `take`/`skip` keys: the routes write those themselves, `take || 5`). */
function wishlistRules(schema: ReadonlyArray<readonly [string, FieldType]>, keyOrder: 'take-skip' | 'skip-take', checkGuest: boolean): EndpointRules {
  return {
    recordsKey: 'data',
    paging: LIMIT_OFFSET,
    pageRule: PAGE_RULES.clampedPageNumbers,
    read: (request) => {
      const values = validate(schema, request.query);
      if (!(values instanceof Map)) return values;
      if (checkGuest && !authenticated(request.headers)) {
        // The route checks the plugin option allowGuestWishlist (off by default) after validation.
        return refusal(401, { type: 'unauthorized', message: 'Guest wishlists are now allowed' });
      }
      const window = windowOf(values);
      const order = orderOf(values.get('order'), ALPHABITE_SORTABLE.wishlists);
      if (window === 'negative') return EMPTY_500.negativeWindow;
      if (order === 'unknown column') return EMPTY_500.unknownColumn;
      // 4.4 reads `wishlist_items[0].wishlist.customer_id`: with fields that leave the wishlist out, a
      // page with records fails there (TypeError, caught: an empty 500); an empty page does not.
      const fields = values.get('fields') as string | undefined;
      const failsOnRecords = checkGuest && fields !== undefined && !selectsWishlist(fields);
      return { window, order, filters: {}, aggregates: false, ...(failsOnRecords ? { refuseRecords: EMPTY_500.recordsWithoutWishlist } : {}) };
    },
    envelope: ({ count, query }) => {
      const { start, size } = windowOfQuery(query);
      const echo = keyOrder === 'take-skip' ? { take: size || 5, skip: start || 0 } : { skip: start || 0, take: size || 5 };
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
}

/** Medusa's answers when the key is missing and when it names no key of the store (`ensurePublishableApiKeyMiddleware`). */
const MISSING_KEY = refusal(400, {
  type: 'not_allowed',
  message: `Publishable API key required in the request header: ${PUBLISHABLE_KEY_HEADER}. You can manage your keys in settings in the dashboard.`,
});
const UNKNOWN_KEY = refusal(400, { type: 'not_allowed', message: 'A valid publishable key is required to proceed with the request' });

export function alphabiteDialect(options: AlphabiteOptions = {}): Dialect {
  const keys = options.publishableKeys?.length ? new Set(options.publishableKeys) : undefined;
  return {
    name: 'alphabite',
    summary: 'the published plugins @alphabite/medusa-reviews 0.7.2 and @alphabite/medusa-wishlist 0.7.4 (limit/offset everywhere, their envelopes and bugs)',
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
      reviews: reviewsList,
      productReviews,
      wishlists: wishlistRules(ALPHABITE_QUERY_FIELDS.wishlists, 'take-skip', false),
      wishlistItems: wishlistRules(ALPHABITE_QUERY_FIELDS.wishlistItems, 'skip-take', true),
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
