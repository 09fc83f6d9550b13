import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { Coordinator } from '../state/coordination.ts';
import type { ListingAnswers } from '../listings/answers.ts';
import { REVIEW_BODY_LIMIT, type RawBody } from '../writes/medusa-body.ts';
import { isPluginPath, routeWrite, specWriteRefusal, type WriteContext } from '../writes/routes.ts';
import type { WishlistSettings, WriteAnswer } from '../writes/types.ts';
import { queryPairs } from '../../lib/query.ts';
import { ENDPOINT_NAMES, PATHS } from '../../lib/api-rules.ts';
import { REASON_HEADER } from '../../lib/write-reason.ts';

/**
 * The write routes over HTTP: a thin Express adapter around the platform-neutral core
 * (mock-server/writes/routes.ts). A write goes through the coordinator (mock-server/state/coordination.ts),
 * like an admin change: every process of a cluster applies it in the same order, with the time
 * stamped here, and this process answers with what its own store answered. Mounted after the
 * listings, so a listing never reaches it; a request it does not know goes on to the 404.
 */
export interface WriteRoutesOptions {
  answers: ListingAnswers;
  coordinator: Coordinator;
  settings: WishlistSettings;
  /** The wishlist plugin's option `shareTokenSecret` ('' : left out, as the plugin's default options). */
  shareTokenSecret: string;
  /** add-item's lookup of a variant the dataset does not know (a backend's catalogue read again: backend/catalogue.ts). */
  findVariant?: WriteContext['findVariant'];
}

const JSON_TYPE = 'application/json; charset=utf-8';

function send(res: Response, answer: WriteAnswer & { headers?: Record<string, string> }): void {
  res.status(answer.status);
  for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
  // Set before the answer goes out: the journal records the headers as sent (journal/observe.ts).
  if (answer.reason !== undefined) res.setHeader(REASON_HEADER, answer.reason);
  if (answer.body === null) res.end();
  else res.type(JSON_TYPE).send(answer.body);
}

/** As the `type-is` package decides it: a chunked body, or a Content-Length above 0. */
const hasBody = (req: Request) => req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

/** The request's body as bytes, up to the largest any route takes; past it, `truncated` (the routes answer the 413). */
function rawBody(): (req: Request, res: Response) => Promise<RawBody | undefined> {
  const parse = express.raw({ type: () => true, limit: REVIEW_BODY_LIMIT });
  return (req, res) =>
    new Promise((resolve, reject) => {
      if (!hasBody(req)) return resolve(undefined);
      parse(req, res, (error?: unknown) => {
        const contentType = req.headers['content-type'];
        if ((error as { type?: string } | undefined)?.type === 'entity.too.large') return resolve({ text: '', contentType, bytes: REVIEW_BODY_LIMIT + 1, truncated: true });
        if (error) return reject(error);
        const bytes = Buffer.isBuffer(req.body) ? (req.body as Buffer) : Buffer.alloc(0);
        resolve({ text: bytes.toString('utf8'), contentType, bytes: bytes.length });
      });
    });
}

const LISTING_PATTERNS = ENDPOINT_NAMES.map((endpoint) => new RegExp(`^${PATHS[endpoint].replace(/:[a-z_]+/g, '[^/]+')}/?$`));

export function writeRoutes({ answers, coordinator, settings, shareTokenSecret, findVariant }: WriteRoutesOptions): RequestHandler {
  const read = rawBody();
  const { dialect } = answers;
  const store = answers.holder.writes;
  store.dialect = dialect;
  return (req: Request, res: Response, next: NextFunction) => {
    const path = req.path;
    if (!path.startsWith('/store/') && path !== '/store') return next();
    if (dialect.name !== 'alphabite') {
      if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS' || !isPluginPath(path)) return next();
      return send(res, specWriteRefusal(req.method, path, LISTING_PATTERNS.some((pattern) => pattern.test(path))));
    }
    void (async () => {
      const body = await read(req, res);
      const bodies = answers.bodies(answers.customerOf(req.headers));
      const ctx: WriteContext = { dataset: bodies.dataset, dialect, store, settings, aggregate: (id) => bodies.aggregateOf(id), shareTokenSecret, now: Date.now, ...(findVariant ? { findVariant } : {}) };
      const outcome = await routeWrite(ctx, { method: req.method, path, query: queryPairs(req.originalUrl), headers: req.headers, body });
      if (!outcome) return next();
      if ('answer' in outcome) return send(res, outcome.answer);
      const { token, answer } = store.expect();
      try {
        await coordinator.apply({ kind: 'write', command: outcome.command, at: Date.now(), token });
      } catch (error) {
        store.abandon(token);
        throw error;
      }
      send(res, await answer);
    })().catch(next);
  };
}
