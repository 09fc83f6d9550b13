import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { registerCheckCommand } from './check.ts';
import { registerFixturesCommand } from './fixtures.ts';
import { registerServeCommand } from './serve.ts';
import { registerVerifyCommand } from './verify.ts';

// Pact's usage reporting needs the internet; the kit never sends it.
process.env.PACT_DO_NOT_TRACK ??= 'true';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

export function buildProgram(): Command {
  const program = new Command('store-listing-kit')
    .description('Mock server, Pact contracts and property checks for the paginated reviews and wishlist listing endpoints')
    .version(version)
    .showHelpAfterError('(run with --help for usage)');
  registerServeCommand(program);
  registerFixturesCommand(program);
  registerCheckCommand(program);
  registerVerifyCommand(program);
  return program;
}

export async function main(argv: string[]): Promise<void> {
  await buildProgram().parseAsync(argv);
}
