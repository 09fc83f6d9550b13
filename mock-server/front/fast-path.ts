import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import fresh from 'fresh';
import type { Ops } from '../state/ops.ts';
import { corsHeaders, type CorsPolicy } from '../helpers/cors-policy.ts';
import { journalUrl, keptHead } from '../journal/journal-entry.ts';
import { customerOf } from '../../lib/customers.ts';
import { JSON_TYPE, type KeptAnswer, type ListingAnswers } from '../listings/answers.ts';

/**
 * In front of the Express app, at the `http.Server` level: a GET or HEAD whose answer is already
 * kept for the current dataset version goes out at once, with the kept bytes and exactly the
 * headers Express would send (the `cors` package's, Content-Type, ETag, Content-Length; a 304 for
 * a fresh `If-None-Match`, judged by the `fresh` package as Express judges it; HEAD without body).
 * The journal records it as Express's observer would, by reference: the raw headers Node parsed,
 * the header array and the kept bytes sent, the page facts kept with the answer.
 *
 * Everything else goes to Express: any other method, an answer not kept yet, a request the
 * dialect's guard refuses, and every request while fault injection is on or requests are logged
 * (`info`), so faults, logs, CORS preflights, the admin API and provider states keep their meaning.
 * test/fast-path.test.ts sends the suites' valid and hostile requests with the fast path on and
 * off and finds the same status, headers (bar Date) and bytes.
 */
export interface FastPathOptions {
  answers: ListingAnswers;
  cors: CorsPolicy;
  ops: Ops;
}

export function withFastPath(app: RequestListener, { answers, cors, ops }: FastPathOptions): RequestListener {
  const { dialect } = answers;
  // The level is fixed when the server starts; faults can be switched on at run time.
  const logsRequests = ops.logger.isLevelEnabled('info');
  const sameForAll = cors.origins === '*';
  const corsOf = (req: IncomingMessage) => corsHeaders(cors, req.headers.origin).flat();
  const entityHeaders = (hit: KeptAnswer) => ['Content-Type', JSON_TYPE, 'ETag', hit.etag, 'Content-Length', String(hit.bytes.length)];
  const okHeaders = new WeakMap<KeptAnswer, string[]>();
  const keepHeaders = (hit: KeptAnswer) => {
    const headers = [...corsHeaders(cors, undefined).flat(), ...entityHeaders(hit)];
    okHeaders.set(hit, headers);
    return headers;
  };
  return (req: IncomingMessage, res: ServerResponse) => {
    const method = req.method;
    if ((method !== 'GET' && method !== 'HEAD') || logsRequests || ops.faults.active) return app(req, res);
    const url = req.url as string;
    const hit = answers.kept(answers.keyOf(url, req.headers));
    if (!hit || dialect.guard({ endpoint: hit.endpoint, ...(hit.id === undefined ? {} : { id: hit.id }), query: [], headers: req.headers })) return app(req, res);

    const started = performance.now();
    const arrived = Date.now();
    const stamp = ops.journal.arrival();
    let status = 200;
    let sent: string[];
    if ((req.headers['if-none-match'] !== undefined || req.headers['if-modified-since'] !== undefined) && fresh(req.headers, { etag: hit.etag })) {
      status = 304;
      sent = [...corsOf(req), 'ETag', hit.etag];
      res.writeHead(status, sent);
      res.end();
    } else {
      // With any origin allowed, an answer's headers are the same for every request: made once.
      sent = sameForAll ? (okHeaders.get(hit) ?? keepHeaders(hit)) : [...corsOf(req), ...entityHeaders(hit)];
      res.writeHead(status, sent);
      if (method === 'HEAD') res.end();
      else res.end(hit.bytes);
    }
    ops.stats.fastPathAnswers++;
    const { journal } = ops;
    if (journal.capacity > 0) {
      const head = keptHead(req.rawHeaders);
      const cut = head !== req.rawHeaders;
      journal.record(
        {
          arrivedMs: arrived,
          method,
          url: journalUrl(url),
          status,
          durationMs: Math.round((performance.now() - started) * 10) / 10,
          requestHeaders: head,
          headersCut: cut,
          customer: cut ? (customerOf(req.headers)?.id ?? null) : undefined,
          responseHeaders: sent,
          responseBody: status === 304 || method === 'HEAD' ? undefined : journal.keptAnswer(hit.bytes),
          page: hit.page,
        },
        stamp,
      );
    }
  };
}
