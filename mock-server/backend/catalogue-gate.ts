import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { PUBLISHABLE_KEY_HEADER } from '../../lib/dialects/alphabite.ts';
import { catalogueUnreadBody } from '../helpers/errors.ts';
import type { Logger } from '../helpers/logging.ts';
import { keptBody } from '../journal/journal-entry.ts';
import type { Journal } from '../journal/journal.ts';
import { notePassedThrough } from '../journal/passed-through.ts';
import { ownsRequest } from './ownership.ts';
import { CatalogueRefusedError, type BackendCatalogue } from './catalogue.ts';

/** Where the gate's own answers are journaled and logged, as the overlay's are (journal/passed-through.ts). */
export interface GateRecords {
  journal: Journal;
  logger: Logger;
}

/**
 * In front of the mock's listener (and its fast path), while a backend's catalogue has not been
 * read (`serve --backend` in the alphabite dialect without `--publishable-key`): a request to the
 * plugins' routes that carries a publishable key has the catalogue read with that key, and waits
 * for it (requests with the same key meanwhile share the one read; another key's read runs beside
 * it, and the first catalogue read lets them all go on: backend/catalogue.ts) before it goes on, so that its
 * answer is over the backend's products. When the backend refuses the key (a 4xx but 404, with a
 * JSON body: Medusa's 400 `not_allowed`), the request gets that answer, status and body, as it
 * would without the mock; when the read fails otherwise, a 502 in Medusa's error shape that names
 * the backend. Either is journaled and logged as the backend's part of the request (with the read's
 * time, and for a 502 why it failed), and the next such request reads again. Every other request
 * goes on at once: a plugin route without a key gets the plugins' 400 as always. Once the catalogue
 * is read, the gate is one boolean test.
 */
export function withCatalogueGate(listener: RequestListener, catalogue: BackendCatalogue, records: GateRecords): RequestListener {
  return withReadFirst(
    listener,
    {
      readFor: (req) => {
        if (catalogue.loaded) return undefined;
        const key = req.headers[PUBLISHABLE_KEY_HEADER];
        if (typeof key !== 'string' || key === '' || !ownedNotAdmin(req)) return undefined;
        return catalogue.load(key);
      },
      refusalOf: (error) => (error instanceof CatalogueRefusedError ? { status: error.refusal.status, body: error.refusal.body } : undefined),
      failureBody: (reason) => JSON.stringify(catalogueUnreadBody(reason)),
    },
    records,
  );
}

/** What a gate reads before a request goes on, and how its failures are answered. */
export interface ReadGate {
  /** The read this request must wait for; undefined: it goes on at once. */
  readFor(req: IncomingMessage): Promise<void> | undefined;
  /** The backend's own refusal to pass on (status, body), when the read failed with one. */
  refusalOf(error: unknown): { status: number; body: string; contentType?: string | null } | undefined;
  /** The 502's body for a read that failed otherwise, from the reason (one sentence). */
  failureBody(reason: string): string;
}

/**
 * A request the gate must read for waits for that read, then goes on to `listener`; a refused read
 * answers the backend's refusal, a failed one the gate's 502, each journaled and logged as the
 * backend's part of the request (with the read's time, and for a 502 why it failed).
 */
export function withReadFirst(listener: RequestListener, gate: ReadGate, records: GateRecords): RequestListener {
  const logs = records.logger.isLevelEnabled('info');
  return (req: IncomingMessage, res: ServerResponse) => {
    const reading = gate.readFor(req);
    if (!reading) return listener(req, res);
    const arrivedMs = Date.now();
    const stamp = records.journal.arrival();
    const started = performance.now();
    reading.then(
      () => listener(req, res),
      (error: unknown) => {
        const ms = Math.round((performance.now() - started) * 10) / 10;
        const refused = gate.refusalOf(error);
        const reason = error instanceof Error ? error.message : String(error);
        const sent = refused ? answer(res, refused.status, refused.body, refused.contentType) : answer(res, 502, gate.failureBody(reason));
        if (!sent) return;
        notePassedThrough(records.journal, records.logger, logs, {
          arrivedMs,
          stamp,
          method: req.method as string,
          url: req.url as string,
          rawHeaders: req.rawHeaders,
          headers: req.headers,
          requestBytes: Number(req.headers['content-length'] ?? 0) || 0,
          status: sent.status,
          durationMs: Math.round((performance.now() - started) * 10) / 10,
          responseHeaders: sent.headers,
          responseBody: keptBody(sent.body, records.journal.bodyBytes),
          backend: refused ? { ms } : { ms, error: reason },
        });
      },
    );
  };
}

/** The mock's own requests (backend/ownership.ts) but the admin API's: the plugins' routes (any case or escape) and /openapi.json. */
export function ownedNotAdmin(req: IncomingMessage): boolean {
  const method = req.method as string;
  const url = req.url as string;
  return ownsRequest('serve', method, url) && !ownsRequest('proxy', method, url);
}

/** Answers JSON `body` with `status`; what was sent (undefined when the client has gone). */
function answer(res: ServerResponse, status: number, body: string, contentType: string | null = 'application/json; charset=utf-8'): { status: number; headers: string[]; body: string } | undefined {
  if (res.headersSent || res.destroyed) return undefined;
  const headers = [...(contentType ? ['Content-Type', contentType] : []), 'Content-Length', String(Buffer.byteLength(body))];
  res.writeHead(status, headers);
  res.end(body);
  return { status, headers, body };
}
