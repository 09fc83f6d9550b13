import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Tests that need more than Node and npm run behind their own scripts, which .ci/run calls after
    // installing what they need: `npm run test:package` (the pack-and-install test: it installs from the
    // registry), `npm run test:browser` (Debian's Chromium), `npm run test:medusa` (PostgreSQL and a
    // real Medusa backend).
    exclude: [...configDefaults.exclude, 'test/pack-install.test.ts', 'test/browser/**', 'test/medusa/**', 'test/broker/**'],
    globalSetup: ['./test/support/build-setup.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
    // Pact's native core must not be driven from parallel threads: separate processes,
    // and no concurrency inside a file.
    pool: 'forks',
    sequence: { concurrent: false },
    testTimeout: 30_000,
    hookTimeout: 30_000,
    env: { PACT_DO_NOT_TRACK: 'true' },
  },
});
