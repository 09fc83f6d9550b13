// `npm run test:msw3`: the MSW equivalence test (test/msw-equivalence.test.ts) with msw 3, which
// needs Node 22.12+: installs msw@3 and Node 22 (the npm package `node@22`) into a temporary
// folder, then runs vitest with that Node and test/vitest.msw3.config.ts. The main suite covers
// msw 2 on Node 20. Exit code: vitest's, or 1 when the install fails.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'store-listing-kit-msw3-'));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
try {
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ private: true }));
  const install = spawnSync(npm, ['install', '--no-save', '--no-audit', '--no-fund', '--loglevel=error', 'msw@3', 'node@22'], { cwd: dir, stdio: 'inherit' });
  if (install.status !== 0) {
    process.stderr.write(`test:msw3: npm install msw@3 node@22 failed (exit ${install.status})\n`);
    process.exitCode = 1;
  } else {
    const node22 = join(dir, 'node_modules', '.bin', process.platform === 'win32' ? 'node.cmd' : 'node');
    const vitest = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
    const run = spawnSync(node22, [vitest, 'run', '--config', 'test/vitest.msw3.config.ts'], { cwd: root, stdio: 'inherit', env: { ...process.env, MSW3_DIR: dir, CI: 'true' } });
    process.exitCode = run.status ?? 1;
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
