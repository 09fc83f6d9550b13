import { isAdminPath, OPENAPI_PATH } from '../../lib/admin-paths.ts';
import { decodedPath } from '../../lib/request-target.ts';

/**
 * Which requests the mock answers itself when a backend stands behind it (`serve --backend`,
 * `proxy`); every other request goes to the backend (backend/overlay.ts). Pure: a string test on
 * the request target AS NORMALISED by lib/request-target.ts (`normaliseTarget`: backslashes,
 * fragment, repeated slashes and dot segments gone, ambiguous escapes refused), which is also the
 * target the backend receives; front/listener.ts normalises and asks here for every request.
 *
 * - always: `/__admin` and below (lib/admin-paths.ts `isAdminPath`: health, config, journal, dashboard);
 * - `serve` mode: also `/openapi.json` and every method on the plugins' paths: the four listings, every
 *   write route and any other path under `/store/wishlists`, `/store/reviews` and `/store/products/reviews`
 *   (writes/routes.ts `isPluginPath`). OPTIONS (preflights) on them too: the mock's CORS policy answers.
 * - `proxy` mode: only `/__admin`.
 *
 * The plugins' paths are matched as a SUPERSET of what Express (in the mock, and in Medusa) would
 * route to the plugins, so that nothing a storefront writes through the plugins' routes reaches the
 * backend. The path is lower-cased (Express matches any case), a trailing slash is ignored, and a path
 * with a percent escape is the mock's when either reading is a plugin path: as sent (Express matches
 * the raw path) or with each segment percent-decoded once (`/store/%77ishlists`, what a proxy that
 * decodes in front of a staging backend may make of it; a malformed escape is kept as it is). Owning a
 * path no router matches costs nothing: the mock answers it 404. test/backend-overlay.test.ts checks the
 * superset against `isPluginPath` and the write routes with case, slash, backslash, dot-segment and
 * escape variants, sent through the mock to a backend that must receive none of them.
 */
export type OverlayMode = 'serve' | 'proxy';

/** The plugins' path roots, lower case: a path is theirs when it is one of these or below one. */
const PLUGIN_ROOTS = ['/store/wishlists', '/store/reviews', '/store/products/reviews'] as const;

/**
 * Whether the mock answers this request itself (else: the backend does). `target` is a normalised
 * target (lib/request-target.ts). `method` does not matter today: every method on an owned path is the mock's.
 */
export function ownsRequest(mode: OverlayMode, _method: string, target: string): boolean {
  const query = target.indexOf('?');
  return ownsPath(mode, query < 0 ? target : target.slice(0, query));
}

/**
 * `ownsRequest` of a normalised target's path (lib/request-target.ts gives it: front/listener.ts asks
 * this for every request). Asked for every request with a backend, so it compares character codes
 * and makes no string (issue 36): `String.prototype.startsWith` and a lower-cased copy of the path cost
 * a few hundred nanoseconds a request. The reading is the one of the path lower-cased with
 * `toLowerCase` and tested with `startsWith` (test/backend-overlay.test.ts compares the two): the
 * only characters outside ASCII that `toLowerCase` turns into ASCII letters are the Kelvin sign (to
 * `k`, in none of the roots) and `İ` (to `i` and a combining dot, which no root can follow).
 */
export function ownsPath(mode: OverlayMode, path: string): boolean {
  // `/__admin` in any case: its second character is `_` (no other lower-cases to it), tested first as the cheap part.
  if (path.charCodeAt(1) === 0x5f && isAdminPath(path)) return true;
  if (mode === 'proxy') return false;
  if (servedPath(path)) return true;
  return path.includes('%') && servedPath(decodedPath(path));
}

const OPENAPI_SLASH = `${OPENAPI_PATH}/`;

/** `/openapi.json` or a plugin path, in any case of its ASCII letters. */
function servedPath(path: string): boolean {
  if (underRoot(path, OPENAPI_PATH) && path.length <= OPENAPI_SLASH.length) return true;
  for (let i = 0; i < PLUGIN_ROOTS.length; i++) if (underRoot(path, PLUGIN_ROOTS[i] as string)) return true;
  return false;
}

/** Whether `path` is `root` (lower case) or below it, its ASCII letters compared in any case. */
function underRoot(path: string, root: string): boolean {
  const n = root.length;
  if (path.length < n || (path.length > n && path.charCodeAt(n) !== 0x2f)) return false;
  for (let i = 0; i < n; i++) {
    const c = path.charCodeAt(i);
    // A-Z as a-z
    if ((c >= 0x41 && c <= 0x5a ? c + 0x20 : c) !== root.charCodeAt(i)) return false;
  }
  return true;
}
