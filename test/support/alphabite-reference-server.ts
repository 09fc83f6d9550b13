/**
 * A compact server that speaks the published plugins' dialect (docs/dialects.md) with their paging
 * fixed: limit/offset and `order` honoured on all four listings, the `data` envelope with the
 * plugins' clamped page numbers (lib/paging.ts). Each bug of BUGS switches one misbehaviour on, so
 * test/check-alphabite.test.ts can show that each property of `check --dialect alphabite` catches
 * one, and that the bug-free server fails none (the dialect's own choices are not failures).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ALPHABITE_DEFAULT_LIMIT, ALPHABITE_DEFAULT_OFFSET } from '../../lib/dialects/alphabite.ts';
import { clampedPageNumbers, pageSlice } from '../../lib/paging.ts';
import { testDataset, type TestDataset } from './reference-dataset.ts';

/** Each bug, what it does, and the properties of `check --dialect alphabite` that must catch it. */
export const ALPHABITE_BUGS = {
  'reviews-ignore-paging': { does: '4.1 ignores limit and offset (every review at once, take 5 and skip 0 echoed), as the published plugin does', caughtBy: ['limit-offset-honoured'] },
  'reviews-count-zero': { does: "4.1 answers count 0 whatever it lists, as the published plugin does", caughtBy: ['count-matches-records'] },
  'reviews-ignore-order': { does: '4.1 ignores order and lists by id, as the published plugin does', caughtBy: ['order-honoured'] },
  'spec-nulls': { does: 'nextPage/prevPage are null when there is none (the spec, not the plugins)', caughtBy: ['data-envelope', 'clamped-page-numbers'] },
  'floored-current-page': { does: 'currentPage = floor(skip / take) + 1 (the spec, not the plugins)', caughtBy: ['clamped-page-numbers'] },
  'total-pages-short': { does: 'totalPages = max(floor(count / take), 1): a walk that stops at totalPages misses the last partial page', caughtBy: ['walk-by-offset', 'clamped-page-numbers'] },
  // A 4.3 that pages with skip/take instead is no broken plugin but the spec's paging: `check --dialect alphabite` names the dialect (test/dialect-detection.test.ts).
  'wishlists-ignore-paging': { does: '4.3 ignores limit and offset: its first 10 wishlists whatever is asked, take 10 and skip 0 echoed', caughtBy: ['limit-offset-honoured'] },
  'items-count-of-page': { does: "4.4's count is the number of items on the page", caughtBy: ['count-matches-records'] },
  'rating-as-string': { does: "4.2's reviews have their rating as a string (\"4\")", caughtBy: ['record-shape'] },
} as const;

export type AlphabiteBugName = keyof typeof ALPHABITE_BUGS;

export interface AlphabiteReferenceServer {
  url: string;
  close(): Promise<void>;
}

const ORDERABLE = ['id', 'created_at', 'updated_at', 'rating'];

class Refused extends Error {
  constructor(readonly status: number, readonly body: Record<string, unknown>) {
    super(String(body.message));
  }
}

const invalid = (message: string) => new Refused(400, { type: 'invalid_data', message: `Invalid request: ${message}` });

export async function startAlphabiteReferenceServer(options: { bug?: AlphabiteBugName; dataset?: TestDataset } = {}): Promise<AlphabiteReferenceServer> {
  const { bug } = options;
  const data = options.dataset ?? testDataset();

  /** Medusa's strict validation of createFindParams (no bounds, digits only here). */
  function read(url: URL, accepted: string[]) {
    const q = new Map<string, string>();
    const unknown = [...url.searchParams.keys()].filter((k) => !accepted.includes(k));
    if (unknown.length) throw invalid(`Unrecognized fields: '${unknown.join(', ')}'`);
    for (const [k, v] of url.searchParams) q.set(k, v);
    const int = (name: string, fallback: number) => {
      const raw = q.get(name);
      if (raw === undefined) return fallback;
      if (!/^\d+$/.test(raw)) throw invalid(`Expected type: 'number' for field '${name}', got: '${raw}'`);
      return Number(raw);
    };
    return { q, int };
  }

  function sorted<T extends object>(records: T[], order: string | undefined): T[] {
    const descending = order?.startsWith('-') ?? false;
    const field = order === undefined ? 'id' : descending ? order.slice(1) : order;
    if (!ORDERABLE.includes(field)) throw new Refused(500, { code: 'unknown_error', type: 'unknown_error', message: 'An unknown error occurred.' });
    const value = (r: T) => (r as Record<string, unknown>)[field] as string | number;
    const id = (r: T) => (r as { id: string }).id;
    return [...records].sort((a, b) => {
      const [va, vb] = [value(a), value(b)];
      const byField = va < vb ? -1 : va > vb ? 1 : 0;
      return (descending ? -byField : byField) || (id(a) < id(b) ? -1 : id(a) > id(b) ? 1 : 0);
    });
  }

  function envelope(all: object[], take: number, skip: number, options: { ignorePaging?: boolean; countZero?: boolean; countOfPage?: boolean } = {}) {
    const { from, to } = pageSlice(all.length, skip, take);
    const records = options.ignorePaging ? all : all.slice(from, to);
    const echo = options.ignorePaging ? { take: 5, skip: 0 } : { take, skip };
    const count = options.countZero ? 0 : options.countOfPage ? records.length : all.length;
    const numbers: Record<string, unknown> = { ...clampedPageNumbers(count, echo.skip, echo.take) };
    if (bug === 'floored-current-page') {
      const current = Math.floor(echo.skip / echo.take) + 1;
      Object.assign(numbers, { currentPage: current, nextPage: Math.min(current + 1, numbers.totalPages as number), prevPage: Math.max(current - 1, 1) });
    }
    if (bug === 'total-pages-short') {
      const total = Math.max(Math.floor(count / echo.take), 1);
      Object.assign(numbers, { totalPages: total, nextPage: Math.min((numbers.currentPage as number) + 1, total) });
    }
    if (bug === 'spec-nulls') {
      if ((numbers.currentPage as number) >= (numbers.totalPages as number)) numbers.nextPage = null;
      if ((numbers.currentPage as number) <= 1) numbers.prevPage = null;
    }
    return { data: records, ...numbers, ...echo };
  }

  function route(url: URL): unknown {
    const path = url.pathname;
    const paging = ['limit', 'offset', 'order', 'fields'];
    if (path === '/store/products/reviews') {
      const { q, int } = read(url, [...paging, 'product_ids']);
      const take = int('limit', ALPHABITE_DEFAULT_LIMIT);
      const skip = int('offset', ALPHABITE_DEFAULT_OFFSET);
      const all = sorted(data.reviews, bug === 'reviews-ignore-order' ? undefined : q.get('order'));
      return envelope(all, take, skip, { ignorePaging: bug === 'reviews-ignore-paging', countZero: bug === 'reviews-count-zero' });
    }
    let m = /^\/store\/reviews\/product\/([^/]+)$/.exec(path);
    if (m) {
      const { q, int } = read(url, paging);
      const id = decodeURIComponent(m[1]!);
      const mine = data.reviews.filter((r) => r.product_id === id).map((r) => (bug === 'rating-as-string' ? { ...r, rating: String(r.rating) } : r));
      return envelope(sorted(mine, q.get('order')), int('limit', ALPHABITE_DEFAULT_LIMIT), int('offset', ALPHABITE_DEFAULT_OFFSET));
    }
    if (path === '/store/wishlists') {
      // The plugin's columns: the wishlist's own, `deleted_at` among them (docs/dialects.md row 23).
      const lists = data.wishlists.map(({ items: _items, items_count: _count, ...w }) => ({ ...w, deleted_at: null }));
      const { q, int } = read(url, paging);
      if (bug === 'wishlists-ignore-paging') return envelope(sorted(lists, q.get('order')), 10, 0);
      return envelope(sorted(lists, q.get('order')), int('limit', ALPHABITE_DEFAULT_LIMIT), int('offset', ALPHABITE_DEFAULT_OFFSET));
    }
    m = /^\/store\/wishlists\/([^/]+)\/items$/.exec(path);
    if (m) {
      const { q, int } = read(url, paging);
      const id = decodeURIComponent(m[1]!);
      // As the plugin: an unknown wishlist is an empty listing.
      // With the variant's `product_id`, which Medusa adds with the selected relation (row 24).
      const items = (data.wishlists.find((w) => w.id === id)?.items ?? []).map((item) => ({ ...item, product_variant: { ...item.product_variant, product_id: item.product_variant.product.id } }));
      return envelope(sorted(items, q.get('order')), int('limit', ALPHABITE_DEFAULT_LIMIT), int('offset', ALPHABITE_DEFAULT_OFFSET), { countOfPage: bug === 'items-count-of-page' });
    }
    throw new Refused(404, { type: 'not_found', message: `Cannot GET ${path}` });
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const send = (status: number, body: unknown) => {
      const text = JSON.stringify(body);
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    };
    try {
      if (!req.headers['x-publishable-api-key']) throw new Refused(400, { type: 'not_allowed', message: 'Publishable API key required in the request header: x-publishable-api-key.' });
      send(200, route(new URL(req.url ?? '/', 'http://localhost')));
    } catch (error) {
      if (error instanceof Refused) send(error.status, error.body);
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
