import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { reviewsPageMeta, wishlistPageMeta } from '../../lib/paging.ts';
import { pactStateHandlers } from '../../mock-server/state/provider-states.ts';
import { startMockServer } from '../../mock-server/server.ts';

/**
 * Providers that differ from the contract in one deliberate way: a small Express app in
 * front of the kit's own mock server, which rewrites each JSON envelope on its way back.
 * All else (records, states, errors) is the mock's, so a failed verification can only
 * be the rewrite's doing.
 */

export type Envelope = Record<string, unknown>;

export interface BrokenProvider {
  url: string;
  stateHandlers: ReturnType<typeof pactStateHandlers>;
  close(): Promise<void>;
}

const isEnvelope = (body: unknown): body is Envelope => typeof body === 'object' && body !== null && 'totalPages' in body;

/** The ways to break the contract the drift guard must catch. */
export const BREAKAGES = {
  /** `totalPages` answered as `total_pages`. */
  renamedKey: (body: Envelope) => {
    const { totalPages, ...rest } = body;
    return { ...rest, total_pages: totalPages };
  },
  /** `count` answered as a string ("12" instead of 12). */
  countAsString: (body: Envelope) => ({ ...body, count: String(body.count) }),
  /** The reviews envelope without `prevPage` (it must be there, `null` when there is none). */
  missingPrevPage: (body: Envelope) => {
    const { prevPage: _dropped, ...rest } = body;
    return rest;
  },
  /** The reviews envelope echoing `limit` 20 whatever was asked (the contract asks for 5). */
  limitAlways20: (body: Envelope) => ('limit' in body ? { ...body, limit: 20 } : body),
  /** A listing's last record dropped (count and page numbers as they were): a bug a baseline must not hide. */
  dropsLastRecord: (body: Envelope) => {
    const key = Array.isArray(body.reviews) ? 'reviews' : 'data';
    const records = body[key];
    return Array.isArray(records) && records.length ? { ...body, [key]: records.slice(0, -1) } : body;
  },
  /** Record ids without their prefix (`01ABC...` for `rev_01ABC...`): every record of every page breaks the same rule. */
  idsWithoutPrefix: (body: Envelope) => {
    const key = Array.isArray(body.reviews) ? 'reviews' : 'data';
    const records = body[key];
    if (!Array.isArray(records)) return body;
    return { ...body, [key]: records.map((r: unknown) => (typeof r === 'object' && r !== null && typeof (r as Envelope).id === 'string' ? { ...(r as Envelope), id: ((r as Envelope).id as string).replace(/^[a-z]+_/, '') } : r)) };
  },
  /**
   * The other page numbers where API.md's [kit] rules choose and the pacts pin them: an empty
   * listing has 1 page (not 0), and a page past the end has no previous page.
   */
  otherPageNumbers: (body: Envelope) => {
    const reviews = Array.isArray(body.reviews);
    const [count, start] = [body.count, reviews ? body.offset : body.skip] as [number, number];
    const out: Envelope = { ...body };
    if (count === 0) out.totalPages = 1;
    if (count > 0 && start >= count) {
      if (reviews) out.prevPage = null;
      else delete out.prevPage;
    }
    return out;
  },
  /**
   * `nextPage`/`prevPage` clamped as the published plugins compute them (docs/dialects.md rows 12
   * and 13): never absent or null, the last page its own next, the first its own previous. Paging,
   * keys and records stay the spec's: a spec server with the plugins' bug, not the plugins' dialect.
   */
  clampedNextPrev: (body: Envelope) => {
    const [current, total] = [body.currentPage as number, body.totalPages as number];
    return { ...body, nextPage: Math.min(current + 1, Math.max(total, 1)), prevPage: Math.max(current - 1, 1) };
  },
  /** The wishlist envelope without `skip` and `take`. */
  skipTakeNotEchoed: (body: Envelope) => {
    const { skip: _skip, take: _take, ...rest } = body;
    return rest;
  },
} satisfies Record<string, (body: Envelope) => Envelope>;

/** What a provider answers, and to which request: the rewrites of `REQUEST_BREAKAGES` see and may change it. */
export interface Answer {
  path: string;
  status: number;
  body: unknown;
  /** The Content-Type sent back (the mock's when left out). */
  contentType?: string;
}

/** Ways to break what is not an envelope: the request before it reaches the mock, the errors after. */
export const REQUEST_BREAKAGES = {
  /** The reviews' default limit is 10, not 20: a request without `limit` is sent on with `limit=10`. */
  reviewsDefaultLimit10: {
    query: (path: string, params: URLSearchParams) => {
      if (/^\/store\/(products\/reviews|reviews\/product\/[^/]+)$/.test(path) && !params.has('limit')) params.set('limit', '10');
    },
  },
  /**
   * No error on a listing: a bad parameter (400) or an unknown wishlist (404) is answered 200 with an
   * empty page at the defaults, as a provider that validates nothing would.
   */
  errorsAsEmptyPages: {
    answer: (a: Answer): Answer => {
      if (a.status !== 400 && a.status !== 404) return a;
      if (/^\/store\/(products\/reviews|reviews\/product\/[^/]+)$/.test(a.path)) return { ...a, status: 200, body: { reviews: [], ...reviewsPageMeta(0, 0, 20) } };
      if (/^\/store\/wishlists(\/[^/]+\/items)?$/.test(a.path)) return { ...a, status: 200, body: { data: [], ...wishlistPageMeta(0, 0, 10) } };
      return a;
    },
  },
  /** Listings answered as `text/plain`: the body is the same JSON. */
  textPlain: {
    answer: (a: Answer): Answer => (a.status === 200 ? { ...a, contentType: 'text/plain; charset=utf-8' } : a),
  },
} satisfies Record<string, RequestBreakage>;

export interface RequestBreakage {
  /** Changes the query before the request is sent on to the mock. */
  query?: (path: string, params: URLSearchParams) => void;
  /** Changes the mock's answer (status and parsed body) before it goes back. */
  answer?: (answer: Answer) => Answer;
}

/** Several breakages at once, applied in order. */
export const together =
  (...rewrites: Array<(body: Envelope) => Envelope>) =>
  (body: Envelope): Envelope =>
    rewrites.reduce((b, rewrite) => rewrite(b), body);

/** Request headers not passed on to the mock (the proxy's own connection's). */
const HOP_BY_HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'accept-encoding']);

const passedOn = (headers: Record<string, string | string[] | undefined>) =>
  Object.fromEntries(Object.entries(headers).filter((e): e is [string, string] => typeof e[1] === 'string' && !HOP_BY_HOP.has(e[0])));

/**
 * `dialect`: the mock's (default spec); the alphabite one wants a publishable key and a bearer token,
 * passed on. `request`: a breakage of the request or of the answers that are not envelopes.
 */
export async function startBrokenProvider(rewrite: (body: Envelope) => Envelope, options: { dialect?: 'spec' | 'alphabite'; request?: RequestBreakage } = {}): Promise<BrokenProvider> {
  const backing = await startMockServer({ seed: 1, ...(options.dialect ? { dialect: options.dialect } : {}) });
  const front = await startRewritingFront(backing.url, rewrite, { passHeaders: options.dialect === 'alphabite', ...(options.request ? { request: options.request } : {}) });
  return {
    url: front.url,
    stateHandlers: pactStateHandlers(backing.dataset),
    close: async () => {
      await front.close();
      await backing.close();
    },
  };
}

export interface BrokenFront {
  url: string;
  close(): Promise<void>;
}

/**
 * The same rewrite in front of a backend already running at `upstream` (e.g. the real Medusa of
 * `npm run test:medusa`): every request goes there with its headers (publishable key, bearer token),
 * a JSON envelope comes back rewritten, anything else (provider-state changes included) as it was.
 */
export function startBrokenFront(upstream: string, rewrite: (body: Envelope) => Envelope, options: { request?: RequestBreakage } = {}): Promise<BrokenFront> {
  return startRewritingFront(upstream, rewrite, { passHeaders: true, ...options });
}

async function startRewritingFront(upstream: string, rewrite: (body: Envelope) => Envelope, options: { passHeaders: boolean; request?: RequestBreakage }): Promise<BrokenFront> {
  const app = express();
  app.use(express.raw({ type: () => true, limit: '1mb' }));
  // Every request goes to the backend; a JSON envelope comes back rewritten, anything else as it was.
  app.use(async (req, res) => {
    const url = new URL(req.originalUrl, upstream);
    options.request?.query?.(url.pathname, url.searchParams);
    const answered = await fetch(url, {
      method: req.method,
      headers: { ...(options.passHeaders ? passedOn(req.headers) : {}), 'content-type': req.get('content-type') ?? 'application/json' },
      ...(req.method === 'GET' || req.method === 'HEAD' ? {} : { body: new Uint8Array(req.body as Buffer) }),
    });
    const text = await answered.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const answer = options.request?.answer?.({ path: url.pathname, status: answered.status, body }) ?? { path: url.pathname, status: answered.status, body };
    res.status(answer.status).type(answer.contentType ?? answered.headers.get('content-type') ?? 'application/json');
    res.send(isEnvelope(answer.body) ? JSON.stringify(rewrite(answer.body)) : answer.body === body ? text : JSON.stringify(answer.body));
  });
  const server: Server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeIdleConnections();
      }),
  };
}
