// `npm run test:medusa` (scripts/test-medusa.mjs): the tests under test/medusa/ against a real Medusa 2
// backend with the published plugins, which the script sets up; $MEDUSA_FIXTURE names the JSON file
// of what it created. Kept apart from the main config: plain `npm test` needs only Node and npm.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: ['test/medusa/**/*.medusa.test.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
    pool: 'forks',
    // one backend, one database: the files run one after another
    fileParallelism: false,
    sequence: { concurrent: false },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    env: { PACT_DO_NOT_TRACK: 'true' },
  },
});
