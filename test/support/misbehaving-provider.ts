/**
 * A provider that misbehaves in one way, on every path (the listings and
 * `POST /__admin/provider-states` alike): the things a real backend does on a bad day, which
 * `check` and `verify` must turn into one clear verdict instead of a crash, a hang or a flood.
 * A tiny node:http server, so that nothing of the kit's own server can hide a misbehaviour.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { AddressInfo, Socket } from 'node:net';
import { pageLength, reviewsEnvelope, wishlistEnvelope } from '../../lib/paging.ts';

export const MODES = ['html', 'truncated-json', 'huge-array', 'drip', 'reset', 'always-500', 'redirect-loop', 'wrong-types', 'json-array', 'endless', 'huge-length', 'gzip-bomb'] as const;
export type Mode = (typeof MODES)[number];

export interface MisbehavingProvider {
  url: string;
  mode: Mode;
  close(): Promise<void>;
}

export const HUGE_COUNT = 200_000;
const DRIP_INTERVAL_MS = 500;

const isWishlistPath = (path: string) => path.startsWith('/store/wishlists');

/** A plausible envelope for the path (reviews or wishlist dialect), numbers from lib/paging.ts as the query asks. */
function envelope(path: string, query: URLSearchParams, count: number, records: (i: number) => unknown): Record<string, unknown> {
  const wishlists = isWishlistPath(path);
  const size = Math.max(1, Number(query.get(wishlists ? 'take' : 'limit') ?? (wishlists ? 10 : 20)) || 10);
  const start = Math.max(0, Number(query.get(wishlists ? 'skip' : 'offset') ?? 0) || 0);
  const page = Array.from({ length: pageLength(count, start, size) }, (_, i) => records(start + i));
  return { ...(wishlists ? wishlistEnvelope(page, count, start, size) : reviewsEnvelope(page, count, start, size)) };
}

/** A valid review record of index `i` (its title given, or none). */
export const reviewRecord = (i: number, title: string | null = null) => ({
  id: `rev_${String(i).padStart(6, '0')}`,
  product_id: 'prod_1',
  title,
  content: 'Fine.',
  rating: 4,
  image_urls: [],
  is_verified_purchase: true,
  customer: { first_name: 'Ada', last_name: 'Lovelace' },
  created_at: '2024-01-01T00:00:00.000Z',
  updated_at: '2024-01-01T00:00:00.000Z',
});

/** Every number in a JSON value, turned into a string ("12" instead of 12). */
function numbersAsStrings(value: unknown): unknown {
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return value.map(numbersAsStrings);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, numbersAsStrings(v)]));
  return value;
}

/**
 * The 200,000 records of `huge-array`, whatever the query: a page far larger than asked, with a
 * consistent `count`. Records are tiny ({"id":...}), so one answer is a few megabytes, built once.
 */
let hugeBodies: { reviews: string; wishlists: string } | undefined;
function hugeBody(path: string): string {
  hugeBodies ??= (() => {
    const ids = (prefix: string) => Array.from({ length: HUGE_COUNT }, (_, i) => `{"id":"${prefix}${i}"}`).join(',');
    const paging = `"count":${HUGE_COUNT},"totalPages":1,"currentPage":1`;
    return {
      reviews: `{"reviews":[${ids('rev_')}],${paging},"limit":${HUGE_COUNT},"offset":0,"nextPage":null,"prevPage":null}`,
      wishlists: `{"data":[${ids('wl_')}],${paging},"skip":0,"take":${HUGE_COUNT}}`,
    };
  })();
  return isWishlistPath(path) ? hugeBodies.wishlists : hugeBodies.reviews;
}

/** Bytes written at a time by the modes that never stop. */
const FLOOD_CHUNK = Buffer.alloc(64 * 1024, ' ');

/** Writes FLOOD_CHUNK as fast as the client reads it, until the client goes. */
function flood(res: ServerResponse, start: string): void {
  res.write(start);
  const more = () => {
    while (!res.destroyed && res.write(FLOOD_CHUNK));
  };
  res.on('drain', more);
  more();
}

/** A gzip bomb: 64 gzip members of 16 MiB of spaces each, about 1 MB that inflates to 1 GiB (gunzip reads every member). */
export const BOMB_INFLATED_BYTES = 64 * 16 * 1024 * 1024;
let bomb: Buffer | undefined;
function gzipBomb(): Buffer {
  bomb ??= (() => {
    const member = gzipSync(Buffer.alloc(16 * 1024 * 1024, ' '), { level: 9 });
    return Buffer.concat(Array.from({ length: 64 }, () => member));
  })();
  return bomb;
}

function json(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function handle(mode: Mode, req: IncomingMessage, res: ServerResponse, drips: Set<NodeJS.Timeout>): void {
  const url = new URL(req.url ?? '/', 'http://provider.invalid');
  switch (mode) {
    case 'html': {
      const page = '<!doctype html><html><head><title>Welcome</title></head><body><h1>It works!</h1></body></html>';
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(page);
      return;
    }
    case 'truncated-json': {
      const whole = JSON.stringify(envelope(url.pathname, url.searchParams, 12, reviewRecord));
      // A complete HTTP answer whose JSON stops half-way (a proxy's buffer limit, a crashed serializer).
      json(res, 200, whole.slice(0, Math.floor(whole.length / 2)));
      return;
    }
    case 'huge-array':
      json(res, 200, hugeBody(url.pathname));
      return;
    case 'drip': {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      const body = JSON.stringify(envelope(url.pathname, url.searchParams, 12, reviewRecord));
      let sent = 0;
      const timer = setInterval(() => {
        if (sent < body.length) res.write(body[sent++]!);
      }, DRIP_INTERVAL_MS);
      drips.add(timer);
      res.on('close', () => {
        clearInterval(timer);
        drips.delete(timer);
      });
      return;
    }
    case 'reset':
      // Unreachable: the connection handler resets every socket before a request is read.
      req.socket.resetAndDestroy();
      return;
    case 'always-500':
      json(res, 500, JSON.stringify({ type: 'unknown_error', message: 'An unknown error occurred.' }));
      return;
    case 'redirect-loop':
      res.writeHead(302, { location: req.url ?? '/' });
      res.end();
      return;
    case 'wrong-types':
      json(res, 200, JSON.stringify(numbersAsStrings(envelope(url.pathname, url.searchParams, 12, reviewRecord))));
      return;
    case 'json-array':
      json(res, 200, url.pathname.startsWith('/store/') ? '[1,2]' : '[]');
      return;
    case 'endless':
      // A body that never ends, sent as fast as it is read (chunked).
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      flood(res, '{"reviews":["');
      return;
    case 'huge-length':
      // A 10 GB Content-Length, filled as fast as it is read.
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': '10000000000' });
      flood(res, '{"reviews":["');
      return;
    case 'gzip-bomb': {
      const body = gzipBomb();
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-encoding': 'gzip', 'content-length': body.length });
      res.end(body);
      return;
    }
  }
}

export async function startMisbehavingProvider(mode: Mode): Promise<MisbehavingProvider> {
  const drips = new Set<NodeJS.Timeout>();
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    // Read (and drop) any request body, so that a POST is answered like a GET.
    req.resume();
    handle(mode, req, res, drips);
  });
  server.on('connection', (socket) => {
    if (mode === 'reset') {
      socket.resetAndDestroy();
      return;
    }
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    mode,
    close: async () => {
      for (const timer of drips) clearInterval(timer);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
