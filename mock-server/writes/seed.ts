/**
 * The seeded dataset as the write routes read it: a wishlist's row and items, a variant, an item's
 * place, in the dialect's shapes (a recording's records as the backend returned them).
 * Platform-neutral. One per dataset (`seedOf`), its scans (for sources that cannot look up
 * directly) made once, on first use.
 */
import type { Dataset } from '../../fixtures/dataset.ts';
import type { Dialect } from '../../lib/dialects/index.ts';
import type { ProductVariant } from '../../fixtures/records.ts';
import type { VariantJson, WishlistRow } from './types.ts';
import { CustomerSeed, type SeedPool } from './customer-seed.ts';

/** Customers whose views (CustomerSeed) a dataset keeps made; past it, the oldest is made again when asked. */
const KEPT_VIEWS = 4096;

/** The largest dataset whose wishlists are scanned for their customers (`indexesOfCustomer`). */
export const SCANNED_WISHLISTS = 100_000;

export class SeedWishlists implements SeedPool {
  readonly #views = new Map<string, CustomerSeed>();
  #variants: Map<string, VariantJson> | undefined;
  #items: Map<string, [number, number]> | undefined;
  #byCustomer: Map<string, number[]> | undefined;

  constructor(
    readonly dataset: Dataset,
    readonly dialect: Dialect,
  ) {}

  get count(): number {
    return this.dataset.wishlists.count;
  }

  /** The seeded wishlists `customer` sees (customer-seed.ts), made once and kept (the last KEPT_VIEWS customers). */
  of(customer: string): CustomerSeed {
    let view = this.#views.get(customer);
    if (view) {
      this.#views.delete(customer);
    } else {
      view = new CustomerSeed(customer, this);
      if (this.#views.size >= KEPT_VIEWS) this.#views.delete(this.#views.keys().next().value!);
    }
    this.#views.set(customer, view);
    return view;
  }

  indexOf(id: string): number {
    return this.dataset.wishlists.indexOf(id);
  }

  /** Wishlist w's own columns, as the dialect shows them. */
  row(w: number): WishlistRow {
    const recorded = this.dataset.recorded;
    const shown = (recorded ? JSON.parse(recorded.wishlistJson(w)) : this.dialect.project.wishlist(this.dataset.wishlists.source.wishlist(w, false))) as WishlistRow;
    const { id, name, customer_id, sales_channel_id, created_at, updated_at } = shown;
    return { id, name, customer_id, sales_channel_id, created_at, updated_at };
  }

  /** Wishlist w's row as the listing 4.3 shows it (the JSON a page splices in). */
  rowJson(w: number): string {
    const recorded = this.dataset.recorded;
    return recorded ? recorded.wishlistJson(w) : JSON.stringify(this.dialect.project.wishlist(this.dataset.wishlists.source.wishlist(w, false)));
  }

  itemCount(w: number): number {
    return this.dataset.wishlists.source.itemCount(w);
  }

  itemId(w: number, k: number): string {
    return this.dataset.wishlists.source.item(w, k).id;
  }

  itemJson(w: number, k: number): string {
    const recorded = this.dataset.recorded;
    return recorded ? recorded.itemJson(w, k) : JSON.stringify(this.dialect.project.item(this.dataset.wishlists.source.item(w, k)));
  }

  /**
   * The seeded wishlists whose customer_id is this customer's (a JWT naming a recorded customer), in
   * id order. Found by one scan, kept per dataset; a dataset of more than SCANNED_WISHLISTS wishlists
   * is not scanned (its generated customers are no token's).
   */
  indexesOfCustomer(customer: string): readonly number[] {
    if (!this.#byCustomer) {
      this.#byCustomer = new Map();
      if (this.count <= SCANNED_WISHLISTS) {
        for (let w = 0; w < this.count; w++) {
          const owner = this.row(w).customer_id;
          if (owner === null) continue;
          const list = this.#byCustomer.get(owner);
          if (list) list.push(w);
          else this.#byCustomer.set(owner, [w]);
        }
      }
    }
    return this.#byCustomer.get(customer) ?? [];
  }

  /** A variant the dataset's items can show, as the wishlist routes show it; undefined for any other id. */
  variant(id: string): VariantJson | undefined {
    const source = this.dataset.wishlists.source;
    if (source.findVariant && !this.dataset.recorded) {
      const found = source.findVariant(id);
      return found && variantJson(found);
    }
    if (!this.#variants) {
      this.#variants = new Map();
      for (let w = 0; w < this.count; w++) {
        for (let k = 0; k < this.itemCount(w); k++) {
          const item = JSON.parse(this.itemJson(w, k)) as { product_variant?: VariantJson };
          if (item.product_variant && !this.#variants.has(item.product_variant.id)) this.#variants.set(item.product_variant.id, item.product_variant);
        }
      }
    }
    return this.#variants.get(id);
  }

  /** Where the seeded item of that id is: [wishlist, item]. */
  locateItem(id: string): [number, number] | undefined {
    const source = this.dataset.wishlists.source;
    if (source.locateItem) return source.locateItem(id);
    if (!this.#items) {
      this.#items = new Map();
      for (let w = 0; w < this.count; w++) for (let k = 0; k < this.itemCount(w); k++) this.#items.set(this.itemId(w, k), [w, k]);
    }
    return this.#items.get(id);
  }
}

/** A catalogue's variant as the wishlist routes show an item's `product_variant` (the alphabite projection). */
export function variantJson(variant: ProductVariant): VariantJson {
  const { product } = variant;
  return { id: variant.id, title: variant.title, product_id: product.id, product: { id: product.id, handle: product.handle, thumbnail: product.thumbnail } };
}

const seeds = new WeakMap<Dataset, WeakMap<Dialect, SeedWishlists>>();

/** The one SeedWishlists of a dataset in a dialect. */
export function seedOf(dataset: Dataset, dialect: Dialect): SeedWishlists {
  let byDialect = seeds.get(dataset);
  if (!byDialect) seeds.set(dataset, (byDialect = new WeakMap()));
  let seed = byDialect.get(dialect);
  if (!seed) byDialect.set(dialect, (seed = new SeedWishlists(dataset, dialect)));
  return seed;
}
