/**
 * Modules a running mock loads on the first request that needs them, not at start-up (each pulls
 * in zod or more, for requests many runs never make), in one place, each through `lazily`.
 *
 * A load that fails is not kept: the next request tries again. A mock started from `dist/` keeps
 * running while `dist/` is rebuilt under it (`npm pack`, `npm install` and `npm ci` run `prepare`,
 * which deletes and recompiles it); a request in that window finds the module missing and answers
 * the documented 500, and the first request after the rebuild loads it. (Node keeps the failure of
 * a module whose own imports were missing; tsc writes every module after the ones it imports, so
 * a rebuild leaves that only to a request that meets a file half-written.)
 */

/** `load`, called on the first call and shared by every call while it runs and once it succeeded; after a failure, called again. */
export function lazily<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () =>
    (pending ??= load().catch((error: unknown) => {
      pending = undefined;
      throw error;
    }));
}

/** The provider states (mock-server/provider-states.ts: zod validation, the states' datasets). */
export const providerStatesModule = lazily(() => import('./provider-states.ts'));
/** The OpenAPI document and its route (zod's JSON Schema output). */
export const openApiModule = lazily(() => import('./openapi.ts'));
/** The admin bodies' schemas (zod). */
export const adminSchemasModule = lazily(() => import('./admin-schemas.ts'));
