/**
 * How a running mock loads a module on the first request that needs it, not at start-up (each such
 * module pulls in zod or more, for requests many runs never make): through `lazily`, beside its user
 * (admin/routes.ts: the admin bodies' schemas; state/changes.ts and front/app.ts: the provider states;
 * front/app.ts: the OpenAPI document).
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

