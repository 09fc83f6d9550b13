// `npm run properties`: the property suite against BASE_URL (or, without it, against a mock it starts).
// Kept apart from the main config so that plain `npm test` never runs it.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: ['test/listing.check.ts'],
    testTimeout: 600_000,
    hookTimeout: 60_000,
    sequence: { concurrent: false },
    // Vite sets BASE_URL ('/') inside the tests, hiding the caller's: pass it on under another name.
    env: { LISTING_BASE_URL: process.env.BASE_URL ?? '' },
  },
});
