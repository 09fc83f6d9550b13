/**
 * The suite's GETs, through the kit's one HTTP client (client/http.ts: undici, kept-alive
 * connections, a deadline for the whole answer, a cap on a body's bytes, redirects followed as
 * fetch follows them, compressed answers decoded no further than the cap), with a memo of bodies
 * already read: a run asks for many pages more than once.
 */
import { decodeBody, DEFAULT_MAX_BODY_BYTES, request } from '../client/http.ts';
import type { Answer } from '../lib/http.ts';

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

  read(url: string, raw: Buffer, encoding: string | undefined, maxBodyBytes = DEFAULT_MAX_BODY_BYTES): ReadBody {
    const memo = raw.length >= MEMO_MIN_BYTES && 2 * raw.length <= MEMO_BYTES;
    const before = memo ? this.bodies.get(url) : undefined;
    if (before !== undefined) this.forget(url, before);
    let body: MemoEntry;
    if (before !== undefined && before.encoding === encoding && before.raw.equals(raw)) body = before;
    else {
      const text = decodeBody(url, raw, encoding, maxBodyBytes);
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

/**
 * A GET of `url`: the whole answer within `timeoutMs` and `maxBodyBytes`, or a NoAnswerError that
 * says why not; `onSettled` is called as it settles (the answer read, before its body is decoded).
 */
export async function get(
  url: string,
  timeoutMs: number,
  headers: Record<string, string> = {},
  memo: BodyMemo = new BodyMemo(),
  onSettled?: () => void,
  maxBodyBytes = DEFAULT_MAX_BODY_BYTES,
): Promise<Answer> {
  const answer = await request(url, { timeoutMs, maxBodyBytes }, { headers }, onSettled);
  const body = memo.read(url, answer.raw, answer.encoding, maxBodyBytes);
  return { url, status: answer.status, contentType: answer.headers['content-type'] ?? null, text: body.text, json: body.json, headers: answer.headers };
}
