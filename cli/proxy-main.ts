import { baseProgram, endQuietlyWhenTheReaderLeaves, keepTheVerdictWhenTheReaderLeaves } from './program.ts';
import { registerProxyCommand } from './proxy.ts';
import { hideDependencyDeprecation } from './warnings.ts';

// http-proxy (the proxy library) calls util._extend: cli/warnings.ts.
hideDependencyDeprecation('DEP0060');

/**
 * `store-listing-kit proxy …` on its own: the same command as in cli/main.ts, without loading the
 * other commands' modules (Pact's native core, the property suite). bin/store-listing-kit.js picks
 * this entry when the first argument is `proxy`.
 */
export async function main(argv: string[]): Promise<void> {
  endQuietlyWhenTheReaderLeaves();
  // The proxy has a verdict to give on exit: a reader of its lines that leaves does not change it.
  keepTheVerdictWhenTheReaderLeaves();
  const program = baseProgram();
  registerProxyCommand(program);
  await program.parseAsync(argv);
}
