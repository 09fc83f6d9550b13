/**
 * A GET over plain HTTP/1.1, read only when the answer has the one shape a listing server nearly
 * always gives: `HTTP/1.1`, a final status, well-formed header lines each named once and a
 * `Content-Length` body, on a kept-alive socket of our own. For that shape it costs about a third
 * of node:http's CPU per request (its ClientRequest, agent and streams cost more than a listing's
 * checks; see docs/architecture.md). It declines every other shape (https, credentials in the
 * URL, chunked or close-delimited bodies, 1xx, 204/304, repeated or folded headers, over-long
 * heads) and transport.ts then asks node:http, which gives the answer, or the error, exactly as
 * before; an origin that once answered in such a shape is left to node:http for the rest of the
 * process. A connection that fails is reported as node:http reports it, and not asked again
 * (but a kept-alive one the server closed before answering, as node:http does too).
 */
import net from 'node:net';

/** A whole answer as it came: status, headers (names lower case) and the body's bytes. */
export interface PlainAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export interface PlainEvents {
  /** The answer's head has arrived (the timeout's message then speaks of the body). */
  head(): void;
  answer(answer: PlainAnswer): void;
  /** Not read here: ask node:http instead (nothing of this request has been reported). */
  decline(): void;
  /** The connection failed, with node:http's reason for it ("socket hang up", "read ECONNRESET", ...). */
  fail(reason: string): void;
}

/** Node's default limit of a head (--max-http-header-size). */
const MAX_HEAD_BYTES = 16 * 1024;
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
const LENGTH = /^\d{1,15}$/;
/** Request headers node:http treats specially: with one of these, node:http sends the request. */
const SPECIAL_REQUEST_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'expect', 'upgrade', 'keep-alive', 'te', 'trailer']);

/** Origins (host:port) that answered in a shape read only by node:http. */
const declinedOrigins = new Set<string>();
/** Kept-alive connections by origin, the most recently used last. */
const idleConnections = new Map<string, Connection[]>();
/** The request heads' header lines by the headers object they were made from (one per run). */
const headerLines = new WeakMap<Record<string, string>, string | undefined>();

/** The header lines of a request as node:http would send them, or undefined when one is left to node:http. */
function headerLinesOf(headers: Record<string, string>): string | undefined {
  if (headerLines.has(headers)) return headerLines.get(headers);
  // As node:http sets them: names case-insensitively distinct, the later one's name and value in the first one's place.
  const byName = new Map<string, string>();
  let lines: string | undefined = '';
  for (const [name, value] of Object.entries(headers)) {
    const key = name.toLowerCase();
    if (!TOKEN.test(name) || SPECIAL_REQUEST_HEADERS.has(key) || !FIELD_VALUE.test(value)) {
      lines = undefined;
      break;
    }
    byName.set(key, `${name}: ${value}\r\n`);
  }
  if (lines !== undefined) lines = [...byName.values()].join('');
  headerLines.set(headers, lines);
  return lines;
}

/**
 * Sends a GET of `url` with exactly `headers` (names distinct case-insensitively) and reports the
 * answer or a decline through `events`, once. Returns a function that abandons the request (the
 * caller's timeout); nothing is reported after it. Pass the same headers object for every request
 * of a run: its header lines are made once.
 */
export function plainGet(url: URL, headers: Record<string, string>, events: PlainEvents): () => void {
  const lines = url.protocol === 'http:' && !url.username && !url.password && !declinedOrigins.has(url.host) ? headerLinesOf(headers) : undefined;
  if (lines === undefined) {
    events.decline();
    return () => {};
  }
  const head = `GET ${url.pathname}${url.search} HTTP/1.1\r\n${lines}Host: ${url.host}\r\nConnection: keep-alive\r\n\r\n`;
  let connection: Connection | undefined;
  const attempt = (mayRetry: boolean) => {
    const reused = takeIdle(url.host);
    connection = reused ?? new Connection(url);
    connection.send(head, events, (received, reason) => {
      // A kept-alive socket the server closed as it was reused: once more on a new one.
      if (reused && mayRetry && !received) attempt(false);
      else events.fail(reason);
    });
  };
  attempt(true);
  return () => connection?.close();
}

function takeIdle(origin: string): Connection | undefined {
  const idle = idleConnections.get(origin);
  for (let connection = idle?.pop(); connection; connection = idle?.pop()) if (connection.usable) return connection;
  return undefined;
}

/** The connection failed; `received` says whether any byte of an answer came. */
type Failed = (received: boolean, reason: string) => void;

/** The head of an answer as read. */
interface Head {
  status: number;
  headers: Record<string, string>;
  length: number;
  keepAlive: boolean;
}

/** A socket to one origin, one exchange at a time; kept idle between exchanges while the server keeps it. */
class Connection {
  private readonly socket: net.Socket;
  private readonly origin: string;
  private events: PlainEvents | undefined;
  private failed: Failed | undefined;
  private headBytes: Buffer | undefined;
  private head: Head | undefined;
  private body: Buffer[] = [];
  private bodyBytes = 0;

  constructor(url: URL) {
    this.origin = url.host;
    const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    this.socket = net.connect({ host: hostname, port: Number(url.port || 80) });
    this.socket.setNoDelay(true);
    // node:http's words: the socket's own error, else a close before the answer is "socket hang up".
    const hangUp = () => this.failure('socket hang up');
    this.socket
      .on('data', (chunk: Buffer) => this.data(chunk))
      .on('error', (error) => this.failure(error.message))
      .on('end', hangUp)
      .on('close', hangUp);
  }

  get usable(): boolean {
    return !this.socket.destroyed && this.socket.writable;
  }

  send(requestHead: string, events: PlainEvents, failed: Failed): void {
    this.events = events;
    this.failed = failed;
    this.headBytes = undefined;
    this.head = undefined;
    this.body = [];
    this.bodyBytes = 0;
    this.socket.ref();
    this.socket.write(requestHead, 'latin1');
  }

  /** Ends the connection; its exchange, if any, reports nothing more. */
  close(): void {
    this.events = undefined;
    this.socket.destroy();
    const idle = idleConnections.get(this.origin);
    const at = idle?.indexOf(this) ?? -1;
    if (at >= 0) idle!.splice(at, 1);
  }

  private data(chunk: Buffer): void {
    // Anything from the server while idle (bytes nobody asked for) ends the connection.
    if (!this.events) return this.close();
    if (this.head) return this.takeBody(chunk);
    const bytes = this.headBytes ? Buffer.concat([this.headBytes, chunk]) : chunk;
    this.headBytes = bytes;
    const end = bytes.indexOf('\r\n\r\n');
    if (end < 0) {
      if (bytes.length > MAX_HEAD_BYTES) this.decline();
      return;
    }
    const head = end <= MAX_HEAD_BYTES ? parseHead(bytes.toString('latin1', 0, end)) : undefined;
    if (!head) return this.decline();
    this.head = head;
    this.events.head();
    this.takeBody(bytes.subarray(end + 4));
  }

  private takeBody(chunk: Buffer): void {
    const head = this.head!;
    const wanted = head.length - this.bodyBytes;
    const extra = chunk.length > wanted;
    if (extra) chunk = chunk.subarray(0, wanted);
    if (chunk.length > 0) this.body.push(chunk);
    this.bodyBytes += chunk.length;
    if (this.bodyBytes < head.length) return;
    const body = this.body.length === 1 ? this.body[0]! : Buffer.concat(this.body, this.bodyBytes);
    const events = this.events!;
    this.events = undefined;
    this.body = [];
    // Bytes past the body on a kept-alive socket would be read as the next answer's: that socket is not kept.
    if (head.keepAlive && !extra) this.keepIdle();
    else this.close();
    events.answer({ status: head.status, headers: head.headers, body });
  }

  private keepIdle(): void {
    this.socket.unref();
    let idle = idleConnections.get(this.origin);
    if (!idle) idleConnections.set(this.origin, (idle = []));
    idle.push(this);
  }

  /** An answer of a shape this does not read: its origin is left to node:http from now on. */
  private decline(): void {
    const events = this.events!;
    declinedOrigins.add(this.origin);
    this.close();
    events.decline();
  }

  private failure(reason: string): void {
    const failed = this.events ? this.failed : undefined;
    const received = this.headBytes !== undefined;
    this.close();
    failed?.(received, reason);
  }
}

/** A head this reads: a final status, then header lines of a token, a colon and a field value. */
const READABLE_HEAD = /^HTTP\/1\.1 [2-5]\d\d(?: [\t\x20-\x7e\x80-\xff]*)?(?:\r\n[!#$%&'*+.^_`|~0-9A-Za-z-]+:[\t\x20-\x7e\x80-\xff]*)*$/;

/** The head of an answer this reads, or undefined for any other. */
function parseHead(text: string): Head | undefined {
  if (!READABLE_HEAD.test(text)) return undefined;
  const code = Number(text.slice(9, 12));
  if (code === 204 || code === 304) return undefined;
  const headers: Record<string, string> = {};
  for (let at = text.indexOf('\r\n'); at >= 0; ) {
    const next = text.indexOf('\r\n', at + 2);
    const line = text.slice(at + 2, next < 0 ? text.length : next);
    const colon = line.indexOf(':');
    const key = line.slice(0, colon).toLowerCase();
    if (Object.hasOwn(headers, key) || key === '__proto__') return undefined;
    headers[key] = withoutOws(line, colon + 1);
    at = next;
  }
  if (Object.hasOwn(headers, 'transfer-encoding')) return undefined;
  const length = Object.hasOwn(headers, 'content-length') ? headers['content-length']! : undefined;
  if (length === undefined || !LENGTH.test(length)) return undefined;
  const keepAlive = !/(?:^|,)[\t ]*close[\t ]*(?:,|$)/i.test(headers.connection ?? '');
  return { status: code, headers, length: Number(length), keepAlive };
}

/** `line` from `from` on, without the spaces and tabs around it (what HTTP calls optional whitespace). */
function withoutOws(line: string, from: number): string {
  let start = from;
  let end = line.length;
  while (start < end && (line.charCodeAt(start) === 32 || line.charCodeAt(start) === 9)) start++;
  while (end > start && (line.charCodeAt(end - 1) === 32 || line.charCodeAt(end - 1) === 9)) end--;
  return line.slice(start, end);
}
