import { decodeBody, request, type ReadLimits } from './http-client.ts';

export { NoAnswerError, type ReadLimits } from './http-client.ts';

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

/**
 * A GET, or a POST of JSON when `body` is given (or `method`, for a DELETE), through the kit's one
 * HTTP client (lib/http-client.ts): the whole answer within `limits` (a timeout in milliseconds,
 * or a timeout and a cap on the body's bytes), redirects followed, compressed bodies decoded.
 * `headers` are sent with it (a publishable key, a bearer token).
 */
export async function exchange(url: string, limits: number | ReadLimits, body?: unknown, headers: Record<string, string> = {}, method?: 'GET' | 'POST' | 'DELETE'): Promise<Answer> {
  const bounds = typeof limits === 'number' ? { timeoutMs: limits } : limits;
  const answer = await request(url, bounds, { method: method ?? (body === undefined ? 'GET' : 'POST'), headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = decodeBody(url, answer.raw, answer.encoding, bounds.maxBodyBytes);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { url, status: answer.status, contentType: answer.headers['content-type'] ?? null, text, json, headers: answer.headers };
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
