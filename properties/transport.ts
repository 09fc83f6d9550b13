/**
 * The suite's GETs: the same answers and the same one-sentence NoAnswerErrors as lib/http.ts's
 * `exchange` (fetch), at a fraction of its CPU per request (a run sends thousands, and the client's
 * work per request came to cost more than the checks). An answer of the common shape (plain HTTP/1.1
 * with a Content-Length) is read by plain-http.ts on kept-alive sockets of its own; any other, and
 * https, by node:http with connections kept alive. Redirects are followed as fetch follows them (at
 * most 20), compressed answers are decoded, and the timeout covers the body as well as the headers.
 */
import http from 'node:http';
import https from 'node:https';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { NoAnswerError, type Answer } from '../lib/http.ts';
import { plainGet } from './plain-http.ts';

/** fetch's limit ("redirect count exceeded" past it). */
const MAX_REDIRECTS = 20;

/** Idle connections are unref'd by node's agent: they never keep the process alive. */
const agents = {
  'http:': new http.Agent({ keepAlive: true }),
  'https:': new https.Agent({ keepAlive: true }),
};

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** A body as read: its text and its JSON (undefined when the text is no JSON). */
interface ReadBody {
  text: string;
  json: unknown;
}

interface MemoEntry extends ReadBody {
  /** The bytes as received, and how they were encoded. */
  raw: Buffer;
  encoding: string | undefined;
}

/** Bytes of bodies a BodyMemo keeps at most (each counted twice: the bytes and the text). */
const MEMO_BYTES = 128 * 1024 * 1024;
/** Smaller bodies are read again: they cost little to parse, and keeping them would cost the collector more. */
const MEMO_MIN_BYTES = 4 * 1024;

/**
 * The last body each URL answered, read: a run asks for many pages more than once (a default run
 * reads 165 MB of JSON, a third of it distinct), and an answer whose bytes equal the ones before is
 * given that one's text and JSON instead of decoding and parsing the same bytes again. The bytes
 * are compared in full, so a server that answers differently is seen as it answers; the JSON is
 * shared, so nothing in the suite may change an answer's JSON (nothing does). One memo per run
 * (ListingClient).
 */
export class BodyMemo {
  /** By URL, the least recently used first (a Map keeps the order of insertion). */
  private readonly bodies = new Map<string, MemoEntry>();
  private bytes = 0;

  read(url: string, raw: Buffer, encoding: string | undefined): ReadBody {
    const memo = raw.length >= MEMO_MIN_BYTES && 2 * raw.length <= MEMO_BYTES;
    const before = memo ? this.bodies.get(url) : undefined;
    if (before !== undefined) this.forget(url, before);
    let body: MemoEntry;
    if (before !== undefined && before.encoding === encoding && before.raw.equals(raw)) body = before;
    else {
      const text = decode(raw, encoding);
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      // A body kept that is one slice of a larger read buffer is copied, so as not to keep the whole buffer.
      body = { raw: !memo || raw.byteLength === raw.buffer.byteLength ? raw : Buffer.from(raw), encoding, text, json };
    }
    if (memo) this.keep(url, body);
    return body;
  }

  private keep(url: string, body: MemoEntry): void {
    this.bodies.set(url, body);
    this.bytes += 2 * body.raw.length;
    for (const [oldest, entry] of this.bodies) {
      if (this.bytes <= MEMO_BYTES) break;
      this.forget(oldest, entry);
    }
  }

  private forget(url: string, body: MemoEntry): void {
    this.bodies.delete(url);
    this.bytes -= 2 * body.raw.length;
  }
}

/** The headers sent: `accept: application/json` unless `headers` say otherwise (one object per headers object: plain-http.ts makes its lines once). */
const sentHeaders = new WeakMap<Record<string, string>, Record<string, string>>();
function withAccept(headers: Record<string, string>): Record<string, string> {
  let sent = sentHeaders.get(headers);
  if (!sent) sentHeaders.set(headers, (sent = { accept: 'application/json', ...headers }));
  return sent;
}

/** A GET of `url`: the whole answer within `timeoutMs`, or a NoAnswerError that says why not; `onSettled` is called as it settles. */
export function get(url: string, timeoutMs: number, headers: Record<string, string> = {}, memo: BodyMemo = new BodyMemo(), onSettled?: () => void): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    let settled = false;
    let request: http.ClientRequest | undefined;
    let abandonPlain: (() => void) | undefined;
    let answering = false;
    const end = (error: NoAnswerError | undefined, answer?: Answer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      onSettled?.();
      if (error) {
        abandonPlain?.();
        request?.destroy();
        reject(error);
      } else resolve(answer!);
    };
    // A timer of our own (as in lib/http.ts): a connection that never settles must still end the run.
    const timer = setTimeout(() => {
      end(
        new NoAnswerError(
          url,
          answering
            ? `${url}: the server did not finish its answer within ${timeoutMs} ms (it sent the headers, then too little of the body)`
            : `cannot reach ${url}: no answer within ${timeoutMs} ms`,
        ),
      );
    }, timeoutMs);
    const requestHeaders = withAccept(headers);

    /** A redirect to follow (as fetch follows them), or undefined for an answer. */
    const redirectOf = (target: string, status: number, location: string | undefined, redirects: number): (() => void) | undefined => {
      if (status < 300 || status >= 400 || status === 304 || location === undefined) return undefined;
      if (redirects >= MAX_REDIRECTS) return () => end(new NoAnswerError(url, `cannot reach ${url}: redirect count exceeded`));
      let next: string;
      try {
        next = new URL(location, target).href;
      } catch {
        return () => end(new NoAnswerError(url, `cannot reach ${url}: redirected to an invalid URL '${location}'`));
      }
      return () => send(next, redirects + 1);
    };

    /** A whole answer: read (memo), then resolved. */
    const answered = (target: string, status: number, answerHeaders: Record<string, string>, raw: Buffer) => {
      let body: ReadBody;
      try {
        body = memo.read(target, raw, answerHeaders['content-encoding']);
      } catch (error) {
        return end(new NoAnswerError(url, `${url}: the answer could not be decoded (${reasonOf(error)})`));
      }
      end(undefined, { url, status, contentType: answerHeaders['content-type'] ?? null, text: body.text, json: body.json, headers: answerHeaders });
    };

    const send = (target: string, redirects: number) => {
      let parsed: URL;
      try {
        parsed = new URL(target);
      } catch {
        return end(new NoAnswerError(url, `cannot reach ${url}: invalid URL`));
      }
      // The common shape of answer on plain HTTP is read by plain-http.ts; anything else by node:http.
      abandonPlain = plainGet(parsed, requestHeaders, {
        head: () => (answering = true),
        answer: ({ status, headers: answerHeaders, body }) => {
          const redirect = redirectOf(target, status, answerHeaders.location, redirects);
          if (!redirect) return answered(target, status, answerHeaders, body);
          // As node:http's path: a redirect's head does not count as the answer's.
          answering = false;
          redirect();
        },
        decline: () => {
          if (settled) return;
          answering = false;
          viaNode(target, parsed, redirects, false);
        },
        // As node:http's failures read below: before the head, the connection's; after it, the body's.
        fail: (reason) => end(new NoAnswerError(url, answering ? `${url}: the answer broke off mid-body (aborted)` : `cannot reach ${url}: ${reason}`)),
      });
    };

    const viaNode = (target: string, parsed: URL, redirects: number, retried: boolean) => {
      const agent = agents[parsed.protocol as keyof typeof agents];
      if (!agent) return end(new NoAnswerError(url, `cannot reach ${url}: redirected to ${parsed.protocol} (only http and https)`));
      const module = parsed.protocol === 'https:' ? https : http;
      const options: http.RequestOptions = {
        agent,
        hostname: parsed.hostname.startsWith('[') ? parsed.hostname.slice(1, -1) : parsed.hostname,
        port: parsed.port || undefined,
        path: `${parsed.pathname}${parsed.search}`,
        headers: requestHeaders,
        ...(parsed.username || parsed.password ? { auth: `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}` } : {}),
      };
      const req = module.get(options, (res) => {
        const status = res.statusCode ?? 0;
        const redirect = redirectOf(target, status, res.headers.location, redirects);
        if (redirect) {
          res.resume();
          return redirect();
        }
        answering = true;
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', (error) => end(new NoAnswerError(url, `${url}: the answer broke off mid-body (${reasonOf(error)})`)));
        res.on('close', () => {
          if (!res.complete) end(new NoAnswerError(url, `${url}: the answer broke off mid-body (terminated)`));
        });
        res.on('end', () => {
          const answerHeaders: Record<string, string> = {};
          for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) answerHeaders[name] = Array.isArray(value) ? value.join(', ') : value;
          answered(target, status, answerHeaders, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
        });
      });
      request = req;
      req.on('error', (error: NodeJS.ErrnoException) => {
        if (answering || settled) return;
        // A kept-alive connection the server closed as it was reused: asked again once on a new one.
        if (req.reusedSocket && !retried && (error.code === 'ECONNRESET' || error.code === 'EPIPE')) return viaNode(target, parsed, redirects, true);
        end(new NoAnswerError(url, `cannot reach ${url}: ${reasonOf(error)}`));
      });
    };
    try {
      send(url, 0);
    } catch (error) {
      // Thrown by node:http as it was asked (a header it refuses): the promise rejects with it, as ever.
      if (!settled) {
        settled = true;
        clearTimeout(timer);
        onSettled?.();
      }
      throw error;
    }
  });
}

function decode(body: Buffer, encoding: string | undefined): string {
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return gunzipSync(body).toString('utf8');
    case 'deflate':
      return inflateSync(body).toString('utf8');
    case 'br':
      return brotliDecompressSync(body).toString('utf8');
    default:
      return body.toString('utf8');
  }
}
