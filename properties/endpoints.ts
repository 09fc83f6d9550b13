/**
 * The four listing endpoints as the property suite sees them: which dialect of envelope each
 * answers, what its paging parameters are called, and what its defaults are (from lib/api-rules.ts).
 */
import {
  PATHS,
  SECTIONS,
  ENDPOINT_NAMES,
  REVIEWS_DEFAULT_LIMIT,
  REVIEWS_DEFAULT_OFFSET,
  WISHLIST_DEFAULT_SKIP,
  WISHLIST_DEFAULT_TAKE,
  type EndpointName,
} from '../lib/api-rules.ts';

export type { EndpointName };
export type Dialect = 'reviews' | 'wishlist';

export interface ListingEndpoint {
  name: EndpointName;
  /** Section of the spec, e.g. "4.1". */
  section: string;
  dialect: Dialect;
  sizeParam: 'limit' | 'take';
  startParam: 'offset' | 'skip';
  recordsKey: 'reviews' | 'data';
  /** What the path's `:param` names, when it has one. */
  pathId?: 'product' | 'wishlist';
  acceptsOrder: boolean;
  /** 4.1's `order` is in the spec; 4.2 accepting it too is the kit's choice (sent only when strict). */
  orderRule?: 'spec' | 'kit';
  defaultSize: number;
  defaultStart: number;
  /** Whether the defaults come from the spec (wishlists) or are the kit's choice (reviews). */
  defaultsRule: 'spec' | 'kit';
  /** The request path, with the id filled in when the endpoint takes one. */
  path(id?: string): string;
}

const fill = (template: string, id: string | undefined): string =>
  template.replace(/:[a-z_]+/, encodeURIComponent(id ?? ''));

const reviewsDialect = {
  dialect: 'reviews',
  sizeParam: 'limit',
  startParam: 'offset',
  recordsKey: 'reviews',
  acceptsOrder: true,
  defaultSize: REVIEWS_DEFAULT_LIMIT,
  defaultStart: REVIEWS_DEFAULT_OFFSET,
  defaultsRule: 'kit',
} as const;

const wishlistDialect = {
  dialect: 'wishlist',
  sizeParam: 'take',
  startParam: 'skip',
  recordsKey: 'data',
  acceptsOrder: false,
  defaultSize: WISHLIST_DEFAULT_TAKE,
  defaultStart: WISHLIST_DEFAULT_SKIP,
  defaultsRule: 'spec',
} as const;

export const ENDPOINTS: Record<EndpointName, ListingEndpoint> = {
  reviews: { name: 'reviews', section: SECTIONS.reviews, ...reviewsDialect, path: () => PATHS.reviews },
  productReviews: {
    name: 'productReviews',
    section: SECTIONS.productReviews,
    ...reviewsDialect,
    pathId: 'product',
    orderRule: 'kit',
    path: (id) => fill(PATHS.productReviews, id),
  },
  wishlists: { name: 'wishlists', section: SECTIONS.wishlists, ...wishlistDialect, path: () => PATHS.wishlists },
  wishlistItems: {
    name: 'wishlistItems',
    section: SECTIONS.wishlistItems,
    ...wishlistDialect,
    pathId: 'wishlist',
    path: (id) => fill(PATHS.wishlistItems, id),
  },
};

/** Whether the suite may send `order` to this endpoint. */
export function sendsOrder(endpoint: ListingEndpoint, strict: boolean): boolean {
  return endpoint.acceptsOrder && (strict || endpoint.orderRule !== 'kit');
}

export const ALL_ENDPOINTS: EndpointName[] = [...ENDPOINT_NAMES];

/** Accepts the endpoint names (`reviews`, `productReviews`, ...) and the spec sections (`4.1` ...). */
export function parseEndpointList(value: string): EndpointName[] {
  const names: EndpointName[] = [];
  for (const raw of value.split(',').map((s) => s.trim()).filter(Boolean)) {
    const found = ALL_ENDPOINTS.find((n) => n.toLowerCase() === raw.toLowerCase() || ENDPOINTS[n].section === raw);
    if (!found) {
      throw new Error(
        `unknown endpoint '${raw}'; accepted: ${ALL_ENDPOINTS.map((n) => `${n} (${ENDPOINTS[n].section})`).join(', ')}`,
      );
    }
    if (!names.includes(found)) names.push(found);
  }
  if (names.length === 0) throw new Error('no endpoint given');
  return names;
}
