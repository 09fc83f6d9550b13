/**
 * The write routes of the published plugins (and the reads around them) as zod schemas: the
 * request bodies Medusa's `validateAndTransformBody` takes (zod strict, so an unknown field is a
 * 400), the bodies the routes answer, and the error bodies only they give. Each is what
 * notes/alphabite-writes.md records of the real backend (@alphabite/medusa-wishlist 0.7.4,
 * @alphabite/medusa-reviews 0.7.2, default options). The OpenAPI document of the alphabite
 * dialect (lib/openapi/alphabite-write-api.ts) is generated from these.
 */
import { z } from 'zod';
import { ID_PREFIXES } from '../records.ts';
import { alphabiteRecordSchemas, ratingAggregateShape } from './alphabite-schemas.ts';

const wishlistShape = alphabiteRecordSchemas.wishlist.shape;
const reviewShape = alphabiteRecordSchemas.review.shape;
const prefixedId = (prefix: string) => z.string().regex(new RegExp(`^${prefix}_\\S+$`));

/** `sales_channel_id` and `product_id` are stored as sent: the plugins check neither. */
const unchecked = (what: string) => z.string().describe(`stored as sent: the plugin does not check that the ${what} exists`);

/**
 * What `Number(value)` reads as a decimal number (a string or a number in JSON), for `rating`.
 * Medusa's schema is `z.preprocess(v => Math.round(Number(v)), z.number().min(1).max(5))`.
 */
const DECIMAL = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;

/** The request bodies (zod strict: `additionalProperties: false`). */
export const alphabiteWriteBodySchemas = {
  /** `POST /store/wishlists` (`CreateWishlistInputSchema`). */
  createWishlist: z.strictObject({
    name: z.string().optional().describe('no length limit; `null` is a 400; absent: the wishlist is named `null`'),
    sales_channel_id: unchecked('sales channel'),
  }),
  /** `PUT /store/wishlists/:id` (`UpdateWishlistInputSchema`: the create schema's `name`). */
  updateWishlist: z.strictObject({ name: z.string().optional().describe('absent (`{}`): nothing changes, `updated_at` included') }),
  /** `POST /store/wishlists/:id/add-item` (`AddItemToWishlistInputSchema`). */
  addItem: z.strictObject({ product_variant_id: z.string().describe('an unknown variant is a 500 with an empty body') }),
  /** `POST /store/wishlists/import` (`ImportWishlistInputSchema`). */
  importWishlist: z.strictObject({ share_token: z.string().min(1).describe('a token `POST /store/wishlists/{id}/share` answered') }),
  /** `POST /store/reviews` (`CreateReviewInputSchema`). */
  createReview: z.strictObject({
    content: z.string().describe('no length limit (the route takes bodies up to 10 MB)'),
    rating: z
      .union([z.number().min(0.5).lt(5.5), z.string().regex(DECIMAL)])
      .describe('`Math.round(Number(rating))` must be 1 to 5: `4`, `4.4` and `"2.6"` (3) are taken; `0.4` (0), `6` and `"abc"` are a 400'),
    product_id: unchecked('product'),
    // Not `.default([])`: openapi-typescript would make a field with a default required in the request type.
    image_urls: z.array(z.string()).optional().describe('any strings (not checked to be URLs); absent: `[]`'),
    title: z.string().optional().describe('absent: the review has `title: null`'),
  }),
} as const;

/** A wishlist's own columns as the write routes answer them. */
const wishlistColumns = {
  id: wishlistShape.id,
  name: wishlistShape.name,
  customer_id: wishlistShape.customer_id,
  sales_channel_id: unchecked('sales channel'),
  created_at: wishlistShape.created_at,
  updated_at: wishlistShape.updated_at,
  deleted_at: z.null(),
};

/** An item with the plugin's default fields, as 4.4 lists it. */
const item = alphabiteRecordSchemas.item;

export const alphabiteWriteAnswerSchemas = {
  /** `GET /store/wishlists/settings`: the admin settings (both `false` on a fresh install). */
  settings: z.object({ allow_guest_wishlist: z.boolean(), allow_multiple_wishlists: z.boolean() }),
  /**
   * `POST /store/wishlists`: 201 the new wishlist, or (one wishlist per customer, a customer who has one)
   * 200 their first wishlist, shown with `items_count: 0` and `items: []` whatever it holds.
   */
  createdWishlist: z.object({ ...wishlistColumns, items: z.tuple([]).describe('always empty'), items_count: z.literal(0).describe('always 0') }),
  /** `GET /store/wishlists/:id`: no timestamps; at most `includeWishlistItemsTake` (5) items, not paged; the real count. */
  wishlistWithItems: z.object({
    id: wishlistShape.id,
    name: wishlistShape.name,
    customer_id: wishlistShape.customer_id,
    sales_channel_id: unchecked('sales channel'),
    items_count: z.int().min(0).describe('all the items, also those not shown'),
    items: z.array(item).max(5).describe('the first 5 items by id (the option `includeWishlistItemsTake`)'),
  }),
  /** `PUT /store/wishlists/:id`: the row, no items keys. */
  updatedWishlist: z.object(wishlistColumns),
  /** `POST /store/wishlists/:id/add-item`: the new item with the default fields (with `?fields=`: only those fields). */
  addedItem: z.union([item, z.looseObject({ id: item.shape.id }).describe('with `?fields=`: the fields asked for (`?fields=id`: the id only)')]),
  /** `POST /store/wishlists/import`: the copy (or, one wishlist per customer, the caller's list, its items replaced). */
  importedWishlist: z.object({
    ...wishlistColumns,
    items: z.array(item).describe('all the copied items (not capped), default fields, in no fixed order'),
    items_count: z.int().min(0).describe("the number of the shared wishlist's live items"),
  }),
  /** Deletes and `transfer`: the id from the path (a delete does not check that it exists). */
  id: z.object({ id: z.string().min(1) }),
  /** `POST /store/wishlists/:id/share`, when the backend sets `shareTokenSecret`: an HS256 JWT, valid 7 days, naming the wishlist. */
  shareToken: z.object({ share_token: z.string().regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/).describe('a JWT whose payload is `{ wishlist_id, iat, exp }`') }),
  /** `GET /store/wishlists/total-items-count`. */
  totalItemsCount: z.object({ total_items_count: z.int().min(0) }),
  /** `GET /store/reviews/product/:id/aggregate-counts`: approved reviews only; any product id, known or not. */
  ratingAggregate: z.object({
    average: ratingAggregateShape.average,
    total_count: ratingAggregateShape.total_count,
    product_id: z.string().describe('the id from the path'),
    counts: ratingAggregateShape.counts.length(5),
  }),
  /** `POST /store/reviews`: the new review, always `pending`. */
  createdReview: z.object({
    id: reviewShape.id,
    title: reviewShape.title,
    content: reviewShape.content,
    rating: reviewShape.rating,
    status: z.literal('pending'),
    product_id: unchecked('product'),
    customer_id: prefixedId(ID_PREFIXES.customer),
    image_urls: z.array(z.string()),
    is_verified_purchase: z.boolean().describe('true only if the customer has an order with the product'),
    created_at: reviewShape.created_at,
    updated_at: reviewShape.updated_at,
    deleted_at: z.null(),
    customer: z.object({ first_name: z.string().nullable(), last_name: z.string().nullable() }),
  }),
  /** `POST /store/reviews/files/images/upload`: what Medusa's file module stored (`[]` without files). */
  uploadedFiles: z.array(z.object({ id: z.string(), url: z.string() })),
} as const;

/** Error bodies of the write routes besides `{ type, message }` of any type and those of 4.x (alphabite-schemas.ts). */
export const alphabiteWriteErrorSchemas = {
  /** 400: the publishable key (`not_allowed`) or Medusa's validation and body parser (`invalid_data`). */
  invalidRequest: z.object({ type: z.enum(['invalid_data', 'not_allowed']), message: z.string().min(1) }),
  /** 401 from a handler: a guest, or a share token that does not verify. */
  refusedByHandler: z.object({ type: z.literal('unauthorized'), message: z.string().min(1) }),
  /** 404 from `import`: a token that verifies but names no wishlist. */
  notFound: z.object({ type: z.literal('not_found'), message: z.string().min(1) }),
  /** 413: a JSON body over express's 100 kB (`message` comes first). */
  payloadTooLarge: z.object({ message: z.literal('request entity too large'), type: z.literal('unknown_error') }),
  /** 500 from `GET /store/wishlists/settings` when the settings cannot be read. */
  settingsError: z.object({ error: z.string().min(1) }),
  /** 429 from the upload's in-memory rate limiter. */
  tooManyUploads: z.object({ message: z.string().min(1) }),
} as const;

export type AlphabiteCreatedWishlist = z.infer<typeof alphabiteWriteAnswerSchemas.createdWishlist>;
export type AlphabiteCreatedReview = z.infer<typeof alphabiteWriteAnswerSchemas.createdReview>;
export type AlphabiteCreateReviewBody = z.input<typeof alphabiteWriteBodySchemas.createReview>;
