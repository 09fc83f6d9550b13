/**
 * The package's programmatic API, for a team's own tests and tools.
 * (`index.js` loads this file through tsx, so plain Node can import the package.)
 */
export * from './lib/paging.ts';
export * from './lib/api-rules.ts';
export * from './fixtures/index.ts';
export { startMockServer, resolveDataset, type MockServer, type MockServerOptions } from './mock-server/server.ts';
export { createApp, type AppOptions } from './mock-server/app.ts';
export { DatasetHolder } from './mock-server/dataset-holder.ts';
