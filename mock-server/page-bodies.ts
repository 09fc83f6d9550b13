import etag from 'etag';
import type { ReviewOrder } from '../lib/api-rules.ts';
import { reviewsEnvelope, wishlistEnvelope } from '../lib/paging.ts';
import type { Dataset } from '../fixtures/index.ts';
import { boundedMemo, memoized, type Memo } from './memo.ts';

/**
 * The serialized answers of the four listings, for one (immutable) dataset.
 *
 * A page body is the envelope of lib/paging.ts, serialized with an empty record array,
 * with the records' JSON spliced in: byte for byte what `JSON.stringify(envelope)` gives
 * (so what `res.json` sent before), without re-serializing records. Each record's JSON is
 * made once, when first asked for, and kept in a bounded memo, so a page costs its own
 * size, whatever the dataset's size, and a million-record dataset does not keep a million
 * strings.
 */

/** Memory kept per memo (records, items, wishlists), in bytes of JSON. */
export const RECORD_MEMO_BYTES = 48 * 1024 * 1024;

const REVIEWS_HEAD = '{"reviews":[';
const DATA_HEAD = '{"data":[';

function splice(emptyEnvelope: string, head: string, records: string[]): string {
  if (!emptyEnvelope.startsWith(`${head}]`)) throw new Error(`envelope does not start with ${head}]: ${emptyEnvelope.slice(0, 40)}`);
  return records.length === 0 ? emptyEnvelope : `${head}${records.join(',')}${emptyEnvelope.slice(head.length)}`;
}

export class PageBodies {
  readonly #reviews: Memo<number, string>;
  readonly #wishlists: Memo<number, string>;
  readonly #items: Memo<string, string>;

  constructor(
    readonly dataset: Dataset,
    memoBytes = RECORD_MEMO_BYTES,
  ) {
    const length = (s: string) => s.length;
    this.#reviews = boundedMemo(memoBytes, length);
    this.#wishlists = boundedMemo(memoBytes, length);
    this.#items = boundedMemo(memoBytes, length);
  }

  /** 4.1 */
  reviews(order: ReviewOrder, offset: number, limit: number): string {
    const { indexes, count } = this.dataset.reviews.pageIndexes(order, offset, limit);
    return splice(JSON.stringify(reviewsEnvelope([], count, offset, limit)), REVIEWS_HEAD, this.#reviewJson(indexes));
  }

  /** 4.2 */
  productReviews(productId: string, order: ReviewOrder, offset: number, limit: number): string {
    const { indexes, count } = this.dataset.reviews.productPageIndexes(productId, order, offset, limit);
    return splice(JSON.stringify(reviewsEnvelope([], count, offset, limit)), REVIEWS_HEAD, this.#reviewJson(indexes));
  }

  /** 4.3 */
  wishlists(skip: number, take: number): string {
    const table = this.dataset.wishlists;
    const { from, to, count } = table.pageRange(skip, take);
    const records: string[] = new Array(to - from);
    for (let w = from; w < to; w++) records[w - from] = memoized(this.#wishlists, w, () => JSON.stringify(table.source.wishlist(w)));
    return splice(JSON.stringify(wishlistEnvelope([], count, skip, take)), DATA_HEAD, records);
  }

  /** 4.4, for a wishlist index (see WishlistTable.indexOf). */
  wishlistItems(wishlist: number, skip: number, take: number): string {
    const table = this.dataset.wishlists;
    const { from, to, count } = table.itemsRange(wishlist, skip, take);
    const records: string[] = new Array(to - from);
    for (let k = from; k < to; k++) records[k - from] = memoized(this.#items, `${wishlist}:${k}`, () => JSON.stringify(table.source.item(wishlist, k)));
    return splice(JSON.stringify(wishlistEnvelope([], count, skip, take)), DATA_HEAD, records);
  }

  #reviewJson(indexes: Uint32Array): string[] {
    const source = this.dataset.reviews.source;
    const out: string[] = new Array(indexes.length);
    for (let i = 0; i < indexes.length; i++) {
      const index = indexes[i]!;
      out[i] = memoized(this.#reviews, index, () => JSON.stringify(source.review(index)));
    }
    return out;
  }
}

/** A serialized answer, ready to send again. */
export interface Body {
  bytes: Buffer;
  /** The weak ETag Express itself computes for these bytes (its own `etag` package). */
  etag: string;
}

export function toBody(json: string): Body {
  const bytes = Buffer.from(json, 'utf8');
  return { bytes, etag: etag(bytes, { weak: true }) };
}
