// `npm run build` (and `prepare`, so `npm ci` and a git install build it): compiles the sources
// into dist/ with tsc (tsconfig.build.json), then copies the committed pacts beside the compiled
// contracts. `--incremental` keeps dist/ and recompiles only what changed (the test suite's
// global set-up); without it dist/ is rebuilt from nothing, so no stale module is ever packed.
//
// A build from nothing goes to a folder of its own (dist.next/), which then takes dist/'s place in
// one rename: a mock running from dist/ meanwhile (npm pack, npm install run `prepare`) never meets
// a half-deleted or half-written tree. Node keeps the failure of a module whose imports were
// missing for good, so a lazily loaded module caught half-way would fail until the mock restarts.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = `${root}dist`;
const next = `${root}dist.next`;
const old = `${root}dist.old`;

function compile(outDir, { incremental }) {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const args = [tsc, '-p', 'tsconfig.build.json', '--outDir', outDir, '--tsBuildInfoFile', `${outDir}/.tsbuildinfo`];
  const result = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8' });
  // Type errors still emit (that is `npm run typecheck`'s job to refuse); no output at all is a failure.
  if (result.status !== 0) process.stderr.write(result.stdout + result.stderr);
  if (!existsSync(`${outDir}/cli/main.js`)) throw new Error(`tsc produced no build (exit ${result.status})`);
  if (!incremental && result.status !== 0) throw new Error(`tsc failed (exit ${result.status})`);
  copyPacts(`${root}contracts/pacts`, `${outDir}/contracts/pacts`);
}

// The committed pacts beside the compiled contracts: a file already the same is left alone, and a
// changed one is written beside it and renamed into place, so a `verify` reading dist/ while an
// incremental build runs (`npm start`, the test suite's set-up) never meets a half-written pact.
function copyPacts(from, to) {
  mkdirSync(to, { recursive: true });
  for (const name of readdirSync(from)) {
    const bytes = readFileSync(`${from}/${name}`);
    const target = `${to}/${name}`;
    if (existsSync(target) && readFileSync(target).equals(bytes)) continue;
    writeFileSync(`${target}.next`, bytes);
    renameSync(`${target}.next`, target);
  }
}

export function build({ incremental = false } = {}) {
  if (incremental) return compile(dist, { incremental });
  for (const leftover of [next, old]) rmSync(leftover, { recursive: true, force: true });
  compile(next, { incremental });
  if (existsSync(dist)) renameSync(dist, old);
  renameSync(next, dist);
  rmSync(old, { recursive: true, force: true });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    build({ incremental: process.argv.includes('--incremental') });
  } catch (error) {
    process.stderr.write(`build: ${error.message}\n`);
    process.exitCode = 1;
  }
}
