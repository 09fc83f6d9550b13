/**
 * The child process in which `verify` runs Pact's verifier (cli/verify-run.ts starts it). Pact's
 * native core writes its report and its logs straight to the process's standard output, with no
 * switch to turn it off: here that output is a pipe the parent reads, and keeps (`--verbose`,
 * `--pact-log <file>`) or drops. The options come over the IPC channel, the results go back over it.
 */
import type { ProviderResult, VerifyOptions } from '../contracts/verify.ts';
import { releaseHoldsOnSignal } from './release-on-signal.ts';
import { hideDependencyDeprecation } from './warnings.ts';

// Pact's verifier proxies the provider-state calls through http-proxy: Node 22+ would print DEP0060
// on the user's terminal (--verbose) or into the report, as in the parent process (cli/warnings.ts).
hideDependencyDeprecation();

/** What the worker answers: the results, or why it could not run (VerifyConfigError: exit 2), or what else stopped it. */
export type WorkerAnswer = { results: ProviderResult[] } | { cannotRun: string } | { crashed: string };

function answer(message: WorkerAnswer): void {
  process.send!(message, () => process.disconnect());
}

// Stopped (the parent passes its SIGINT or SIGTERM on): the run's provider-state hold is released first.
releaseHoldsOnSignal();

process.once('message', (options: VerifyOptions) => {
  void (async () => {
    try {
      const { VerifyConfigError, verifyProviders } = await import('../contracts/verify.ts');
      try {
        answer({ results: await verifyProviders(options) });
      } catch (error) {
        if (error instanceof VerifyConfigError) answer({ cannotRun: error.message });
        else answer({ crashed: error instanceof Error ? error.message : String(error) });
      }
    } catch (error) {
      answer({ crashed: error instanceof Error ? error.message : String(error) });
    }
  })();
});
