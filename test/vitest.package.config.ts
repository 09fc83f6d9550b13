// `npm run test:package`: the pack-and-install test (test/pack-install.test.ts), apart from `npm test`
// because it installs the packed kit into a scratch project (about a minute with a warm npm cache).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: ['test/pack-install.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 480_000,
    sequence: { concurrent: false },
    env: { PACT_DO_NOT_TRACK: 'true' },
  },
});
