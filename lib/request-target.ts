/**
 * The request target as every reader behind the kit will read it (issue 35), made once for each
 * request that meets a backend (`serve --backend`, `proxy`: mock-server/front/listener.ts), before
 * anything judges it: who answers (mock-server/backend/ownership.ts), whether the journal keeps its
 * answer's body (mock-server/journal/passed-through.ts), whether `proxy` checks it
 * (lib/listing-paths.ts). The judged target is then the one the mock's routes read and the one sent
 * to the backend, byte for byte (mock-server/backend/proxy-options.ts sends it as it is).
 *
 * Why: the readers of a target disagree. The proxy library (http-proxy 1.18 under
 * http-proxy-middleware 3) reads it with Node's legacy `url.parse` (a `\` before the query becomes
 * `/`, a `#fragment` is dropped) and joins it to the backend's path merging every run of slashes
 * (and turning a first `http:/` into `http://`); Express (the mock's, and Medusa's) matches the raw
 * path and resolves no dot segment; a WHATWG reader (`new URL`, many frameworks and proxies)
 * resolves `.`/`..` and `%2e` spellings of them. Judged on one reading and sent on another,
 * `POST /store\wishlists` was the backend's, then reached it as `/store/wishlists`.
 *
 * So the target is rewritten into a form every one of them reads the same way, or refused:
 * - the `#fragment` is dropped (a client never sends one; none of the readers passes it on);
 * - in the path (before `?`): each `\` becomes `/`; runs of `/` become one; `.` and `..` segments are
 *   resolved (RFC 3986 5.2.4: `..` above the root stays at the root; a trailing dot segment leaves a
 *   trailing slash); a trailing slash is kept;
 * - an absolute-form target (`GET http://host/path`) becomes its path and query when it names this
 *   server (its authority is the `Host` header); one naming another host is refused: the client
 *   takes the kit for a forward proxy, and the backend would get a request meant for elsewhere;
 * - the query is kept as it came.
 *
 * Refused (400 `invalid_data`, the sentence says which rule): a target that is neither a path nor an
 * http(s) URL (`*`, `foo`); a path with an encoded slash or backslash (`%2F`, `%5C`: Express and
 * WHATWG keep them inside a segment, a router or proxy that decodes first splits there), an encoded
 * NUL (`%00`), a segment that is a dot segment only once decoded (`%2e`, `.%2E`, `%2e%2e`: WHATWG
 * resolves it, Express reads an id `..`); a path holding `http:/` or `https:/` (the proxy library
 * would send `http://` there). Node's parser has refused control bytes, spaces and non-ASCII bytes
 * in the target already (400 before any listener).
 *
 * Pure (no Node built-ins): a string in, a string or a reason out.
 */

/** A target every reader behind the kit reads the same way, or why there is none. */
export type TargetReading =
  | {
      ok: true;
      /** The normalised target: `path` and the query as received (with its `?`). */
      target: string;
      /** The normalised path: starts with `/`, no empty segment but a trailing one, no dot segment. */
      path: string;
    }
  | { ok: false; reason: string };

const ENCODED_SEPARATOR = /%(?:2f|5c)/i;
const ENCODED_NUL = /%00/;
/** A segment that WHATWG reads as `.` or `..` (`%2e` in any case for a dot) but that is not literally one. */
const ENCODED_DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;
/** What the proxy library's `urlJoin` rewrites in a path (case-sensitive, as its `replace`). */
const LIBRARY_REWRITES = /https?:\//;
const ABSOLUTE_FORM = /^(https?):\/\/([^/?\\]*)(.*)$/is;
/** How much of a client's text a refusal quotes. */
const QUOTED = 60;

const refuse = (reason: string): TargetReading => ({ ok: false, reason });
const quoted = (text: string) => JSON.stringify(text.length > QUOTED ? `${text.slice(0, QUOTED)}...` : text);

/**
 * The target normalised as above, `host` being the request's `Host` header (for an absolute-form target).
 *
 * Almost every target a client sends is in that form already (`/store/carts/cart_1?x=1`): such a
 * target is given back as it is, the very string, after one scan of its path (`plainPath`), without
 * the splitting and joining below (issue 36: that was a few per cent of a kept page's CPU with a
 * backend set). The result is the one `normaliseFully` gives (test/request-target.test.ts).
 */
export function normaliseTarget(raw: string, host?: string | undefined): TargetReading {
  const end = plainPath(raw);
  if (end >= 0) return { ok: true, target: raw, path: end === raw.length ? raw : raw.slice(0, end) };
  return normaliseFully(raw, host);
}

/**
 * Where the path of `raw` ends (its length, or the index of its `?`) when the whole target is
 * already normal, else -1: it starts with `/` and holds no `#`, and its path holds no `\`, `%` or `:`
 * and no `/` followed by another `/` or a `.` (so no empty segment but a trailing one, no dot segment,
 * no escape and no `http:/`; a segment that merely starts with a dot, `/.well-known`, goes the long way).
 */
function plainPath(raw: string): number {
  if (raw.charCodeAt(0) !== 0x2f) return -1;
  const n = raw.length;
  let i = 0;
  for (; i < n; i++) {
    const c = raw.charCodeAt(i);
    if (c === 0x3f) break; // ?
    if (c === 0x5c || c === 0x25 || c === 0x3a || c === 0x23) return -1; // \ % : #
    if (c === 0x2f) {
      const next = raw.charCodeAt(i + 1);
      if (next === 0x2f || next === 0x2e) return -1; // // /.
    }
  }
  // The query is kept as it came, but a fragment is dropped.
  return i < n && raw.indexOf('#', i) >= 0 ? -1 : i;
}

/** `normaliseTarget` without its shortcut for targets already normal (exported for the test that they agree). */
export function normaliseFully(raw: string, host?: string | undefined): TargetReading {
  const hash = raw.indexOf('#');
  let target = hash < 0 ? raw : raw.slice(0, hash);
  const first = target.charCodeAt(0);
  if (first !== 0x2f && first !== 0x5c) {
    const absolute = ABSOLUTE_FORM.exec(target);
    if (!absolute) return refuse(`the request target ${quoted(raw)} is not a path: it must start with /`);
    const [, scheme, authority, rest] = absolute as unknown as [string, string, string, string];
    if (host === undefined || !sameAuthority(scheme.toLowerCase(), authority, host)) {
      return refuse(`the request target names the host ${quoted(authority)}, not this server (${quoted(host ?? '')}); send the path alone`);
    }
    target = rest === '' || rest.charCodeAt(0) === 0x3f ? `/${rest}` : rest;
  }
  const at = target.indexOf('?');
  const rawPath = at < 0 ? target : target.slice(0, at);
  const query = at < 0 ? '' : target.slice(at);
  if (ENCODED_SEPARATOR.test(rawPath)) return refuse(`the path ${quoted(rawPath)} holds an encoded slash or backslash (%2F, %5C), which routers read differently; send the path without it`);
  if (ENCODED_NUL.test(rawPath)) return refuse(`the path ${quoted(rawPath)} holds an encoded NUL (%00)`);
  const segments = rawPath.replaceAll('\\', '/').split('/');
  const kept: string[] = [];
  let trailing = false;
  // segments[0] is the empty text before the first slash.
  for (let i = 1; i < segments.length; i++) {
    const segment = segments[i] as string;
    const last = i === segments.length - 1;
    if (segment === '' || segment === '.' || segment === '..') {
      if (segment === '..') kept.pop();
      if (last) trailing = true;
      continue;
    }
    if (ENCODED_DOT_SEGMENT.test(segment)) return refuse(`the path ${quoted(rawPath)} holds ${quoted(segment)}, a dot segment once decoded, which routers read differently; send the path without it`);
    kept.push(segment);
  }
  const path = kept.length === 0 ? '/' : `/${kept.join('/')}${trailing ? '/' : ''}`;
  if (LIBRARY_REWRITES.test(path)) return refuse(`the path ${quoted(path)} holds "http:/" or "https:/", which the proxy would rewrite; send it in the query instead`);
  return { ok: true, target: path + query, path };
}

/** Whether an absolute-form target's authority is the server the `Host` header names (any case; a default port may be left out on either side). */
function sameAuthority(scheme: string, authority: string, host: string): boolean {
  const port = scheme === 'https' ? ':443' : ':80';
  const bare = (text: string) => {
    const lower = text.toLowerCase();
    return lower.endsWith(port) ? lower.slice(0, -port.length) : lower;
  };
  return authority !== '' && bare(authority) === bare(host);
}

/**
 * The path with each segment percent-decoded once (a segment with a malformed escape stays as it
 * is) and cut at a decoded `?` or `#` (a reader that decodes and then parses again ends the path
 * there), for the rules that must hold under a reader that decodes: ownership, the journal's `/auth`.
 * On a normalised path no decoded segment holds `/` or `\` or is a dot segment (those are refused).
 */
export function decodedPath(path: string): string {
  if (!path.includes('%')) return path;
  const decoded = path
    .split('/')
    .map((segment) => {
      if (!segment.includes('%')) return segment;
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    })
    .join('/');
  const end = decoded.search(/[?#]/);
  return end < 0 ? decoded : decoded.slice(0, end);
}
