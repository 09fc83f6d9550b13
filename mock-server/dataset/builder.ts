import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Steps } from '../../fixtures/steps.ts';

/**
 * Builds a dataset off the request path: runs its steps (fixtures/steps.ts) for at most
 * SLICE_MS at a time, then lets the event loop answer whatever requests have arrived,
 * and goes on. A million reviews take about 300 ms of work either way; this way a turn of
 * the event loop waits at most one slice for it, where a build in one go holds every
 * request for the whole 300 ms (measurements: README, "Admin API").
 */

/** The longest stretch of building before requests get a turn. */
export const SLICE_MS = 8;

/** What a build ended with: the result, or `undefined` when it was abandoned. */
export async function buildBetweenRequests<T>(steps: Steps<T>, abandoned: () => boolean = () => false): Promise<T | undefined> {
  let sliceStart = performance.now();
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (performance.now() - sliceStart >= SLICE_MS) {
      await nextTurn();
      if (abandoned()) {
        steps.return(undefined as never);
        return undefined;
      }
      sliceStart = performance.now();
    }
  }
}
