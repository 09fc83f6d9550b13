import { isAdminPath, OPENAPI_PATH } from '../../lib/admin-paths.ts';

/**
 * Which requests the mock answers itself when a backend stands behind it (`serve --backend`,
 * `proxy`); every other request goes to the backend (backend/overlay.ts). Pure: a string test on
 * the request target, made in front of Express (front/listener.ts) for every request.
 *
 * - always: `/__admin` and below (lib/admin-paths.ts `isAdminPath`: health, config, journal, dashboard);
 * - `serve` mode: also `/openapi.json` and every method on the plugins' paths: the four listings, every
 *   write route and any other path under `/store/wishlists`, `/store/reviews` and `/store/products/reviews`
 *   (writes/routes.ts `isPluginPath`). OPTIONS (preflights) on them too: the mock's CORS policy answers.
 * - `proxy` mode: only `/__admin`.
 *
 * The plugins' paths are matched as a SUPERSET of what Express (in the mock, and in Medusa) would
 * route to the plugins, so that nothing a storefront writes through the plugins' routes reaches the
 * backend. The path is lower-cased (Express matches any case), a trailing slash is ignored, and an
 * absolute-form target (`GET http://host/store/wishlists`) is judged by its path, as Express does. A
 * path with a percent escape, a repeated slash or a dot segment is the mock's when any of its readings
 * is a plugin path: as sent (Express matches the raw path: `/store/wishlists/%2e%2e` reaches the
 * plugins' `/store/wishlists/:id`), with each segment percent-decoded once (`/store/%77ishlists`; a
 * malformed escape is kept as it is), and with repeated slashes merged and `.`/`..` resolved (what a
 * reverse proxy in front of a staging backend, nginx's `merge_slashes` say, may make of
 * `//store/wishlists`), decoded or not. Owning a path no router matches costs nothing: the mock
 * answers it 404. test/backend-overlay.test.ts checks the superset against `isPluginPath` and the
 * write routes with case, slash and escape variants.
 */
export type OverlayMode = 'serve' | 'proxy';

/** The plugins' path roots, lower case: a path is theirs when it is one of these or below one. */
const PLUGIN_ROOTS = ['/store/wishlists', '/store/reviews', '/store/products/reviews'] as const;

/** Whether the mock answers this request itself (else: the backend does). `method` does not matter today: every method on an owned path is the mock's. */
export function ownsRequest(mode: OverlayMode, _method: string, rawUrl: string): boolean {
  const path = pathOfTarget(rawUrl);
  if (path === undefined) return true;
  if (isAdminPath(path)) return true;
  if (mode === 'proxy') return false;
  const lower = path.toLowerCase();
  if (servedPath(lower)) return true;
  if (!NEEDS_NORMALISING.test(path)) return false;
  const decoded = decodeSegments(path).toLowerCase();
  return servedPath(decoded) || servedPath(resolveSegments(lower)) || servedPath(resolveSegments(decoded));
}

/** `/openapi.json` or a plugin path, in lower case. */
function servedPath(path: string): boolean {
  if (path === OPENAPI_PATH || path === `${OPENAPI_PATH}/`) return true;
  for (const root of PLUGIN_ROOTS) {
    if (path.startsWith(root) && (path.length === root.length || path.charCodeAt(root.length) === 0x2f)) return true;
  }
  return false;
}

/** The path of a request target (before `?`); an absolute-form target's path; undefined for one that has none (`*`, garbage): the mock answers those. */
function pathOfTarget(rawUrl: string): string | undefined {
  const query = rawUrl.indexOf('?');
  const target = query < 0 ? rawUrl : rawUrl.slice(0, query);
  if (target.charCodeAt(0) === 0x2f) return target;
  try {
    const url = new URL(target);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.pathname : undefined;
  } catch {
    return undefined;
  }
}

/** A percent escape, a repeated slash or a dot segment: the rare paths read more than one way. */
const NEEDS_NORMALISING = /%|\/\/|\/\./;

/** Each `/`-separated segment percent-decoded once (a segment with a malformed escape stays as it is; one that decodes to `/` splits). */
function decodeSegments(path: string): string {
  return path
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
}

/** Repeated slashes merged, `.` and `..` segments resolved. */
function resolveSegments(path: string): string {
  const kept: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') kept.pop();
    else kept.push(segment);
  }
  return `/${kept.join('/')}`;
}
