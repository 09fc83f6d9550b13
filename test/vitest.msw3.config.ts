// `npm run test:msw3` (scripts/test-msw3.mjs): the MSW equivalence and catalogue tests with msw 3, installed in
// MSW3_DIR (msw 3 needs Node 22.12+, which the script runs this with). `msw` and `msw/node` resolve
// to that install; everything else to the repository's own node_modules.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const dir = process.env.MSW3_DIR;
if (!dir) throw new Error('MSW3_DIR is not set: run `npm run test:msw3`');
const root = join(dir, 'node_modules', 'msw');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string; exports: Record<string, { default: string }> };
if (!pkg.version.startsWith('3.')) throw new Error(`${root} holds msw ${pkg.version}, not 3.x`);
const entry = (subpath: string) => join(root, pkg.exports[subpath]!.default);

export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  resolve: {
    alias: [
      { find: /^msw$/, replacement: entry('.') },
      { find: /^msw\/node$/, replacement: entry('./node') },
      { find: /^msw\/package\.json$/, replacement: join(root, 'package.json') },
    ],
  },
  test: {
    include: ['test/msw-equivalence.test.ts', 'test/msw-catalogue.test.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
    pool: 'forks',
    sequence: { concurrent: false },
    testTimeout: 30_000,
    hookTimeout: 30_000,
    env: { MSW_EXPECTED_VERSION: pkg.version },
  },
});
