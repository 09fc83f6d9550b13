/**
 * What customers wrote, in memory, over the seeded dataset: each customer's own wishlists, items and
 * reviews, and their changes to the seeded wishlists, seen by that customer only (docs/writes.md).
 * Platform-neutral: the MSW handlers keep one too.
 *
 * Every change is a command (types.ts) applied by `apply`, in an order every process agrees on (a
 * cluster's primary orders them; mock-server/state/coordination.ts), with the time stamped once by
 * whoever sent it: ids come from a counter kept here, so every process makes the same bytes. Bounded
 * (WRITE_LIMITS): past a bound a write is a 400 `not_allowed` that says which bound and what to do, and
 * changes nothing. Every record a customer's writes hold counts against the bounds of characters
 * (`charsOf`), whichever route made it (create, add-item, transfer's copies, import's, a rename, a
 * change to a seeded wishlist, a review), and gives its count back when it goes: a customer's count is
 * always `recount(writes)`, and the store's the sum of its customers'.
 */
import { encodeBase32 } from '../../fixtures/ids.ts';
import { json } from './medusa-body.ts';
import { empty500, REASONS, withReason, type Reason } from './reasons.ts';
import type { SeedWishlists } from './seed.ts';
import { CustomerSeed, customerTag, derivedIndex, type SeedView } from './customer-seed.ts';
import type { Dialect } from '../../lib/dialects/index.ts';
import type { ItemRow, ReviewRow, VariantJson, WishlistRow, WriteAnswer, WriteCommand } from './types.ts';
import { fnvHalves } from '../../lib/customers.ts';

/** The bounds of what the store keeps (a store takes others, e.g. small ones in a test). */
export interface WriteLimits {
  readonly customers: number;
  readonly wishlists: number;
  readonly items: number;
  readonly reviews: number;
  readonly seedChanges: number;
  readonly customerChars: number;
  readonly totalChars: number;
}

export const WRITE_LIMITS: WriteLimits = {
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
};

/** A customer's change to a seeded wishlist. */
export interface SeedChange {
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

/** What each record a customer's writes hold counts against the bounds: the characters of its JSON as kept. */
export const charsOf = {
  wishlist: (row: WishlistRow): number => JSON.stringify(row).length,
  item: (item: ItemRow): number => JSON.stringify(item).length,
  review: (review: ReviewRow): number => JSON.stringify(review).length,
  seedChange: (id: string, change: SeedChange): number => id.length + JSON.stringify(change).length,
};

/** What a customer's writes hold, counted afresh from the records (the store's own count must equal it). */
export function recount(writes: CustomerWrites): number {
  let chars = 0;
  for (const row of writes.created) chars += charsOf.wishlist(row);
  for (const item of writes.added) chars += charsOf.item(item);
  for (const review of writes.reviews) chars += charsOf.review(review);
  for (const [id, change] of writes.seedChanges) chars += charsOf.seedChange(id, change);
  return chars;
}

/** How many of the bound `seedChanges` one change record takes: itself and each item it removes. */
const changeCount = (change: SeedChange | undefined) => (change ? 1 + (change.removed?.length ?? 0) : 0);

export class CustomerWrites {
  /** Wishlists the customer created, in creation (= id) order. */
  readonly created: WishlistRow[] = [];
  /** Their changes to seeded wishlists, by the seeded wishlist's id. */
  readonly seedChanges = new Map<string, SeedChange>();
  /** Items they added, to any wishlist they see, in creation (= id) order. */
  readonly added: ItemRow[] = [];
  readonly reviews: ReviewRow[] = [];
  /** The characters its records count (`recount`), kept by the store as it changes them. */
  chars = 0;

  constructor(readonly id: string) {}

  get seedChangeCount(): number {
    let n = 0;
    for (const change of this.seedChanges.values()) n += changeCount(change);
    return n;
  }

  /** The wishlist of that id as this customer sees it; undefined when unknown or deleted. */
  wishlist(id: string, seed: SeedView): SeenWishlist | undefined {
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
  items(seen: SeenWishlist, seed: SeedView): VirtualList {
    const added = this.added.filter((item) => item.wishlist_id === seen.row.id);
    const addedJson = (k: number) => JSON.stringify(shownItem(added[k]!));
    if (seen.kind === 'own') return { count: added.length, json: addedJson };
    const kept = keptIndexes(seed.itemCount(seen.index), seen.change?.removed ?? []);
    return { count: kept.count + added.length, json: (p) => (p < kept.count ? seed.itemJson(seen.index, kept.at(p)) : addedJson(p - kept.count)) };
  }

  /** The variant ids of a wishlist's live items. */
  variantIds(seen: SeenWishlist, seed: SeedView): string[] {
    const list = this.items(seen, seed);
    const out: string[] = [];
    for (let p = 0; p < list.count; p++) out.push((JSON.parse(list.json(p)) as { product_variant_id: string }).product_variant_id);
    return out;
  }

  /**
   * Listing 4.3 as this customer sees it, in id order (the listings' default order, which their page
   * arithmetic assumes): the seeded wishlists they kept, and their own among them by id. Ids made here
   * come after the seed's, so their own follow the seeded ones, but for a copy a transfer took from
   * another customer (`#adopt`), which keeps its older id, as the plugin's transfer keeps the row's.
   */
  wishlists(seed: SeedView): VirtualList {
    const deleted: number[] = [];
    for (const [id, change] of this.seedChanges) if (change.deleted) deleted.push(seed.indexOf(id));
    const kept = keptIndexes(seed.count, deleted.filter((w) => w >= 0).sort((a, b) => a - b));
    const own = [...this.created].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    // Where each of their own goes: after the kept seeded wishlists of smaller ids (a binary search), and their own before it.
    const places = own.map((row, i) => {
      let [lo, hi] = [0, kept.count];
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (seed.row(kept.at(mid)).id < row.id) lo = mid + 1;
        else hi = mid;
      }
      return lo + i;
    });
    return {
      count: kept.count + own.length,
      json: (p) => {
        const mine = places.indexOf(p);
        if (mine >= 0) return JSON.stringify(shownRow(own[mine]!));
        let before = 0;
        while (before < places.length && places[before]! < p) before++;
        const w = kept.at(p - before);
        const change = this.seedChanges.get(seed.row(w).id);
        return change && hasRowChange(change) ? JSON.stringify({ ...(JSON.parse(seed.rowJson(w)) as object), ...pick(change) }) : seed.rowJson(w);
      },
    };
  }

  /**
   * The wishlists whose `customer_id` is this customer's (what the plugins scope by customer: the
   * one-wishlist rule, total-items-count): seeded ones first (in id order), then their own.
   */
  ownedWishlists(seed: SeedView): SeenWishlist[] {
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

/** Another customer's wishlist as they see it now: its row and its items. */
export interface ForeignWishlist {
  row: WishlistRow;
  items: VirtualList;
}

/** A prepared change to a customer's record of a seeded wishlist: what it counts more (or less), and its commit. */
interface PreparedChange {
  chars: number;
  commit(): void;
}

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

  constructor(readonly limits: WriteLimits = WRITE_LIMITS) {}

  /** True when no customer has writes: every listing is answered as without this store. */
  get empty(): boolean {
    return this.#customers.size === 0;
  }

  get customerCount(): number {
    return this.#customers.size;
  }

  /** The characters all customers' writes count (the bound `totalChars`). */
  get totalChars(): number {
    return this.#chars;
  }

  /** Every customer with writes. */
  customers(): IterableIterator<CustomerWrites> {
    return this.#customers.values();
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
    const answer = seed ? this.#apply(command, new Date(this.#lastAt).toISOString(), seed) : empty500(REASONS.noWriteRoutes);
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
      if (this.#customers.size >= this.limits.customers) return undefined;
      this.#customers.set(customer, (writes = new CustomerWrites(customer)));
    }
    return writes;
  }

  /** Whether `chars` more (a change that counts more) stays within the customer's and the total bound; less always does. */
  #fits(writes: CustomerWrites, chars: number): boolean {
    return chars <= 0 || (writes.chars + chars <= this.limits.customerChars && this.#chars + chars <= this.limits.totalChars);
  }

  /** Counts `chars` more (or, negative, fewer) for the customer and in all: the one place the counts change. */
  #count(writes: CustomerWrites, chars: number): void {
    writes.chars += chars;
    this.#chars += chars;
  }

  #charsBound(): WriteAnswer {
    return bound(`${this.limits.customerChars} characters of JSON per customer (${this.limits.totalChars} in all)`);
  }

  #seedChangesBound(): WriteAnswer {
    return bound(`${this.limits.seedChanges} changes to seeded wishlists per customer`);
  }

  #itemsBound(): WriteAnswer {
    return bound(`${this.limits.items} items per customer`);
  }

  #apply(command: WriteCommand, now: string, seed: SeedWishlists): WriteAnswer {
    const existing = this.#customers.get(command.customer);
    const writes = existing ?? this.#writer(command.customer);
    if (!writes) return bound(`${this.limits.customers} customers with writes`);
    const answer = this.#applyTo(writes, command, now, seed.of(command.customer), seed);
    // A customer whose command changed nothing keeps no state (so their listings stay on the fast path).
    if (!existing && writes.created.length === 0 && writes.added.length === 0 && writes.reviews.length === 0 && writes.seedChanges.size === 0) this.#customers.delete(command.customer);
    return answer;
  }

  #applyTo(writes: CustomerWrites, command: WriteCommand, now: string, seed: SeedView, pool: SeedWishlists): WriteAnswer {
    const customer = command.customer;
    switch (command.op) {
      case 'createWishlist': {
        if (!command.multiple) {
          const first = writes.ownedWishlists(seed)[0];
          if (first) return withReason(json(200, { ...shownRow(first.row), items_count: 0, items: [] }), REASONS.existingWishlistAnswered);
        }
        if (writes.created.length >= this.limits.wishlists) return bound(`${this.limits.wishlists} wishlists per customer`);
        const row: WishlistRow = { id: this.#id('wl', customer), name: command.name, customer_id: customer, sales_channel_id: command.salesChannelId, created_at: now, updated_at: now };
        const chars = charsOf.wishlist(row);
        if (!this.#fits(writes, chars)) return this.#charsBound();
        writes.created.push(row);
        this.#count(writes, chars);
        return { status: 201, body: JSON.stringify({ ...shownRow(row), items: [], items_count: 0 }) };
      }
      case 'updateWishlist': {
        const seen = writes.wishlist(command.id, seed);
        if (!seen) return empty500(REASONS.wishlistUnknown);
        if (command.name === undefined) return json(200, shownRow(seen.row));
        const name = command.name;
        if (seen.kind === 'own') {
          const chars = charsOf.wishlist({ ...seen.row, name, updated_at: now }) - charsOf.wishlist(seen.row);
          if (!this.#fits(writes, chars)) return this.#charsBound();
          seen.row.name = name;
          seen.row.updated_at = now;
          this.#count(writes, chars);
          return json(200, shownRow(seen.row));
        }
        const change = this.#prepareSeedChange(writes, command.id, (c) => {
          c.name = name;
          c.updated_at = now;
        });
        if (!change) return this.#seedChangesBound();
        if (!this.#fits(writes, change.chars)) return this.#charsBound();
        change.commit();
        return json(200, shownRow({ ...seen.row, name, updated_at: now }));
      }
      case 'deleteWishlist': {
        const seen = writes.wishlist(command.id, seed);
        if (!seen) return withReason(json(200, { id: command.id }), REASONS.nothingDeleted);
        // The cascade to the items fails on the real backend: a wishlist that holds items stays (notes/alphabite-writes.md §1.5).
        if (writes.items(seen, seed).count > 0) return empty500(REASONS.wishlistHoldsItems);
        const refused = this.#deleteSeen(writes, seen);
        return refused ?? json(200, { id: command.id });
      }
      case 'addItem': {
        const seen = writes.wishlist(command.wishlist, seed);
        // Unknown wishlist, a guest's (customer_id null), another customer's, unknown variant, or the variant already there: the plugin's 500.
        // A wishlist the customer does not see may still be someone else's (their view holds only their own): the reason says whose.
        if (!seen) return empty500(this.#notYours(command.wishlist, customer, pool) ?? REASONS.wishlistUnknown);
        if (seen.row.customer_id === null) return empty500(REASONS.guestWishlist);
        if (seen.row.customer_id !== customer) return empty500(REASONS.wishlistOfAnother);
        if (!command.variant) return empty500(REASONS.variantUnknown);
        if (writes.variantIds(seen, seed).includes(command.variant.id)) return empty500(REASONS.variantAlreadyThere);
        if (writes.added.length >= this.limits.items) return this.#itemsBound();
        const item: ItemRow = { id: this.#id('wli', customer), wishlist_id: seen.row.id, product_variant_id: command.variant.id, product_variant: command.variant, created_at: now };
        const chars = charsOf.item(item);
        if (!this.#fits(writes, chars)) return this.#charsBound();
        writes.added.push(item);
        this.#count(writes, chars);
        return { status: 201, body: JSON.stringify(shownItem(item)) };
      }
      case 'removeItem': {
        const path = writes.wishlist(command.wishlist, seed);
        // Another customer's wishlist in the path, one in the customer's view or one only another has: the plugin's 500 (notes/alphabite-writes.md 1.8).
        // (A guest's is not refused. Another's derived wishlist, while they have no writes, shows customer_id '': whose it is is not known, only that it is not the caller's.)
        const foreign = path ? undefined : this.foreignWishlist(command.wishlist, customer, pool);
        if (path ? path.row.customer_id && path.row.customer_id !== customer : foreign && foreign.row.customer_id !== null) return empty500(REASONS.wishlistOfAnother);
        // Deleted by item id alone, whatever wishlist holds it (of those this customer sees).
        const at = writes.added.findIndex((item) => item.id === command.item);
        if (at >= 0) {
          const [item] = writes.added.splice(at, 1);
          this.#count(writes, -charsOf.item(item!));
          return json(200, { id: command.item });
        }
        const place = seed.locateItem(command.item);
        if (place) {
          const holder = writes.wishlist(seed.row(place[0]).id, seed);
          if (holder?.kind === 'seed' && !(holder.change?.removed ?? []).includes(place[1])) {
            const change = this.#prepareSeedChange(writes, holder.row.id, (c) => {
              c.removed = [...(c.removed ?? []), place[1]].sort((a, b) => a - b);
            });
            if (!change) return this.#seedChangesBound();
            if (!this.#fits(writes, change.chars)) return this.#charsBound();
            change.commit();
            return json(200, { id: command.item });
          }
        }
        return withReason(json(200, { id: command.item }), REASONS.itemNotFound);
      }
      case 'transfer':
        return this.#transfer(writes, command, now, seed, pool);
      case 'importWishlist':
        return this.#import(writes, command, now, seed, pool);
      case 'createReview': {
        if (writes.reviews.length >= this.limits.reviews) return bound(`${this.limits.reviews} reviews per customer`);
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
        if (!this.#fits(writes, body.length)) return this.#charsBound();
        writes.reviews.push(row);
        this.#count(writes, body.length);
        return { status: 201, body };
      }
      case 'deleteReview': {
        const at = writes.reviews.findIndex((review) => review.id === command.id);
        if (at < 0) return empty500(REASONS.reviewNotYours);
        const [review] = writes.reviews.splice(at, 1);
        this.#count(writes, -charsOf.review(review!));
        return json(200, { id: command.id });
      }
    }
  }

  /** Deletes a wishlist the customer sees (one of theirs, or a seeded one in their view); the bound's answer when it cannot be recorded. */
  #deleteSeen(writes: CustomerWrites, seen: SeenWishlist): WriteAnswer | undefined {
    if (seen.kind === 'own') {
      writes.created.splice(writes.created.indexOf(seen.row), 1);
      this.#count(writes, -charsOf.wishlist(seen.row));
      return undefined;
    }
    const change = this.#prepareSeedChange(writes, seen.row.id, (c) => {
      c.deleted = true;
    });
    if (!change) return this.#seedChangesBound();
    if (!this.#fits(writes, change.chars)) return this.#charsBound();
    change.commit();
    return undefined;
  }

  /**
   * `POST /store/wishlists/:id/transfer` (no ownership check, as the plugin). One wishlist per customer,
   * for a customer whose first wishlist is another: the source's items not already there are copied to
   * it (each copy counts), then the source is deleted, which fails on its items (the plugin's 500; the
   * copies stay). Otherwise the wishlist becomes the caller's: one they see, in their view; another
   * customer's (`foreignWishlist`), as a copy of it as its holder sees it now, with its ids, in the
   * caller's view only (the holder keeps theirs: nothing a client sends changes another's data). All or
   * nothing: past a bound, nothing is copied.
   */
  #transfer(writes: CustomerWrites, command: Extract<WriteCommand, { op: 'transfer' }>, now: string, seed: SeedView, pool: SeedWishlists): WriteAnswer {
    const customer = command.customer;
    const seen = writes.wishlist(command.id, seed);
    const foreign = seen ? undefined : this.foreignWishlist(command.id, customer, pool);
    if (!command.multiple) {
      const target = writes.ownedWishlists(seed)[0];
      if (target && target.row.id !== command.id) {
        if (!seen && !foreign) return withReason(json(200, { id: target.row.id }), REASONS.nothingTransferred);
        const there = new Set(writes.variantIds(target, seed));
        const list = seen ? writes.items(seen, seed) : foreign!.items;
        const copies: ItemRow[] = [];
        for (let p = 0; p < list.count; p++) {
          const { product_variant_id, product_variant } = JSON.parse(list.json(p)) as { product_variant_id: string; product_variant: VariantJson };
          if (!there.has(product_variant_id)) copies.push({ id: this.#id('wli', customer), wishlist_id: target.row.id, product_variant_id, product_variant, created_at: now });
        }
        if (writes.added.length + copies.length > this.limits.items) return this.#itemsBound();
        let chars = 0;
        for (const copy of copies) chars += charsOf.item(copy);
        if (!this.#fits(writes, chars)) return this.#charsBound();
        writes.added.push(...copies);
        this.#count(writes, chars);
        // deleteWishlists(id) then fails on the items still there (§1.5): the copies stay, the answer is the 500.
        if (list.count > 0) return empty500(REASONS.transferLeftCopies);
        // Another customer's source stays theirs (it is not deleted for them).
        const refused = seen ? this.#deleteSeen(writes, seen) : undefined;
        return refused ?? withReason(json(200, { id: target.row.id }), REASONS.mergedIntoFirst);
      }
    }
    if (foreign) return this.#adopt(writes, foreign, customer, now) ?? json(200, { id: command.id });
    if (!seen) return empty500(REASONS.wishlistUnknown);
    if (seen.kind === 'own') {
      const chars = charsOf.wishlist({ ...seen.row, customer_id: customer }) - charsOf.wishlist(seen.row);
      if (!this.#fits(writes, chars)) return this.#charsBound();
      seen.row.customer_id = customer;
      this.#count(writes, chars);
    } else if (seen.row.customer_id !== customer) {
      const change = this.#prepareSeedChange(writes, command.id, (c) => {
        c.customer_id = customer;
      });
      if (!change) return this.#seedChangesBound();
      if (!this.#fits(writes, change.chars)) return this.#charsBound();
      change.commit();
    }
    return json(200, { id: command.id });
  }

  /** Another customer's wishlist, made the caller's in their view: a copy with its ids; the bound's answer when it does not fit. */
  #adopt(writes: CustomerWrites, foreign: ForeignWishlist, customer: string, now: string): WriteAnswer | undefined {
    if (writes.created.length >= this.limits.wishlists) return bound(`${this.limits.wishlists} wishlists per customer`);
    const row: WishlistRow = { ...foreign.row, customer_id: customer };
    const items: ItemRow[] = [];
    for (let p = 0; p < foreign.items.count; p++) {
      const { id, product_variant_id, product_variant } = JSON.parse(foreign.items.json(p)) as ItemRow;
      items.push({ id, wishlist_id: row.id, product_variant_id, product_variant, created_at: now });
    }
    if (writes.added.length + items.length > this.limits.items) return this.#itemsBound();
    const chars = charsOf.wishlist(row) + items.reduce((sum, item) => sum + charsOf.item(item), 0);
    if (!this.#fits(writes, chars)) return this.#charsBound();
    writes.created.push(row);
    writes.added.push(...items);
    this.#count(writes, chars);
    return undefined;
  }

  /** Why a wishlist `customer` does not see is refused to them when someone else has it (a guest's, another customer's); undefined when nobody has it. */
  #notYours(id: string, customer: string, pool: SeedWishlists): Reason | undefined {
    const other = this.foreignWishlist(id, customer, pool);
    return other && (other.row.customer_id === null ? REASONS.guestWishlist : REASONS.wishlistOfAnother);
  }

  /**
   * Who holds the wishlist of that id, and the view it is in, whoever they are: a customer who created
   * it (or took it over), the customer whose derived wishlist it is (found by the tag in its id among
   * the customers with writes; else as a customer without writes sees it), or the dataset's wishlist as
   * the customer its `customer_id` names sees it. Undefined when no one has a wishlist of that id.
   */
  #holder(id: string, pool: SeedWishlists): { writes: CustomerWrites; view: SeedView } | undefined {
    const derived = derivedIndex(id, pool);
    if (derived) {
      for (const writes of this.#customers.values()) if (customerTag(writes.id) === derived.tag) return { writes, view: pool.of(writes.id) };
      return { writes: new CustomerWrites(''), view: new CustomerSeed('', pool, derived) };
    }
    const index = pool.indexOf(id);
    if (index >= 0) {
      const owner = pool.row(index).customer_id ?? '';
      const view = pool.of(owner);
      return { writes: this.#customers.get(owner) ?? new CustomerWrites(owner), view: view.indexOf(id) >= 0 ? view : pool };
    }
    for (const writes of this.#customers.values()) if (writes.created.some((row) => row.id === id)) return { writes, view: pool.of(writes.id) };
    return undefined;
  }

  /** A wishlist as its holder sees it now (`#holder`), with its items; undefined when unknown or deleted. */
  #held(id: string, pool: SeedWishlists): ForeignWishlist | undefined {
    const holder = this.#holder(id, pool);
    const seen = holder?.writes.wishlist(id, holder.view);
    return seen && { row: seen.row, items: holder!.writes.items(seen, holder!.view) };
  }

  /**
   * A wishlist `customer` does not see but another customer has (or the dataset has for another), as
   * its holder sees it now: what the plugin finds by id where it does not scope by customer (4.4's
   * ownership check, retrieve, transfer). Undefined when nobody has it, or it is the customer's own.
   */
  foreignWishlist(id: string, customer: string, pool: SeedWishlists): ForeignWishlist | undefined {
    if ((this.#customers.get(customer) ?? new CustomerWrites(customer)).wishlist(id, pool.of(customer))) return undefined;
    const held = this.#held(id, pool);
    return held && held.row.customer_id !== customer ? held : undefined;
  }

  /**
   * `POST /store/wishlists/import` once the token verified: in multi mode (or for a customer with no
   * wishlist) a new wishlist of theirs with the source's name, channel and live items (new ids); in
   * single mode their first wishlist's items replaced by the source's (notes/alphabite-writes.md 1.10).
   * What goes gives its count back, what comes counts; all or nothing.
   */
  #import(writes: CustomerWrites, command: Extract<WriteCommand, { op: 'importWishlist' }>, now: string, seed: SeedView, pool: SeedWishlists): WriteAnswer {
    const customer = command.customer;
    // A shared wishlist is what the plugins show publicly: the one place where a customer reads another's, as its holder sees it now.
    const held = this.#held(command.source, pool);
    const source = held && { row: held.row, items: Array.from({ length: held.items.count }, (_, p) => JSON.parse(held.items.json(p)) as ItemRow) };
    const copy = (wishlistId: string) =>
      (source?.items ?? []).map((item): ItemRow => ({ id: this.#id('wli', customer), wishlist_id: wishlistId, product_variant_id: item.product_variant_id, product_variant: item.product_variant, created_at: now }));
    const sum = (items: readonly ItemRow[]) => items.reduce((chars, item) => chars + charsOf.item(item), 0);
    const target = command.multiple ? undefined : writes.ownedWishlists(seed)[0];
    if (target) {
      // The plugin reads the source's items without looking the wishlist up: an unknown source empties the target.
      const there = writes.items(target, seed);
      const seedItems = target.kind === 'seed' ? seed.itemCount(target.index) : 0;
      const kept = writes.added.filter((item) => item.wishlist_id !== target.row.id);
      const dropped = writes.added.filter((item) => item.wishlist_id === target.row.id);
      const items = copy(target.row.id);
      if (kept.length + items.length > this.limits.items) return this.#itemsBound();
      // The seeded items go too (all of them: removed ones stay removed).
      const dropsSeedItems = target.kind === 'seed' && there.count > 0 && seedItems > 0;
      const change = dropsSeedItems
        ? this.#prepareSeedChange(writes, target.row.id, (c) => {
            c.removed = Array.from({ length: seedItems }, (_, k) => k);
          })
        : undefined;
      if (dropsSeedItems && !change) return this.#seedChangesBound();
      const itemChars = sum(items) - sum(dropped);
      if (!this.#fits(writes, itemChars + (change?.chars ?? 0))) return this.#charsBound();
      change?.commit();
      writes.added.splice(0, writes.added.length, ...kept, ...items);
      this.#count(writes, itemChars);
      const shown = items.map(shownItem);
      const { id, name, customer_id, sales_channel_id, created_at, updated_at } = target.row;
      const answer = json(200, { id, name, customer_id, sales_channel_id, created_at, updated_at, deleted_at: null, items: shown, items_count: shown.length });
      return withReason(answer, source ? REASONS.itemsReplaced : REASONS.itemsRemovedUnknownSource);
    }
    if (!source) return empty500(REASONS.sharedWishlistUnknown);
    if (writes.created.length >= this.limits.wishlists) return bound(`${this.limits.wishlists} wishlists per customer`);
    const row: WishlistRow = { id: this.#id('wl', customer), name: source.row.name, customer_id: customer, sales_channel_id: source.row.sales_channel_id, created_at: now, updated_at: now };
    const items = copy(row.id);
    if (writes.added.length + items.length > this.limits.items) return this.#itemsBound();
    const chars = charsOf.wishlist(row) + sum(items);
    if (!this.#fits(writes, chars)) return this.#charsBound();
    writes.created.push(row);
    writes.added.push(...items);
    this.#count(writes, chars);
    return { status: 200, body: JSON.stringify({ ...shownRow(row), items: items.map(shownItem), items_count: items.length }) };
  }

  /**
   * A change to the customer's record of a seeded wishlist, prepared on a copy: what it counts more
   * (or less) against the bound of characters, and its commit (which counts it); undefined when it
   * would take the customer past the bound of changes to seeded wishlists.
   */
  #prepareSeedChange(writes: CustomerWrites, id: string, edit: (change: SeedChange) => void): PreparedChange | undefined {
    const before = writes.seedChanges.get(id);
    const after: SeedChange = { ...before, ...(before?.removed ? { removed: [...before.removed] } : {}) };
    edit(after);
    const changes = writes.seedChangeCount - changeCount(before) + changeCount(after);
    if (changes > this.limits.seedChanges && changes > writes.seedChangeCount) return undefined;
    const chars = charsOf.seedChange(id, after) - (before ? charsOf.seedChange(id, before) : 0);
    return {
      chars,
      commit: () => {
        writes.seedChanges.set(id, after);
        this.#count(writes, chars);
      },
    };
  }
}
