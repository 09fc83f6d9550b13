/**
 * The package's programmatic API, for a team's own tests and tools.
 * (`index.js` loads this file through tsx, so plain Node can import the package.)
 */
export * from './lib/paging.ts';
export * from './lib/api-rules.ts';
export * from './fixtures/index.ts';
export { startMockServer, resolveDataset, type MockServer, type MockServerOptions } from './mock-server/server.ts';
export type { MockCluster, MockClusterOptions } from './mock-server/cluster.ts';
export { createApp, type AppOptions } from './mock-server/app.ts';
export { DatasetHolder } from './mock-server/dataset-holder.ts';
export { providerStatesRouter, pactStateHandlers, applyStateChange } from './mock-server/provider-states.ts';
export { PROVIDER_STATES_PATH, STATES, STATE_NAMES, given } from './lib/provider-states.ts';
// contracts/
export { StorefrontClient, StorefrontApiError } from './contracts/client.ts';
export { verifyProviders, VerifyConfigError } from './contracts/verify.ts';
// properties/ (for vitest: 'store-listing-kit/properties/vitest')
export { runListingProperties, CannotRunError, PROPERTY_IDS, summaryText, fullText, jsonReport, junitReport } from './properties/index.ts';
