/**
 * A small, fixed dataset for the reference server of the self-test: few enough records that a whole
 * suite run takes seconds, shaped to hit the edges (rating and created_at ties, a product id that is
 * a prefix of others, an empty wishlist, a wishlist of exactly ten items).
 */

import type { Review, Wishlist, WishlistItem } from '../../lib/records.ts';

export type { Review, Wishlist, WishlistItem };

export interface TestDataset {
  reviews: Review[];
  wishlists: Wishlist[];
}

const BASE = Date.UTC(2024, 0, 1);
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();
const pad = (n: number) => String(n).padStart(3, '0');

/** prod_1 is a prefix of prod_10 and prod_11 on purpose; prod_4 has no review. */
export const TEST_PRODUCTS = ['prod_1', 'prod_2', 'prod_10', 'prod_11', 'prod_3', 'prod_4'];

export function testDataset(reviewCount = 23, itemCounts = [3, 0, 10, 1, 12, 5, 2]): TestDataset {
  const reviews: Review[] = [];
  for (let i = 0; i < reviewCount; i++) {
    // ids deliberately not in creation order, so the id tie-break is visible
    const id = `rev_${pad((i * 7) % reviewCount)}`;
    const created = BASE + Math.floor(i / 2) * HOUR; // pairs share created_at
    reviews.push({
      id,
      product_id: TEST_PRODUCTS[i % 5]!,
      title: i % 4 === 0 ? null : `Review ${i}`,
      content: `Content of review ${i}`,
      rating: (i * 3) % 5 + 1,
      image_urls: i % 3 === 0 ? [`https://img.example.com/${id}.jpg`] : [],
      is_verified_purchase: i % 2 === 0,
      customer: { first_name: `First${i}`, last_name: `Last${i}` },
      created_at: iso(created),
      updated_at: iso(created + ((i * 13) % 5) * HOUR),
    });
  }
  const wishlists: Wishlist[] = itemCounts.map((n, w) => {
    const id = `wl_${pad(w)}`;
    const created = BASE + w * 24 * HOUR;
    const items: WishlistItem[] = Array.from({ length: n }, (_, k) => {
      const at = created + (k + 1) * HOUR;
      const variant = `variant_${w}_${k}`;
      return {
        id: `wli_${pad(w)}_${pad(k)}`,
        wishlist_id: id,
        product_variant_id: variant,
        product_variant: { id: variant, title: `Variant ${k}`, sku: `SKU-${w}-${k}`, product: { id: `prod_${k % 4}`, title: `Product ${k}`, handle: `product-${k}`, thumbnail: null } },
        created_at: iso(at),
        updated_at: iso(at + HOUR),
      };
    });
    return { id, name: w % 3 ? `List ${w}` : null, customer_id: w % 2 ? null : `cus_${w}`, sales_channel_id: 'sc_1', items, items_count: n, created_at: iso(created), updated_at: iso(created + HOUR) };
  });
  return { reviews, wishlists };
}
