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
  const path = query < 0 ? target : target.slice(0, query);
  if (isAdminPath(path)) return true;
  if (mode === 'proxy') return false;
  const lower = path.toLowerCase();
  if (servedPath(lower)) return true;
  return path.includes('%') && servedPath(decodedPath(path).toLowerCase());
}

/** `/openapi.json` or a plugin path, in lower case. */
function servedPath(path: string): boolean {
  if (path === OPENAPI_PATH || path === `${OPENAPI_PATH}/`) return true;
  for (const root of PLUGIN_ROOTS) {
    if (path.startsWith(root) && (path.length === root.length || path.charCodeAt(root.length) === 0x2f)) return true;
  }
  return false;
}
