#!/usr/bin/env node
// Runs the TypeScript CLI directly (through tsx), so there is no build step.
import { register } from 'tsx/esm/api';

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

try {
  register();
  // `serve` loads only its own command: a large dataset's first answer must not wait for Pact.
  const { main } = await import(process.argv[2] === 'serve' ? '../cli/serve-main.ts' : '../cli/main.ts');
  await main(process.argv);
} catch (error) {
  lastResort(error, { now: false });
}
