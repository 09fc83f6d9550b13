import type { ServerResponse } from 'node:http';
import type { CorsOptions } from 'cors';

/**
 * Which browser origins may read the listings, and whether with credentials.
 * - Any origin (`*`, the default): no credentials. Browsers refuse a credentialed request
 *   (`credentials: 'include'`, what @medusajs/js-sdk sends with session auth) to `*`.
 * - Explicit origins: each one is echoed back when it asks, with
 *   `Access-Control-Allow-Credentials: true` and `Vary: Origin`, so session-auth storefronts work.
 * `Retry-After` (sent with injected 429/503) is exposed either way.
 */
export interface CorsPolicy {
  /** `'*'`, or the origins allowed. */
  origins: '*' | string[];
  credentials: boolean;
}

export function corsPolicy(origin: string | readonly string[] | undefined): CorsPolicy {
  const list = origin === undefined ? ['*'] : typeof origin === 'string' ? [origin] : [...origin];
  if (list.length === 0 || list.includes('*')) return { origins: '*', credentials: false };
  return { origins: list, credentials: true };
}

export function corsOptions(policy: CorsPolicy): CorsOptions {
  return { origin: policy.origins, credentials: policy.credentials, exposedHeaders: ['Retry-After'] };
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
  const exposed: [string, string] = ['Access-Control-Expose-Headers', 'Retry-After'];
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
