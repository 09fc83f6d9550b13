/**
 * A small catalogue as a storefront's backend lists it (Medusa's StoreProduct fields), for the MSW
 * tests that give handlers a catalogue: products in no particular order, one with so many variants
 * that seeded wishlists leave some of them out, one with none, one with `variants: null`, null titles and SKUs, thumbnails and none.
 */
import type { CatalogueInput } from '../../fixtures/catalogue.ts';

export const SHOP_CATALOGUE: CatalogueInput = {
  products: [
    { id: 'prod_01SHOPTEE', title: 'Shop Tee', handle: 'shop-tee', thumbnail: 'https://cdn.shop.test/tee.png', variants: Array.from({ length: 6 }, (_, v) => ({ id: `variant_01SHOPTEE${v}`, title: `Tee ${'SMLX'[v % 4]}${v}`, sku: `TEE-${v}` })) },
    { id: 'prod_01SHOPMUG', title: 'Shop Mug', handle: 'shop-mug', thumbnail: null, variants: [{ id: 'variant_01SHOPMUG', title: null, sku: null }] },
    { id: 'prod_01SHOPGIFT', title: 'Gift card', handle: 'gift-card', thumbnail: null, variants: [] },
    { id: 'prod_01SHOPCAP', title: 'Shop Cap "Blue"', handle: 'shop-cap', thumbnail: 'https://cdn.shop.test/cap.png', variants: [{ id: 'variant_01SHOPCAPB', title: 'Blue' }, { id: 'variant_01SHOPCAPA', title: 'Red', sku: 'CAP-RED' }] },
    { id: 'prod_01SHOPSOCKS', title: 'Socks', handle: 'socks', thumbnail: 'https://cdn.shop.test/socks.png', variants: Array.from({ length: 150 }, (_, v) => ({ id: `variant_01SHOPSOCKS${String(v).padStart(3, '0')}`, title: `Pair ${v}`, sku: null })) },
    { id: 'prod_01SHOPPOSTER', title: 'Poster', handle: 'poster', thumbnail: null, variants: null },
  ],
};

/** Every variant of the catalogue with its product's handle, in the catalogue's order. */
export function shopVariants(catalogue: CatalogueInput = SHOP_CATALOGUE): Array<{ id: string; handle: string }> {
  return catalogue.products.flatMap((product) => (product.variants ?? []).map((variant) => ({ id: variant.id, handle: product.handle })));
}
