/**
 * The seeded wishlists one customer sees (the alphabite dialect): the plugin lists only the caller's
 * own wishlists (`filters: { customer_id }` in its GET /store/wishlists), so each customer has their
 * own. Platform-neutral and pure: the same dataset and the same customer id give the same records,
 * byte for byte, in every process (the HTTP mock, its cluster's workers, the MSW handlers).
 *
 * The rule (docs/writes.md, "Whose wishlists"), one of three per customer:
 * - **named**: a customer the dataset names as a wishlist's `customer_id` (a recording of a real
 *   backend, asked with the tokens it issued; a fixtures file) sees exactly those wishlists, as they are.
 * - **asker**: a provider state's dataset (`Dataset.wishlistOwners`) is the world of the one customer
 *   a contract asks as: every customer sees all of its wishlists, as theirs (`customer_id` theirs), as
 *   the kit's provider-state route makes them on a real backend for the token's customer. One
 *   customer's own data read from a backend (`wishlistOwners: 'reader'`) is theirs, all of it, as read.
 * - **derived**: any other customer sees SEEDED_WISHLISTS_PER_CUSTOMER wishlist of the dataset (picked
 *   by a hash of their id, one that holds items when the dataset has one), made theirs: its id and its
 *   items' ids re-made from the customer's id (DERIVED ids below), `customer_id` theirs, everything else
 *   (name, channel, times, variants) as the dataset has it. One, so that it holds while
 *   `allow_multiple_wishlists` is off, as on a fresh install.
 */
import { decodeBase32, encodeBase32 } from '../../fixtures/ids.ts';
import { fnvHalves } from '../../lib/customers.ts';
import type { Dataset } from '../../fixtures/dataset.ts';
import type { VariantJson, WishlistRow } from './types.ts';

/** How many of the dataset's wishlists a customer the dataset does not name starts with. */
export const SEEDED_WISHLISTS_PER_CUSTOMER = 1;

/** How far the pick looks, from its hashed start, for a wishlist that holds items. */
const ITEM_PROBES = 64;

/**
 * What the write routes and the listings read of the seeded wishlists: the whole dataset's
 * (SeedWishlists), or one customer's (CustomerSeed). Positions are 0..count-1 in the API's order.
 */
export interface SeedView {
  readonly count: number;
  /** The position of a wishlist id in this view, or -1. */
  indexOf(id: string): number;
  row(w: number): WishlistRow;
  rowJson(w: number): string;
  itemCount(w: number): number;
  itemJson(w: number, k: number): string;
  /** Where the item of that id is in this view: [wishlist, item]. */
  locateItem(id: string): [number, number] | undefined;
  /** The positions whose wishlist's `customer_id` is this customer's, in id order. */
  indexesOfCustomer(customer: string): readonly number[];
  variant(id: string): VariantJson | undefined;
}

export type Ownership = 'named' | 'asker' | 'derived';

/** The whole dataset's seeded wishlists, as a customer's view reads them (seed.ts's SeedWishlists). */
export interface SeedPool extends SeedView {
  readonly dataset: Dataset;
  itemId(w: number, k: number): string;
}

/** A customer's tag in derived ids: 10 Crockford base-32 characters (50 bits) of a hash of their id. */
export function customerTag(customer: string): string {
  const [h1, h2] = fnvHalves(`customer:${customer}`);
  return encodeBase32(h1 >>> 7, 5) + encodeBase32(h2 >>> 7, 5);
}

/**
 * DERIVED ids: `wl_` + the first 10 characters of the dataset wishlist's id (its index or time part,
 * so ids still sort as the dataset's) + the dataset wishlist's index (6 characters) + the customer's
 * tag (10): 26 characters, as the backend's. An item: `wli_` + the first 10 of the dataset item's id +
 * its index in the wishlist (6) + the tag (10). What another customer's derived id names can be read
 * back from it (`derivedIndex`); whose it is cannot, but the tag tells it apart from the caller's.
 */
function derivedId(prefix: string, sourceId: string, index: number, tag: string): string {
  const body = sourceId.slice(sourceId.indexOf('_') + 1);
  return `${prefix}_${body.slice(0, 10).padEnd(10, '0')}${encodeBase32(index % 32 ** 6, 6)}${tag}`;
}

/** The dataset wishlist a derived wishlist id was made from, and the tag of whose it is; undefined for any other id. */
export function derivedIndex(id: string, pool: SeedPool): { index: number; tag: string } | undefined {
  if (!/^wl_[0-9A-HJKMNP-TV-Z]{26}$/.test(id)) return undefined;
  const index = decodeBase32(id.slice(13, 19));
  if (!(index < pool.count)) return undefined;
  if (derivedId('wl', pool.row(index).id, index, id.slice(19)) !== id) return undefined;
  return { index, tag: id.slice(19) };
}

/** The dataset wishlists a customer the dataset does not name starts with (positions in the dataset, ascending). */
function pick(customer: string, pool: SeedPool): number[] {
  if (pool.count === 0) return [];
  const [h1] = fnvHalves(`wishlists:${customer}`);
  const start = h1 % pool.count;
  for (let probe = 0; probe < Math.min(ITEM_PROBES, pool.count); probe++) {
    const w = (start + probe) % pool.count;
    if (pool.itemCount(w) > 0) return [w];
  }
  return [start].slice(0, SEEDED_WISHLISTS_PER_CUSTOMER);
}

/** Replaces some keys' values in a record's JSON, keeping its key order. */
function rewrite(json: string, values: Record<string, unknown>): string {
  const record = JSON.parse(json) as Record<string, unknown>;
  for (const [key, value] of Object.entries(values)) if (key in record) record[key] = value;
  return JSON.stringify(record);
}

/** The seeded wishlists one customer sees (see the module's comment). Make them with `pool.of(customer)`. */
export class CustomerSeed implements SeedView {
  readonly ownership: Ownership;
  /** The dataset positions of the wishlists this customer sees, in order. */
  readonly #indexes: readonly number[];
  readonly #tag: string;
  /** Derived: wishlist id -> position. */
  #ids: Map<string, number> | undefined;
  /** Derived: item id -> [position, item]. */
  #items: Map<string, [number, number]> | undefined;

  /**
   * `derivedFrom`: the view of an unknown customer's derived wishlist made from that dataset wishlist
   * (an id another customer holds, read back by `derivedIndex`), as they see it without writes.
   */
  constructor(
    readonly customer: string,
    readonly pool: SeedPool,
    derivedFrom?: { index: number; tag: string },
  ) {
    this.#tag = derivedFrom?.tag ?? customerTag(customer);
    const named = derivedFrom || pool.dataset.wishlistOwners ? [] : pool.indexesOfCustomer(customer);
    if (derivedFrom) {
      this.ownership = 'derived';
      this.#indexes = [derivedFrom.index];
    } else if (pool.dataset.wishlistOwners === 'asker') {
      this.ownership = 'asker';
      this.#indexes = Array.from({ length: pool.count }, (_, w) => w);
    } else if (pool.dataset.wishlistOwners === 'reader') {
      this.ownership = 'named';
      this.#indexes = Array.from({ length: pool.count }, (_, w) => w);
    } else if (named.length > 0) {
      this.ownership = 'named';
      this.#indexes = named;
    } else {
      this.ownership = 'derived';
      this.#indexes = pick(customer, pool);
    }
  }

  get count(): number {
    return this.#indexes.length;
  }

  /** The dataset position of this view's wishlist w. */
  sourceIndex(w: number): number {
    return this.#indexes[w]!;
  }

  indexOf(id: string): number {
    if (this.ownership === 'asker') return this.pool.indexOf(id);
    if (this.ownership === 'named') return this.#indexes.indexOf(this.pool.indexOf(id));
    if (!this.#ids) {
      this.#ids = new Map();
      for (let w = 0; w < this.count; w++) this.#ids.set(this.#wishlistId(w), w);
    }
    return this.#ids.get(id) ?? -1;
  }

  #wishlistId(w: number): string {
    const index = this.#indexes[w]!;
    return derivedId('wl', this.pool.row(index).id, index, this.#tag);
  }

  #itemId(w: number, k: number): string {
    return derivedId('wli', this.pool.itemId(this.#indexes[w]!, k), k, this.#tag);
  }

  row(w: number): WishlistRow {
    const row = this.pool.row(this.#indexes[w]!);
    if (this.ownership === 'named') return row;
    return { ...row, ...(this.ownership === 'derived' ? { id: this.#wishlistId(w) } : {}), customer_id: this.customer };
  }

  rowJson(w: number): string {
    const json = this.pool.rowJson(this.#indexes[w]!);
    if (this.ownership === 'named') return json;
    return rewrite(json, this.ownership === 'derived' ? { id: this.#wishlistId(w), customer_id: this.customer } : { customer_id: this.customer });
  }

  itemCount(w: number): number {
    return this.pool.itemCount(this.#indexes[w]!);
  }

  itemJson(w: number, k: number): string {
    const json = this.pool.itemJson(this.#indexes[w]!, k);
    return this.ownership === 'derived' ? rewrite(json, { id: this.#itemId(w, k), wishlist_id: this.#wishlistId(w) }) : json;
  }

  locateItem(id: string): [number, number] | undefined {
    if (this.ownership !== 'derived') {
      const place = this.pool.locateItem(id);
      if (!place) return undefined;
      const w = this.ownership === 'asker' ? place[0] : this.#indexes.indexOf(place[0]);
      return w < 0 ? undefined : [w, place[1]];
    }
    if (!this.#items) {
      this.#items = new Map();
      for (let w = 0; w < this.count; w++) for (let k = 0; k < this.itemCount(w); k++) this.#items.set(this.#itemId(w, k), [w, k]);
    }
    return this.#items.get(id);
  }

  indexesOfCustomer(customer: string): readonly number[] {
    return customer === this.customer ? Array.from({ length: this.count }, (_, w) => w) : [];
  }

  variant(id: string): VariantJson | undefined {
    return this.pool.variant(id);
  }

  /** Whether a derived id's tag is this customer's (a derived wishlist of theirs, whatever the view holds now). */
  hasTag(tag: string): boolean {
    return tag === this.#tag;
  }
}
