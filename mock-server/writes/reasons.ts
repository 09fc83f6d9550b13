/**
 * Why the mock answered as it did where the plugins' own answer does not say: their empty 500s (a
 * handler's `catch { res.status(500).end() }`, notes/alphabite-writes.md 0.3) and the few answers that
 * look like success but did something else. The body stays as the plugins answer it; the reason goes in
 * the response header `x-store-listing-kit-reason` (REASON_HEADER), one short sentence per cause, plain
 * ASCII (a header value), never the request's own text. The one place the write routes' sentences live (the
 * four listings' own empty 500s: ALPHABITE_LISTING_REASONS in lib/dialects/alphabite.ts).
 */
import type { WriteAnswer } from './types.ts';

export const REASONS = {
  wishlistUnknown: 'no wishlist with this id for this customer (unknown or deleted)',
  wishlistOfAnother: 'the wishlist belongs to another customer',
  guestWishlist: 'the wishlist is a guest wishlist (no customer_id), to which no customer adds',
  variantUnknown: 'no product variant with this id',
  variantAlreadyThere: 'the variant is already in this wishlist',
  wishlistHoldsItems: 'the wishlist still holds items, and deleting it fails on them as on the real backend',
  transferLeftCopies: 'the items were copied to your first wishlist, but deleting this one fails on its items, so both stay',
  sharedWishlistUnknown: 'the shared wishlist is unknown or deleted',
  reviewNotYours: 'no review of this customer with this id (unknown, deleted or another customer\'s)',
  noShareSecret: 'no share token secret is set (the plugin option shareTokenSecret), so no token can be signed',
  noWriteRoutes: 'this server speaks no dialect with write routes',
  // Answers that look like success (plugin-faithful) but did not do what was asked:
  existingWishlistAnswered: 'allow_multiple_wishlists is off and you have a wishlist: it is answered, and nothing was made',
  mergedIntoFirst: 'allow_multiple_wishlists is off: the wishlist was merged into your first wishlist, whose id is answered',
  nothingTransferred: 'no wishlist with this id for this customer: nothing was transferred',
  itemsReplaced: 'allow_multiple_wishlists is off: the items of your first wishlist were replaced by the shared wishlist\'s',
  itemsRemovedUnknownSource: 'allow_multiple_wishlists is off and the shared wishlist is unknown: your first wishlist\'s items were removed',
  nothingDeleted: 'no wishlist with this id for this customer: nothing was deleted',
  itemNotFound: 'no item with this id in the wishlists this customer sees: nothing was removed',
} as const;

export type Reason = (typeof REASONS)[keyof typeof REASONS];

/** The plugins' 500 with an empty body, with the mock's reason for it. */
export const empty500 = (reason: Reason): WriteAnswer => ({ status: 500, body: null, reason });

/** An answer with the mock's reason added. */
export const withReason = (answer: WriteAnswer, reason: Reason): WriteAnswer => ({ ...answer, reason });
