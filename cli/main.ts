import type { Command } from 'commander';
import { registerCheckCommand } from './check.ts';
import { registerFixturesCommand } from './fixtures.ts';
import { registerOpenApiCommand } from './openapi.ts';
import { registerProxyCommand } from './proxy.ts';
import { registerServeCommand } from './serve.ts';
import { registerVerifyCommand } from './verify.ts';
import { baseProgram, endQuietlyWhenTheReaderLeaves, EXIT, withExitCodes } from './program.ts';
import { hideDependencyDeprecation } from './warnings.ts';

// Pact's usage reporting needs the internet; the kit never sends it.
process.env.PACT_DO_NOT_TRACK ??= 'true';
hideDependencyDeprecation('DEP0060');

export function buildProgram(): Command {
  const program = baseProgram();
  registerServeCommand(program);
  registerProxyCommand(program);
  registerFixturesCommand(program);
  registerCheckCommand(program);
  registerVerifyCommand(program);
  registerOpenApiCommand(program);
  return withExitCodes(program);
}

/** Runs the command line; errors reach bin/store-listing-kit.js, which turns them into exit codes. */
export async function main(argv: string[]): Promise<void> {
  endQuietlyWhenTheReaderLeaves();
  const program = buildProgram();
  if (argv.length <= 2) {
    // Commander would print the whole help on stderr; one sentence says what is missing.
    process.stderr.write(`error: no command given: one of ${program.commands.map((c) => c.name()).join(', ')} (run with --help for usage)\n`);
    process.exitCode = EXIT.cannotRun;
    return;
  }
  await program.parseAsync(argv);
}
