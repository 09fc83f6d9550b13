/**
 * What the suite knows about the target: the discovered product and wishlist ids, and the whole
 * ordered set of each listing (fetched once, in pages of the largest size, and cached). The
 * properties compare every page they ask for against these.
 */
import { recordKey, recordsPresent } from '../lib/answer-rules.ts';
import type { ListingEndpoint } from './endpoints.ts';
import { ENDPOINTS } from './endpoints.ts';
import { ListingClient, type Exchange, type Query } from './http.ts';
import type { ResolvedOptions } from './options.ts';
import { currentTally, SharedWork, type Tally } from './tally.ts';
import { fail, failWith, okBody, Violation } from './violation.ts';

/** One listing to page through: an endpoint, plus the path id for 4.2 / 4.4. */
export interface Target {
  endpoint: ListingEndpoint;
  id?: string;
}

/** The identity of a record: its `id` when it has one, else its whole JSON (lib/answer-rules.ts). */
export { recordKey };

export function targetLabel(t: Target): string {
  return t.id === undefined ? t.endpoint.path() : t.endpoint.path(t.id);
}

/** A paging window; an undefined side is left out of the query (so the server's default applies). */
export interface Window {
  size?: number;
  start?: number;
}

export function windowQuery(endpoint: ListingEndpoint, w: Window, extra: Query = []): Query {
  const q: Query = [];
  if (w.size !== undefined) q.push([endpoint.sizeParam, String(w.size)]);
  if (w.start !== undefined) q.push([endpoint.startParam, String(w.start)]);
  return [...q, ...extra];
}

/** The fields of an envelope, dialect-neutral. Values are whatever the server sent (checked elsewhere). */
export interface Page {
  ex: Exchange;
  body: Record<string, unknown>;
  records: unknown[];
  count: unknown;
  size: unknown;
  start: unknown;
  totalPages: unknown;
  currentPage: unknown;
  nextPage: unknown;
  prevPage: unknown;
}

export function readPage(endpoint: ListingEndpoint, ex: Exchange): Page {
  const body = okBody(ex);
  const records = recordsPresent('envelope-shape', endpoint.recordsKey, body);
  if (!Array.isArray(records)) failWith(ex.url, records);
  return {
    ex,
    body,
    records,
    count: body.count,
    size: body[endpoint.sizeParam],
    start: body[endpoint.startParam],
    totalPages: body.totalPages,
    currentPage: body.currentPage,
    nextPage: body.nextPage,
    prevPage: body.prevPage,
  };
}

/** The ordered set of a listing as far as the suite fetched it. */
export interface ReferenceSet {
  target: Target;
  order?: string;
  /** `count` as answered by the first reference page. */
  count: number;
  records: unknown[];
  /** The URL each record came from (for failure reports). */
  sources: string[];
  /** Whether every record was fetched (false when capped by maxReferencePages). */
  complete: boolean;
  firstUrl: string;
}

const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

export class CheckContext {
  readonly client: ListingClient;
  private readonly references = new Map<string, SharedWork<ReferenceSet>>();
  private readonly noted: Array<{ note: string; by: Tally | undefined }> = [];

  constructor(readonly options: ResolvedOptions) {
    this.client = new ListingClient(options.baseUrl, { timeoutMs: options.timeoutMs, maxBodyBytes: options.maxBodyBytes, concurrency: options.concurrency, ...(options.headers ? { headers: options.headers } : {}) });
  }

  get strict(): boolean {
    return this.options.strict;
  }

  get maxPageSize(): number {
    return this.options.maxPageSize;
  }

  request(target: Target, w: Window, extra: Query = []): Promise<Exchange> {
    // Not async: one promise fewer per request (they cost more while the tallies follow the async context).
    try {
      return this.client.get(target.endpoint.path(target.id), windowQuery(target.endpoint, w, extra));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  async page(target: Target, w: Window, extra: Query = []): Promise<Page> {
    return readPage(target.endpoint, await this.request(target, w, extra));
  }

  /** The whole ordered set (cached), in pages of maxPageSize, capped at maxReferencePages pages. */
  reference(target: Target, order?: string): Promise<ReferenceSet> {
    const key = `${target.endpoint.name}|${target.id ?? ''}|${order ?? ''}`;
    const cached = this.references.get(key);
    if (cached) {
      // Its requests count for the earliest run that asks for it (tally.ts).
      if (!cached.startedByAnotherCheck()) return cached.claim();
      // Had the checks run one after the other, this one would have asked after that fetch ended,
      // and fetched again had it failed.
      return cached.promise.then(
        () => cached.claim(),
        () => this.reference(target, order),
      );
    }
    const work = new SharedWork(() => this.fetchReference(target, order));
    this.references.set(key, work);
    // A failed fetch is not cached: the next property asks again and reports its own failure.
    work.promise.catch(() => {
      if (this.references.get(key) === work) this.references.delete(key);
    });
    return work.promise;
  }

  protected async fetchReference(target: Target, order?: string): Promise<ReferenceSet> {
    const size = this.maxPageSize;
    const extra: Query = order === undefined ? [] : [['order', order]];
    const records: unknown[] = [];
    const sources: string[] = [];
    let count = 0;
    let firstUrl = '';
    for (let pageIndex = 0; pageIndex < this.options.maxReferencePages; pageIndex++) {
      // Continue from what has been fetched, so that a server returning short pages leaves no gap.
      const page = await this.page(target, { size, start: records.length }, extra);
      if (pageIndex === 0) {
        firstUrl = page.ex.url;
        if (!isCount(page.count)) {
          fail({
            message: '`count` must be a non-negative integer',
            url: page.ex.url,
            field: 'count',
            expected: 'a non-negative integer',
            actual: page.count,
          });
        }
        count = page.count;
      }
      // One by one: spreading a huge page into push() overflows the call stack.
      for (const record of page.records) {
        records.push(record);
        sources.push(page.ex.url);
      }
      if (page.records.length === 0 || records.length >= count) {
        return { target, order, count, records, sources, complete: records.length >= count, firstUrl };
      }
    }
    this.noteOnce(`the whole set of ${targetLabel(target)}${order ? ` (order=${order})` : ''} has ${count} records; the suite fetched the first ${records.length} (${this.options.maxReferencePages} pages of ${size}) and compares pages against those only`);
    return { target, order, count, records, sources, complete: false, firstUrl };
  }

  /** Product ids for 4.2: the ones given, else the distinct `product_id`s of 4.1's first records. */
  async productTargets(): Promise<{ targets: Target[]; note?: string }> {
    const endpoint = ENDPOINTS.productReviews;
    if (this.options.productIds?.length) return { targets: this.options.productIds.map((id) => ({ endpoint, id })) };
    let all: ReferenceSet;
    try {
      all = await this.reference({ endpoint: ENDPOINTS.reviews });
    } catch (error) {
      // 4.1's own properties report what is wrong with it; here it is a precondition of 4.2.
      return { targets: [], note: `the products to list could not be learnt from 4.1 (${preconditionOf(error)}); pass --product-id` };
    }
    const ids: string[] = [];
    for (const r of all.records) {
      const pid = (r as { product_id?: unknown })?.product_id;
      if (typeof pid === 'string' && !ids.includes(pid)) ids.push(pid);
    }
    if (ids.length === 0) {
      return {
        targets: [],
        note: 'no product id found in the reviews of 4.1 (none, or they carry no product_id); pass --product-id',
      };
    }
    // The product with the most reviews first (its pages are the interesting ones), then the others.
    const tally = (id: string) => all.records.filter((r) => (r as { product_id?: unknown }).product_id === id).length;
    const chosen = [...ids].sort((a, b) => tally(b) - tally(a)).slice(0, 8);
    this.noteOnce(`4.2 is checked with products ${chosen.join(', ')} (discovered from 4.1)`);
    return { targets: chosen.map((id) => ({ endpoint, id })) };
  }

  /** Wishlist ids for 4.4: the ones given, else some from 4.3 (the one with most items, an empty one, the first). */
  async wishlistTargets(): Promise<{ targets: Target[]; note?: string }> {
    const endpoint = ENDPOINTS.wishlistItems;
    if (this.options.wishlistIds?.length) return { targets: this.options.wishlistIds.map((id) => ({ endpoint, id })) };
    let all: ReferenceSet;
    try {
      all = await this.reference({ endpoint: ENDPOINTS.wishlists });
    } catch (error) {
      return { targets: [], note: `the wishlists to list could not be learnt from 4.3 (${preconditionOf(error)}); pass --wishlist-id` };
    }
    const lists = all.records.filter(
      (r): r is { id: string; items?: unknown } => typeof (r as { id?: unknown })?.id === 'string',
    );
    if (lists.length === 0) return { targets: [], note: 'no wishlist found in 4.3; pass --wishlist-id' };
    const itemsOf = (w: { items?: unknown }) => (Array.isArray(w.items) ? w.items.length : 0);
    const byItems = [...lists].sort((a, b) => itemsOf(b) - itemsOf(a));
    const chosen: string[] = [];
    for (const w of [...byItems.slice(0, 4), ...lists.filter((w) => itemsOf(w) === 0).slice(0, 1), ...lists.slice(0, 3)]) {
      if (!chosen.includes(w.id)) chosen.push(w.id);
    }
    this.noteOnce(`4.4 is checked with wishlists ${chosen.join(', ')} (discovered from 4.3)`);
    return { targets: chosen.map((id) => ({ endpoint, id })) };
  }

  /** The wishlist record as 4.3 lists it (from the reference set), when the suite has it. */
  async embeddedWishlist(id: string): Promise<Record<string, unknown> | undefined> {
    const all = await this.reference({ endpoint: ENDPOINTS.wishlists });
    return all.records.find((r) => recordKey(r) === id) as Record<string, unknown> | undefined;
  }

  /** Notes the suite shows with the results (caps hit, ids discovered...), once each. */
  noteOnce(note: string): void {
    const by = currentTally();
    const before = this.noted.find((n) => n.note === note);
    if (!before) this.noted.push({ note, by });
    else if (by && (!before.by || by.place < before.by.place)) before.by = by;
  }

  /** The notes in the order a one-at-a-time run makes them (whatever ran side by side); those of no property last. */
  get notes(): string[] {
    const place = (by: Tally | undefined) => by?.place ?? Number.POSITIVE_INFINITY;
    return this.noted
      .map((n, i) => ({ ...n, i }))
      .sort((a, b) => place(a.by) - place(b.by) || a.i - b.i)
      .map((n) => n.note);
  }
}

/** Why a listing another property depends on could not be read, in one phrase. */
export function preconditionOf(error: unknown): string {
  if (error instanceof Violation) return `${error.detail.message}${error.detail.url ? `: GET ${error.detail.url}` : ''}`;
  return error instanceof Error ? error.message : String(error);
}
