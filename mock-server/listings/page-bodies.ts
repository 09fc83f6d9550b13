import { pageSlice } from '../../lib/paging.ts';
import { MAX_ANSWER_CHARS, MAX_ANSWER_RECORDS } from '../../lib/api-rules.ts';
import { isRefusal, refusal, type Dialect, type EndpointRules, type EnvelopeInput, type ListingOrder, type ListingQuery, type ListingRequest, type RatingAggregate, type Refusal } from '../../lib/dialects/index.ts';
import type { Dataset, RecordedJson } from '../../fixtures/dataset.ts';
import type { Steps } from '../../fixtures/steps.ts';
import type { PageFacts } from '../../lib/dialects/types.ts';
export type { PageFacts };
import { boundedMemo, memoized, type Memo } from './memo.ts';
import { seedOf } from '../writes/seed.ts';
import { CustomerWrites, WriteStore, type OwnReview, type VirtualList } from '../writes/store.ts';
import { customerOf } from '../../lib/customers.ts';

/** The writes nobody made: where a listing is answered without a store (the MSW listing handlers), no customer has any. */
const NO_WRITES = new WriteStore();

/**
 * The serialized answers of the four listings, for one (immutable) dataset and one dialect.
 *
 * A page body is the dialect's envelope (lib/dialects), serialized with an empty record
 * array, with the records' JSON spliced in: byte for byte what `JSON.stringify` of the whole
 * envelope gives, without re-serializing records. A record's JSON (as the dialect shows it) is
 * made when first asked for and, unless the source writes it more cheaply than a memo keeps
 * it, kept in a bounded memo, so a page costs its own size, whatever the dataset's size.
 *
 * Platform-neutral (no Node built-ins): the MSW handlers (msw/) run it in a browser. The bytes
 * and ETag the HTTP server sends are response-body.ts's.
 */

/** Memory kept per memo (records, items, wishlists), in bytes of JSON. */
export const RECORD_MEMO_BYTES = 48 * 1024 * 1024;

/**
 * The envelope with the records spliced into its empty record array: `head` is where the array
 * opens, and `write(k, out)` appends the pieces of record k's JSON to `out`. One join makes the
 * whole body, a flat string (cheaper to encode than a tree of concatenations). Past
 * MAX_ANSWER_CHARS it stops and answers `tooLong(k)`, k being the records that fitted.
 */
function splice(emptyEnvelope: string, head: string, count: number, write: (k: number, out: string[]) => void, tooLong: (fitted: number) => Refusal): string | Refusal {
  if (!emptyEnvelope.startsWith(head) || emptyEnvelope.charCodeAt(head.length) !== 93) throw new Error(`envelope does not start with ${head}]: ${emptyEnvelope.slice(0, 40)}`);
  if (count === 0) return emptyEnvelope;
  const out: string[] = [head];
  let length = emptyEnvelope.length;
  let measured = 1;
  for (let k = 0; k < count; k++) {
    if (k > 0) out.push(',');
    write(k, out);
    for (; measured < out.length; measured++) length += out[measured]!.length;
    if (length > MAX_ANSWER_CHARS) return tooLong(k);
  }
  out.push(emptyEnvelope.slice(head.length));
  return out.join('');
}

/** The 400 both dialects answer a request they cannot take (`invalid_data`, "Invalid request: ..."). */
function tooLarge(detail: string): Refusal {
  return refusal(400, { type: 'invalid_data', message: `Invalid request: ${detail}` });
}

const OVER_RECORDS = `more than the ${MAX_ANSWER_RECORDS} records one answer of the mock may hold`;
const OVER_CHARS = `longer than the ${MAX_ANSWER_CHARS} characters of JSON one answer of the mock may hold`;

/**
 * The refusal of a page that would hold more than MAX_ANSWER_RECORDS records or MAX_ANSWER_CHARS
 * characters (`problem` says which): it says what to ask for instead, `fit` records from the same start.
 */
function pageTooLarge(rules: EndpointRules, query: ListingQuery, problem: string, fit: number): Refusal {
  if (!rules.paging || query.window === 'all') {
    // Alphabite 4.1: the published route ignores limit and offset and lists every matching review.
    return tooLarge(`${problem}; this route lists every matching review and ignores limit and offset (docs/dialects.md): narrow it with product_ids or rating, or page through one product's reviews on /store/reviews/product/{id} with limit and offset`);
  }
  return tooLarge(`${problem}: ask for ${rules.paging.size}=${Math.max(1, fit)} or less (from ${rules.paging.start}=${query.window.start})`);
}

/** The envelope's JSON (records array empty); its page facts go to `facts`, when given. */
function envelopeJson(rules: EndpointRules, input: EnvelopeInput, facts: { page?: PageFacts } | undefined): string {
  const envelope = rules.envelope(input);
  if (facts) facts.page = { rule: rules.pageRule, matching: input.count, window: input.query.window, envelope };
  return JSON.stringify(envelope);
}

/** Positions `[from, to)` of a listing of `count` records, or all of them; a page size of 0 (the plugins' `LIMIT 0`) is an empty page. */
function range(count: number, query: ListingQuery): { from: number; to: number } {
  if (query.window === 'all') return { from: 0, to: count };
  if (query.window.size === 0) return { from: 0, to: 0 };
  // The plugins take any integer (limit=9007199254740992 included): clamped to the listing, the slice is the same.
  const start = Math.min(query.window.listFrom ?? query.window.start, count);
  return pageSlice(count, start, Math.min(query.window.size, count - start + 1));
}

export class PageBodies {
  readonly #reviews: Memo<number, string>;
  readonly #wishlists: Memo<number, string>;
  readonly #items: Memo<string, string>;
  readonly #aggregates = new Map<number, RatingAggregate>();
  /** Where each endpoint's envelope opens its record array (`{"reviews":[`). */
  readonly #heads: Partial<Record<ListingRequest['endpoint'], string>> = {};
  /** The bodies of `dataset.mine`, once asked. */
  #mine: PageBodies | undefined;
  /** A recording of a backend speaking this dialect: its records' JSON, served as recorded. */
  readonly #recorded: RecordedJson | undefined;

  constructor(
    readonly dataset: Dataset,
    readonly dialect: Dialect,
    memoBytes = RECORD_MEMO_BYTES,
  ) {
    const length = (s: string) => s.length;
    this.#reviews = boundedMemo(memoBytes, length);
    this.#wishlists = boundedMemo(memoBytes, length);
    this.#items = boundedMemo(memoBytes, length);
    this.#recorded = dataset.recorded?.dialect === dialect.name ? dataset.recorded : undefined;
  }

  /**
   * The JSON of the listing `request` asks for, read by its dialect as `query`; or the dialect's
   * refusal (an unknown wishlist), or a 400 for a page larger than one answer may hold.
   * `facts`, when given, receives what the page numbers were made from.
   */
  answer(request: ListingRequest, query: ListingQuery, facts?: { page?: PageFacts }, writes?: CustomerWrites, store: WriteStore = NO_WRITES): string | Refusal {
    const rules = this.dialect.endpoints[request.endpoint];
    const head = (this.#heads[request.endpoint] ??= `{"${rules.recordsKey}":[`);
    const perCustomer = this.dialect.wishlistsPerCustomer;
    if (perCustomer && (request.endpoint === 'wishlists' || request.endpoint === 'wishlistItems')) {
      // Each customer's own wishlists (the dialect's guard and reading have already refused a guest).
      const customer = customerOf(request.headers)?.id ?? '';
      return this.#customerWishlists(request, query, writes ?? store.of(customer) ?? new CustomerWrites(customer), store, perCustomer.refusedToOthers, rules, head, facts);
    }
    // One customer's data read from a backend: their own reviews as the backend listed them for my_reviews_only.
    const mine = this.dataset.mine;
    if (mine && query.filters.myReviewsOnly && (request.endpoint === 'reviews' || request.endpoint === 'productReviews')) {
      this.#mine ??= new PageBodies(mine, this.dialect);
      return this.#mine.answer(request, { ...query, filters: { ...query.filters, myReviewsOnly: false } }, facts, writes, store);
    }
    if (writes) return this.#answerWithWrites(request, query, writes, rules, head, facts);
    switch (request.endpoint) {
      case 'reviews':
      case 'productReviews': {
        const product = request.endpoint === 'productReviews' ? this.dataset.reviews.source.productIndexOf(request.id ?? '') : undefined;
        const indexes = this.#reviewIndexes(query, product);
        const { from, to } = range(indexes.length, query);
        if (query.refuseRecords && to > from) return query.refuseRecords;
        const tooLong = (fit: number) => pageTooLarge(rules, query, `these ${to - from} reviews are ${OVER_CHARS}`, fit);
        if (to - from > MAX_ANSWER_RECORDS) return pageTooLarge(rules, query, `this ${query.window === 'all' ? 'listing' : 'page'} holds ${to - from} reviews, ${OVER_RECORDS}`, MAX_ANSWER_RECORDS);
        const aggregate = query.aggregates ? this.#aggregate(product ?? -1) : undefined;
        const envelope = envelopeJson(rules, { count: indexes.length, query, ...(aggregate ? { aggregate } : {}) }, facts);
        return splice(envelope, head, to - from, this.#reviewWriter(indexes.subarray(from, to)), tooLong);
      }
      case 'wishlists': {
        const table = this.dataset.wishlists;
        const embeds = this.dialect.embedsWishlistItems;
        const tooMany = this.#tooManyWishlists(rules, query, embeds);
        if (tooMany) return tooMany;
        const recorded = this.#recorded;
        const positions = this.#ordered(table.count, query);
        if (query.refuseRecords && positions.length > 0) return query.refuseRecords;
        const records = positions.map((w) =>
          recorded ? recorded.wishlistJson(w) : memoized(this.#wishlists, w, () => JSON.stringify(this.dialect.project.wishlist(table.source.wishlist(w, embeds)))),
        );
        const tooLong = (k: number) => pageTooLarge(rules, query, `these ${records.length} wishlists are ${OVER_CHARS}`, k);
        return splice(envelopeJson(rules, { count: table.count, query }, facts), head, records.length, (k, out) => out.push(records[k]!), tooLong);
      }
      case 'wishlistItems': {
        const table = this.dataset.wishlists;
        const wishlist = table.indexOf(request.id ?? '');
        const unknown = wishlist < 0 ? this.dialect.unknownWishlist(request, query) : undefined;
        if (unknown !== undefined && unknown !== 'empty') return unknown;
        const count = wishlist < 0 ? 0 : table.source.itemCount(wishlist);
        const { from, to } = range(count, query);
        if (to - from > MAX_ANSWER_RECORDS) return pageTooLarge(rules, query, `this page holds ${to - from} items, ${OVER_RECORDS}`, MAX_ANSWER_RECORDS);
        const recorded = this.#recorded;
        const positions = this.#ordered(count, query);
        if (query.refuseRecords && positions.length > 0) return query.refuseRecords;
        const records = positions.map((k) =>
          recorded ? recorded.itemJson(wishlist, k) : memoized(this.#items, `${wishlist}:${k}`, () => JSON.stringify(this.dialect.project.item(table.source.item(wishlist, k)))),
        );
        const tooLong = (k: number) => pageTooLarge(rules, query, `these ${records.length} items are ${OVER_CHARS}`, k);
        return splice(envelopeJson(rules, { count, query }, facts), head, records.length, (k, out) => out.push(records[k]!), tooLong);
      }
    }
  }

  /**
   * 4.3 and 4.4 as one customer sees them (mock-server/writes, docs/writes.md): their seeded wishlists
   * (customer-seed.ts) with their changes, and their own, through the same page arithmetic, envelopes
   * and bounds. 4.4 of another customer's wishlist that holds items is `refusedToOthers` (the plugin
   * reads its owner from the first item); an unknown one, the dialect's answer for it.
   */
  #customerWishlists(request: ListingRequest, query: ListingQuery, writes: CustomerWrites, store: WriteStore, refusedToOthers: Refusal, rules: EndpointRules, head: string, facts: { page?: PageFacts } | undefined): string | Refusal {
    const pool = seedOf(this.dataset, this.dialect);
    const seed = pool.of(writes.id);
    let list: VirtualList = { count: 0, json: () => '' };
    if (request.endpoint === 'wishlists') list = writes.wishlists(seed);
    else {
      const seen = writes.wishlist(request.id ?? '', seed);
      if (seen) list = writes.items(seen, seed);
      else {
        const other = store.foreignWishlist(request.id ?? '', writes.id, pool);
        if (other) list = other.items;
        const unknown = other ? undefined : this.dialect.unknownWishlist(request, query);
        if (unknown !== undefined && unknown !== 'empty') return unknown;
        if (other && list.count > 0 && !query.refuseRecords && this.#ordered(list.count, query).length > 0) return refusedToOthers;
      }
    }
    const what = request.endpoint === 'wishlists' ? 'wishlists' : 'items';
    const { from, to } = range(list.count, query);
    if (to - from > MAX_ANSWER_RECORDS) return pageTooLarge(rules, query, `this page holds ${to - from} ${what}, ${OVER_RECORDS}`, MAX_ANSWER_RECORDS);
    const positions = this.#ordered(list.count, query);
    if (query.refuseRecords && positions.length > 0) return query.refuseRecords;
    const records = positions.map((p) => list.json(p));
    const tooLong = (k: number) => pageTooLarge(rules, query, `these ${records.length} ${what} are ${OVER_CHARS}`, k);
    return splice(envelopeJson(rules, { count: list.count, query }, facts), head, records.length, (k, out) => out.push(records[k]!), tooLong);
  }

  /**
   * The review listings as a customer with writes sees them (mock-server/writes, docs/writes.md): the
   * seeded reviews and their own, through the same page arithmetic, envelopes and bounds.
   */
  #answerWithWrites(request: ListingRequest, query: ListingQuery, writes: CustomerWrites, rules: EndpointRules, head: string, facts: { page?: PageFacts } | undefined): string | Refusal {
    const product = request.endpoint === 'productReviews' ? this.dataset.reviews.source.productIndexOf(request.id ?? '') : undefined;
    const mine = query.filters.myReviewsOnly === true;
    const indexes = mine ? new Uint32Array(0) : this.#reviewIndexes(query, product);
    const own = ownReviews(writes.reviews, query, request.endpoint === 'productReviews' ? (request.id ?? '') : undefined);
    const merged = this.#mergeReviews(indexes, own, query.order);
    const { from, to } = range(merged.count, query);
    if (query.refuseRecords && to > from) return query.refuseRecords;
    if (to - from > MAX_ANSWER_RECORDS) return pageTooLarge(rules, query, `this ${query.window === 'all' ? 'listing' : 'page'} holds ${to - from} reviews, ${OVER_RECORDS}`, MAX_ANSWER_RECORDS);
    const aggregate = query.aggregates ? this.#aggregate(product ?? -1) : undefined;
    const envelope = envelopeJson(rules, { count: merged.count, query, ...(aggregate ? { aggregate } : {}) }, facts);
    const seedWriter = this.#reviewWriter(indexes);
    const tooLong = (fit: number) => pageTooLarge(rules, query, `these ${to - from} reviews are ${OVER_CHARS}`, fit);
    return splice(envelope, head, to - from, (k, out) => merged.write(from + k, out, seedWriter), tooLong);
  }

  /**
   * The seeded reviews (indexes, in the order) with a customer's own (few, newer, higher ids) merged
   * in where the order puts them, ties by id: each own review's place is found by a binary search.
   */
  #mergeReviews(indexes: Uint32Array, own: OwnReview[], order: ListingOrder): { count: number; write(position: number, out: string[], seed: (k: number, out: string[]) => void): void } {
    const source = this.dataset.reviews.source;
    const keyOf = (field: ListingOrder['field'], r: OwnReview) => (field === 'rating' ? r.rating : field === 'updated_at' ? Date.parse(r.updated_at) : Date.parse(r.created_at));
    const seedKey = (field: ListingOrder['field'], i: number) => (field === 'rating' ? source.rating[i]! : field === 'updated_at' ? source.updatedAt[i]! : source.createdAt[i]!);
    // Whether own review r comes before seeded review i (ties: the seeded one first, its id is lower).
    const before = (r: OwnReview, i: number) => {
      if (order.field === 'id') return order.descending;
      const a = keyOf(order.field, r);
      const b = seedKey(order.field, i);
      return order.descending ? a > b : a < b;
    };
    const sorted = own
      .map((r, k) => ({ r, k }))
      .sort((x, y) => {
        if (order.field !== 'id') {
          const a = keyOf(order.field, x.r);
          const b = keyOf(order.field, y.r);
          if (a !== b) return order.descending ? b - a : a - b;
          return x.k - y.k;
        }
        return order.descending ? y.k - x.k : x.k - y.k;
      })
      .map(({ r }) => r);
    const places = sorted.map((r) => {
      let lo = 0;
      let hi = indexes.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (before(r, indexes[mid]!)) hi = mid;
        else lo = mid + 1;
      }
      return lo;
    });
    const json = sorted.map((r) => JSON.stringify(this.dialect.project.review(r)));
    return {
      count: indexes.length + sorted.length,
      write: (position, out, seed) => {
        let ownBefore = 0;
        for (let k = 0; k < places.length; k++) {
          const at = places[k]! + k;
          if (at === position) return void out.push(json[k]!);
          if (at < position) ownBefore++;
        }
        seed(position - ownBefore, out);
      },
    };
  }

  /**
   * The refusal of a page of wishlists that would hold more than MAX_ANSWER_RECORDS records: each
   * wishlist counts one, and each item it embeds (`embeds`) one more. Reads item counts only.
   */
  #tooManyWishlists(rules: EndpointRules, query: ListingQuery, embeds: boolean): Refusal | undefined {
    const table = this.dataset.wishlists;
    const { from, to } = range(table.count, query);
    if (to - from > MAX_ANSWER_RECORDS) return pageTooLarge(rules, query, `this page holds ${to - from} wishlists, ${OVER_RECORDS}`, MAX_ANSWER_RECORDS);
    if (!embeds) return undefined;
    let records = 0;
    let fit = 0;
    for (const w of this.#ordered(table.count, query)) {
      records += 1 + table.source.itemCount(w);
      if (records <= MAX_ANSWER_RECORDS) fit++;
    }
    if (records <= MAX_ANSWER_RECORDS) return undefined;
    return pageTooLarge(rules, query, `these ${to - from} wishlists hold ${records} records with their embedded items, ${OVER_RECORDS}`, fit);
  }

  /**
   * What must be built before `answer(request, query)` can answer in proportion to its page: the
   * ordering of every review a first request for an `order` needs (and, on 4.2, its grouping by
   * product), O(n) work that a server runs between requests (mock-server/listings/answers.ts) rather than
   * hold every other request up. `key` names it; undefined when nothing is missing.
   */
  preparing(request: ListingRequest, query: ListingQuery): { key: string; steps: Steps<void> } | undefined {
    if (request.endpoint !== 'reviews' && request.endpoint !== 'productReviews') return undefined;
    const table = this.dataset.reviews;
    // Nearly every request: the order of all reviews is built already (nothing to allocate to say so).
    if (request.endpoint === 'reviews' && table.isPrepared(query.order, false)) return undefined;
    const needs: Array<[ListingOrder, boolean]> = [];
    if (request.endpoint === 'reviews') needs.push([query.order, false]);
    else if (table.source.productIndexOf(request.id ?? '') >= 0) {
      needs.push([query.order, true]);
      if (query.aggregates) needs.push([{ field: 'id', descending: false }, true]);
    }
    const missing = needs.filter(([order, grouped]) => !table.isPrepared(order, grouped));
    if (missing.length === 0) return undefined;
    return {
      key: missing.map(([order, grouped]) => `${order.descending ? '-' : ''}${order.field}${grouped ? ' by product' : ''}`).join(', '),
      steps: (function* () {
        for (const [order, grouped] of missing) yield* table.prepare(order, grouped);
      })(),
    };
  }

  /** The indexes of one page of records numbered in API (= id = created_at) order, `-id` / `-created_at` reversing it. */
  #ordered(count: number, query: ListingQuery): number[] {
    const { from, to } = range(count, query);
    const out: number[] = new Array(to - from);
    for (let p = from; p < to; p++) out[p - from] = query.order.descending ? count - 1 - p : p;
    return out;
  }

  /** The matching reviews in the query's order (a view of the memoised ordering when nothing is filtered). */
  #reviewIndexes(query: ListingQuery, product: number | undefined): Uint32Array {
    const table = this.dataset.reviews;
    let indexes: Uint32Array;
    if (product === undefined) indexes = table.sorted(query.order);
    else if (product < 0) return new Uint32Array(0);
    else indexes = table.productIndexes(product, query.order);
    const { productIds, rating, verifiedPurchaseOnly } = query.filters;
    if (productIds === undefined && rating === undefined && !verifiedPurchaseOnly) return indexes;
    const source = table.source;
    const products = productIds === undefined ? undefined : new Set(productIds.map((id) => source.productIndexOf(id)));
    return indexes.filter(
      (i) =>
        (products === undefined || products.has(source.product[i]!)) &&
        (rating === undefined || source.rating[i] === rating) &&
        (!verifiedPurchaseOnly || source.isVerifiedPurchase(i)),
    );
  }

  /** A product's rating aggregate by id (an unknown product's is all zeros): `GET /store/reviews/product/:id/aggregate-counts`. */
  aggregateOf(productId: string): RatingAggregate {
    return this.#aggregate(this.dataset.reviews.source.productIndexOf(productId));
  }

  /** A product's rating aggregate, as the reviews plugin computes it (average to 2 decimals, counts from 5 down to 1). */
  #aggregate(product: number): RatingAggregate {
    let aggregate = this.#aggregates.get(product);
    if (!aggregate) {
      const counts = [0, 0, 0, 0, 0];
      let sum = 0;
      const indexes = product < 0 ? new Uint32Array(0) : this.dataset.reviews.productIndexes(product, { field: 'id', descending: false });
      for (const i of indexes) {
        const r = this.dataset.reviews.source.rating[i]!;
        counts[r - 1]!++;
        sum += r;
      }
      const total = indexes.length;
      aggregate = {
        average: Number((total === 0 ? 0 : sum / total).toFixed(2)),
        total_count: total,
        counts: [5, 4, 3, 2, 1].map((rating) => ({ rating, count: counts[rating - 1]! })),
      };
      this.#aggregates.set(product, aggregate);
    }
    return aggregate;
  }

  /**
   * Writes the reviews' JSON. Written directly by the source (the spec's dialect shows records
   * as they are), a review costs about a microsecond: cheaper than keeping it, which would also
   * hold hundreds of megabytes of strings for the collector to walk under a random load. A
   * projected review (through `JSON.stringify`) is kept.
   */
  #reviewWriter(indexes: Uint32Array): (k: number, out: string[]) => void {
    const source = this.dataset.reviews.source;
    const recorded = this.#recorded;
    if (recorded) return (k, out) => void out.push(recorded.reviewJson(indexes[k]!));
    if (this.dialect.recordsAsIs && source.writeReviewJson) return (k, out) => source.writeReviewJson!(indexes[k]!, out);
    return (k, out) => {
      const index = indexes[k]!;
      out.push(memoized(this.#reviews, index, () => JSON.stringify(this.dialect.project.review(source.review(index)))));
    };
  }
}

/** A customer's own reviews that a review listing matches: of the product (4.2), and the query's filters. */
function ownReviews(reviews: readonly OwnReview[], query: ListingQuery, productId: string | undefined): OwnReview[] {
  const { productIds, rating, verifiedPurchaseOnly } = query.filters;
  // Own reviews are never verified purchases (the mock has no orders).
  if (verifiedPurchaseOnly) return [];
  return reviews.filter((r) => (productId === undefined || r.product_id === productId) && (productIds === undefined || productIds.includes(r.product_id)) && (rating === undefined || r.rating === rating));
}

/** A listing's answer, platform-neutral: its status and JSON text (`null`: an empty body). */
export interface ListingAnswer {
  status: number;
  body: string | null;
  /** A listing's (200): what its page numbers were made from. */
  page?: PageFacts | undefined;
  /** A refusal's reason, where its body does not say (the dialect's, sent as REASON_HEADER). */
  reason?: string;
}

/**
 * The whole answer to a listing request, in the order every mock applies the rules: the
 * dialect's guard (keys, auth), then its reading of the query, then the listing (which may
 * still refuse: an unknown wishlist). A refusal's body is its JSON, as the HTTP mock sends it.
 */
export function answerListing(bodies: PageBodies, request: ListingRequest, writes?: CustomerWrites, store?: WriteStore): ListingAnswer {
  return answerRead(bodies, request, readListing(bodies, request), writes, store);
}

/** The first two steps of `answerListing`: the dialect's guard, then its reading of the query. */
export function readListing(bodies: PageBodies, request: ListingRequest): ListingQuery | Refusal {
  return bodies.dialect.guard(request) ?? bodies.dialect.endpoints[request.endpoint].read(request);
}

/** The last step of `answerListing`: the listing of what `readListing` read, or its refusal. */
export function answerRead(bodies: PageBodies, request: ListingRequest, read: ListingQuery | Refusal, writes?: CustomerWrites, store?: WriteStore): ListingAnswer {
  const facts: { page?: PageFacts } = {};
  const answer = isRefusal(read) ? read : bodies.answer(request, read, facts, writes, store);
  return isRefusal(answer) ? refusalAnswer(answer) : { status: 200, body: answer, page: facts.page };
}

/** A dialect's refusal as an answer: its status, its JSON (or an empty body) and its reason, if it has one. */
export function refusalAnswer(refusal: Refusal): ListingAnswer {
  const body = refusal.body === null ? null : JSON.stringify(refusal.body);
  return refusal.reason === undefined ? { status: refusal.status, body } : { status: refusal.status, body, reason: refusal.reason };
}
