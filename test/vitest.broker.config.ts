// `npm run test:broker` (scripts/test-broker.mjs): the tests under test/broker/ against the official
// Pact Broker, which the script installs and starts; its URL and credentials come in
// PACT_BROKER_BASE_URL, PACT_BROKER_USERNAME and PACT_BROKER_PASSWORD. Kept apart from the main
// config: plain `npm test` needs only Node and npm.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: ['test/broker/**/*.broker.test.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
    pool: 'forks',
    // one broker: the files run one after another, and each file's tests in order (a round trip)
    fileParallelism: false,
    sequence: { concurrent: false },
    testTimeout: 120_000,
    hookTimeout: 120_000,
    env: { PACT_DO_NOT_TRACK: 'true' },
  },
});
