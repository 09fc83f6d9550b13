/**
 * The alphabite dialect's answers as zod schemas: its records as it projects them (alphabite.ts
 * `project`), its envelopes with the plugins' clamped page numbers, and its error bodies. The
 * OpenAPI document of the dialect (lib/openapi/) is generated from these, as the spec dialect's
 * is from lib/records.ts and lib/envelopes.ts.
 */
import { z } from 'zod';
import { recordSchemas } from '../records.ts';

const wishlistShape = recordSchemas.wishlist.shape;
const itemShape = recordSchemas.item.shape;
const variantShape = itemShape.product_variant.shape;
const productShape = variantShape.product.shape;

/** A review as the plugin selects it: the kit's fields. */
const review = recordSchemas.review;

/** A wishlist's own columns (the plugin option `includeWishlistItems` is off by default): no items. */
const wishlist = z.object({
  id: wishlistShape.id,
  name: wishlistShape.name,
  customer_id: wishlistShape.customer_id,
  sales_channel_id: wishlistShape.sales_channel_id,
  created_at: wishlistShape.created_at,
  updated_at: wishlistShape.updated_at,
  deleted_at: z.null(),
});

/** An item with the plugin's default fields (`defaultItemsFields`). */
const item = z.object({
  id: itemShape.id,
  wishlist_id: itemShape.wishlist_id,
  product_variant_id: itemShape.product_variant_id,
  product_variant: z.object({
    id: variantShape.id,
    title: variantShape.title,
    /** The variant's product, as Medusa adds the foreign key of a selected relation. */
    product_id: productShape.id,
    product: z.object({ id: productShape.id, handle: productShape.handle, thumbnail: productShape.thumbnail }),
  }),
});

export const alphabiteRecordSchemas = { review, wishlist, item } as const;

/**
 * `getPagination`'s numbers: `skip / take + 1` is not floored, next/previous are clamped into
 * `[1, totalPages]`, and a page size of 0 divides to Infinity/NaN, which JSON writes as `null`.
 */
const pageNumber = z.number().nullable();
const echoed = z.number().min(0).nullable().describe('as `parseInt` read it (null when it overflows to Infinity)');
const count = z.int().min(0);

const pageNumbers = {
  nextPage: pageNumber.describe('min(currentPage + 1, totalPages): never absent, the last page is its own next page'),
  currentPage: pageNumber.describe('skip / take + 1, not floored: offset 5 with limit 10 is page 1.5'),
  prevPage: pageNumber.describe('max(currentPage - 1, 1): never absent'),
  totalPages: pageNumber.describe('max(ceil(count / take), 1): 1 when empty'),
};

/**
 * A product's rating aggregate (approved reviews only): 4.2 with `include_aggregated_counts`
 * and `GET /store/reviews/product/:id/aggregate-counts` (alphabite-write-schemas.ts).
 */
export const ratingAggregateShape = {
  average: z.number().min(0).max(5).describe('the mean rating, rounded to 2 decimals; 0 when there is none'),
  total_count: count,
  counts: z.array(z.object({ rating: z.int().min(1).max(5), count })).describe('one entry per rating, 5 down to 1'),
};

/** 4.2 with `include_aggregated_counts`: the aggregate after the envelope. */
const aggregate = {
  average: ratingAggregateShape.average.optional(),
  total_count: ratingAggregateShape.total_count.optional(),
  counts: ratingAggregateShape.counts.optional(),
};

export const alphabiteEnvelopeSchemas = {
  /** 4.1 ignores paging: every matching review, and always the same numbers (`getPagination(undefined)`). */
  reviews: z.object({
    data: z.array(review),
    count: z.literal(0),
    nextPage: z.literal(1),
    currentPage: z.literal(1),
    prevPage: z.literal(1),
    totalPages: z.literal(1),
    take: z.literal(5),
    skip: z.literal(0),
  }),
  productReviews: z.object({ data: z.array(review), count, ...pageNumbers, take: echoed, skip: echoed, ...aggregate }),
  wishlists: z.object({ data: z.array(wishlist), take: echoed, skip: echoed, count, ...pageNumbers }),
  wishlistItems: z.object({ data: z.array(item), skip: echoed, take: echoed, count, ...pageNumbers }),
} as const;

/** The error bodies the plugins and Medusa answer besides `{ type, message }`. */
export const alphabiteErrorSchemas = {
  /** `authenticate("customer", ["bearer"])` on 4.3. */
  unauthorized: z.object({ message: z.string().min(1) }),
  /** Medusa's error handler for a database error (a negative limit, an unknown column). */
  unknownError: z.object({ code: z.literal('unknown_error'), type: z.literal('unknown_error'), message: z.string().min(1) }),
} as const;

export type AlphabiteWishlist = z.infer<typeof alphabiteRecordSchemas.wishlist>;
export type AlphabiteWishlistItem = z.infer<typeof alphabiteRecordSchemas.item>;
export type AlphabiteProductReviewsPage = z.infer<typeof alphabiteEnvelopeSchemas.productReviews>;
export type AlphabiteWishlistsPage = z.infer<typeof alphabiteEnvelopeSchemas.wishlists>;
