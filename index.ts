/**
 * `store-listing-kit`: the programmatic API for a team's own tests and tools: the mock server
 * in-process, its datasets, the page arithmetic, the storefront client and the property runner.
 *
 * Pact loads only when `verifyProviders` is called (its native core would add most of a second
 * to every import); the rest of the contracts' API is `store-listing-kit/contracts`.
 */
import type { ProviderResult, VerifyOptions } from './contracts/verify.ts';

export * from './lib/protocol.ts';
export * from './fixtures/index.ts';
export { startMockServer, resolveDataset, type MockServer, type MockServerOptions } from './mock-server/server.ts';
export type { MockCluster, MockClusterOptions } from './mock-server/cluster.ts';
export { createApp, type AppOptions } from './mock-server/app.ts';
export { DatasetHolder } from './mock-server/dataset-holder.ts';
export { providerStatesRouter, pactStateHandlers, applyStateChange } from './mock-server/provider-states.ts';
export { STATES, STATE_NAMES, given, type GivenState } from './lib/provider-states.ts';
export { StorefrontClient, StorefrontApiError } from './contracts/client.ts';
export type { VerifyOptions, ProviderResult } from './contracts/verify.ts';
// properties/ (for vitest: 'store-listing-kit/properties/vitest')
export { runListingProperties, CannotRunError, PROPERTY_IDS, summaryText, fullText, jsonReport, junitReport } from './properties/index.ts';
export type { CheckOptions, CheckReport } from './properties/index.ts';

/** Verifies a running provider against the storefront's pacts (see `store-listing-kit/contracts`); loads Pact on first call. */
export async function verifyProviders(options: VerifyOptions): Promise<ProviderResult[]> {
  const verify = await import('./contracts/verify.ts');
  return verify.verifyProviders(options);
}
