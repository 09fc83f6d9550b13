/**
 * vitest's global set-up: compiles the sources into dist/ (incrementally: only what changed)
 * before any test runs, because the tests that start the command line as a child process run
 * bin/store-listing-kit.js, which runs the build, as it does for users.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  const script = fileURLToPath(new URL('../../scripts/build.mjs', import.meta.url));
  execFileSync(process.execPath, [script, '--incremental'], { stdio: 'inherit' });
}
