/**
 * The real backend `npm run test:medusa` sets up (scripts/test-medusa.mjs): what it created, read from
 * the JSON file $MEDUSA_FIXTURE, and the shopper's view of it as a `ListingBackend` for the shared
 * flows (real-client-flows.ts).
 */
import { readFileSync } from 'node:fs';
import { byId, type ListingBackend } from './real-client-flows.ts';

export interface MedusaFacts {
  baseUrl: string;
  publishableKey: string;
  /** A key of another sales channel (with no wishlists of its own). */
  otherPublishableKey: string;
  salesChannelId: string;
  products: Array<{ id: string; handle: string; variantIds: string[] }>;
  customers: Array<{ id: string; email: string; token: string }>;
  reviews: Array<{ id: string; product_id: string; rating: number; customer_id: string; status: 'pending' | 'approved' | 'rejected' }>;
  wishlists: Array<{ id: string; customer_id: string; itemIds: string[] }>;
  /** The variant of the only item of the fourth customer's wishlist, deleted after it was added. */
  deletedVariantId: string;
  /** Medusa's output, for a failing test to point at. */
  medusaLog: string;
}

export function medusaFacts(): MedusaFacts {
  const file = process.env.MEDUSA_FIXTURE;
  if (!file) throw new Error('MEDUSA_FIXTURE is not set: run these tests with `npm run test:medusa`, which sets up the backend');
  return JSON.parse(readFileSync(file, 'utf8')) as MedusaFacts;
}

/** The first customer (the shopper), the product with the most reviews, the shopper's fullest wishlist. */
export function shopperBackend(facts: MedusaFacts): ListingBackend {
  const shopper = facts.customers[0]!;
  const reviewsOf = (productId: string) => facts.reviews.filter((r) => r.product_id === productId);
  const mostReviewed = [...facts.products].sort((a, b) => reviewsOf(b.id).length - reviewsOf(a.id).length)[0]!;
  const own = facts.wishlists.filter((w) => w.customer_id === shopper.id);
  const fullest = [...own].sort((a, b) => b.itemIds.length - a.itemIds.length)[0]!;
  return {
    baseUrl: facts.baseUrl,
    publishableKey: facts.publishableKey,
    authorization: `Bearer ${shopper.token}`,
    productId: mostReviewed.id,
    wishlistId: fullest.id,
    allReviewIds: async () => byId(facts.reviews.map((r) => r.id)),
    productReviewIds: async (id) => byId(reviewsOf(id).map((r) => r.id)),
    approvedReviewCount: async (id) => reviewsOf(id).filter((r) => r.status === 'approved').length,
    wishlistIds: async () => byId(own.map((w) => w.id)),
    itemIds: async (id) => byId(facts.wishlists.find((w) => w.id === id)?.itemIds ?? []),
  };
}
