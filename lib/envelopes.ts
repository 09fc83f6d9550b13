import { z } from 'zod';
import { recordSchemas } from './records.ts';
import type { ReviewsEnvelope as ReviewsEnvelopeOf, WishlistEnvelope as WishlistEnvelopeOf } from './paging.ts';

/**
 * The two envelopes and the error body (API.md), as zod schemas. lib/paging.ts builds the
 * envelopes' numbers and declares their TypeScript shape without loading zod (the page
 * arithmetic stays light); the checks at the end of this file make the compiler prove the
 * two agree.
 */

const count = z.int().min(0);
const page = z.int().min(1);

/** Reviews (4.1, 4.2): every key present; `nextPage`/`prevPage` an integer or `null`. Key order as the spec lists them. */
export function reviewsEnvelopeSchema<R extends z.ZodType>(record: R) {
  return z.object({
    reviews: z.array(record),
    count,
    limit: page,
    offset: count,
    totalPages: count,
    currentPage: page,
    nextPage: page.nullable(),
    prevPage: page.nullable(),
  });
}

/** Wishlists (4.3, 4.4): `nextPage`/`prevPage` present only when there is one, never `null`. */
export function wishlistEnvelopeSchema<R extends z.ZodType>(record: R) {
  return z.object({
    data: z.array(record),
    count,
    skip: count,
    take: page,
    totalPages: count,
    currentPage: page,
    nextPage: page.optional(),
    prevPage: page.optional(),
  });
}

/** The four listings' envelopes with their records. */
export const envelopeSchemas = {
  reviews: reviewsEnvelopeSchema(recordSchemas.review),
  productReviews: reviewsEnvelopeSchema(recordSchemas.review),
  wishlists: wishlistEnvelopeSchema(recordSchemas.wishlist),
  wishlistItems: wishlistEnvelopeSchema(recordSchemas.item),
} as const;

/** Every error the API answers: `{ type, message }`, never HTML, never empty. */
export const errorBodySchema = z.object({ type: z.string().min(1), message: z.string().min(1) });
export type ErrorBody = z.infer<typeof errorBodySchema>;

// The compiler checks that paging.ts's envelope types are the schemas' types.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Review = z.infer<typeof recordSchemas.review>;
type Wishlist = z.infer<typeof recordSchemas.wishlist>;
const reviewsAgree: Same<z.infer<typeof envelopeSchemas.reviews>, ReviewsEnvelopeOf<Review>> = true;
const wishlistsAgree: Same<z.infer<typeof envelopeSchemas.wishlists>, WishlistEnvelopeOf<Wishlist>> = true;
void reviewsAgree;
void wishlistsAgree;
