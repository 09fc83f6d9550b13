import { baseProgram, endQuietlyWhenTheReaderLeaves } from './program.ts';
import { registerServeCommand } from './serve.ts';
import { hideDependencyDeprecation } from './warnings.ts';

// http-proxy (serve --backend) calls util._extend: cli/warnings.ts.
hideDependencyDeprecation('DEP0060');

/**
 * `store-listing-kit serve …` on its own: the same command as in cli/main.ts, without
 * loading the other commands' modules (Pact's native core, the property suite), which
 * would add most of a second to every start. bin/store-listing-kit.js picks this entry
 * when the first argument is `serve`.
 */
export async function main(argv: string[]): Promise<void> {
  endQuietlyWhenTheReaderLeaves();
  const program = baseProgram();
  registerServeCommand(program);
  await program.parseAsync(argv);
}
