/**
 * Every write counts (issue 27, deliverable 3): whatever adds to a customer's writes (create, add-item,
 * transfer's copies, import's, a rename, a change to a seeded wishlist, a review) counts against the
 * per-customer and total bounds of characters, and whatever goes gives its count back
 * (mock-server/writes/store.ts, docs/writes.md "Bounds").
 *
 * A property over random sequences of commands by several customers, on a store with small bounds: after
 * each command the store's own count equals a recount of what it holds (the JSON of every record, counted
 * here, so nothing escapes the count), no bound is passed, and a write refused at a bound (the documented
 * 400 `not_allowed`) changes nothing. Then, with the real bounds: the transfers cannot pass 64 Mi,
 * and the heap after a large run stays within a small multiple of the bound.
 */
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateDataset } from '../fixtures/dataset.ts';
import { createDialect } from '../lib/dialects/index.ts';
import { seedOf, type SeedWishlists } from '../mock-server/writes/seed.ts';
import { WRITE_LIMITS, WriteStore, type CustomerWrites, type WriteLimits } from '../mock-server/writes/store.ts';
import type { VariantJson, WriteAnswer, WriteCommand } from '../mock-server/writes/types.ts';

const SMALL: WriteLimits = { customers: 5, wishlists: 3, items: 14, reviews: 3, seedChanges: 8, customerChars: 5000, totalChars: 14_000 };

/** What a customer's writes hold, counted here from the records themselves: the JSON of each, as kept. */
function heldChars(writes: CustomerWrites): number {
  let chars = 0;
  for (const row of writes.created) chars += JSON.stringify(row).length;
  for (const item of writes.added) chars += JSON.stringify(item).length;
  for (const review of writes.reviews) chars += JSON.stringify(review).length;
  for (const [id, change] of writes.seedChanges) chars += id.length + JSON.stringify(change).length;
  return chars;
}

/** Everything a customer's writes hold, to see that a refused write changed nothing. */
const snapshot = (writes: CustomerWrites | undefined) =>
  writes ? JSON.stringify({ created: writes.created, added: writes.added, reviews: writes.reviews, changes: [...writes.seedChanges], chars: writes.chars }) : 'none';

function world(options: { wishlists: number; maxItems: number }) {
  const dataset = generateDataset({ seed: 11, reviews: 60, products: 8, ...options });
  const seed = seedOf(dataset, createDialect('alphabite', { maxPageSize: 1000 }));
  const variants = new Map<string, VariantJson>();
  for (let w = 0; w < seed.count; w++) {
    for (let k = 0; k < seed.itemCount(w); k++) {
      const { product_variant_id } = JSON.parse(seed.itemJson(w, k)) as { product_variant_id: string };
      variants.set(product_variant_id, seed.variant(product_variant_id)!);
    }
  }
  const seededIds = Array.from({ length: seed.count }, (_, w) => seed.row(w).id);
  const owners = [...new Set(Array.from({ length: seed.count }, (_, w) => seed.row(w).customer_id).filter((id): id is string => id !== null))];
  return { seed, variants: [...variants.values()], seededIds, owners };
}

/** A command as generated: the ids it names are picked, when applied, among those known then. */
type Step = { op: WriteCommand['op']; who: number; pick: number; pick2: number; text: string; multiple: boolean };

const step: fc.Arbitrary<Step> = fc.record({
  op: fc.constantFrom<WriteCommand['op']>('createWishlist', 'createWishlist', 'updateWishlist', 'deleteWishlist', 'addItem', 'addItem', 'addItem', 'removeItem', 'transfer', 'transfer', 'importWishlist', 'importWishlist', 'createReview', 'deleteReview'),
  who: fc.nat({ max: 6 }),
  pick: fc.nat(),
  pick2: fc.nat(),
  text: fc.string({ maxLength: 900 }),
  multiple: fc.boolean(),
});

/** Every id the store answered, to name again (wishlists, items, reviews), and the seed's. */
class Known {
  readonly wishlists: string[];
  readonly items: string[] = [];
  readonly reviews: string[] = [];
  constructor(seededIds: string[], seed: SeedWishlists) {
    this.wishlists = [...seededIds, 'wl_unknown'];
    for (let w = 0; w < Math.min(seed.count, 5); w++) for (let k = 0; k < seed.itemCount(w); k++) this.items.push(seed.itemId(w, k));
  }
  note(answer: WriteAnswer): void {
    if (answer.body === null || answer.status >= 300) return;
    const body = JSON.parse(answer.body) as { id?: string; items?: Array<{ id: string }> };
    if (typeof body.id !== 'string') return;
    if (body.id.startsWith('wl_')) this.wishlists.push(body.id);
    if (body.id.startsWith('wli_')) this.items.push(body.id);
    if (body.id.startsWith('rev_')) this.reviews.push(body.id);
    for (const item of body.items ?? []) this.items.push(item.id);
  }
}

const at = <T>(list: readonly T[], n: number): T => list[n % list.length]!;

function commandOf(s: Step, customers: readonly string[], known: Known, variants: readonly VariantJson[]): WriteCommand {
  const customer = at(customers, s.who);
  const wishlist = at(known.wishlists, s.pick);
  switch (s.op) {
    case 'createWishlist':
      return { op: 'createWishlist', customer, name: s.text, salesChannelId: 'sc_bounds', multiple: s.multiple };
    case 'updateWishlist':
      return { op: 'updateWishlist', customer, id: wishlist, name: s.text };
    case 'deleteWishlist':
      return { op: 'deleteWishlist', customer, id: wishlist };
    case 'addItem':
      return { op: 'addItem', customer, wishlist, variant: s.pick2 % 9 === 0 ? null : at(variants, s.pick2) };
    case 'removeItem':
      return { op: 'removeItem', customer, wishlist, item: at(known.items, s.pick2) };
    case 'transfer':
      return { op: 'transfer', customer, id: wishlist, multiple: s.multiple };
    case 'importWishlist':
      return { op: 'importWishlist', customer, source: wishlist, multiple: s.multiple };
    case 'createReview':
      return { op: 'createReview', customer, review: { title: null, content: s.text.repeat(1 + (s.pick2 % 4)), rating: 4, product_id: 'prod_bounds', image_urls: [] } };
    case 'deleteReview':
      return { op: 'deleteReview', customer, id: at(known.reviews.length ? known.reviews : ['rev_unknown'], s.pick2) };
  }
}

/** The store's own accounting against the records it holds, and every bound. */
function expectWithinBounds(store: WriteStore, limits: WriteLimits, what: string): void {
  let total = 0;
  for (const writes of store.customers()) {
    expect(writes.chars, `${what}: ${writes.id}'s count is a recount of what they hold`).toBe(heldChars(writes));
    expect(writes.chars, what).toBeLessThanOrEqual(limits.customerChars);
    expect(writes.created.length, what).toBeLessThanOrEqual(limits.wishlists);
    expect(writes.added.length, what).toBeLessThanOrEqual(limits.items);
    expect(writes.reviews.length, what).toBeLessThanOrEqual(limits.reviews);
    expect(writes.seedChangeCount, what).toBeLessThanOrEqual(limits.seedChanges);
    total += writes.chars;
  }
  expect(store.totalChars, `${what}: the total is the sum of the customers'`).toBe(total);
  expect(total, what).toBeLessThanOrEqual(limits.totalChars);
  expect(store.customerCount, what).toBeLessThanOrEqual(limits.customers);
}

describe('every write counts against the bounds', () => {
  it('property: random writes by many customers never pass a bound, the count is always a recount, a refused write changes nothing, and forgetting gives all back', () => {
    const { seed, variants, seededIds, owners } = world({ wishlists: 12, maxItems: 10 });
    const customers = [...owners.slice(0, 3), 'cus_bounds_a', 'cus_bounds_b', 'cus_bounds_c', 'cus_bounds_d'];
    let refusals = 0;
    let copies = 0;
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 60 }), (steps) => {
        const store = new WriteStore(SMALL);
        const known = new Known(seededIds, seed);
        let t = Date.UTC(2026, 0, 1);
        for (const [n, s] of steps.entries()) {
          const command = commandOf(s, customers, known, variants);
          const before = snapshot(store.of(command.customer));
          const added = store.of(command.customer)?.added.length ?? 0;
          const answer = store.apply(command, (t += 1000), seed);
          const what = `step ${n} ${command.op} by ${command.customer}: ${answer.status} ${answer.body?.slice(0, 160)}`;
          expect(answer.status, what).toBeLessThan(answer.body === null ? 501 : 500);
          if (answer.status === 400) {
            expect(JSON.parse(answer.body!), what).toEqual({ type: 'not_allowed', message: expect.stringMatching(/^The mock keeps at most .+: delete some, or POST \/__admin\/reset/) });
            expect(snapshot(store.of(command.customer)), `${what}: a refused write changes nothing`).toBe(before);
            refusals += 1;
          }
          if (command.op === 'transfer') copies += Math.max(0, (store.of(command.customer)?.added.length ?? 0) - added);
          known.note(answer);
          expectWithinBounds(store, SMALL, what);
        }
        for (const writes of [...store.customers()]) {
          const total = store.totalChars;
          store.forget(writes.id);
          expect(store.totalChars).toBe(total - writes.chars);
        }
        expect(store.totalChars).toBe(0);
      }),
      { numRuns: 300 },
    );
    // The sequences did reach the bounds, and transfers did copy.
    expect(refusals).toBeGreaterThan(20);
    expect(copies).toBeGreaterThan(0);
  }, 120_000);

  it('deleting gives back exactly what was counted: a wishlist, an item, a review, a transfer\'s copies', () => {
    const { seed, variants, seededIds, owners } = world({ wishlists: 6, maxItems: 6 });
    const store = new WriteStore(SMALL);
    const me = owners[0]!;
    const mine = seededIds.find((id) => seed.row(seed.indexOf(id)).customer_id === me)!;
    const other = seededIds.find((id) => seed.row(seed.indexOf(id)).customer_id !== me && seed.itemCount(seed.indexOf(id)) > 0)!;
    const t = Date.UTC(2026, 0, 1);
    const apply = (command: WriteCommand) => store.apply(command, t, seed);
    // single mode: the transfer of another's wishlist copies its items to mine, then fails on deleting it (the plugin's 500)
    const transfer = apply({ op: 'transfer', customer: me, id: other, multiple: false });
    expect(transfer).toEqual({ status: 500, body: null, reason: expect.stringContaining('copied') });
    const writes = store.of(me)!;
    expect(writes.added.length).toBeGreaterThan(0);
    expect(writes.chars).toBe(heldChars(writes));
    for (const item of [...writes.added]) expect(apply({ op: 'removeItem', customer: me, wishlist: mine, item: item.id }).status).toBe(200);
    expect(writes.chars).toBe(0);
    const review = apply({ op: 'createReview', customer: me, review: { title: 't', content: 'c'.repeat(300), rating: 5, product_id: 'p', image_urls: ['u'] } });
    expect(writes.chars).toBe(review.body!.length);
    apply({ op: 'deleteReview', customer: me, id: (JSON.parse(review.body!) as { id: string }).id });
    const created = apply({ op: 'createWishlist', customer: 'cus_fresh', name: 'x'.repeat(100), salesChannelId: 'sc', multiple: true });
    const id = (JSON.parse(created.body!) as { id: string }).id;
    apply({ op: 'addItem', customer: 'cus_fresh', wishlist: id, variant: variants[0]! });
    expect(store.totalChars).toBeGreaterThan(0);
    const item = store.of('cus_fresh')!.added[0]!.id;
    apply({ op: 'removeItem', customer: 'cus_fresh', wishlist: id, item });
    apply({ op: 'updateWishlist', customer: 'cus_fresh', id, name: '' });
    apply({ op: 'deleteWishlist', customer: 'cus_fresh', id });
    expect([store.of(me)!.chars, store.of('cus_fresh')!.chars, store.totalChars]).toEqual([0, 0, 0]);
  });

  it('with the real bounds, transfers by many customers stop at 64 Mi characters in all (the issue: 77.6 M), with the documented 400', () => {
    const { seed, seededIds, owners } = world({ wishlists: 40, maxItems: 60 });
    const store = new WriteStore();
    const t = Date.UTC(2026, 0, 1);
    // Reviews fill most of the total first (one shared string: cheap here, counted all the same). To within one
    // customer's bound: each transferring customer starts with one seeded wishlist of their own, which already holds
    // some of the variants, so their transfers copy fewer items than into an empty wishlist.
    const content = 'r'.repeat(WRITE_LIMITS.customerChars / 4 - 1000);
    for (let c = 0; store.totalChars < WRITE_LIMITS.totalChars - WRITE_LIMITS.customerChars; c++) {
      for (let k = 0; k < 3; k++) store.apply({ op: 'createReview', customer: `cus_filler_${c}`, review: { title: null, content, rating: 3, product_id: 'p', image_urls: [] } }, t, seed);
    }
    const full = [...seededIds].sort((a, b) => seed.itemCount(seed.indexOf(b)) - seed.itemCount(seed.indexOf(a)));
    let refused: WriteAnswer | undefined;
    for (let c = 0; c < 400 && !refused; c++) {
      const customer = `cus_transfer_${c}`;
      // Their wishlist (the seeded one they start with: the create answers it), then transfers of the fullest
      // seeded wishlists, others' to them: each copies its items not there yet to theirs.
      store.apply({ op: 'createWishlist', customer, name: null, salesChannelId: 'sc', multiple: false }, t, seed);
      for (const id of full.slice(0, 12)) {
        const answer = store.apply({ op: 'transfer', customer, id, multiple: false }, t, seed);
        if (answer.status === 400) refused = answer;
      }
    }
    expect(refused && JSON.parse(refused.body!)).toEqual({ type: 'not_allowed', message: expect.stringContaining(`at most ${WRITE_LIMITS.customerChars} characters of JSON per customer (${WRITE_LIMITS.totalChars} in all)`) });
    let held = 0;
    for (const writes of store.customers()) held += heldChars(writes);
    expect(held).toBeLessThanOrEqual(WRITE_LIMITS.totalChars);
    expect(store.totalChars).toBe(held);
    expect(owners.length).toBeGreaterThan(0);
  }, 60_000);

  it('heap: a large run with the real bounds (distinct texts, transfers, imports) holds about what it counts, after gc', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const { seed, seededIds } = world({ wishlists: 40, maxItems: 60 });
    const heapAfterGc = () => {
      gc();
      gc();
      return process.memoryUsage().heapUsed;
    };
    const start = heapAfterGc();
    let store: WriteStore | undefined = new WriteStore();
    const t = Date.UTC(2026, 0, 1);
    let n = 0;
    // Each customer: distinct review texts (4 x about 600 k), then transfers and imports of the fullest seeded wishlists.
    const full = [...seededIds].sort((a, b) => seed.itemCount(seed.indexOf(b)) - seed.itemCount(seed.indexOf(a))).slice(0, 12);
    for (let c = 0; c < 60; c++) {
      const customer = `cus_heap_${c}`;
      for (let k = 0; k < 4; k++) {
        const content = `${c}:${k}:`.padEnd(600_000, String.fromCharCode(97 + ((c + k) % 26))) + `${n++}`;
        store.apply({ op: 'createReview', customer, review: { title: null, content: content.split('').join(''), rating: 3, product_id: 'p', image_urls: [] } }, t, seed);
      }
      store.apply({ op: 'createWishlist', customer, name: null, salesChannelId: 'sc', multiple: false }, t, seed);
      for (const id of full) store.apply({ op: 'transfer', customer, id, multiple: false }, t, seed);
      for (const id of full) store.apply({ op: 'importWishlist', customer, source: id, multiple: true }, t, seed);
    }
    expect(store.totalChars).toBeGreaterThan(WRITE_LIMITS.totalChars - 2 * WRITE_LIMITS.customerChars);
    expect(store.totalChars).toBeLessThanOrEqual(WRITE_LIMITS.totalChars);
    const grown = heapAfterGc() - start;
    // One-byte strings hold a character in a byte; the records' objects and a heap's slack: at most twice the bound.
    expect(grown).toBeLessThan(2 * WRITE_LIMITS.totalChars);
    store = undefined;
    expect(heapAfterGc() - start).toBeLessThan(grown);
  }, 120_000);
});
