/**
 * One HTTP exchange with an implementation under test, for the property suite and for `verify`'s
 * own calls (its preflight and forwarded state changes): the whole answer within a timeout that
 * covers the body as well as the headers, or a NoAnswerError that says in one sentence why not.
 */

export interface Answer {
  url: string;
  status: number;
  contentType: string | null;
  text: string;
  /** The parsed body, or undefined when it is not JSON. */
  json: unknown;
  /** The answer's headers, by lower-case name. */
  headers?: Record<string, string>;
}

/** No whole answer: refused, reset, timed out, redirected forever, or cut off mid-body. One sentence. */
export class NoAnswerError extends Error {
  constructor(
    readonly url: string,
    message: string,
  ) {
    super(message);
    this.name = 'NoAnswerError';
  }
}

const isTimeout = (error: unknown) => error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
const reasonOf = (error: unknown) => (error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error));

/**
 * A GET, or a POST of JSON when `body` is given (or `method`, for a DELETE); the timeout covers
 * the body as well as the headers. `headers` are sent with it (a publishable key, a bearer token).
 */
export async function exchange(url: string, timeoutMs: number, body?: unknown, headers: Record<string, string> = {}, method?: 'GET' | 'POST' | 'DELETE'): Promise<Answer> {
  // A timer of our own, not AbortSignal.timeout: that one does not keep the process alive, so a
  // connection that never settles (a peer resetting every connection, seen now and then) would let
  // the event loop drain and the command end silently, exit 0, with no verdict at all.
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError')), timeoutMs);
  try {
    return await exchangeWithin(url, timeoutMs, controller.signal, body, headers, method ?? (body === undefined ? 'GET' : 'POST'));
  } finally {
    clearTimeout(timer);
  }
}

async function exchangeWithin(url: string, timeoutMs: number, signal: AbortSignal, body: unknown, headers: Record<string, string>, method: string): Promise<Answer> {
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal,
    });
  } catch (error) {
    throw new NoAnswerError(url, isTimeout(error) ? `cannot reach ${url}: no answer within ${timeoutMs} ms` : `cannot reach ${url}: ${reasonOf(error)}`);
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw new NoAnswerError(
      url,
      isTimeout(error) ? `${url}: the server did not finish its answer within ${timeoutMs} ms (it sent the headers, then too little of the body)` : `${url}: the answer broke off mid-body (${reasonOf(error)})`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { url, status: response.status, contentType: response.headers.get('content-type'), text, json, headers: Object.fromEntries(response.headers) };
}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What came back, in a few words, for a "cannot verify" sentence. */
export function describeAnswer(a: Answer): string {
  const type = a.contentType ?? 'no Content-Type';
  const start = JSON.stringify(a.text.slice(0, 60)) + (a.text.length > 60 ? '...' : '');
  if (a.json === undefined) return `${a.status} ${type}${/json/i.test(type) ? ' whose body is not valid JSON' : ''}: ${a.text.length ? start : '(empty body)'}`;
  if (!isObject(a.json)) return `${a.status} ${type} with ${Array.isArray(a.json) ? 'a JSON array' : `JSON ${a.json === null ? 'null' : typeof a.json}`}, not an envelope object: ${start}`;
  return `${a.status} ${type}: ${start}`;
}

/**
 * `name: value` request headers, as `check --header` and `verify --header` take them;
 * throws an Error naming the malformed one.
 */
export function parseHeaders(lines: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of lines) {
    const match = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):\s*(.*)$/.exec(line);
    if (!match || match[2]!.trim() === '') throw new Error(`a header is 'name: value', got '${line.slice(0, 80)}'`);
    out[match[1]!.toLowerCase()] = match[2]!.trim();
  }
  return out;
}
