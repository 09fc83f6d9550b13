#!/usr/bin/env node
// The command line: runs the compiled CLI in dist/ (`npm run build`, which `npm ci` runs through `prepare`).
import { existsSync } from 'node:fs';

// The last resort (docs/exit-codes.md): whatever escapes a command is one line on stderr and exit 2
// ("cannot run"), never a stack trace, unless DEBUG=store-listing-kit asks for it. Plain JavaScript,
// so that it holds even when a TypeScript module fails to load.
const debug = /(^|,)\s*(store-listing-kit|\*)\s*(,|$)/.test(process.env.DEBUG ?? '');
// commander's errors, and the commands' own `cmd.error(...)` / `cannotRun(...)`, are reported already:
// only their exit code counts.
const isCommanderError = (error) => error instanceof Error && error.name === 'CommanderError' && typeof error.exitCode === 'number';

function lastResort(error, { now }) {
  if (isCommanderError(error)) {
    process.exitCode = error.exitCode;
  } else {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`error: ${message.split('\n')[0] || (error instanceof Error ? error.name : 'unknown error')}\n`);
    if (debug && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
    process.exitCode = 2;
  }
  if (now) process.exit();
}

process.on('uncaughtException', (error) => lastResort(error, { now: true }));
process.on('unhandledRejection', (error) => lastResort(error, { now: true }));

// `serve` loads only its own command: its first answer must not wait for the other commands' modules;
// `proxy` the same; `check` only its own too, as the other commands' modules would add to the CPU of
// every run. (A promise chain, not top-level await: nothing of the package uses top-level await.)
const ownEntries = { serve: '../dist/cli/serve-main.js', proxy: '../dist/cli/proxy-main.js', check: '../dist/cli/check-main.js' };
const entry = new URL(Object.hasOwn(ownEntries, process.argv[2] ?? '') ? ownEntries[process.argv[2]] : '../dist/cli/main.js', import.meta.url);
Promise.resolve()
  .then(() => {
    if (!existsSync(entry)) throw new Error('store-listing-kit is not built: run `npm run build` in its folder (npm ci and npm install run it)');
    return import(entry.href);
  })
  .then(({ main }) => main(process.argv))
  .then(() => (finished = true))
  .catch((error) => {
    finished = true;
    lastResort(error, { now: false });
  });

// A command whose work never settles (a promise nothing will resolve) would let the event loop
// drain and end the process silently with exit 0: no verdict is not a pass.
let finished = false;
process.on('beforeExit', () => {
  if (finished || process.exitCode !== undefined) return;
  process.stderr.write('error: the command stopped before it finished (something it waited for never answered)\n');
  process.exitCode = 2;
});
