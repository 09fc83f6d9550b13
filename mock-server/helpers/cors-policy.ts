import type { ServerResponse } from 'node:http';
import type { CorsOptions } from 'cors';
import { REASON_HEADER } from '../../lib/write-reason.ts';

/**
 * Which browser origins may read the listings, and whether with credentials. The admin API
 * (`/__admin`) is never covered: app.ts sends no CORS headers there, preflights included.
 * - Any origin (`*`, the default): no credentials. Browsers refuse a credentialed request
 *   (`credentials: 'include'`, what @medusajs/js-sdk sends with session auth) to `*`.
 * - Explicit origins: each one is echoed back when it asks, with
 *   `Access-Control-Allow-Credentials: true` and `Vary: Origin`, so session-auth storefronts work.
 * `Retry-After` (sent with injected 429/503) and the write routes' `x-store-listing-kit-reason` are
 * exposed either way (EXPOSED_HEADERS).
 */
export interface CorsPolicy {
  /** `'*'`, or the origins allowed. */
  origins: '*' | string[];
  credentials: boolean;
}

/**
 * The policy of `corsOrigin` (an origin, a list, `*`, or none for `*`). Throws a TypeError naming
 * the first value a browser never sends as an `Origin` (see `corsOriginProblem`).
 */
export function corsPolicy(origin: string | readonly string[] | undefined): CorsPolicy {
  const list = origin === undefined ? ['*'] : typeof origin === 'string' ? [origin] : [...origin];
  for (const value of list) {
    const problem = corsOriginProblem(value);
    if (problem !== undefined) throw new TypeError(`corsOrigin ${JSON.stringify(value)} is not an origin a browser sends: ${problem}`);
  }
  if (list.length === 0 || list.includes('*')) return { origins: '*', credentials: false };
  return { origins: list, credentials: true };
}

/**
 * Why a browser never sends `value` as its `Origin` header, or undefined when it may (or it is
 * the literal `*`, any origin). A browser's origin is `scheme://host[:port]`, in lower case,
 * without a path, a trailing slash, a default port or a wildcard; matching is exact, so any
 * other spelling would allow nobody. The one place this rule lives: `serve --cors-origin`
 * (cli/serve.ts) and `corsPolicy` (every server) ask it.
 */
export function corsOriginProblem(value: string): string | undefined {
  if (value === '*') return undefined;
  const example = 'an origin is scheme://host[:port], e.g. http://localhost:3000';
  if (value === '') return `it is empty; ${example}`;
  if (/\s/.test(value)) return `it contains white space; ${example}`;
  if (value.includes('*')) return 'it has a wildcard; a browser sends one exact origin, so list each one (or pass * alone for any origin)';
  if (value === 'null') return "'null' is what sandboxed and file: pages send; allowing it would let any of them read";
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return `it does not start with scheme://; ${example}`;
  if (value !== value.toLowerCase()) return `it has upper case; a browser sends ${value.toLowerCase()}`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `it is not a URL; ${example}`;
  }
  if (url.username !== '' || url.password !== '') return `it has a user name or password; ${example}`;
  if (url.host === '') return `it has no host; ${example}`;
  const origin = `${url.protocol}//${url.host}`;
  if (value.length > origin.length && value.startsWith(origin)) {
    const rest = value.slice(origin.length);
    return rest.startsWith(':') ? `it names the default port, which a browser leaves out; a browser sends ${origin}` : `it has a path, query or trailing slash; a browser sends ${origin}`;
  }
  if (value !== origin) return `a browser sends it as ${origin}`;
  return undefined;
}

/**
 * The methods a preflight allows: the listings' (GET, and HEAD, which Express answers with
 * GET's headers), and in a dialect that answers the plugins' write routes (`alphabite`) theirs
 * too (POST, PUT, DELETE), so that a storefront on another origin can write as it does against
 * the real plugins. A browser page can send nothing else cross-origin to this server.
 */
export const CORS_METHODS = ['GET', 'HEAD'] as const;
export const CORS_WRITE_METHODS = ['POST', 'PUT', 'DELETE'] as const;

export function corsMethods(withWrites: boolean): string[] {
  return withWrites ? [...CORS_METHODS, ...CORS_WRITE_METHODS] : [...CORS_METHODS];
}

/**
 * The answer headers a page may read besides the CORS-safelisted ones: `Retry-After` (injected 429/503)
 * and the mock's reason for an empty 500, a write's or a listing's (REASON_HEADER, docs/writes.md).
 */
export const EXPOSED_HEADERS = ['Retry-After', REASON_HEADER] as const;

export function corsOptions(policy: CorsPolicy, withWrites = false): CorsOptions {
  return { origin: policy.origins, credentials: policy.credentials, methods: corsMethods(withWrites), exposedHeaders: [...EXPOSED_HEADERS] };
}

/** One line for the start-up banner. */
export function describeCors(policy: CorsPolicy): string {
  return policy.origins === '*'
    ? 'any origin (*), without credentials: a browser refuses credentialed requests to *; pass --cors-origin <origins> for session auth'
    : `${policy.origins.join(', ')} (credentials allowed)`;
}

/**
 * The headers the `cors` package writes on an actual (not preflight) answer with the options of
 * `corsOptions(policy)`, in its order: the fast path (fast-path.ts) sends these without running
 * it, and test/fast-path.test.ts checks they are the same.
 */
export function corsHeaders(policy: CorsPolicy, requestOrigin: string | undefined): Array<[string, string]> {
  const exposed: [string, string] = ['Access-Control-Expose-Headers', EXPOSED_HEADERS.join(',')];
  if (policy.origins === '*') return [['Access-Control-Allow-Origin', '*'], exposed];
  const allowed = requestOrigin !== undefined && policy.origins.includes(requestOrigin);
  return [...(allowed ? [['Access-Control-Allow-Origin', requestOrigin] as [string, string]] : []), ['Vary', 'Origin'], ['Access-Control-Allow-Credentials', 'true'], exposed];
}

/**
 * Sets `corsHeaders(policy, origin)` on an answer. With any origin allowed they are the same for
 * every request, made once.
 */
export function corsHeaderSetter(policy: CorsPolicy): (res: ServerResponse, requestOrigin: string | undefined) => void {
  const fixed = policy.origins === '*' ? corsHeaders(policy, undefined) : undefined;
  return (res, requestOrigin) => {
    for (const [name, value] of fixed ?? corsHeaders(policy, requestOrigin)) res.setHeader(name, value);
  };
}
