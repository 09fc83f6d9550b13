// `npm run test:msw3`: the MSW equivalence and catalogue tests (test/msw-equivalence.test.ts,
// test/msw-catalogue.test.ts) with msw 3, which needs Node 22.12+: installs msw@3 and Node 22
// (the npm package `node@22`) into a temporary folder, then runs vitest with that Node and
// test/vitest.msw3.config.ts. The main suite covers msw 2 on Node 20. Exit code: vitest's, or 1
// when the install fails.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'store-listing-kit-msw3-'));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

// SIGINT/SIGTERM (Ctrl-C, or `kill` of npm's pid: package.json runs this script with `exec`) reach
// the step under way, which ends; then the folder goes and the exit code is 130/143. (spawnSync
// would leave the step running: this process would die at once, its child unsignalled.)
let current;
let stoppedBy;
for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]]) {
  process.on(signal, () => {
    stoppedBy ??= code;
    current?.kill(signal);
  });
}

/** Runs one step to its end: its exit code (1 when it could not start or was killed). */
function run(command, args, options) {
  return new Promise((resolve) => {
    const child = spawn(command, args, options);
    current = child;
    child.on('error', (error) => {
      process.stderr.write(`test:msw3: ${command} could not start: ${error.message}\n`);
      resolve(1);
    });
    child.on('close', (code) => {
      current = undefined;
      resolve(code ?? 1);
    });
  });
}

try {
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ private: true }));
  const install = await run(npm, ['install', '--no-save', '--no-audit', '--no-fund', '--loglevel=error', 'msw@3', 'node@22'], { cwd: dir, stdio: 'inherit' });
  if (stoppedBy === undefined && install !== 0) {
    process.stderr.write(`test:msw3: npm install msw@3 node@22 failed (exit ${install})\n`);
    process.exitCode = 1;
  } else if (stoppedBy === undefined) {
    const node22 = join(dir, 'node_modules', '.bin', process.platform === 'win32' ? 'node.cmd' : 'node');
    const vitest = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
    process.exitCode = await run(node22, [vitest, 'run', '--config', 'test/vitest.msw3.config.ts'], { cwd: root, stdio: 'inherit', env: { ...process.env, MSW3_DIR: dir, CI: 'true' } });
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
if (stoppedBy !== undefined) process.exitCode = stoppedBy;
