// `npm run build` (and `prepare`, so `npm ci` and a git install build it): compiles the sources
// into dist/ with tsc (tsconfig.build.json), then copies the committed pacts beside the compiled
// contracts. `--incremental` keeps dist/ and recompiles only what changed (the test suite's
// global set-up); without it dist/ is rebuilt from nothing, so no stale module is ever packed.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = `${root}dist`;

export function build({ incremental = false } = {}) {
  if (!incremental) rmSync(dist, { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, encoding: 'utf8' });
  // Type errors still emit (that is `npm run typecheck`'s job to refuse); no output at all is a failure.
  if (result.status !== 0) process.stderr.write(result.stdout + result.stderr);
  if (!existsSync(`${dist}/cli/main.js`)) throw new Error(`tsc produced no build (exit ${result.status})`);
  if (!incremental && result.status !== 0) throw new Error(`tsc failed (exit ${result.status})`);
  cpSync(`${root}contracts/pacts`, `${dist}/contracts/pacts`, { recursive: true });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    build({ incremental: process.argv.includes('--incremental') });
  } catch (error) {
    process.stderr.write(`build: ${error.message}\n`);
    process.exitCode = 1;
  }
}
