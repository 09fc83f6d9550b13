/**
 * A backend that answers `GET /store/products` as Medusa does (`{ products, count, offset, limit }`,
 * in id order, the publishable key required), for the tests of the mock's catalogue from a backend
 * (mock-server/backend/catalogue.ts), and a customer's login (`POST /auth/customer/emailpass`). It counts and keeps the requests it gets; `failing` makes it
 * answer Medusa's 500 instead. Listens on port 0.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CatalogueProductInput } from '../../fixtures/catalogue.ts';

export interface FakeCatalogueBackend {
  readonly url: string;
  /** The products it lists (change it to change the catalogue). */
  products: CatalogueProductInput[];
  /** The publishable key it takes. */
  key: string;
  /** Answer every request with Medusa's 500. */
  failing: boolean;
  /** How it refuses a key it does not take (default: Medusa's 400 `not_allowed`); a string body is sent as it is, as text/html. */
  refuseWith: { status: number; body: unknown } | undefined;
  /** The requests it got, in order: path and query, and the key sent. */
  readonly requests: Array<{ url: string; key: string | undefined; offset: number; limit: number }>;
  close(): Promise<void>;
}

const send = (res: import('node:http').ServerResponse, status: number, body: unknown) => {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
};

/** The token the fake backend's login (`POST /auth/customer/emailpass`) gives: a JWT whose `actor_id` is `cus_fake`, unsigned. */
export const FAKE_CUSTOMER_TOKEN = [{ alg: 'HS256', typ: 'JWT' }, { actor_id: 'cus_fake', actor_type: 'customer' }].map((part) => Buffer.from(JSON.stringify(part)).toString('base64url')).join('.') + '.fake';

/** `n` products `prod_<label>NNNN`, each with `variants` variants `variant_<label>NNNN_v`. */
export function fakeProducts(n: number, variants = 2, label = 'SHOP'): CatalogueProductInput[] {
  return Array.from({ length: n }, (_, i) => {
    const id = `${label}${String(i).padStart(4, '0')}`;
    return {
      id: `prod_${id}`,
      title: `Product ${i}`,
      handle: `product-${label.toLowerCase()}-${i}`,
      thumbnail: i % 3 === 0 ? null : `https://cdn.shop.test/${id}.png`,
      variants: Array.from({ length: variants }, (_, v) => ({ id: `variant_${id}_${v}`, title: `Size ${v}`, sku: `SKU-${id}-${v}` })),
    };
  });
}

export async function startFakeCatalogueBackend(products: CatalogueProductInput[], key = 'pk_shop'): Promise<FakeCatalogueBackend> {
  const state = { products, key, failing: false, refuseWith: undefined as FakeCatalogueBackend['refuseWith'], requests: [] as FakeCatalogueBackend['requests'] };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://backend.test');
    // A customer's login, as Medusa's emailpass answers it (kept out of `requests`): a token for `cus_fake`.
    if (url.pathname === '/auth/customer/emailpass' && req.method === 'POST') return send(res, 200, { token: FAKE_CUSTOMER_TOKEN });
    // The plugins' routes: this backend has none (a 404, as Medusa answers a route it lacks), so the mock
    // falls back to data over the catalogue; kept out of `requests`, which count the catalogue's reads.
    if (/^\/store\/(wishlists|reviews|products\/reviews)(\/|$)/.test(url.pathname)) return send(res, 404, { type: 'not_found', message: `Cannot ${req.method} ${url.pathname}` });
    const sent = req.headers['x-publishable-api-key'];
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const limit = Number(url.searchParams.get('limit') ?? 50);
    state.requests.push({ url: req.url ?? '/', key: typeof sent === 'string' ? sent : undefined, offset, limit });
    if (state.failing) return send(res, 500, { type: 'unknown_error', message: 'An unknown error occurred.' });
    if (url.pathname !== '/store/products' || req.method !== 'GET') return send(res, 404, { type: 'not_found', message: `Cannot ${req.method} ${url.pathname}` });
    if (sent !== state.key) {
      const refusal = state.refuseWith;
      if (refusal && typeof refusal.body === 'string') {
        res.writeHead(refusal.status, { 'content-type': 'text/html', 'content-length': Buffer.byteLength(refusal.body) });
        return res.end(refusal.body);
      }
      if (refusal) return send(res, refusal.status, refusal.body);
      return send(res, 400, { type: 'not_allowed', message: "A valid publishable key is required to proceed with the request" });
    }
    const sorted = [...state.products].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    send(res, 200, { products: sorted.slice(offset, offset + limit), count: sorted.length, offset, limit });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  }) as FakeCatalogueBackend;
}
