/**
 * Runs one built property as fast-check would run it alone, with up to `concurrency` of its runs
 * in flight at once, and the same outcome: the same cases, the same first failure in seed order,
 * the same shrunk counterexample and path, the same number of runs and shrinks.
 *
 * How: the property's cases are drawn up front with its seed (by fast-check itself: `fc.check` of a
 * property that only records its cases), then evaluated side by side, in seed order, until they all pass or one fails. A failure
 * is handed to fast-check itself: `fc.check` with the same seed, told that the runs before the first
 * failing one passed (they are not sent again), runs that case and shrinks it one run at a time, as
 * a one-at-a-time run does. Runs after the first failure that were already in flight are dropped.
 */
import fc from 'fast-check';
import { placeOf, Tally, within } from './tally.ts';

type AsyncProperty = fc.IAsyncProperty<any>;
type RunOutcome = Awaited<ReturnType<AsyncProperty['run']>>;

export interface EvaluateOptions {
  seed: number;
  numRuns: number;
  /** Runs of the property in flight at once; 1 runs them one after the other (fast-check alone). */
  concurrency: number;
  /** No new run starts after this long; the runs made so far stand (fast-check's interruptAfterTimeLimit). */
  timeLimitMs: number;
  /** fast-check's counterexample path: replays exactly that case (one at a time). */
  path?: string;
  /** The check's own scope (its build already counted there), and its index in the plan (tally.ts). */
  tally: Tally;
  check: number;
  /** Called as runs finish (`runs` done so far) and when shrinking begins. */
  onProgress?(progress: { runs: number; shrinking: boolean }): void;
}

export interface Evaluation {
  failed: boolean;
  interrupted: boolean;
  numRuns: number;
  numShrinks: number;
  counterexample: unknown[] | null;
  counterexamplePath: string | null;
  errorInstance: unknown;
  /**
   * Requests the verdict needed (the build's included), as a one-at-a-time run counts them: final
   * once the checks before this one have ended (work they share moves to the earliest asker).
   */
  requests(): number;
}

/**
 * The cases `fc.check` runs `property` on with this seed, in order, without running them. (Not
 * `fc.sample`: it takes a property built by `fc.asyncProperty` for an arbitrary and draws other values.)
 */
export function drawCases(property: AsyncProperty, seed: number, numRuns: number): unknown[] {
  const cases: unknown[] = [];
  const recorder = {
    isAsync: () => false as const,
    generate: (mrng: fc.Random, runId?: number) => property.generate(mrng, runId),
    shrink: (value: fc.Value<unknown>) => property.shrink(value as fc.Value<any>),
    runBeforeEach: () => undefined,
    runAfterEach: () => undefined,
    run: (value: unknown) => {
      cases.push(value);
      return null;
    },
  } as unknown as fc.IRawProperty<unknown, false>;
  fc.check(recorder, { seed, numRuns });
  return cases;
}

const isFailure = (out: RunOutcome): boolean => out !== null && !fc.PreconditionFailure.isFailure(out);

/**
 * The property as fast-check sees it, with the first `passed` runs known to hold (answered without
 * running them) and every run reported to `onRun` until the first failure.
 */
function resumed(property: AsyncProperty, passed: number, onRun: (failed: boolean) => void): AsyncProperty {
  let calls = 0;
  let failedOnce = false;
  return {
    isAsync: () => true,
    generate: (mrng, runId) => property.generate(mrng, runId),
    shrink: (value) => property.shrink(value),
    runBeforeEach: () => property.runBeforeEach(),
    runAfterEach: () => property.runAfterEach(),
    run: async (value) => {
      calls += 1;
      if (calls <= passed) return null;
      const out = await property.run(value);
      if (!failedOnce) {
        failedOnce = isFailure(out);
        onRun(failedOnce);
      }
      return out;
    },
  };
}

async function withFastCheck(property: AsyncProperty, options: EvaluateOptions, passed: number, tally: Tally): Promise<Omit<Evaluation, 'requests'>> {
  let runs = passed;
  const watched = resumed(property, passed, (failed) => {
    if (!failed) runs += 1;
    options.onProgress?.({ runs: failed ? runs + 1 : runs, shrinking: failed });
  });
  const details = await within(tally, () =>
    fc.check(watched, {
      seed: options.seed,
      numRuns: options.numRuns,
      ...(options.path ? { path: options.path, endOnFailure: true } : {}),
      interruptAfterTimeLimit: options.timeLimitMs,
      markInterruptAsFailure: false,
    }),
  );
  return {
    failed: details.failed,
    interrupted: details.interrupted,
    numRuns: details.numRuns,
    numShrinks: details.numShrinks,
    counterexample: details.counterexample,
    counterexamplePath: details.counterexamplePath,
    errorInstance: details.errorInstance,
  };
}

/** Evaluates `property` (see the module comment). fast-check's own errors (a replay path leading nowhere) propagate. */
export async function evaluate(property: AsyncProperty, options: EvaluateOptions): Promise<Evaluation> {
  const { tally } = options;
  if (options.concurrency <= 1 || options.path) {
    const outcome = await withFastCheck(property, options, 0, tally);
    return { ...outcome, requests: () => tally.requests };
  }
  const began = Date.now();
  const cases = drawCases(property, options.seed, options.numRuns);
  const scopes = cases.map((_, i) => new Tally(placeOf(options.check, i)));
  const outcomes: Array<RunOutcome | undefined> = [];
  let next = 0;
  let done = 0;
  let firstFailure = Number.POSITIVE_INFINITY;
  let interrupted = false;
  let skipped = false;
  const worker = async () => {
    for (;;) {
      const i = next;
      // Runs after a known failure are not needed; none starts after the time limit.
      if (i >= cases.length || i > firstFailure) return;
      if (Date.now() - began > options.timeLimitMs) {
        interrupted = true;
        return;
      }
      next += 1;
      const out = await within(scopes[i]!, () => property.run(cases[i]));
      outcomes[i] = out;
      if (out !== null && fc.PreconditionFailure.isFailure(out)) skipped = true;
      if (isFailure(out)) firstFailure = Math.min(firstFailure, i);
      done += 1;
      if (i < firstFailure) options.onProgress?.({ runs: Math.min(done, cases.length), shrinking: false });
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, cases.length) }, worker));
  if (skipped) {
    // A run that skipped itself (fc.pre) makes fast-check draw another: only fast-check alone knows which.
    for (const s of scopes) s.void();
    const fresh = new Tally(placeOf(options.check, -0.5));
    const outcome = await withFastCheck(property, options, 0, fresh);
    return { ...outcome, requests: () => tally.requests + fresh.requests };
  }
  const counted = (upTo: number) => scopes.slice(0, upTo).reduce((n, s) => n + s.requests, 0);
  if (!Number.isFinite(firstFailure)) {
    // Every run started held: with the time limit reached, the runs made so far stand (as fast-check's).
    const runs = outcomes.filter((o) => o !== undefined).length;
    return { failed: false, interrupted, numRuns: runs, numShrinks: 0, counterexample: null, counterexamplePath: null, errorInstance: undefined, requests: () => tally.requests + counted(runs) };
  }
  // The failing case again, and its shrinking, by fast-check (with a time limit of its own, so that
  // the failure found stands); the runs from the failing one on, as sent side by side, count for nothing.
  for (const s of scopes.slice(firstFailure)) s.void();
  const replay = new Tally(placeOf(options.check, firstFailure - 0.5));
  const outcome = await withFastCheck(property, options, firstFailure, replay);
  return { ...outcome, requests: () => tally.requests + counted(firstFailure) + replay.requests };
}
