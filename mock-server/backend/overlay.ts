import { STATUS_CODES, type Agent as HttpAgent, type ClientRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { badGatewayBody, brokenAnswerBody, gatewayTimeoutBody, type ErrorBody } from '../helpers/errors.ts';
import type { Logger } from '../helpers/logging.ts';
import type { Journal } from '../journal/journal.ts';
import { keptBody, pathOf } from '../journal/journal-entry.ts';
import { AnswerTap, holdsTokens, notePassedThrough } from '../journal/passed-through.ts';
import type { BackendAnswerHook, BodySink } from './hooks.ts';
import { backendAgent, freshConnections } from './backend-agent.ts';
import { DEFAULT_BACKEND_TIMEOUT_MS, proxyListener, proxyOptions } from './proxy-options.ts';
import type { FaultInjector } from '../state/faults.ts';
import { withPassFaults } from './pass-faults.ts';
import { backendLabel } from './label.ts';

/**
 * The requests the mock does not answer, passed to the backend and back (`serve --backend`, `proxy`):
 * through the proxy library (proxy-options.ts), with a 502 or 504 in Medusa's error shape when the
 * backend cannot be reached or sends no answer in time, the backend's time and answer in the journal
 * (journal/passed-through.ts), and each answer's body given to the `onBackendAnswer` hook as it
 * streams. Which requests come here is decided in front of Express (front/listener.ts with
 * ownership.ts), so no body parser or CORS header of the mock's touches them; its faults and latency do,
 * when switched on (pass-faults.ts: delayed before forwarding, or answered with the injected error instead).
 *
 * One answer ends its own exchange only, however malformed (issue 35): an answer that breaks off or
 * cannot be read after its head (reset, wrong length, bad chunking) is a 502 while none of it has
 * reached the client, else the client's connection is cut; an answer complete by its own framing
 * is passed on whole, whatever follows it on the connection. A GET or HEAD without a body that
 * fails on a reused pooled connection before any answer (the backend closed it as it was sent, or
 * an earlier answer left bytes on it) is sent once more, on a fresh connection (backend-agent.ts).
 */

export interface OverlayOptions {
  /** The backend's URL (http or https; checked by server.ts). */
  backend: string;
  timeoutMs?: number;
  journal: Journal;
  logger: Logger;
  onBackendAnswer?: BackendAnswerHook | undefined;
  /** The server's fault injection, which acts on passed-through requests too (pass-faults.ts). */
  faults?: FaultInjector | undefined;
}

export interface Overlay {
  /** The backend as banners and errors name it (its URL without a trailing slash). */
  readonly label: string;
  /** Passes one request to the backend and its answer back. */
  passThrough(req: IncomingMessage, res: ServerResponse): void;
  /** Closes the pooled backend connections. */
  close(): void;
}

export { backendLabel } from './label.ts';

/** One passed-through exchange, from its arrival to the end of its answer. */
interface Exchange {
  arrivedMs: number;
  stamp: number;
  started: number;
  /** When the request went to the backend (performance.now()), 0 before. */
  sentAt: number;
  /** From sent to the answer's head, in ms (0.1 ms precision); undefined before the head. */
  backendMs: number | undefined;
  timedOut: boolean;
  error: string | undefined;
  proxyRes: IncomingMessage | undefined;
  tap: AnswerTap | undefined;
  sink: BodySink | undefined;
  /** The mock's own answer (a 502 or 504, or an injected fault): its raw headers and body. */
  own: { headers: string[]; text: string } | undefined;
  requestBytes: number;
  /** Answered by the mock with an injected fault (pass-faults.ts), never sent to the backend. */
  injected: boolean;
  /** The request went on a pooled connection that had carried an exchange before. */
  reused: boolean;
  /** The request was sent again on a fresh connection. */
  retried: boolean;
  /** Which sending of the request is under way (0, then 1 when it was sent again). */
  attempt: number;
  /** The backend's answer broke after its head, and the overlay has ended the client's side (a 502, or the connection cut). */
  broken: boolean;
}

/** The errors of a connection the backend closed (or reset) as the request went on it. */
const STALE_CONNECTION = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

/**
 * A reused connection that is no use for this request: closed or reset as the request went on it, or
 * holding bytes an earlier answer sent past its own length (Node's parser fails, `HPE_...`, before
 * this answer's head: a backend that counts characters, not bytes, and keeps the connection).
 */
function stale(error: Error): boolean {
  const code = String((error as NodeJS.ErrnoException).code);
  return STALE_CONNECTION.has(code) || code.startsWith('HPE_');
}

/** A GET or HEAD without a body: sent again as it was, nothing of it lost. */
function resendable(req: IncomingMessage): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] === undefined && (length === undefined || length === '0');
}

const JSON_TYPE = 'application/json; charset=utf-8';
const round = (ms: number) => Math.round(ms * 10) / 10;

/** Where a request passed through carries its exchange, from its arrival until its answer closes. */
const EXCHANGE = Symbol('store-listing-kit backend exchange');
type Carrier = IncomingMessage & { [EXCHANGE]?: Exchange | undefined };

/**
 * The exchanges in flight, found from their request (what the proxy library's hooks are given): on
 * the request itself, under a symbol, set once when it is passed through and cleared (not deleted,
 * which would give it a slow shape) when its answer closes. Every passed-through request gets the
 * same property at the same point, so they all share one shape.
 *
 * Not a Map keyed by request (issue 36): with a request set and deleted at every exchange, V8
 * rehashes the map's table every few exchanges (deleted entries are only cleared by a rehash), and
 * allocates the new table in the old generation once the table it replaces is there; a replaced
 * table keeps its entries, and a link to its successor, until a mark-compact collects it (V8's
 * ordered-hash-table.cc, `Rehash`). So once one table had been promoted (two young collections while
 * it was in use), every later table was old, and the requests and exchanges set in them, held from
 * the old generation, survived the young collections and were promoted: a process fell into that
 * state or not by chance, and stayed there. Measured side by side (bench, CPU per passed-through
 * request), 4 of 9 servers with the map fell into it (10 % to 60 % dearer, 4 to 10 mark-compacts in
 * 12 s against 1), none of 9 without. (Nor a WeakMap: its entries are ephemerons, which every young
 * collection must trace, measured several times dearer still.)
 */
const exchangesOnRequests = {
  get: (req: IncomingMessage): Exchange | undefined => (req as Carrier)[EXCHANGE],
  set: (req: IncomingMessage, exchange: Exchange): void => void ((req as Carrier)[EXCHANGE] = exchange),
  delete: (req: IncomingMessage): void => void ((req as Carrier)[EXCHANGE] = undefined),
};

export function createOverlay(options: OverlayOptions): Overlay {
  const target = new URL(options.backend);
  const label = backendLabel(options.backend);
  const timeoutMs = options.timeoutMs ?? DEFAULT_BACKEND_TIMEOUT_MS;
  const { journal, logger, onBackendAnswer } = options;
  const logs = logger.isLevelEnabled('info');
  const observing = logs || journal.capacity > 0 || onBackendAnswer !== undefined;
  const agent = backendAgent(target);
  const fresh = freshConnections(target);
  const exchanges = exchangesOnRequests;

  const answerOwn = (req: IncomingMessage, res: ServerResponse, status: number, body: ErrorBody, exchange: Exchange | undefined, extra: string[] = []) => {
    const text = JSON.stringify(body);
    const headers = [...extra, 'Content-Type', JSON_TYPE, 'Content-Length', String(Buffer.byteLength(text))];
    if (exchange) exchange.own = { headers, text };
    // The reason phrase named: the backend's may have been copied onto `res` at its answer's head.
    res.writeHead(status, STATUS_CODES[status] ?? '', headers);
    res.end(req.method === 'HEAD' ? undefined : text);
  };

  /**
   * The backend's answer broke after its head (its body cut, or unreadable): a 502 while the client
   * has had none of it, with the answer unhooked from `res` first (else the library's pipe writes it
   * after the 502's end); else the client's connection is cut.
   */
  const answerBroke = (req: IncomingMessage, res: ServerResponse, exchange: Exchange, proxyRes: IncomingMessage, cause: string) => {
    if (exchange.broken) return;
    exchange.broken = true;
    exchange.error ??= cause;
    proxyRes.unpipe(res);
    proxyRes.destroy();
    if (res.headersSent || res.writableEnded || res.destroyed) return void res.destroy();
    // The library copied the answer's headers onto `res` at its head: they are not the 502's.
    for (const name of Object.keys(proxyRes.headers)) res.removeHeader(name);
    answerOwn(req, res, 502, brokenAnswerBody(label, req.method as string, pathOf(req.url as string), cause), exchange);
  };

  /** The library's error hook, and the close of a backend request that gave neither an answer nor an error. */
  const failed = (error: Error, req: IncomingMessage, res: ServerResponse | Socket): void => {
    const exchange = exchanges.get(req);
    if (!('writeHead' in res)) return void res.destroy();
    const proxyRes = exchange?.proxyRes;
    if (exchange && proxyRes) {
      // After the answer's head. Complete by its own framing: it is passed on whole, and what followed it (bytes past its
      // Content-Length, say) ends only the backend connection, which Node has closed. Else it broke: a 502 or the connection cut.
      if (proxyRes.complete) return void (exchange.error ??= `after its answer: ${causeOf(error)}`);
      return answerBroke(req, res, exchange, proxyRes, describe(error, exchange.timedOut, timeoutMs));
    }
    if (exchange && retriable(exchange, error, req, res)) {
      exchange.retried = true;
      exchange.reused = false;
      exchange.attempt++;
      logger.debug({ method: req.method, url: req.url, err: error }, 'a pooled backend connection was closed under the request: sent again on a fresh one');
      return retry(req, res);
    }
    if (exchange) exchange.error ??= describe(error, exchange.timedOut, timeoutMs);
    if (res.headersSent || res.writableEnded || res.destroyed) return void res.destroy();
    const method = req.method as string;
    const path = pathOf(req.url as string);
    if (exchange?.timedOut) answerOwn(req, res, 504, gatewayTimeoutBody(label, method, path, timeoutMs), exchange);
    // The backend answered, but not in HTTP that can be read (a bad status line or header, no answer at all).
    else if (String((error as NodeJS.ErrnoException).code).startsWith('HPE_')) answerOwn(req, res, 502, brokenAnswerBody(label, method, path, causeOf(error)), exchange);
    else answerOwn(req, res, 502, badGatewayBody(label, method, path, causeOf(error)), exchange);
  };

  /** The proxy over a pool of connections: the kept-alive one, or the fresh connections a request is sent again on. */
  const proxyOver = (pool: HttpAgent) => proxyListener(
    proxyOptions(
      target,
      pool,
      {
        start(req: IncomingMessage) {
          // Counted from here, not before: a 'data' listener added before the library pipes the body would let chunks flow past it.
          const exchange = exchanges.get(req);
          if (exchange && observing && req.headers['content-length'] === undefined && req.headers['transfer-encoding'] !== undefined) {
            req.on('data', (chunk: Buffer) => (exchange.requestBytes += chunk.length));
          }
        },
        request(proxyReq: ClientRequest, req: IncomingMessage, res: ServerResponse) {
          const exchange = exchanges.get(req);
          if (!exchange) return;
          exchange.sentAt = performance.now();
          exchange.reused = proxyReq.reusedSocket;
          proxyReq.once('timeout', () => (exchange.timedOut = true));
          // Ended with neither an answer nor an error: a 101 Switching Protocols, which Node hands to no one (the connection is
          // closed, no 'response'). Without this the client would wait forever.
          const attempt = exchange.attempt;
          proxyReq.once('close', () => {
            if (exchange.attempt !== attempt || exchange.proxyRes !== undefined || res.headersSent || res.writableEnded || res.destroyed) return;
            const status = (proxyReq as ClientRequest & { res?: IncomingMessage | null }).res?.statusCode;
            const error = new Error(status === undefined ? 'it closed the connection without an answer' : `it answered ${status}, which cannot be passed on`);
            (error as NodeJS.ErrnoException).code = 'HPE_NO_ANSWER';
            failed(error, req, res);
          });
        },
        answer(proxyRes: IncomingMessage, req: IncomingMessage, res: ServerResponse) {
          // A write to `res` that fails (it ended or was destroyed) ends this exchange, never the process.
          res.on('error', ignore);
          const exchange = exchanges.get(req);
          if (!exchange) {
            proxyRes.once('close', () => {
              if (!proxyRes.complete) res.destroy();
            });
            return;
          }
          // The backend went after the head (reset, closed short of its length): Node tells `proxyRes`, not the library.
          proxyRes.once('close', () => {
            if (!proxyRes.complete) answerBroke(req, res, exchange, proxyRes, exchange.timedOut ? `the answer stalled for ${timeoutMs} ms` : 'the answer broke off');
          });
          exchange.proxyRes = proxyRes;
          exchange.backendMs = round(performance.now() - (exchange.sentAt || exchange.started));
          // The journal keeps the answer's first bytes (none of an /auth answer, which holds tokens) and counts the rest.
          if (journal.capacity > 0) exchange.tap = new AnswerTap(holdsTokens(req.url as string) ? 0 : journal.bodyBytes);
          if (onBackendAnswer) exchange.sink = openSink(onBackendAnswer, req, proxyRes, exchange.backendMs, logger);
          const { tap, sink } = exchange;
          if (tap || sink) {
            proxyRes.on('data', (chunk: Buffer) => {
              tap?.add(chunk);
              if (exchange.sink) feed(exchange, chunk, logger);
            });
          }
        },
        error: failed,
      },
      timeoutMs,
    ),
  );
  const proxy = proxyOver(agent);
  const retry = proxyOver(fresh);

  // Faults and latency act on what passes through as on the mock's own answers (pass-faults.ts).
  const forward = options.faults
    ? withPassFaults(options.faults, proxy, (req, res, status, body, headers) => {
        const exchange = exchanges.get(req);
        if (exchange) exchange.injected = true;
        answerOwn(req, res, status, body, exchange, headers);
      })
    : proxy;

  const finish = (req: IncomingMessage, res: ServerResponse, exchange: Exchange) => {
    const durationMs = round(performance.now() - exchange.started);
    const { proxyRes, sink } = exchange;
    const complete = res.writableFinished && (proxyRes === undefined || proxyRes.complete);
    // Nothing was sent (the client went first): recorded as nginx does, 499 "client closed request".
    const status = res.headersSent ? res.statusCode : 499;
    const ms = exchange.backendMs ?? (exchange.sentAt ? round(performance.now() - exchange.sentAt) : 0);
    if (!complete && exchange.error === undefined) {
      if (!proxyRes) exchange.error = 'the client went before the answer';
      else exchange.error = exchange.timedOut ? `the answer stalled for ${timeoutMs} ms` : 'the answer did not complete';
    }
    const note = (check?: Awaited<ReturnType<BodySink['end']>>) =>
      notePassedThrough(journal, logger, logs, {
        arrivedMs: exchange.arrivedMs,
        stamp: exchange.stamp,
        method: req.method as string,
        url: req.url as string,
        rawHeaders: req.rawHeaders,
        headers: req.headers,
        requestBytes: exchange.requestBytes,
        status,
        durationMs,
        responseHeaders: exchange.own ? exchange.own.headers : (proxyRes?.rawHeaders ?? []),
        responseBody: exchange.own ? keptBody(exchange.own.text, journal.bodyBytes) : exchange.tap,
        backend: exchange.injected ? undefined : exchange.error === undefined ? { ms } : { ms, error: exchange.error },
        check,
      });
    if (!sink) return note();
    exchange.sink = undefined;
    if (!complete) {
      abortSink(sink, logger);
      return note();
    }
    let ending: Promise<Awaited<ReturnType<BodySink['end']>>>;
    try {
      ending = Promise.resolve(sink.end());
    } catch (error) {
      ending = Promise.reject(error);
    }
    ending.then(note, (error: unknown) => {
      logger.error({ err: error }, 'the backend answer hook failed');
      note();
    });
  };

  return {
    label,
    passThrough(req, res) {
      // Made for every exchange: the error hook needs it to tell a timeout (504) from a refusal (502).
      const exchange: Exchange = {
        arrivedMs: Date.now(),
        stamp: journal.arrival(),
        started: performance.now(),
        sentAt: 0,
        backendMs: undefined,
        timedOut: false,
        error: undefined,
        proxyRes: undefined,
        tap: undefined,
        sink: undefined,
        own: undefined,
        requestBytes: 0,
        injected: false,
        reused: false,
        retried: false,
        attempt: 0,
        broken: false,
      };
      exchanges.set(req, exchange);
      if (!observing) {
        res.once('close', () => exchanges.delete(req));
        return forward(req, res);
      }
      const length = req.headers['content-length'];
      if (length !== undefined) exchange.requestBytes = Number(length) || 0;
      res.once('close', () => {
        exchanges.delete(req);
        finish(req, res, exchange);
      });
      forward(req, res);
    },
    close() {
      agent.destroy();
      fresh.destroy();
    },
  };
}

const ignore = () => {};

/**
 * A request to send again on a fresh connection: a GET or HEAD without a body, not sent again yet,
 * that went on a reused pooled connection and met its close (or reset), or an earlier answer's
 * left-over bytes, before any answer of its own came, while the client has been sent nothing.
 */
function retriable(exchange: Exchange, error: Error, req: IncomingMessage, res: ServerResponse): boolean {
  if (exchange.retried || !exchange.reused || exchange.timedOut || exchange.proxyRes !== undefined) return false;
  if (res.headersSent || res.writableEnded || res.destroyed || req.socket.destroyed) return false;
  return stale(error) && resendable(req);
}

/** Why an exchange failed, for the journal and the log. */
function describe(error: Error, timedOut: boolean, timeoutMs: number): string {
  return timedOut ? `no answer within ${timeoutMs} ms` : causeOf(error);
}

/**
 * An error's own words: `connect ECONNREFUSED 127.0.0.1:9100`. A host name with several addresses
 * (`localhost`: ::1 and 127.0.0.1) fails with an AggregateError without a message: its errors' words.
 */
function causeOf(error: Error): string {
  const inner = (error as Partial<AggregateError>).errors;
  if (Array.isArray(inner) && inner.length > 0) return inner.map((e: unknown) => (e instanceof Error ? causeOf(e) : String(e))).join('; ');
  return error.message || String((error as NodeJS.ErrnoException).code ?? 'unknown error');
}

/** Asks the hook for a sink at the answer's head; a hook that throws watches nothing (and is logged). */
function openSink(hook: BackendAnswerHook, req: IncomingMessage, proxyRes: IncomingMessage, backendMs: number, logger: Logger): BodySink | undefined {
  try {
    return hook({ method: req.method as string, url: req.url as string, requestHeaders: req.headers, status: proxyRes.statusCode ?? 0, responseHeaders: proxyRes.headers, backendMs });
  } catch (error) {
    logger.error({ err: error }, 'the backend answer hook failed');
    return undefined;
  }
}

/** Gives a chunk to the exchange's sink; a sink that throws is aborted and fed no more (the client's answer goes on). */
function feed(exchange: Exchange, chunk: Buffer, logger: Logger): void {
  try {
    exchange.sink?.write(chunk);
  } catch (error) {
    logger.error({ err: error }, 'the backend answer hook failed');
    const sink = exchange.sink;
    exchange.sink = undefined;
    if (sink) abortSink(sink, logger);
  }
}

function abortSink(sink: BodySink, logger: Logger): void {
  try {
    sink.abort();
  } catch (error) {
    logger.error({ err: error }, 'the backend answer hook failed');
  }
}
