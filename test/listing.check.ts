// Run by `npm run properties` (test/vitest.properties.config.ts), never by plain `npm test`.
// BASE_URL=http://host:port checks that server; without BASE_URL it starts the mock (seed 1).
// STRICT=1 adds the [kit] rules; RUNS, SEED and MAX_PAGE_SIZE as for `store-listing-kit check`.
import { afterAll, beforeAll } from 'vitest';
import { startMockServer, type MockServer } from '../mock-server/server.ts';
import { describeListingProperties } from '../properties/vitest.ts';

const env = process.env;
// test/vitest.properties.config.ts copies the caller's BASE_URL here (Vite overwrites BASE_URL itself).
const BASE_URL = env.LISTING_BASE_URL || undefined;
let mock: MockServer | undefined;

beforeAll(async () => {
  if (!BASE_URL) mock = await startMockServer({ seed: 1 });
});
afterAll(async () => {
  await mock?.close();
});

describeListingProperties(BASE_URL ? `listing properties of ${BASE_URL}` : 'listing properties of the mock server', {
  baseUrl: () => BASE_URL ?? mock!.url,
  strict: env.STRICT === '1' || env.STRICT === 'true',
  ...(env.RUNS ? { runs: Number(env.RUNS) } : {}),
  ...(env.SEED ? { seed: Number(env.SEED) } : {}),
  ...(env.MAX_PAGE_SIZE ? { maxPageSize: Number(env.MAX_PAGE_SIZE) } : {}),
});
