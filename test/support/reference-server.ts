/**
 * A compact second implementation of the four listings, built on lib/paging.ts, with one switchable
 * bug at a time. Each bug is one that real servers have; the self-test shows the property suite
 * fails every one of them (and names the property that catches it) and passes the bug-free server.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  DEFAULT_MAX_PAGE_SIZE,
  DEFAULT_REVIEW_ORDER,
  REVIEWS_DEFAULT_LIMIT,
  REVIEWS_DEFAULT_OFFSET,
  REVIEW_ORDER_VALUES,
  WISHLIST_DEFAULT_SKIP,
  WISHLIST_DEFAULT_TAKE,
  parseReviewOrder,
  type ReviewOrder,
} from '../../lib/api-rules.ts';
import { pageNumbers, pageSlice, reviewsEnvelope, wishlistEnvelope } from '../../lib/paging.ts';
import { testDataset, type Review, type TestDataset, type Wishlist, type WishlistItem } from './reference-dataset.ts';

/** Each bug, what it does, the properties that must catch it, and whether only --strict sees it. */
export const BUGS = {
  'zero-based-pages': { does: 'currentPage counts from 0 (nextPage/prevPage with it)', caughtBy: ['current-page'], strict: false },
  'floored-total-pages': { does: 'totalPages = floor(count / size)', caughtBy: ['total-pages'], strict: false },
  'next-page-on-last-page': { does: 'nextPage = currentPage + 1 even on the last page', caughtBy: ['next-and-prev-page'], strict: false },
  'null-instead-of-absent': { does: 'wishlist envelopes send nextPage/prevPage: null instead of leaving them out', caughtBy: ['envelope-shape'], strict: false },
  'sort-after-paging': { does: 'order sorts the page after slicing the default order', caughtBy: ['order-sorts-whole-set'], strict: false },
  'ties-without-tie-break': { does: 'sorting has no id tie-break; ties come back in an order that depends on limit/offset, so pages overlap', caughtBy: ['walk-visits-each-once', 'page-contents'], strict: false },
  'offset-off-by-one': { does: 'the page starts one record late (slice from start + 1)', caughtBy: ['page-length'], strict: false },
  'count-of-page': { does: 'count is the number of records on the page, so it changes with the page size', caughtBy: ['count-independent-of-paging'], strict: false },
  'limit-echoes-returned': { does: 'limit/take echo the number of records returned', caughtBy: ['echo-size-and-start'], strict: false },
  'product-prefix-match': { does: '4.2 matches product ids by prefix, so prod_1 leaks prod_10 and prod_11', caughtBy: ['product-reviews-match'], strict: false },
  'paging-slices-embedded-items': { does: "4.3 applies skip/take to each wishlist's embedded items too", caughtBy: ['wishlist-fields-unchanged-by-paging'], strict: false },
  'wrong-default-take': { does: 'take defaults to 20 instead of 10', caughtBy: ['defaults'], strict: false },
  'items-newest-first': { does: '4.4 lists items newest first, while the embedded items are oldest first', caughtBy: ['wishlist-items-agree'], strict: false },
  'unstable-order': { does: 'no ORDER BY: every request lists the set in a different order', caughtBy: ['same-request-same-body', 'page-contents'], strict: false },
  'id-query-shifts-skip': { does: '4.4 called the client way (?id= beside skip/take) skips one record more', caughtBy: ['items-id-query'], strict: false },
  'error-past-the-end': { does: 'a start past the end answers 500 instead of an empty page', caughtBy: ['page-length', 'echo-size-and-start'], strict: false },
  'prev-page-missing-past-end': { does: 'prevPage is null past the end', caughtBy: ['next-and-prev-page'], strict: false },
  'lenient-integers': { does: 'integers parsed with parseInt: "5abc", "-1", "1e2" accepted', caughtBy: ['bad-paging-400'], strict: false },
  'unknown-product-404': { does: '4.2 answers 404 for a product without reviews', caughtBy: ['unknown-ids'], strict: true },
  'rating-as-string': { does: 'rating is sent as a string ("4")', caughtBy: ['record-shape'], strict: false },
  'reviews-default-limit-10': { does: 'limit defaults to 10 on the reviews endpoints instead of 20', caughtBy: ['defaults'], strict: false },
  'plugins-page-numbers': { does: 'nextPage/prevPage clamped as the published plugins compute them: never absent or null (the last page is its own next, the first its own previous)', caughtBy: ['next-and-prev-page'], strict: false },
  'lenient-query': { does: 'unknown parameters ignored, the last of a repeated one wins', caughtBy: ['bad-parameters-400'], strict: true },
} as const;

export type BugName = keyof typeof BUGS;

export interface ReferenceServerOptions {
  bug?: BugName;
  /**
   * Make the other choice wherever API.md marks a rule [kit], the spec is silent and the kit's pacts
   * do not pin it: a correct implementation that a team could write from the spec and the pacts. The
   * suite must pass it without --strict and fail it with --strict.
   */
  otherKitChoices?: boolean;
  dataset?: TestDataset;
  maxPageSize?: number;
}

export interface ReferenceServer {
  url: string;
  close(): Promise<void>;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

const invalid = (message: string) => new HttpError(400, 'invalid_data', `Invalid request: ${message}`);

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

export async function startReferenceServer(options: ReferenceServerOptions = {}): Promise<ReferenceServer> {
  const bug = options.bug;
  const other = options.otherKitChoices ?? false;
  const data = options.dataset ?? testDataset();
  const maxPageSize = options.maxPageSize ?? DEFAULT_MAX_PAGE_SIZE;
  let requestNumber = 0;

  function readQuery(url: URL, accepted: string[]): Map<string, string> {
    const q = new Map<string, string>();
    for (const [k, v] of url.searchParams) {
      if (other || bug === 'lenient-query') {
        // lenient: unknown parameters ignored, the last of a repeated one wins
        if (accepted.includes(k)) q.set(k, v);
        continue;
      }
      if (!accepted.includes(k)) throw invalid(`unknown query parameter '${k}'; accepted parameters: ${accepted.join(', ')}`);
      if (q.has(k)) throw invalid(`'${k}' must be given at most once`);
      q.set(k, v);
    }
    return q;
  }

  function int(q: Map<string, string>, name: string, min: number, max: number, fallback: number): number {
    const raw = q.get(name);
    if (raw === undefined) return fallback;
    if (bug === 'lenient-integers') {
      const n = parseInt(raw, 10);
      return Number.isNaN(n) ? fallback : Math.max(min, n);
    }
    const n = /^[0-9]+$/.test(raw) ? Number(raw) : NaN;
    if (!Number.isSafeInteger(n) || n < min || n > max) throw invalid(`'${name}' must be an integer from ${min} to ${max}, got '${raw}'`);
    return n;
  }

  function order(q: Map<string, string>): ReviewOrder {
    const raw = q.get('order');
    if (raw === undefined) return other ? { field: 'created_at', descending: true } : DEFAULT_REVIEW_ORDER;
    const o = parseReviewOrder(raw);
    if (!o && other) return { field: 'created_at', descending: true };
    if (!o) throw invalid(`'order' must be one of ${REVIEW_ORDER_VALUES.join(', ')}, got '${raw}'`);
    return o;
  }

  /** The ordered set; the tie-break and stability bugs live here. */
  function sortReviews(reviews: Review[], o: ReviewOrder, size: number, start: number): Review[] {
    const key = (r: Review) => (o.field === 'rating' ? r.rating : Date.parse(r[o.field]));
    const ties =
      bug === 'ties-without-tie-break'
        ? (a: Review, b: Review) => hash(`${a.id}|${size}|${start}`) - hash(`${b.id}|${size}|${start}`)
        : (a: Review, b: Review) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) * (other ? -1 : 1);
    return [...reviews].sort((a, b) => (o.descending ? key(b) - key(a) : key(a) - key(b)) || ties(a, b));
  }

  function shuffled<T>(xs: T[]): T[] {
    const out = [...xs];
    let s = ++requestNumber;
    for (let i = out.length - 1; i > 0; i--) {
      s = (Math.imul(s, 1103515245) + 12345) >>> 0;
      const j = s % (i + 1);
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }

  function page<T>(all: T[], start: number, size: number): T[] {
    if (bug === 'error-past-the-end' && start > all.length) throw new HttpError(500, 'unknown_error', 'An unknown error occurred.');
    const { from, to } = pageSlice(all.length, start, size);
    return bug === 'offset-off-by-one' ? all.slice(from + 1, to + 1) : all.slice(from, to);
  }

  /** Applies the arithmetic bugs to an envelope built by lib/paging.ts. */
  function meta<E extends { count: number; totalPages: number; currentPage: number; nextPage?: number | null; prevPage?: number | null }>(
    env: E,
    records: unknown[],
    start: number,
    size: number,
    sizeKey: 'limit' | 'take',
    nullable: boolean,
  ): E {
    const out: Record<string, unknown> = { ...env };
    const count = env.count;
    if (other && start % size !== 0) {
      // the page of an unaligned start rounded up (the pacts ask only for aligned pages)
      const total = Math.ceil(count / size);
      const current = Math.ceil(start / size) + 1;
      out.currentPage = current;
      setNav(out, 'nextPage', current < total ? current + 1 : null, nullable);
      setNav(out, 'prevPage', current > 1 ? current - 1 : null, nullable);
    }
    if (bug === 'count-of-page') out.count = records.length;
    if (bug === 'limit-echoes-returned') out[sizeKey] = records.length;
    if (bug === 'floored-total-pages') out.totalPages = Math.floor(count / size);
    if (bug === 'zero-based-pages') {
      const n = pageNumbers(count, start, size);
      out.currentPage = n.currentPage - 1;
      setNav(out, 'nextPage', n.nextPage === null ? null : n.nextPage - 1, nullable);
      setNav(out, 'prevPage', n.prevPage === null ? null : n.prevPage - 1, nullable);
    }
    if (bug === 'next-page-on-last-page') setNav(out, 'nextPage', env.currentPage + 1, nullable);
    if (bug === 'prev-page-missing-past-end' && start >= count && count > 0) setNav(out, 'prevPage', null, nullable);
    if (bug === 'plugins-page-numbers') {
      out.nextPage = Math.min(env.currentPage + 1, Math.max(env.totalPages, 1));
      out.prevPage = Math.max(env.currentPage - 1, 1);
    }
    if (bug === 'null-instead-of-absent' && !nullable) {
      out.nextPage ??= null;
      out.prevPage ??= null;
    }
    return out as E;
  }

  function setNav(out: Record<string, unknown>, key: string, value: number | null, nullable: boolean): void {
    if (value === null && !nullable) delete out[key];
    else out[key] = value;
  }

  function reviewsListing(q: Map<string, string>, reviews: Review[]) {
    const defaultLimit = bug === 'reviews-default-limit-10' ? 10 : REVIEWS_DEFAULT_LIMIT;
    const limit = int(q, 'limit', 1, maxPageSize, defaultLimit);
    const offset = int(q, 'offset', 0, Number.MAX_SAFE_INTEGER, REVIEWS_DEFAULT_OFFSET);
    const o = order(q);
    let records: Review[];
    if (bug === 'sort-after-paging') {
      records = sortReviews(page(sortReviews(reviews, DEFAULT_REVIEW_ORDER, limit, offset), offset, limit), o, limit, offset);
    } else {
      const all = bug === 'unstable-order' && !q.has('order') ? shuffled(reviews) : sortReviews(reviews, o, limit, offset);
      records = page(all, offset, limit);
    }
    const shown =
      bug === 'rating-as-string' ? records.map((r) => ({ ...r, rating: String(r.rating) })) : records;
    return meta(reviewsEnvelope<unknown>(shown, reviews.length, offset, limit), records, offset, limit, 'limit', true);
  }

  function wishlistWindow(q: Map<string, string>) {
    const take = int(q, 'take', 1, maxPageSize, bug === 'wrong-default-take' ? 20 : WISHLIST_DEFAULT_TAKE);
    const skip = int(q, 'skip', 0, Number.MAX_SAFE_INTEGER, WISHLIST_DEFAULT_SKIP);
    return { take, skip };
  }

  function route(url: URL): unknown {
    const path = url.pathname;
    if (path === '/store/products/reviews') {
      return reviewsListing(readQuery(url, ['limit', 'offset', 'order']), data.reviews);
    }
    let m = /^\/store\/reviews\/product\/([^/]+)$/.exec(path);
    if (m) {
      // The spec lists only limit and offset here; accepting order too is the kit's choice.
      const q = readQuery(url, other ? ['limit', 'offset'] : ['limit', 'offset', 'order']);
      const id = decodeURIComponent(m[1]!);
      const mine = data.reviews.filter((r) => (bug === 'product-prefix-match' ? r.product_id.startsWith(id) : r.product_id === id));
      if (bug === 'unknown-product-404' && mine.length === 0) throw new HttpError(404, 'not_found', `Product with id: ${id} was not found`);
      return reviewsListing(q, mine);
    }
    if (path === '/store/wishlists') {
      const { take, skip } = wishlistWindow(readQuery(url, ['skip', 'take']));
      const all = bug === 'unstable-order' ? shuffled(data.wishlists) : data.wishlists;
      let records: Wishlist[] = page(all, skip, take);
      if (bug === 'paging-slices-embedded-items') records = records.map((w) => ({ ...w, items: w.items.slice(skip, skip + take) }));
      return meta(wishlistEnvelope(records, all.length, skip, take), records, skip, take, 'take', false);
    }
    m = /^\/store\/wishlists\/([^/]+)\/items$/.exec(path);
    if (m) {
      const id = decodeURIComponent(m[1]!);
      const q = readQuery(url, ['skip', 'take', 'id']);
      const { take, skip } = wishlistWindow(q);
      const wishlist = data.wishlists.find((w) => w.id === id);
      if (!wishlist) throw new HttpError(404, 'not_found', `Wishlist with id: ${id} was not found`);
      const queryId = q.get('id');
      if (queryId !== undefined && queryId !== id && !other) throw invalid(`'id' must equal the wishlist id of the path '${id}', got '${queryId}'`);
      let items: WishlistItem[] = bug === 'items-newest-first' ? [...wishlist.items].reverse() : wishlist.items;
      if (bug === 'unstable-order') items = shuffled(items);
      // The client form (?id=) goes through a second code path that is one record off.
      const start = bug === 'id-query-shifts-skip' && queryId !== undefined ? skip + 1 : skip;
      const records = page(items, start, take);
      return meta(wishlistEnvelope(records, items.length, skip, take), records, skip, take, 'take', false);
    }
    throw new HttpError(404, 'not_found', `Cannot GET ${path}`);
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const send = (status: number, body: unknown) => {
      const text = JSON.stringify(body);
      res.writeHead(status, { 'content-type': other ? 'application/json' : 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    };
    try {
      if (req.method !== 'GET') throw new HttpError(404, 'not_found', `Cannot ${req.method} ${req.url}`);
      send(200, route(new URL(req.url ?? '/', 'http://localhost')));
    } catch (error) {
      if (error instanceof HttpError) send(error.status, { type: error.type, message: error.message });
      else send(500, { type: 'unknown_error', message: 'An unknown error occurred.' });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((e) => (e ? reject(e) : resolve()));
        server.closeAllConnections();
      }),
  };
}
