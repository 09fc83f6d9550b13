// `npm run test:medusa` (scripts/test-medusa.mjs): the tests under test/medusa/ against a real Medusa 2
// backend with the published plugins, which the script sets up, once per Medusa version; $MEDUSA_FIXTURE
// names the JSON file of what it created. The run is named after the version (`medusa 2.13.6`), which
// vitest prints before every file and failure. Kept apart from the main config: plain `npm test` needs
// only Node and npm.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

function medusaVersion(): string | undefined {
  try {
    return (JSON.parse(readFileSync(process.env.MEDUSA_FIXTURE ?? '', 'utf8')) as { medusaVersion?: string }).medusaVersion;
  } catch {
    return undefined; // no fixture: the tests say so themselves (test/support/medusa-backend.ts)
  }
}

export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    name: `medusa ${medusaVersion() ?? '(no $MEDUSA_FIXTURE)'}`,
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
