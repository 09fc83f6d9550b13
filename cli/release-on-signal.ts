import { releaseEveryRun } from '../client/state-run.ts';

/** How long a process stopped by a signal waits for its provider-state releases before it ends. */
const RELEASE_WITHIN_MS = 3_000;

/**
 * Until the returned function is called, a SIGINT or SIGTERM first releases every provider-state
 * hold this process may have (client/state-run.ts), then ends the process by that signal, as it would
 * have ended without this: Ctrl-C on `check --vary-dataset` or `verify` leaves the next run a mock it
 * can use at once, not a hold that lapses only after its lapse time. A second signal while the
 * release is under way (a terminal's Ctrl-C reaches verify's worker twice: from the terminal and from
 * its parent) changes nothing.
 */
export function releaseHoldsOnSignal(): () => void {
  let ending = false;
  const off = () => {
    process.off('SIGINT', on);
    process.off('SIGTERM', on);
  };
  function on(signal: NodeJS.Signals): void {
    if (ending) return;
    ending = true;
    void releaseEveryRun(RELEASE_WITHIN_MS).finally(() => {
      off();
      process.kill(process.pid, signal);
    });
  }
  process.on('SIGINT', on).on('SIGTERM', on);
  return off;
}
