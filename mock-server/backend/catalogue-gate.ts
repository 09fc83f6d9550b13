import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { PUBLISHABLE_KEY_HEADER } from '../../lib/dialects/alphabite.ts';
import { catalogueUnreadBody } from '../helpers/errors.ts';
import { ownsRequest } from './ownership.ts';
import type { BackendCatalogue } from './catalogue.ts';

/**
 * In front of the mock's listener (and its fast path), while a backend's catalogue has not been
 * read (`serve --backend` in the alphabite dialect without `--publishable-key`): a request to the
 * plugins' routes that carries a publishable key has the catalogue read with that key, and waits
 * for it (requests meanwhile share the one read) before it goes on, so that its answer is over the
 * backend's products. When the read fails, it is answered with a 502 in Medusa's error shape that
 * names the backend, and the next such request reads again. Every other request goes on at once: a
 * plugin route without a key gets the plugins' 400 as always. Once the catalogue is read, the gate
 * is one boolean test.
 */
export function withCatalogueGate(listener: RequestListener, catalogue: BackendCatalogue): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    if (catalogue.loaded) return listener(req, res);
    const key = req.headers[PUBLISHABLE_KEY_HEADER];
    if (typeof key !== 'string' || key === '' || !ownedNotAdmin(req)) return listener(req, res);
    catalogue.load(key).then(
      () => listener(req, res),
      (error: unknown) => badGateway(res, error instanceof Error ? error.message : String(error)),
    );
  };
}

/** The mock's own requests (backend/ownership.ts) but the admin API's: the plugins' routes (any case or escape) and /openapi.json. */
function ownedNotAdmin(req: IncomingMessage): boolean {
  const method = req.method as string;
  const url = req.url as string;
  return ownsRequest('serve', method, url) && !ownsRequest('proxy', method, url);
}

/** Medusa's error shape (helpers/errors.ts), status 502. */
function badGateway(res: ServerResponse, reason: string): void {
  if (res.headersSent || res.destroyed) return;
  const body = JSON.stringify(catalogueUnreadBody(reason));
  res.writeHead(502, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}
