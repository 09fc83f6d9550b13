import { registerCheckCommand } from './check.ts';
import { baseProgram, endQuietlyWhenTheReaderLeaves, withExitCodes } from './program.ts';

/**
 * `store-listing-kit check …` on its own: the same command as in cli/main.ts, without loading the
 * other commands' modules (Pact's native core, the mock server and Express), which cost about a
 * quarter of a second of every run's CPU. bin/store-listing-kit.js picks this entry when the first
 * argument is `check`.
 */
export async function main(argv: string[]): Promise<void> {
  endQuietlyWhenTheReaderLeaves();
  const program = baseProgram();
  registerCheckCommand(program);
  await withExitCodes(program).parseAsync(argv);
}
