/**
 * The wishlist plugin's share tokens, as jsonwebtoken 9 signs and verifies them for it
 * (`createShareToken`: `jwt.sign({ wishlist_id }, shareTokenSecret, { expiresIn: "7d" })`;
 * `validateToken`: `jwt.verify(token, shareTokenSecret)`; notes/alphabite-writes.md 1.9, 1.10).
 * Platform-neutral: WebCrypto's HMAC (`crypto.subtle`, in Node 20+ and in browsers, where it needs a
 * secure context: https or localhost), base64url by hand.
 */
import { fromBase64url } from '../../lib/customers.ts';

/** The secret the mock signs share tokens with unless told another (docs/writes.md); the plugin has no usable default. */
export const MOCK_SHARE_TOKEN_SECRET = 'store-listing-kit-mock-share-secret';

/** The plugin's `expiresIn: "7d"`, in seconds. */
export const SHARE_TOKEN_LIFETIME = 7 * 24 * 3600;

/** What jwt.verify takes with a string secret and no `algorithms` option. */
const HASHES: Record<string, string> = { HS256: 'SHA-256', HS384: 'SHA-384', HS512: 'SHA-512' };

const utf8 = new TextEncoder();

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

async function hmac(hash: string, secret: string, text: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', utf8.encode(secret), { name: 'HMAC', hash }, false, ['sign']);
  return base64url(new Uint8Array(await crypto.subtle.sign('HMAC', key, utf8.encode(text))));
}

/** The token `POST /store/wishlists/:id/share` answers: HS256, `{wishlist_id, iat, exp}` in that order. */
export async function signShareToken(wishlistId: string, secret: string, nowMs: number): Promise<string> {
  const iat = Math.floor(nowMs / 1000);
  const part = (value: object) => base64url(utf8.encode(JSON.stringify(value)));
  const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ wishlist_id: wishlistId, iat, exp: iat + SHARE_TOKEN_LIFETIME })}`;
  return `${unsigned}.${await hmac('SHA-256', secret, unsigned)}`;
}

const JWS = /^[a-zA-Z0-9\-_]+?\.[a-zA-Z0-9\-_]+?\.([a-zA-Z0-9\-_]+)?$/;

/**
 * The token's claims when jwt.verify would take it (a JWS of three parts whose header names HS256,
 * HS384 or HS512, signed with `secret`, not expired, active); undefined for anything it throws on
 * (the plugin's 401 "Invalid share token"). A payload that is not a JSON object has no claims: `{}`.
 */
export async function verifyShareToken(token: string, secret: string, nowMs: number): Promise<Record<string, unknown> | undefined> {
  if (secret === '' || !JWS.test(token)) return undefined;
  const [headerPart, payloadPart, signature] = token.split('.') as [string, string, string];
  let header: unknown;
  try {
    header = JSON.parse(fromBase64url(headerPart) ?? '');
  } catch {
    return undefined;
  }
  const alg = (header as { alg?: unknown } | null)?.alg;
  if (!signature || typeof alg !== 'string' || !Object.hasOwn(HASHES, alg)) return undefined;
  if ((await hmac(HASHES[alg]!, secret, `${headerPart}.${payloadPart}`)) !== signature) return undefined;
  let payload: unknown;
  try {
    payload = JSON.parse(fromBase64url(payloadPart) ?? '');
  } catch {
    payload = undefined;
  }
  const claims = payload !== null && typeof payload === 'object' && !Array.isArray(payload) ? (payload as Record<string, unknown>) : {};
  const now = Math.floor(nowMs / 1000);
  if (claims.nbf !== undefined && (typeof claims.nbf !== 'number' || claims.nbf > now)) return undefined;
  if (claims.exp !== undefined && (typeof claims.exp !== 'number' || now >= claims.exp)) return undefined;
  return claims;
}
