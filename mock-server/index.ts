/**
 * `store-listing-kit/mock-server`: the mock server's parts, for a team that builds its own server
 * or mounts the routes in an Express app of its own. Loads Express.
 */
export { startMockServer, resolveDataset, type MockServer, type MockServerOptions } from './server.ts';
export type { MockCluster, MockClusterOptions } from './cluster/start-cluster.ts';
export { createApp, type AppOptions } from './front/app.ts';
export { DatasetHolder } from './dataset/holder.ts';
export { providerStatesRouter } from './admin/provider-states.ts';
export { pactStateHandlers, applyStateChange } from './state/provider-states.ts';
export { writePactFiles, type PactFileSource } from './pacts/files.ts';
export type { BackendAnswerHook, BackendExchange, BodySink } from './backend/hooks.ts';
