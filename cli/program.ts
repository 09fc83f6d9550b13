import { readFileSync } from 'node:fs';
import { Command } from 'commander';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

/** The `store-listing-kit` program without its commands: name, description, version, error help. */
export function baseProgram(): Command {
  return new Command('store-listing-kit')
    .description('Mock server, Pact contracts and property checks for the paginated reviews and wishlist listing endpoints')
    .version(version)
    .showHelpAfterError('(run with --help for usage)');
}
