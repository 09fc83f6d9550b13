import { PATHS } from '../lib/api-rules.ts';
import type { ReviewsEnvelope, WishlistEnvelope } from '../lib/paging.ts';
import type { Review, Wishlist, WishlistItem } from '../lib/records.ts';

/**
 * A small typed storefront client for the four listing endpoints: what a storefront
 * would call, and what the consumer contracts exercise. Only the parameters given are
 * sent, so the provider's defaults apply to the rest. A non-2xx answer becomes a
 * `StorefrontApiError` carrying the documented `{ type, message }` body.
 */

export interface ReviewsQuery {
  limit?: number;
  offset?: number;
  /** A field name, `-` prefixed for descending: `created_at`, `-created_at`, `rating`... */
  order?: string;
}

export interface WishlistQuery {
  skip?: number;
  take?: number;
}

export interface WishlistItemsQuery extends WishlistQuery {
  /** Send the wishlist id again as `?id=` (the spec's alternative client form of 4.4). */
  idInQuery?: boolean;
}

export interface StorefrontClientOptions {
  /** A `fetch` to use instead of the global one (tests, instrumentation). */
  fetch?: typeof fetch;
  /** Extra request headers, e.g. an `Authorization` header. */
  headers?: Record<string, string>;
}

/** An answer other than 2xx. `type` and `message` come from the documented error body when there is one. */
export class StorefrontApiError extends Error {
  override readonly name = 'StorefrontApiError';
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly url: string,
  ) {
    super(message);
  }
}

export class StorefrontClient {
  readonly #baseUrl: string;
  readonly #fetch: typeof fetch;
  readonly #headers: Record<string, string>;

  /** `baseUrl` is the `{base_url}` of the spec, e.g. `http://localhost:9000` (a trailing slash is ignored). */
  constructor(baseUrl: string, options: StorefrontClientOptions = {}) {
    this.#baseUrl = baseUrl.replace(/\/+$/, '');
    this.#fetch = options.fetch ?? fetch;
    this.#headers = { accept: 'application/json', ...options.headers };
  }

  /** 4.1: reviews across all products. */
  listReviews(query: ReviewsQuery = {}): Promise<ReviewsEnvelope<Review>> {
    return this.#get(PATHS.reviews, reviewParams(query));
  }

  /** 4.2: the reviews of one product; an unknown product is an empty page. */
  listProductReviews(productId: string, query: ReviewsQuery = {}): Promise<ReviewsEnvelope<Review>> {
    return this.#get(PATHS.productReviews.replace(':product_id', encodeURIComponent(productId)), reviewParams(query));
  }

  /** 4.3: wishlists, each with all its items embedded. */
  listWishlists(query: WishlistQuery = {}): Promise<WishlistEnvelope<Wishlist>> {
    return this.#get(PATHS.wishlists, wishlistParams(query));
  }

  /** 4.4: the items of one wishlist; an unknown wishlist is a 404 `not_found`. */
  listWishlistItems(wishlistId: string, query: WishlistItemsQuery = {}): Promise<WishlistEnvelope<WishlistItem>> {
    const params = query.idInQuery ? [['id', wishlistId] as [string, string], ...wishlistParams(query)] : wishlistParams(query);
    return this.#get(PATHS.wishlistItems.replace(':id', encodeURIComponent(wishlistId)), params);
  }

  async #get<T>(path: string, params: Array<[string, string]>): Promise<T> {
    const query = new URLSearchParams(params).toString();
    const url = `${this.#baseUrl}${path}${query ? `?${query}` : ''}`;
    const response = await this.#fetch(url, { headers: this.#headers });
    const text = await response.text();
    const body = parseJson(text);
    if (!response.ok) {
      const error = isErrorBody(body) ? body : { type: 'unknown_error', message: `HTTP ${response.status}: ${text.slice(0, 200) || 'empty body'}` };
      throw new StorefrontApiError(response.status, error.type, error.message, url);
    }
    if (body === undefined) throw new StorefrontApiError(response.status, 'invalid_response', `Expected a JSON body from ${url}`, url);
    return body as T;
  }
}

function reviewParams(query: ReviewsQuery): Array<[string, string]> {
  const params: Array<[string, string]> = [];
  if (query.limit !== undefined) params.push(['limit', String(query.limit)]);
  if (query.offset !== undefined) params.push(['offset', String(query.offset)]);
  if (query.order !== undefined) params.push(['order', query.order]);
  return params;
}

function wishlistParams(query: WishlistQuery): Array<[string, string]> {
  const params: Array<[string, string]> = [];
  if (query.skip !== undefined) params.push(['skip', String(query.skip)]);
  if (query.take !== undefined) params.push(['take', String(query.take)]);
  return params;
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

function isErrorBody(body: unknown): body is { type: string; message: string } {
  return typeof body === 'object' && body !== null && typeof (body as { type?: unknown }).type === 'string' && typeof (body as { message?: unknown }).message === 'string';
}
