/**
 * The one HTTP client through which the kit reads a server under test: `check`'s GETs
 * (properties/transport.ts), `verify`'s preflight and forwarded state calls and `fixtures --from`'s
 * pages (client/exchange.ts). undici 7 (Node's own fetch is built on it) with kept-alive
 * connections pooled per origin, and the bounds a tester needs against a provider that misbehaves:
 * - a deadline for the whole answer (head and body), and undici's own time limits for the head and
 *   for each wait within the body;
 * - a cap on a body's bytes, as received and after decompression: an answer over it is refused as
 *   soon as it is seen to be (a Content-Length over it, or the byte past it), and decompression
 *   (gzip, deflate, br) stops at the cap, so memory is bounded by the cap in every case;
 * - redirects followed as fetch follows them (at most 20): a 303, and a 301 or 302 after a POST,
 *   become a GET without a body (and without the headers that describe one), and a redirect to
 *   another origin sends none of the credentials (`authorization`, `cookie`, `proxy-authorization`,
 *   the publishable key) given for the first one;
 * - every failure as a NoAnswerError of one sentence.
 */
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { Agent, type Dispatcher } from 'undici';
import { PUBLISHABLE_KEY_HEADER } from '../lib/dialects/alphabite.ts';
import { NoAnswerError } from '../lib/http.ts';
import { DEFAULT_MAX_BODY_BYTES, sizeText } from './sizes.ts';
export { DEFAULT_MAX_BODY_BYTES, MAX_MAX_BODY_BYTES, MIN_MAX_BODY_BYTES, parseSize, sizeText } from './sizes.ts';

export { NoAnswerError };

/** fetch's limit of redirects ("redirect count exceeded" past it). */
const MAX_REDIRECTS = 20;

/**
 * The request headers that are the first origin's credentials, sent to no other origin a redirect
 * leads to: fetch's (undici drops `authorization`, `proxy-authorization` and `cookie` on a redirect
 * across origins), and Medusa's publishable key, which opens a store's sales channels.
 */
export const ORIGIN_CREDENTIAL_HEADERS: ReadonlySet<string> = new Set(['authorization', 'proxy-authorization', 'cookie', PUBLISHABLE_KEY_HEADER]);

/** The headers that describe a request body, dropped with it when a redirect turns the request into a GET (fetch's "request-body-header names"). */
const REQUEST_BODY_HEADERS: ReadonlySet<string> = new Set(['content-encoding', 'content-language', 'content-location', 'content-type']);

/** How a request is bounded. */
export interface ReadLimits {
  /** The whole answer, head and body, within this many milliseconds. */
  timeoutMs: number;
  /** A body of more bytes than this (as received, or decompressed) is refused; default DEFAULT_MAX_BODY_BYTES. */
  maxBodyBytes?: number;
  /** Ends the request when aborted: a NoAnswerError that says it was stopped. */
  signal?: AbortSignal;
}

/** An answer whose body is over `maxBodyBytes` (ReadLimits): a NoAnswerError that says so, and the cap. */
export class BodyOverCapError extends NoAnswerError {
  constructor(
    url: string,
    readonly maxBodyBytes: number,
  ) {
    super(url, overCap(url, maxBodyBytes));
  }
}


/** An answer as received: its body's bytes not yet decoded (`encoding` says how they are encoded). */
export interface RawAnswer {
  status: number;
  /** By lower-case name; a header sent more than once is joined with ', ' (as node:http joins them). */
  headers: Record<string, string>;
  raw: Buffer;
  encoding: string | undefined;
  /** The URL that answered: the one asked, or where its redirects led. */
  finalUrl: string;
}

export interface RequestSpec {
  method?: 'GET' | 'POST' | 'DELETE';
  /** Request headers (names as given). */
  headers?: Record<string, string>;
  /** A request body, sent as it is. */
  body?: string;
}

/** The sentence of an answer over the cap. */
export const overCap = (url: string, maxBodyBytes: number) => `${url}: the answer is over the ${sizeText(maxBodyBytes)} cap on a body (--max-body raises it)`;

/**
 * Kept-alive connections, a pool per origin. Idle sockets do not keep the process alive. The head
 * and body time limits are set per request (the request's own timeout).
 */
const agent = new Agent({ keepAliveTimeout: 4_000, keepAliveMaxTimeout: 60_000, connect: { noDelay: true } });

const reasonOf = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error && cause.message ? cause.message : error.message;
};

/** OpenSSL's words for a TLS handshake answered by a server that speaks plain HTTP. */
const NOT_TLS = /wrong version number|packet length too long|unknown protocol|http request/i;
const codeOf = (error: unknown): string | undefined => {
  const own = (error as { code?: unknown } | undefined)?.code;
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  return typeof own === 'string' ? own : typeof cause === 'string' ? cause : undefined;
};

/** The sentence of a request that got no head. */
function unreachable(url: string, target: URL, error: unknown): string {
  const reason = reasonOf(error);
  if (target.protocol === 'https:' && (NOT_TLS.test(reason) || /^ERR_SSL_(WRONG_VERSION_NUMBER|PACKET_LENGTH_TOO_LONG)$/.test(codeOf(error) ?? ''))) {
    return `cannot reach ${url}: the server at ${target.origin} does not speak TLS (is it plain http://?)`;
  }
  return `cannot reach ${url}: ${reason}`;
}

/**
 * Sends one request and reads its whole answer within the limits, following redirects; the body's
 * bytes are as received (see decodeBody). Rejects with a NoAnswerError, or with a TypeError for a
 * request that cannot be sent as asked (a header value undici refuses), as fetch does.
 */
export function request(url: string, limits: ReadLimits, spec: RequestSpec = {}, onSettled?: () => void): Promise<RawAnswer> {
  const maxBodyBytes = limits.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const { timeoutMs } = limits;
  return new Promise<RawAnswer>((resolve, reject) => {
    let settled = false;
    let answering = false;
    let abort: ((reason: Error) => void) | undefined;
    /** Stops listening to limits.signal. */
    let detach: (() => void) | undefined;
    const end = (error: Error | undefined, answer?: RawAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      detach?.();
      onSettled?.();
      if (error) {
        abort?.(error);
        reject(error);
      } else resolve(answer!);
    };
    const fail = (message: string) => end(new NoAnswerError(url, message));
    const bodyLate = () => `${url}: the server did not finish its answer within ${timeoutMs} ms (it sent the headers, then too little of the body)`;
    // A timer of our own: it keeps the process alive, so a connection that never settles still ends the run.
    const timer = setTimeout(() => fail(answering ? bodyLate() : `cannot reach ${url}: no answer within ${timeoutMs} ms`), timeoutMs);

    const send = (target: URL, method: string, body: string | undefined, sentHeaders: Record<string, string> | undefined, redirects: number) => {
      if (target.protocol !== 'http:' && target.protocol !== 'https:') return fail(`cannot reach ${url}: redirected to ${target.protocol} (only http and https)`);
      answering = false;
      abort = undefined;
      let status = 0;
      let headers: Record<string, string> | undefined;
      let chunks: Buffer[] = [];
      let bytes = 0;
      /** This request was left for a redirect's target: nothing more of it counts. */
      let left = false;
      const handler: Dispatcher.DispatchHandler = {
        onRequestStart(c) {
          abort = (reason) => c.abort(reason);
          if (settled) c.abort(new Error('settled'));
        },
        onResponseStart(c, statusCode, rawHeaders) {
          if (settled || left) return;
          status = statusCode;
          headers = joinHeaders(rawHeaders);
          const location = headers.location;
          if (statusCode >= 300 && statusCode < 400 && statusCode !== 304 && location !== undefined) {
            // A redirect: its body is not read, and its head does not count as the answer's.
            let next: URL;
            try {
              next = new URL(location, target);
            } catch {
              return fail(`cannot reach ${url}: redirected to an invalid URL '${location}'`);
            }
            if (redirects >= MAX_REDIRECTS) return fail(`cannot reach ${url}: redirect count exceeded`);
            // As fetch: 303, and 301/302 after a POST, become a GET without a body.
            const asGet = statusCode === 303 ? method !== 'HEAD' : (statusCode === 301 || statusCode === 302) && method === 'POST';
            abort = undefined;
            left = true;
            c.abort(new Error('redirected'));
            return send(next, asGet ? 'GET' : method, asGet ? undefined : body, redirectedHeaders(sentHeaders, target, next, asGet), redirects + 1);
          }
          answering = true;
          const length = headers['content-length'];
          if (length !== undefined && /^\d+$/.test(length) && Number(length) > maxBodyBytes) end(new BodyOverCapError(url, maxBodyBytes));
        },
        onResponseData(_c, chunk) {
          if (settled || left || !answering) return;
          bytes += chunk.length;
          if (bytes > maxBodyBytes) {
            chunks = [];
            return end(new BodyOverCapError(url, maxBodyBytes));
          }
          chunks.push(chunk);
        },
        onResponseEnd() {
          if (settled || left || !answering) return;
          const raw = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, bytes);
          end(undefined, { status, headers: headers!, raw, encoding: headers!['content-encoding'], finalUrl: target.href });
        },
        onResponseError(_c, error) {
          if (settled || left) return;
          const name = (error as Error | undefined)?.name;
          if (name === 'HeadersTimeoutError') return fail(`cannot reach ${url}: no answer within ${timeoutMs} ms`);
          if (name === 'BodyTimeoutError') return fail(bodyLate());
          if (answering) return fail(`${url}: the answer broke off mid-body (${reasonOf(error)})`);
          fail(unreachable(url, target, error));
        },
      };
      try {
        agent.dispatch(
          {
            origin: target.origin,
            path: `${target.pathname}${target.search}`,
            method: method as Dispatcher.HttpMethod,
            headers: requestHeaders(target, sentHeaders, body !== undefined),
            ...(body === undefined ? {} : { body }),
            headersTimeout: timeoutMs,
            bodyTimeout: timeoutMs,
          },
          handler,
        );
      } catch (error) {
        if (redirects > 0) return fail(`cannot reach ${url}: ${reasonOf(error)}`);
        end(error instanceof Error ? error : new Error(String(error)));
      }
    };

    let first: URL;
    try {
      first = new URL(url);
    } catch {
      return fail(`cannot reach ${url}: invalid URL`);
    }
    const { signal } = limits;
    if (signal) {
      if (signal.aborted) return fail(stopped(url));
      const onAbort = () => fail(stopped(url));
      signal.addEventListener('abort', onAbort, { once: true });
      detach = () => signal.removeEventListener('abort', onAbort);
    }
    send(first, spec.method ?? 'GET', spec.body, spec.headers, 0);
  });
}

const stopped = (url: string) => `cannot reach ${url}: the request was stopped`;

/**
 * The headers sent on after a redirect from `from` to `to`, as fetch's "HTTP-redirect fetch" does:
 * without those that describe a body when the request became a GET, and without the first
 * origin's credentials (ORIGIN_CREDENTIAL_HEADERS) when `to` is of another origin (scheme, host
 * or port). Once dropped they stay dropped, also on a redirect back.
 */
export function redirectedHeaders(headers: Record<string, string> | undefined, from: URL, to: URL, asGet: boolean): Record<string, string> | undefined {
  if (headers === undefined) return undefined;
  const crossOrigin = from.origin !== to.origin;
  if (!crossOrigin && !asGet) return headers;
  const kept: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (crossOrigin && ORIGIN_CREDENTIAL_HEADERS.has(lower)) continue;
    if (asGet && REQUEST_BODY_HEADERS.has(lower)) continue;
    kept[name] = value;
  }
  return kept;
}

/** The headers sent: `accept: application/json` unless `headers` say otherwise; credentials of the URL as basic auth. */
function requestHeaders(target: URL, headers: Record<string, string> = {}, json: boolean): Record<string, string> {
  const names = new Set(Object.keys(headers).map((name) => name.toLowerCase()));
  const sent: Record<string, string> = Object.create(null) as Record<string, string>;
  if (!names.has('accept')) sent.accept = 'application/json';
  if (json && !names.has('content-type')) sent['content-type'] = 'application/json';
  if ((target.username || target.password) && !names.has('authorization')) {
    sent.authorization = `Basic ${Buffer.from(`${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}`).toString('base64')}`;
  }
  for (const [name, value] of Object.entries(headers)) sent[name] = value;
  return sent;
}

/** undici's headers (a value per name, an array for a name sent more than once), each joined as node:http joins them. */
function joinHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const name of Object.keys(headers)) {
    const value = headers[name];
    if (value !== undefined) out[name] = Array.isArray(value) ? value.map(withoutOws).join(', ') : withoutOws(value);
  }
  return out;
}

/** A header's value without the spaces and tabs around it (what HTTP calls optional whitespace), as node:http reads it. */
const withoutOws = (value: string) => value.replace(/^[\t ]+|[\t ]+$/g, '');

/**
 * A body's text: decompressed as `encoding` says (gzip, deflate, br; anything else is read as it
 * is), never past `maxBodyBytes` of output (zlib stops there). Throws a NoAnswerError that names the
 * cap, or why the body could not be decoded.
 */
export function decodeBody(url: string, raw: Buffer, encoding: string | undefined, maxBodyBytes = DEFAULT_MAX_BODY_BYTES): string {
  const coding = encoding?.trim().toLowerCase();
  if (coding !== 'gzip' && coding !== 'x-gzip' && coding !== 'deflate' && coding !== 'br') return raw.toString('utf8');
  let decoded: Buffer;
  try {
    const bound = { maxOutputLength: maxBodyBytes };
    decoded = coding === 'br' ? brotliDecompressSync(raw, bound) : coding === 'deflate' ? inflateSync(raw, bound) : gunzipSync(raw, bound);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new BodyOverCapError(url, maxBodyBytes);
    throw new NoAnswerError(url, `${url}: the answer could not be decoded (${reasonOf(error)})`);
  }
  return decoded.toString('utf8');
}
