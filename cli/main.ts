import type { Command } from 'commander';
import { registerCheckCommand } from './check.ts';
import { registerFixturesCommand } from './fixtures.ts';
import { registerServeCommand } from './serve.ts';
import { registerVerifyCommand } from './verify.ts';
import { baseProgram } from './program.ts';

// Pact's usage reporting needs the internet; the kit never sends it.
process.env.PACT_DO_NOT_TRACK ??= 'true';

export function buildProgram(): Command {
  const program = baseProgram();
  registerServeCommand(program);
  registerFixturesCommand(program);
  registerCheckCommand(program);
  registerVerifyCommand(program);
  return program;
}

export async function main(argv: string[]): Promise<void> {
  await buildProgram().parseAsync(argv);
}
