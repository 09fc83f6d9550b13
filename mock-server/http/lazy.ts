/**
 * Modules a running mock loads on the first request that needs them, not at start-up (each pulls
 * in zod or more, for requests many runs never make), in one place, each through `lazily`.
 *
 * A load that fails is not kept: the next request tries again. So a mock started from `dist/`
 * whose files go missing for a while (`dist/` deleted and rebuilt by hand) answers the documented 500
 * meanwhile, and as usual once they are back. (Node itself keeps for good the failure of a module
 * met half-written, or whose own imports were missing: which is why scripts/build.mjs builds into a
 * folder of its own and swaps it in with one rename, as `prepare` runs it under `npm pack` and
 * `npm install`.)
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

/** The provider states (mock-server/admin/provider-states.ts: zod validation, the states' datasets). */
export const providerStatesModule = lazily(() => import('../admin/provider-states.ts'));
/** The OpenAPI document and its route (zod's JSON Schema output). */
export const openApiModule = lazily(() => import('../listings/openapi.ts'));
/** The admin bodies' schemas (zod). */
export const adminSchemasModule = lazily(() => import('../admin/schemas.ts'));
