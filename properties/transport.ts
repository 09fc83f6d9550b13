/**
 * The suite's GETs, over node:http(s) with connections kept alive: the same answers and the same
 * one-sentence NoAnswerErrors as lib/http.ts's `exchange` (fetch), at about half its CPU per request
 * (a run sends thousands; fetch's WHATWG streams cost more than the checks themselves). Redirects
 * are followed as fetch follows them (at most 20), compressed answers are decoded, and the timeout
 * covers the body as well as the headers.
 */
import http from 'node:http';
import https from 'node:https';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { NoAnswerError, type Answer } from '../lib/http.ts';

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

/** A GET of `url`: the whole answer within `timeoutMs`, or a NoAnswerError that says why not. */
export function get(url: string, timeoutMs: number, headers: Record<string, string> = {}, memo: BodyMemo = new BodyMemo()): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    let settled = false;
    let request: http.ClientRequest | undefined;
    let answering = false;
    const end = (error: NoAnswerError | undefined, answer?: Answer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) {
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

    const send = (target: string, redirects: number, retried: boolean) => {
      let parsed: URL;
      try {
        parsed = new URL(target);
      } catch {
        return end(new NoAnswerError(url, `cannot reach ${url}: invalid URL`));
      }
      const agent = agents[parsed.protocol as keyof typeof agents];
      if (!agent) return end(new NoAnswerError(url, `cannot reach ${url}: redirected to ${parsed.protocol} (only http and https)`));
      const module = parsed.protocol === 'https:' ? https : http;
      const options: http.RequestOptions = {
        agent,
        hostname: parsed.hostname.startsWith('[') ? parsed.hostname.slice(1, -1) : parsed.hostname,
        port: parsed.port || undefined,
        path: `${parsed.pathname}${parsed.search}`,
        headers: { accept: 'application/json', ...headers },
        ...(parsed.username || parsed.password ? { auth: `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}` } : {}),
      };
      const req = module.get(options, (res) => {
        const status = res.statusCode ?? 0;
        const location = res.headers.location;
        if (status >= 300 && status < 400 && status !== 304 && location !== undefined) {
          res.resume();
          if (redirects >= MAX_REDIRECTS) return end(new NoAnswerError(url, `cannot reach ${url}: redirect count exceeded`));
          let next: string;
          try {
            next = new URL(location, target).href;
          } catch {
            return end(new NoAnswerError(url, `cannot reach ${url}: redirected to an invalid URL '${location}'`));
          }
          return send(next, redirects + 1, false);
        }
        answering = true;
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', (error) => end(new NoAnswerError(url, `${url}: the answer broke off mid-body (${reasonOf(error)})`)));
        res.on('close', () => {
          if (!res.complete) end(new NoAnswerError(url, `${url}: the answer broke off mid-body (terminated)`));
        });
        res.on('end', () => {
          let body: ReadBody;
          try {
            body = memo.read(target, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks), res.headers['content-encoding']);
          } catch (error) {
            return end(new NoAnswerError(url, `${url}: the answer could not be decoded (${reasonOf(error)})`));
          }
          const answerHeaders: Record<string, string> = {};
          for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) answerHeaders[name] = Array.isArray(value) ? value.join(', ') : value;
          end(undefined, { url, status, contentType: res.headers['content-type'] ?? null, text: body.text, json: body.json, headers: answerHeaders });
        });
      });
      request = req;
      req.on('error', (error: NodeJS.ErrnoException) => {
        if (answering || settled) return;
        // A kept-alive connection the server closed as it was reused: asked again once on a new one.
        if (req.reusedSocket && !retried && (error.code === 'ECONNRESET' || error.code === 'EPIPE')) return send(target, redirects, true);
        end(new NoAnswerError(url, `cannot reach ${url}: ${reasonOf(error)}`));
      });
    };
    send(url, 0, false);
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
