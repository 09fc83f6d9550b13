import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The pack-and-install test is `npm run test:package` (test/vitest.package.config.ts): it installs from the registry.
    exclude: [...configDefaults.exclude, 'test/pack-install.test.ts'],
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
