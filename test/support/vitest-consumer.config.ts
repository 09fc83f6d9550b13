import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** The child vitest of test/properties-vitest.test.ts: only the consumer's file, nothing of the kit's own suite. */
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: { include: ['test/support/vitest-consumer.check.ts'], reporters: ['json'], testTimeout: 60_000 },
});
