/**
 * What customers wrote, in memory, over the seeded dataset: each customer's own wishlists, items and
 * reviews, and their changes to the seeded wishlists, seen by that customer only (docs/writes.md).
 * Platform-neutral: the MSW handlers keep one too.
 *
 * Every change is a command (types.ts) applied by `apply`, in an order every process agrees on (a
 * cluster's primary orders them; mock-server/admin/coordination.ts), with the time stamped once by
 * whoever sent it: ids come from a counter kept here, so every process makes the same bytes. Bounded
 * (WRITE_LIMITS): past a bound a write is a 400 `not_allowed` that says which bound and what to do.
 */
import { encodeBase32 } from '../../fixtures/ids.ts';
import { json } from './medusa-body.ts';
import type { SeedWishlists } from './seed.ts';
import type { Dialect } from '../../lib/dialects/index.ts';
import type { ItemRow, ReviewRow, VariantJson, WishlistRow, WriteAnswer, WriteCommand } from './types.ts';
import { fnvHalves } from '../../lib/customers.ts';

export const WRITE_LIMITS = {
  /** Customers with writes at once. */
  customers: 1000,
  /** Wishlists one customer created (and has not deleted). */
  wishlists: 100,
  /** Items one customer added (and has not removed). */
  items: 1000,
  /** Reviews one customer wrote (and has not deleted). */
  reviews: 100,
  /** Changes one customer made to seeded wishlists (renamed, transferred, deleted, items removed). */
  seedChanges: 1000,
  /** JSON one customer's writes hold, in characters. */
  customerChars: 4 * 1024 * 1024,
  /** JSON all customers' writes hold, in characters. */
  totalChars: 64 * 1024 * 1024,
} as const;

/** A customer's change to a seeded wishlist. */
interface SeedChange {
  name?: string | null;
  customer_id?: string;
  updated_at?: string;
  deleted?: boolean;
  /** Item indexes removed, ascending. */
  removed?: number[];
}

/** A wishlist as one customer sees it: one they created, or a seeded one (with their changes). */
export type SeenWishlist = { kind: 'own'; row: WishlistRow } | { kind: 'seed'; index: number; row: WishlistRow; change: SeedChange | undefined };

/** A listing made from records: how many, and the JSON of each position (in ascending id order). */
export interface VirtualList {
  count: number;
  json(position: number): string;
}

/** The reviews of the customer's own that a listing shows (4.1, 4.2), with what a merge needs. */
export type OwnReview = ReviewRow;

const empty = (): WriteAnswer => ({ status: 500, body: null });
const bound = (what: string) =>
  json(400, { type: 'not_allowed', message: `The mock keeps at most ${what}: delete some, or POST /__admin/reset (with {"customer": "<id>"} for one customer) to start again (docs/writes.md)` });

/** FNV-1a of a text as 16 Crockford base-32 characters (80 bits from two 32-bit hashes, padded). */
function tag16(text: string): string {
  const [h1, h2] = fnvHalves(text);
  return encodeBase32(h1, 7) + encodeBase32(h2, 7) + '00';
}

/** Wishlist and review JSON as the plugins answer it. */
const shownRow = (row: WishlistRow) => ({ id: row.id, name: row.name, customer_id: row.customer_id, sales_channel_id: row.sales_channel_id, created_at: row.created_at, updated_at: row.updated_at, deleted_at: null });
const shownItem = (item: ItemRow) => ({ id: item.id, wishlist_id: item.wishlist_id, product_variant_id: item.product_variant_id, product_variant: item.product_variant });

export class CustomerWrites {
  /** Wishlists the customer created, in creation (= id) order. */
  readonly created: WishlistRow[] = [];
  /** Their changes to seeded wishlists, by the seeded wishlist's id. */
  readonly seedChanges = new Map<string, SeedChange>();
  /** Items they added, to any wishlist they see, in creation (= id) order. */
  readonly added: ItemRow[] = [];
  readonly reviews: ReviewRow[] = [];
  chars = 0;

  constructor(readonly id: string) {}

  get seedChangeCount(): number {
    let n = 0;
    for (const change of this.seedChanges.values()) n += 1 + (change.removed?.length ?? 0);
    return n;
  }

  /** The wishlist of that id as this customer sees it; undefined when unknown or deleted. */
  wishlist(id: string, seed: SeedWishlists): SeenWishlist | undefined {
    const own = this.created.find((row) => row.id === id);
    if (own) return { kind: 'own', row: own };
    const index = seed.indexOf(id);
    if (index < 0) return undefined;
    const change = this.seedChanges.get(id);
    if (change?.deleted) return undefined;
    const row = seed.row(index);
    return { kind: 'seed', index, change, row: change ? { ...row, ...pick(change) } : row };
  }

  /** The items of a wishlist this customer sees, in id order. */
  items(seen: SeenWishlist, seed: SeedWishlists): VirtualList {
    const added = this.added.filter((item) => item.wishlist_id === seen.row.id);
    const addedJson = (k: number) => JSON.stringify(shownItem(added[k]!));
    if (seen.kind === 'own') return { count: added.length, json: addedJson };
    const kept = keptIndexes(seed.itemCount(seen.index), seen.change?.removed ?? []);
    return { count: kept.count + added.length, json: (p) => (p < kept.count ? seed.itemJson(seen.index, kept.at(p)) : addedJson(p - kept.count)) };
  }

  /** The variant ids of a wishlist's live items. */
  variantIds(seen: SeenWishlist, seed: SeedWishlists): string[] {
    const list = this.items(seen, seed);
    const out: string[] = [];
    for (let p = 0; p < list.count; p++) out.push((JSON.parse(list.json(p)) as { product_variant_id: string }).product_variant_id);
    return out;
  }

  /** Listing 4.3 as this customer sees it: the seeded wishlists they kept, then their own. */
  wishlists(seed: SeedWishlists): VirtualList {
    const deleted: number[] = [];
    for (const [id, change] of this.seedChanges) if (change.deleted) deleted.push(seed.indexOf(id));
    const kept = keptIndexes(seed.count, deleted.filter((w) => w >= 0).sort((a, b) => a - b));
    return {
      count: kept.count + this.created.length,
      json: (p) => {
        if (p >= kept.count) return JSON.stringify(shownRow(this.created[p - kept.count]!));
        const w = kept.at(p);
        const change = this.seedChanges.get(seed.row(w).id);
        return change && hasRowChange(change) ? JSON.stringify({ ...(JSON.parse(seed.rowJson(w)) as object), ...pick(change) }) : seed.rowJson(w);
      },
    };
  }

  /**
   * The wishlists whose `customer_id` is this customer's (what the plugins scope by customer: the
   * one-wishlist rule, total-items-count): seeded ones first (in id order), then their own.
   */
  ownedWishlists(seed: SeedWishlists): SeenWishlist[] {
    const out: SeenWishlist[] = [];
    for (const index of seed.indexesOfCustomer(this.id)) {
      const seen = this.wishlist(seed.row(index).id, seed);
      if (seen && seen.row.customer_id === this.id) out.push(seen);
    }
    for (const [id, change] of this.seedChanges) {
      if (change.customer_id !== this.id) continue;
      const seen = this.wishlist(id, seed);
      if (seen && !out.some((o) => o.row.id === id)) out.push(seen);
    }
    out.sort((a, b) => (a.row.id < b.row.id ? -1 : a.row.id > b.row.id ? 1 : 0));
    for (const row of this.created) if (row.customer_id === this.id) out.push({ kind: 'own', row });
    return out;
  }
}

function pick(change: SeedChange): Partial<WishlistRow> {
  return {
    ...(change.name !== undefined ? { name: change.name } : {}),
    ...(change.customer_id !== undefined ? { customer_id: change.customer_id } : {}),
    ...(change.updated_at !== undefined ? { updated_at: change.updated_at } : {}),
  };
}

const hasRowChange = (change: SeedChange) => change.name !== undefined || change.customer_id !== undefined || change.updated_at !== undefined;

/** Positions 0..count-1 without the (ascending, few) `removed` ones: how many are kept, and the p-th kept. */
function keptIndexes(count: number, removed: readonly number[]): { count: number; at(p: number): number } {
  const inRange = removed.filter((r) => r < count);
  return {
    count: count - inRange.length,
    at: (p) => {
      let i = p;
      for (const r of inRange) {
        if (r <= i) i++;
        else break;
      }
      return i;
    },
  };
}

/** A customer's name on their reviews: the mock knows none (docs/writes.md). */
export const MOCK_CUSTOMER_NAME = { first_name: 'Mock', last_name: 'Customer' } as const;

export class WriteStore {
  /** The dialect the server speaks (the seeded records' shapes); writes are applied only once it is set. */
  dialect: Dialect | undefined;
  readonly #customers = new Map<string, CustomerWrites>();
  #sequence = 0;
  #lastAt = 0;
  #chars = 0;
  /** Answers awaited by this process, by the token of the change that carries the command. */
  readonly #awaited = new Map<string, (answer: WriteAnswer) => void>();
  #tokens = 0;
  readonly #tag = Math.random().toString(36).slice(2, 10);

  /** True when no customer has writes: every listing is answered as without this store. */
  get empty(): boolean {
    return this.#customers.size === 0;
  }

  get customerCount(): number {
    return this.#customers.size;
  }

  of(customer: string): CustomerWrites | undefined {
    return this.#customers.get(customer);
  }

  /** Forgets every customer's writes (a reset, a reseed, a provider state) or one customer's; answers how many customers. */
  forget(customer?: string): number {
    if (customer === undefined) {
      const n = this.#customers.size;
      this.#customers.clear();
      this.#chars = 0;
      return n;
    }
    const writes = this.#customers.get(customer);
    if (!writes) return 0;
    this.#chars -= writes.chars;
    this.#customers.delete(customer);
    return 1;
  }

  /** A token naming a command this process sends, and the promise of its answer once applied here. */
  expect(): { token: string; answer: Promise<WriteAnswer> } {
    const token = `${this.#tag}:${++this.#tokens}`;
    const answer = new Promise<WriteAnswer>((resolve) => this.#awaited.set(token, resolve));
    return { token, answer };
  }

  /** Gives up on an awaited answer (its change failed to go out). */
  abandon(token: string): void {
    this.#awaited.delete(token);
  }

  /**
   * Applies a command at time `at` (epoch ms, stamped by whoever sent it; never earlier than the
   * last one applied) over the seeded dataset, and answers as the plugin does; the answer goes to
   * whoever awaits `token` in this process.
   */
  apply(command: WriteCommand, at: number, seed: SeedWishlists | undefined, token?: string): WriteAnswer {
    this.#lastAt = Math.max(this.#lastAt, Number.isFinite(at) ? at : 0);
    // No seed: a server whose dialect was never set, which has no write routes; answered, so no one waits forever.
    const answer = seed ? this.#apply(command, new Date(this.#lastAt).toISOString(), seed) : empty();
    if (token !== undefined) {
      const awaited = this.#awaited.get(token);
      this.#awaited.delete(token);
      awaited?.(answer);
    }
    return answer;
  }

  #id(prefix: string, customer: string): string {
    return `${prefix}_1${encodeBase32(++this.#sequence % 32 ** 9, 9)}${tag16(customer)}`;
  }

  /** The customer's writes, made when they write first; undefined past the bound of customers. */
  #writer(customer: string): CustomerWrites | undefined {
    let writes = this.#customers.get(customer);
    if (!writes) {
      if (this.#customers.size >= WRITE_LIMITS.customers) return undefined;
      this.#customers.set(customer, (writes = new CustomerWrites(customer)));
    }
    return writes;
  }

  /** Counts `chars` more for the customer; false (nothing counted) past a bound. */
  #room(writes: CustomerWrites, chars: number): boolean {
    if (writes.chars + chars > WRITE_LIMITS.customerChars || this.#chars + chars > WRITE_LIMITS.totalChars) return false;
    writes.chars += chars;
    this.#chars += chars;
    return true;
  }

  #release(writes: CustomerWrites, chars: number): void {
    writes.chars -= chars;
    this.#chars -= chars;
  }

  #apply(command: WriteCommand, now: string, seed: SeedWishlists): WriteAnswer {
    const existing = this.#customers.get(command.customer);
    const writes = existing ?? this.#writer(command.customer);
    if (!writes) return bound(`${WRITE_LIMITS.customers} customers with writes`);
    const answer = this.#applyTo(writes, command, now, seed);
    // A customer whose command changed nothing keeps no state (so their listings stay on the fast path).
    if (!existing && writes.created.length === 0 && writes.added.length === 0 && writes.reviews.length === 0 && writes.seedChanges.size === 0) this.#customers.delete(command.customer);
    return answer;
  }

  #applyTo(writes: CustomerWrites, command: WriteCommand, now: string, seed: SeedWishlists): WriteAnswer {
    const customer = command.customer;
    switch (command.op) {
      case 'createWishlist': {
        if (!command.multiple) {
          const first = writes.ownedWishlists(seed)[0];
          if (first) return json(200, { ...shownRow(first.row), items_count: 0, items: [] });
        }
        if (writes.created.length >= WRITE_LIMITS.wishlists) return bound(`${WRITE_LIMITS.wishlists} wishlists per customer`);
        const row: WishlistRow = { id: this.#id('wl', customer), name: command.name, customer_id: customer, sales_channel_id: command.salesChannelId, created_at: now, updated_at: now };
        const body = JSON.stringify({ ...shownRow(row), items: [], items_count: 0 });
        if (!this.#room(writes, body.length)) return bound(`${WRITE_LIMITS.customerChars} characters of JSON per customer (${WRITE_LIMITS.totalChars} in all)`);
        writes.created.push(row);
        return { status: 201, body };
      }
      case 'updateWishlist': {
        const seen = writes.wishlist(command.id, seed);
        if (!seen) return empty();
        if (command.name === undefined) return json(200, shownRow(seen.row));
        if (seen.kind === 'own') {
          const chars = (command.name ?? '').length - (seen.row.name ?? '').length;
          if (chars > 0 && !this.#room(writes, chars)) return bound(`${WRITE_LIMITS.customerChars} characters of JSON per customer (${WRITE_LIMITS.totalChars} in all)`);
          seen.row.name = command.name;
          seen.row.updated_at = now;
          return json(200, shownRow(seen.row));
        }
        const change = this.#seedChange(writes, command.id);
        if (!change || !this.#room(writes, command.name.length)) return bound(`${WRITE_LIMITS.seedChanges} changes to seeded wishlists per customer`);
        change.name = command.name;
        change.updated_at = now;
        return json(200, shownRow({ ...seen.row, name: command.name, updated_at: now }));
      }
      case 'deleteWishlist': {
        const seen = writes.wishlist(command.id, seed);
        if (!seen) return json(200, { id: command.id });
        // The cascade to the items fails on the real backend: a wishlist that holds items stays (notes/alphabite-writes.md §1.5).
        if (writes.items(seen, seed).count > 0) return empty();
        if (seen.kind === 'own') {
          writes.created.splice(writes.created.indexOf(seen.row), 1);
          return json(200, { id: command.id });
        }
        const change = this.#seedChange(writes, command.id);
        if (!change) return bound(`${WRITE_LIMITS.seedChanges} changes to seeded wishlists per customer`);
        change.deleted = true;
        return json(200, { id: command.id });
      }
      case 'addItem': {
        const seen = writes.wishlist(command.wishlist, seed);
        // Unknown wishlist, a guest's (customer_id null), another customer's, unknown variant, or the variant already there: the plugin's 500.
        if (!seen || seen.row.customer_id === null || seen.row.customer_id !== customer || !command.variant) return empty();
        if (writes.variantIds(seen, seed).includes(command.variant.id)) return empty();
        if (writes.added.length >= WRITE_LIMITS.items) return bound(`${WRITE_LIMITS.items} items per customer`);
        const item: ItemRow = { id: this.#id('wli', customer), wishlist_id: seen.row.id, product_variant_id: command.variant.id, product_variant: command.variant, created_at: now };
        const body = JSON.stringify(shownItem(item));
        if (!this.#room(writes, body.length)) return bound(`${WRITE_LIMITS.customerChars} characters of JSON per customer (${WRITE_LIMITS.totalChars} in all)`);
        writes.added.push(item);
        return { status: 201, body };
      }
      case 'removeItem': {
        const path = writes.wishlist(command.wishlist, seed);
        if (path && path.row.customer_id && path.row.customer_id !== customer) return empty();
        // Deleted by item id alone, whatever wishlist holds it (of those this customer sees).
        const at = writes.added.findIndex((item) => item.id === command.item);
        if (at >= 0) {
          const [item] = writes.added.splice(at, 1);
          this.#release(writes, JSON.stringify(shownItem(item!)).length);
          return json(200, { id: command.item });
        }
        const place = seed.locateItem(command.item);
        if (place) {
          const holder = writes.wishlist(seed.row(place[0]).id, seed);
          if (holder?.kind === 'seed' && !(holder.change?.removed ?? []).includes(place[1])) {
            const change = this.#seedChange(writes, holder.row.id);
            if (!change) return bound(`${WRITE_LIMITS.seedChanges} changes to seeded wishlists per customer`);
            change.removed = [...(change.removed ?? []), place[1]].sort((a, b) => a - b);
          }
        }
        return json(200, { id: command.item });
      }
      case 'transfer': {
        if (!command.multiple) {
          const target = writes.ownedWishlists(seed)[0];
          if (target && target.row.id !== command.id) {
            const source = writes.wishlist(command.id, seed);
            if (source) {
              const there = new Set(writes.variantIds(target, seed));
              const list = writes.items(source, seed);
              for (let p = 0; p < list.count; p++) {
                const { product_variant_id, product_variant } = JSON.parse(list.json(p)) as { product_variant_id: string; product_variant: VariantJson };
                if (there.has(product_variant_id) || writes.added.length >= WRITE_LIMITS.items) continue;
                writes.added.push({ id: this.#id('wli', customer), wishlist_id: target.row.id, product_variant_id, product_variant, created_at: now });
              }
              // deleteWishlists(id) then fails on the items still there (§1.5): the copies stay, the answer is the 500.
              if (list.count > 0) return empty();
              if (source.kind === 'own') writes.created.splice(writes.created.indexOf(source.row), 1);
              else {
                const change = this.#seedChange(writes, source.row.id);
                if (change) change.deleted = true;
              }
            }
            return json(200, { id: target.row.id });
          }
        }
        const seen = writes.wishlist(command.id, seed);
        if (!seen) return empty();
        if (seen.kind === 'own') seen.row.customer_id = customer;
        else if (seen.row.customer_id !== customer) {
          const change = this.#seedChange(writes, command.id);
          if (!change) return bound(`${WRITE_LIMITS.seedChanges} changes to seeded wishlists per customer`);
          change.customer_id = customer;
        }
        return json(200, { id: command.id });
      }
      case 'importWishlist':
        return this.#import(writes, command, now, seed);
      case 'createReview': {
        if (writes.reviews.length >= WRITE_LIMITS.reviews) return bound(`${WRITE_LIMITS.reviews} reviews per customer`);
        const { title, content, rating, product_id, image_urls } = command.review;
        const row: ReviewRow = {
          id: this.#id('rev', customer),
          title,
          content,
          rating,
          status: 'pending',
          product_id,
          customer_id: customer,
          image_urls,
          is_verified_purchase: false,
          created_at: now,
          updated_at: now,
          deleted_at: null,
          customer: { ...MOCK_CUSTOMER_NAME },
        };
        const body = JSON.stringify(row);
        if (!this.#room(writes, body.length)) return bound(`${WRITE_LIMITS.customerChars} characters of JSON per customer (${WRITE_LIMITS.totalChars} in all)`);
        writes.reviews.push(row);
        return { status: 201, body };
      }
      case 'deleteReview': {
        const at = writes.reviews.findIndex((review) => review.id === command.id);
        if (at < 0) return empty();
        const [review] = writes.reviews.splice(at, 1);
        this.#release(writes, JSON.stringify(review).length);
        return json(200, { id: command.id });
      }
    }
  }

  /**
   * A shared wishlist as its owner sees it, for an import: one a customer created (found among every
   * customer's, the one place where a customer reads another's), or a seeded one as the customer its
   * `customer_id` names sees it (with their changes); undefined when unknown or deleted.
   */
  #shared(id: string, seed: SeedWishlists): { row: WishlistRow; items: ItemRow[] } | undefined {
    let holder: CustomerWrites | undefined;
    for (const writes of this.#customers.values()) {
      if (writes.created.some((row) => row.id === id)) {
        holder = writes;
        break;
      }
    }
    if (!holder) {
      const index = seed.indexOf(id);
      if (index < 0) return undefined;
      const owner = seed.row(index).customer_id;
      holder = (owner !== null && this.#customers.get(owner)) || new CustomerWrites(owner ?? '');
    }
    const seen = holder.wishlist(id, seed);
    if (!seen) return undefined;
    const list = holder.items(seen, seed);
    const items: ItemRow[] = [];
    for (let p = 0; p < list.count; p++) items.push(JSON.parse(list.json(p)) as ItemRow);
    return { row: seen.row, items };
  }

  /**
   * `POST /store/wishlists/import` once the token verified: in multi mode (or for a customer with no
   * wishlist) a new wishlist of theirs with the source's name, channel and live items (new ids); in
   * single mode their first wishlist's items replaced by the source's (notes/alphabite-writes.md 1.10).
   */
  #import(writes: CustomerWrites, command: Extract<WriteCommand, { op: 'importWishlist' }>, now: string, seed: SeedWishlists): WriteAnswer {
    const customer = command.customer;
    const source = this.#shared(command.source, seed);
    const copy = (wishlistId: string) =>
      (source?.items ?? []).map((item): ItemRow => ({ id: this.#id('wli', customer), wishlist_id: wishlistId, product_variant_id: item.product_variant_id, product_variant: item.product_variant, created_at: now }));
    const itemsBound = () => bound(`${WRITE_LIMITS.items} items per customer`);
    const charsBound = () => bound(`${WRITE_LIMITS.customerChars} characters of JSON per customer (${WRITE_LIMITS.totalChars} in all)`);
    const target = command.multiple ? undefined : writes.ownedWishlists(seed)[0];
    if (target) {
      // The plugin reads the source's items without looking the wishlist up: an unknown source empties the target.
      const there = writes.items(target, seed);
      const removedSeedItems = target.kind === 'seed' ? seed.itemCount(target.index) : 0;
      const kept = writes.added.filter((item) => item.wishlist_id !== target.row.id);
      const items = copy(target.row.id);
      if (kept.length + items.length > WRITE_LIMITS.items) return itemsBound();
      const shown = items.map(shownItem);
      const chars = JSON.stringify(shown).length;
      // The seeded items go too (all of them: removed ones stay removed).
      const change = target.kind === 'seed' && there.count > 0 && removedSeedItems > 0 ? this.#seedChange(writes, target.row.id) : undefined;
      if (target.kind === 'seed' && there.count > 0 && removedSeedItems > 0 && !change) return bound(`${WRITE_LIMITS.seedChanges} changes to seeded wishlists per customer`);
      if (!this.#room(writes, chars)) return charsBound();
      if (change) change.removed = Array.from({ length: removedSeedItems }, (_, k) => k);
      for (const item of writes.added.filter((i) => i.wishlist_id === target.row.id)) this.#release(writes, JSON.stringify(shownItem(item)).length);
      writes.added.splice(0, writes.added.length, ...kept, ...items);
      const { id, name, customer_id, sales_channel_id, created_at, updated_at } = target.row;
      return json(200, { id, name, customer_id, sales_channel_id, created_at, updated_at, deleted_at: null, items: shown, items_count: shown.length });
    }
    if (!source) return empty();
    if (writes.created.length >= WRITE_LIMITS.wishlists) return bound(`${WRITE_LIMITS.wishlists} wishlists per customer`);
    const row: WishlistRow = { id: this.#id('wl', customer), name: source.row.name, customer_id: customer, sales_channel_id: source.row.sales_channel_id, created_at: now, updated_at: now };
    const items = copy(row.id);
    if (writes.added.length + items.length > WRITE_LIMITS.items) return itemsBound();
    const body = JSON.stringify({ ...shownRow(row), items: items.map(shownItem), items_count: items.length });
    if (!this.#room(writes, body.length)) return charsBound();
    writes.created.push(row);
    writes.added.push(...items);
    return { status: 200, body };
  }

  /** The customer's change record of a seeded wishlist; undefined past the bound. */
  #seedChange(writes: CustomerWrites, id: string): SeedChange | undefined {
    if (writes.seedChangeCount >= WRITE_LIMITS.seedChanges) return undefined;
    let change = writes.seedChanges.get(id);
    if (!change) writes.seedChanges.set(id, (change = {}));
    return change;
  }
}
