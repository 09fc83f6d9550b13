/**
 * Who is asking: the customer behind a request's bearer token or session cookie, as the mock
 * tells customers apart (its writes, its journal, its dashboard). One rule, pure (it runs in
 * browsers too, for the MSW handlers).
 *
 * - `Authorization: Bearer <token>`: a token that is a JWT whose payload names an `actor_id`
 *   (Medusa's customer tokens do) is that customer, so a recording of a real backend, asked with
 *   the tokens it issued, keeps its owners. Any other token is a customer of its own, named from a
 *   hash of the token: the same token is always the same customer, two tokens are two customers.
 * - Else the session cookie (`connect.sid`, Medusa's), named from a hash of its value.
 * - Else nobody: `undefined`.
 *
 * Nothing is verified: the mock is not a security boundary between customers, it keeps test
 * suites that use different tokens out of each other's way.
 */

export const SESSION_COOKIE = 'connect.sid';

export interface Customer {
  /** The customer's id: the JWT's `actor_id`, or `cus_mock_` and a hash of the token or cookie. */
  id: string;
  /** How the request named it. */
  via: 'bearer' | 'session';
}

type HeaderValue = string | readonly string[] | undefined;

const first = (value: HeaderValue): string | undefined => (Array.isArray(value) ? value[0] : (value as string | undefined));

/** The bearer token of an `Authorization` header, if it has one. */
export function bearerToken(authorization: HeaderValue): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(first(authorization) ?? '');
  return match?.[1];
}

/** The value of the session cookie in a `Cookie` header, if any. */
export function sessionCookie(cookie: HeaderValue): string | undefined {
  for (const part of (first(cookie) ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) {
      const value = part.slice(eq + 1).trim();
      if (value) return value;
    }
  }
  return undefined;
}

/** A base64url text (a JWT's part) decoded as UTF-8, or undefined when it is not base64url. */
export function fromBase64url(part: string): string | undefined {
  try {
    const base64 = part.replace(/-/g, '+').replace(/_/g, '/');
    const binary = atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '='));
    return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

/** The `actor_id` of a JWT's payload (not verified), when it is one with a string `actor_id`. */
export function jwtActorId(token: string): string | undefined {
  const parts = token.split('.');
  const text = parts.length === 3 && parts[1] ? fromBase64url(parts[1]) : undefined;
  if (text === undefined) return undefined;
  try {
    const actor = (JSON.parse(text) as { actor_id?: unknown } | null)?.actor_id;
    return typeof actor === 'string' && /^[\w-]{1,128}$/.test(actor) ? actor : undefined;
  } catch {
    return undefined;
  }
}

/** Two 32-bit FNV-1a hashes of a text (different offsets and primes): a stable name for it, not a secret. */
export function fnvHalves(text: string): [number, number] {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ c, 0x811c9dc5) >>> 0;
  }
  return [h1, h2];
}

/** fnvHalves in hex, 16 characters. */
function fnv64(text: string): string {
  return fnvHalves(text)
    .map((h) => h.toString(16).padStart(8, '0'))
    .join('');
}

/** The customer of a request, from its headers (Node's lower-case names). */
export function customerOf(headers: { authorization?: HeaderValue; cookie?: HeaderValue }): Customer | undefined {
  const token = bearerToken(headers.authorization);
  if (token) return { id: jwtActorId(token) ?? `cus_mock_${fnv64(`bearer:${token}`)}`, via: 'bearer' };
  const session = sessionCookie(headers.cookie);
  if (session) return { id: `cus_mock_${fnv64(`session:${session}`)}`, via: 'session' };
  return undefined;
}

/**
 * Of a request's `Authorization` and `Cookie` headers, the one that names its customer as
 * `customerOf` reads them (the bearer token's header, else the session's), and the other to leave
 * out of a request made on the customer's behalf: Medusa reads a session before a bearer token, the
 * mock a bearer token first, so a request sent with both could be read as another customer than
 * the one the mock judged it to be (issue 36). A guest's request names nobody: both are left out.
 */
export function namingHeaders(headers: { authorization?: HeaderValue; cookie?: HeaderValue }): { keep: 'authorization' | 'cookie' | undefined; drop: Array<'authorization' | 'cookie'> } {
  const via = customerOf(headers)?.via;
  if (via === 'bearer') return { keep: 'authorization', drop: ['cookie'] };
  if (via === 'session') return { keep: 'cookie', drop: ['authorization'] };
  return { keep: undefined, drop: ['authorization', 'cookie'] };
}

/** Customer ids kept by the headers that name them (a JWT is decoded once, not on every request). */
const KEPT_CUSTOMER_IDS = 1024;

/** `customerOf(headers)?.id`, the last KEPT_CUSTOMER_IDS answers kept by `Authorization` and `Cookie` ('' for nobody). */
export class CustomerIds {
  readonly #ids = new Map<string, string>();

  idOf(headers: { authorization?: HeaderValue; cookie?: HeaderValue }): string {
    const { authorization, cookie } = headers;
    if (authorization === undefined && cookie === undefined) return '';
    const key = `${String(authorization)}\u0000${String(cookie)}`;
    let id = this.#ids.get(key);
    if (id === undefined) {
      id = customerOf({ authorization, cookie })?.id ?? '';
      if (this.#ids.size >= KEPT_CUSTOMER_IDS) this.#ids.clear();
      this.#ids.set(key, id);
    }
    return id;
  }
}
