/**
 * One sha256 over every byte a dataset can serve: each review as its source writes it (and as
 * JSON.stringify writes it), each wishlist with its items, each item on its own, and the answers of
 * the lookups the listings and writes make (product index of every product id, the variant of every
 * item's variant id, the place of every item id). Two datasets with the same digest serve the same
 * bytes; test/catalogue.test.ts pins the digests of default datasets. Without `withSummary`, only
 * the records and lookups count (two datasets over the same catalogue, given and generated).
 */
import { createHash } from 'node:crypto';
import type { Dataset } from '../../fixtures/dataset.ts';

export function datasetDigest(dataset: Dataset, withSummary = true): string {
  const hash = createHash('sha256');
  const line = (text: string) => hash.update(text).update('\n');
  if (withSummary) line(JSON.stringify(dataset.summary));
  const reviews = dataset.reviews.source;
  line(`products ${reviews.productCount}`);
  for (let p = 0; p < reviews.productCount; p++) line(`${reviews.productId(p)} ${reviews.productIndexOf(reviews.productId(p))}`);
  for (let i = 0; i < reviews.count; i++) {
    const pieces: string[] = [];
    reviews.writeReviewJson?.(i, pieces);
    line(pieces.join(''));
    line(JSON.stringify(reviews.review(i)));
    line(`${reviews.createdAt[i]} ${reviews.updatedAt[i]} ${reviews.rating[i]} ${reviews.product[i]} ${reviews.isVerifiedPurchase(i)}`);
  }
  const wishlists = dataset.wishlists.source;
  line(`wishlists ${wishlists.count} ${wishlists.itemTotal}`);
  for (let w = 0; w < wishlists.count; w++) {
    const wishlist = wishlists.wishlist(w);
    line(JSON.stringify(wishlist));
    line(JSON.stringify(wishlists.wishlist(w, false)));
    line(`${wishlists.indexOf(wishlist.id)} ${wishlists.itemCount(w)}`);
    for (let k = 0; k < wishlists.itemCount(w); k++) {
      const item = wishlists.item(w, k);
      line(JSON.stringify(item));
      line(JSON.stringify(wishlists.findVariant?.(item.product_variant_id) ?? null));
      line(JSON.stringify(wishlists.locateItem?.(item.id) ?? null));
    }
  }
  return hash.digest('hex');
}
