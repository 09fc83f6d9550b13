/**
 * A `WriteWorld` (test/support/write-cases.ts) on the mock's own generated data, for comparing the mock
 * with the real plugins' recorded answers (test/medusa/write-answers.json, storefront-write-flow.json):
 * three variants of one product of the catalogue, a product nobody reviewed, two customers (bearer
 * tokens that are JWTs naming their `actor_id`, as Medusa's are; the mock verifies none), the mock's
 * share token secret. The dataset has no seeded wishlists: the real customers are fresh and own none,
 * as every customer of a dataset without wishlists (docs/writes.md, "Whose wishlists").
 */
import { generateDataset, type Dataset } from '../../fixtures/dataset.ts';
import { MOCK_SHARE_TOKEN_SECRET } from '../../mock-server/writes/share-token.ts';
import type { WriteWorld } from './write-cases.ts';
import { customerToken } from './customer-token.ts';

/** The mock's dataset for the comparison: seed 1's catalogue and reviews, no wishlists. */
export const WRITE_WORLD_DATA = { seed: 1, wishlists: 0 } as const;
export const WRITE_WORLD_KEY = 'pk_store_listing_kit_writes';

/** Three variants of one product, in title order, and a product without reviews, from the catalogue of `WRITE_WORLD_DATA`'s seed. */
export function mockCatalogueChoice(): { variantIds: [string, string, string]; productId: string; dataset: Dataset } {
  // The catalogue is the seed's; a dataset with wishlists shows its variants through their items.
  const withItems = generateDataset({ seed: WRITE_WORLD_DATA.seed, wishlists: 60 });
  const byProduct = new Map<string, Map<string, string>>();
  const source = withItems.wishlists.source;
  for (let w = 0; w < withItems.wishlists.count; w++) {
    for (let k = 0; k < source.itemCount(w); k++) {
      const { product_variant: v } = source.item(w, k) as unknown as { product_variant: { id: string; title: string; product: { id: string } } };
      let variants = byProduct.get(v.product.id);
      if (!variants) byProduct.set(v.product.id, (variants = new Map()));
      variants.set(v.title, v.id);
    }
  }
  const full = [...byProduct.values()].find((variants) => variants.size >= 3);
  if (!full) throw new Error('the catalogue should have a product with three variants in wishlists');
  const order = ['S', 'M', 'L', 'XL'];
  const ids = [...full.entries()].sort(([a], [b]) => order.indexOf(a) - order.indexOf(b)).map(([, id]) => id);
  const dataset = generateDataset(WRITE_WORLD_DATA);
  const reviews = dataset.reviews.source;
  const reviewed = new Set<string>();
  for (let i = 0; i < dataset.reviews.count; i++) reviewed.add(reviews.review(i).product_id);
  let productId: string | undefined;
  for (let p = 0; p < reviews.productCount && !productId; p++) if (!reviewed.has(reviews.productId(p))) productId = reviews.productId(p);
  if (!productId) throw new Error('the catalogue should have a product without reviews');
  return { variantIds: [ids[0]!, ids[1]!, ids[2]!], productId, dataset };
}

/** An id shaped as the backend's (`prefix_` + 26 Crockford base-32 characters), so the normaliser names it; `label` in Crockford letters. */
const ulidLike = (prefix: string, label: string) => `${prefix}_01WR${label.padEnd(22, '0').slice(0, 22)}`;

/** The world on a mock at `baseUrl` serving `WRITE_WORLD_DATA` with the publishable key `WRITE_WORLD_KEY`. */
export function mockWriteWorld(baseUrl: string, labels: { alice: string; bob: string } = { alice: 'A', bob: 'B' }): WriteWorld {
  const { variantIds, productId } = mockCatalogueChoice();
  const customer = (label: string, first_name: string, last_name: string) => {
    const id = ulidLike('cus', label);
    return { id, token: customerToken(id), first_name, last_name };
  };
  return {
    baseUrl,
    publishableKey: WRITE_WORLD_KEY,
    salesChannelId: ulidLike('sc', 'C'),
    variantIds,
    productId,
    shareTokenSecret: MOCK_SHARE_TOKEN_SECRET,
    customers: { alice: customer(labels.alice, 'Alice', 'Writer'), bob: customer(labels.bob, 'Bob', 'Reader') },
  };
}
