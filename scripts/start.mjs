// `npm start [-- <serve options>]`: builds what changed (scripts/build.mjs --incremental), then runs
// `store-listing-kit serve` in this same process. package.json runs it with `exec`, so npm's child is
// this node process and not a shell: npm passes SIGTERM and SIGINT on to its child, and a shell
// chain (`build && serve`) does not pass them on (dash forks even a lone command, and catches
// SIGINT under `-c`), which left the server holding its port after `kill <npm's pid>`
// (docs/architecture.md, "Scripts stop what they start").
//
// The build runs as a child in its own process group (tsc runs under it), so a signal during the
// build stops the whole build and this process ends with 0, as a signal-requested stop of `serve` does.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const build = fileURLToPath(new URL('./build.mjs', import.meta.url));
const bin = fileURLToPath(new URL('../bin/store-listing-kit.js', import.meta.url));

function buildIncrementally() {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [build, '--incremental'], { stdio: 'inherit', detached: true });
    const stop = (signal) => {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // the build has ended already
      }
      process.exit(0);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    child.on('error', (error) => resolve(`could not run the build: ${error.message}`));
    child.on('exit', (code, signal) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(code === 0 ? undefined : `the build failed (${signal ?? `exit ${code}`}), so the server cannot start`);
    });
  });
}

const failed = await buildIncrementally();
if (failed) {
  process.stderr.write(`error: ${failed}\n`);
  process.exit(2);
}
process.argv = [process.argv[0], bin, 'serve', ...process.argv.slice(2)];
await import('../bin/store-listing-kit.js');
