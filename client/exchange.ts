/**
 * One HTTP exchange with an implementation under test, for `verify`'s own calls (its preflight and
 * forwarded state changes), `fixtures --from`'s pages and the property suite's POSTs: the whole
 * answer within its limits, or a NoAnswerError that says in one sentence why not.
 */
import type { Answer } from '../lib/http.ts';
import { decodeBody, request, type ReadLimits } from './http.ts';

/**
 * A GET, or a POST of JSON when `body` is given (or `method`, for a DELETE), through the kit's one
 * HTTP client (client/http.ts): the whole answer within `limits` (a timeout in milliseconds,
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
  const redirected = answer.finalUrl !== new URL(url).href ? { redirectedTo: answer.finalUrl } : {};
  return { url, status: answer.status, contentType: answer.headers['content-type'] ?? null, text, json, headers: answer.headers, ...redirected };
}

