// The example storefront's own test run: `npx vitest run --config examples/storefront-pacts/vitest.config.ts`
// (from the kit's root), or `npx vitest run` in a copy of this folder. Kept out of the kit's `npm test`
// globs (test/**); the kit runs it from test/example-storefront-pacts.test.ts.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: {
    include: ['**/*.pact.test.ts'],
    // one mock server per file, the provider state set test by test: no concurrency inside a file
    sequence: { concurrent: false },
    testTimeout: 30_000,
    hookTimeout: 30_000,
    env: { PACT_DO_NOT_TRACK: 'true' },
  },
});
