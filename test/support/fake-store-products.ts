/**
 * A stand-in for a Medusa backend's `GET /store/products` (the catalogue fetchCatalogue reads):
 * pages by `limit`/`offset` in id order, the publishable key required as Medusa requires it, and
 * the ways a backend fails (an error status, HTML, an answer too large, declared or streamed, no
 * answer at all). Optionally CORS for one origin, as Medusa's STORE_CORS, for a browser page.
 * Any other path answers a JSON body that names this backend, so a request that passed through
 * the MSW handlers shows where it went.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CatalogueInput } from '../../fixtures/catalogue.ts';

export type FakeStoreMode = 'ok' | 'error-500' | 'html' | 'huge-declared' | 'huge-streamed' | 'hang';

export interface FakeStoreProducts {
  readonly url: string;
  readonly key: string;
  /** Every request, in order: method, path and query, headers. */
  readonly requests: Array<{ method: string; url: string; headers: IncomingHttpHeaders }>;
  mode: FakeStoreMode;
  close(): Promise<void>;
}

/** Medusa's messages (its publishable-key middleware) for a store request without a key, and with a key it does not have. */
export const NO_KEY_MESSAGE = 'Publishable API key required in the request header: x-publishable-api-key. You can manage your keys in settings in the dashboard.';
export const WRONG_KEY_MESSAGE = 'A valid publishable key is required to proceed with the request';

export async function startFakeStoreProducts(catalogue: CatalogueInput, options: { key?: string; corsOrigin?: string; hugeBytes?: number } = {}): Promise<FakeStoreProducts> {
  const key = options.key ?? 'pk_fake_store';
  const products = [...catalogue.products].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const hugeBytes = options.hugeBytes ?? 4096;
  const requests: FakeStoreProducts['requests'] = [];
  const cors = (origin: string | undefined): Record<string, string> =>
    options.corsOrigin && origin === options.corsOrigin ? { 'access-control-allow-origin': origin, 'access-control-allow-credentials': 'true', vary: 'Origin' } : {};
  const state = { mode: 'ok' as FakeStoreMode };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    const send = (status: number, body: string, type = 'application/json; charset=utf-8') => {
      res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body), ...cors(req.headers.origin) });
      res.end(body);
    };
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { ...cors(req.headers.origin), 'access-control-allow-methods': 'GET,POST', 'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '' });
      res.end();
      return;
    }
    if (url.pathname !== '/store/products') return send(200, JSON.stringify({ answeredBy: 'the fake backend', method: req.method, path: url.pathname }));
    const sent = req.headers['x-publishable-api-key'];
    if (sent !== key) return send(400, JSON.stringify({ type: 'not_allowed', message: sent ? WRONG_KEY_MESSAGE : NO_KEY_MESSAGE }));
    switch (state.mode) {
      case 'error-500':
        return send(500, JSON.stringify({ code: 'unknown_error', type: 'unknown_error', message: 'An unknown error occurred.' }));
      case 'html':
        return send(200, '<!doctype html><title>Login</title>', 'text/html');
      case 'huge-declared':
        return send(200, JSON.stringify({ products: [], count: 0, padding: 'x'.repeat(hugeBytes) }));
      case 'huge-streamed': {
        // Chunked, no Content-Length: the cap must hold on what arrives. Stops once the client goes.
        res.writeHead(200, { 'content-type': 'application/json', ...cors(req.headers.origin) });
        res.write('{"products":[],"padding":"');
        const chunk = 'x'.repeat(1024);
        const more = () => {
          while (!res.destroyed && res.write(chunk));
          if (!res.destroyed) res.once('drain', more);
        };
        more();
        return;
      }
      case 'hang':
        return; // never answers; close() ends the connection
      default: {
        const limit = Number(url.searchParams.get('limit') ?? 50);
        const offset = Number(url.searchParams.get('offset') ?? 0);
        return send(200, JSON.stringify({ products: products.slice(offset, offset + limit), count: products.length, offset, limit }));
      }
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    key,
    requests,
    get mode() {
      return state.mode;
    },
    set mode(mode) {
      state.mode = mode;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
