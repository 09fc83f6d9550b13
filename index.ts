/**
 * `store-listing-kit`: what a team's own tests start with. The page arithmetic, the datasets and
 * the storefront client load with it; the mock server (Express), the property runner (fast-check)
 * and the verifier (Pact) load on the first call of `startMockServer`, `runListingProperties` or
 * `verifyProviders`, so that importing the package stays cheap (bench: the root import under 0.3 s).
 *
 * Each part also has its own entry, loaded eagerly: `store-listing-kit/mock-server` (createApp,
 * DatasetHolder, the provider-state router), `/contracts`, `/properties`, `/properties/vitest`,
 * `/protocol` (the page arithmetic alone) and `/schemas`.
 */
import type { MockCluster, MockClusterOptions } from './mock-server/cluster/start-cluster.ts';
import type { MockServer, MockServerOptions } from './mock-server/server.ts';
import type { CheckOptions } from './properties/options.ts';
import type { CheckReport, RunHooks } from './properties/runner.ts';
import type { ProviderResult, VerifyOptions } from './contracts/verify.ts';

export * from './lib/protocol.ts';
export * from './fixtures/index.ts';
export { STATES, STATE_NAMES, given, type GivenState } from './lib/provider-states.ts';
export { StorefrontClient, StorefrontApiError, type StorefrontClientOptions } from './contracts/client.ts';
export type { MockServer, MockServerOptions, MockCluster, MockClusterOptions, CheckOptions, CheckReport, RunHooks, VerifyOptions, ProviderResult };

/** Starts the mock server in this process (or `workers` processes); see `store-listing-kit/mock-server`. */
export async function startMockServer(options?: MockServerOptions): Promise<MockServer>;
export async function startMockServer(options: MockClusterOptions): Promise<MockCluster>;
export async function startMockServer(options: MockServerOptions | MockClusterOptions = {}): Promise<MockServer | MockCluster> {
  const server = await import('./mock-server/server.ts');
  return server.startMockServer(options as MockServerOptions);
}

/** Runs the property suite against a server; see `store-listing-kit/properties` for its report formats and errors. */
export async function runListingProperties(options: CheckOptions, hooks?: RunHooks): Promise<CheckReport> {
  const properties = await import('./properties/runner.ts');
  return properties.runListingProperties(options, hooks);
}

/** Verifies a running provider against the storefront's pacts; see `store-listing-kit/contracts`. */
export async function verifyProviders(options: VerifyOptions): Promise<ProviderResult[]> {
  const contracts = await import('./contracts/verify.ts');
  return contracts.verifyProviders(options);
}
