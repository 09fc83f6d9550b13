// `npm run test:browser`: the tests that drive headless Chromium (Debian's chromium package).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: ['test/browser/**/*.browser.test.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
    pool: 'forks',
    sequence: { concurrent: false },
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
