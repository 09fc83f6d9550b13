/**
 * The write routes' request and answer, platform-neutral: the HTTP mock (mock-server/front/writes.ts)
 * and the MSW handlers (msw/) build the same request and send the same answer.
 */
import type { QueryPairs } from '../../lib/query.ts';

/** A request's body as received: its text and declared type; undefined when the request has none. */
export interface RawBody {
  text: string;
  contentType: string | undefined;
  /** Its length in bytes (UTF-8), what the limits count. */
  bytes: number;
  /** The transport already found it longer than it could take (the HTTP adapter stops reading at REVIEW_BODY_LIMIT). */
  truncated?: boolean;
}

export type Headers = Readonly<Record<string, string | string[] | undefined>>;

export interface WriteRequest {
  method: string;
  /** The path as received (percent-escapes decoded per segment by the router that matched it). */
  path: string;
  query: QueryPairs;
  /** Names in lower case. */
  headers: Headers;
  body: RawBody | undefined;
}

/** An answer: its status and JSON text; `null` is an empty body (the plugins' `res.status(500).end()`). */
export interface WriteAnswer {
  status: number;
  body: string | null;
  /** Why, where the plugins' answer does not say (reasons.ts): sent in the header `x-store-listing-kit-reason`. */
  reason?: string;
}

/** The plugins' wishlist settings (`GET /store/wishlists/settings`), which the mock takes as options. */
export interface WishlistSettings {
  allow_guest_wishlist: false;
  allow_multiple_wishlists: boolean;
}

/** A wishlist's own columns, in the plugin's key order (deleted_at is always null where shown). */
export interface WishlistRow {
  id: string;
  name: string | null;
  customer_id: string | null;
  sales_channel_id: string;
  created_at: string;
  updated_at: string;
}

/** A variant as the wishlist routes show it (the plugin's default item fields). */
export interface VariantJson {
  id: string;
  title: string;
  product_id: string;
  product: { id: string; handle: string; thumbnail: string | null };
}

export interface ItemRow {
  id: string;
  wishlist_id: string;
  product_variant_id: string;
  product_variant: VariantJson;
  created_at: string;
}

export interface ReviewRow {
  id: string;
  title: string | null;
  content: string;
  rating: number;
  status: 'pending';
  product_id: string;
  customer_id: string;
  image_urls: string[];
  is_verified_purchase: false;
  created_at: string;
  updated_at: string;
  deleted_at: null;
  customer: { first_name: string; last_name: string };
}

/**
 * A write, as plain data (it crosses processes: every worker of a cluster applies the same
 * commands in the same order, mock-server/state/coordination.ts). What it needs from the dataset
 * (a variant) is resolved before it is sent, by the process that received the request.
 */
export type WriteCommand =
  | { op: 'createWishlist'; customer: string; name: string | null; salesChannelId: string; multiple: boolean }
  | { op: 'updateWishlist'; customer: string; id: string; name: string | undefined }
  | { op: 'deleteWishlist'; customer: string; id: string }
  | { op: 'addItem'; customer: string; wishlist: string; variant: VariantJson | null }
  | { op: 'removeItem'; customer: string; wishlist: string; item: string }
  | { op: 'transfer'; customer: string; id: string; multiple: boolean }
  /** A verified share token's wishlist, copied for the customer (`source`: the token's `wishlist_id`, whoever owns it). */
  | { op: 'importWishlist'; customer: string; source: string; multiple: boolean }
  | { op: 'createReview'; customer: string; review: { title: string | null; content: string; rating: number; product_id: string; image_urls: string[] } }
  | { op: 'deleteReview'; customer: string; id: string };
