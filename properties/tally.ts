/**
 * Who pays for a request, and whose note is whose. Each property's result counts the requests its
 * verdict needed, the same with `--concurrency 1` as with 16, although properties and their runs
 * are evaluated side by side: the count follows the async context a request is sent from
 * (AsyncLocalStorage), not a global counter. Each scope has a place in the order of a one-at-a-time
 * run (the check's index in the plan, then the run's index in seed order); work shared between
 * scopes (the whole set of a listing, fetched once and cached) counts once, for the earliest scope
 * that asked for it, as a one-at-a-time run would have counted it. The notes follow the same order.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** Runs of one check fit between two checks' places. */
const RUNS_PER_CHECK = 1_000_000;

/**
 * The place of a scope in a one-at-a-time run: `run` -1 is the check's build (discovery, whole sets),
 * then its runs 0, 1, ... in seed order (a fraction sits between two runs).
 */
export const placeOf = (check: number, run: number): number => check * RUNS_PER_CHECK + run + 1;

/** The check a place belongs to. */
export const checkOf = (place: number): number => Math.floor(place / RUNS_PER_CHECK);

export class Tally {
  /** Requests sent from this scope itself. */
  private direct = 0;
  /** Shared work this scope asked for (it pays for the work when it is its earliest asker). */
  private readonly asked = new Set<Tally>();
  /** For shared work: the scopes that asked for it. */
  private readonly askers = new Set<Tally>();
  private voided = false;

  /** @param own the scope's place (placeOf); shared work has none of its own, it takes its earliest asker's */
  constructor(private readonly own?: number) {}

  /** Where the scope stands in a one-at-a-time run; a void scope (a run that one would not have made) is last. */
  get place(): number {
    if (this.voided) return Number.POSITIVE_INFINITY;
    if (this.own !== undefined) return this.own;
    return this.payer?.place ?? Number.POSITIVE_INFINITY;
  }

  /** For shared work: the earliest asker that counts (judged when asked: the checks before have ended by then). */
  private get payer(): Tally | undefined {
    let best: Tally | undefined;
    for (const t of this.askers) if (t.place !== Number.POSITIVE_INFINITY && (!best || t.place < best.place)) best = t;
    return best;
  }

  get requests(): number {
    let n = this.direct;
    for (const work of this.asked) if (work.payer === this) n += work.requests;
    return n;
  }

  count(): void {
    this.direct += 1;
  }

  ask(work: Tally): void {
    this.asked.add(work);
    work.askers.add(this);
  }

  /** A run sent ahead of a failure, which a one-at-a-time run would not have made: it counts for nothing, its shared work for the next asker. */
  void(): void {
    this.voided = true;
  }
}

const scope = new AsyncLocalStorage<Tally>();

/** Runs `fn` with the requests it sends (and the async work it starts) counted by `tally`. */
export const within = <T>(tally: Tally, fn: () => T): T => scope.run(tally, fn);

/** The scope of the caller (undefined outside a property: the probe, the dataset door). */
export const currentTally = (): Tally | undefined => scope.getStore();

/** Counts one request for the scope it is sent from. */
export function countRequest(): void {
  scope.getStore()?.count();
}

/** A piece of work shared by whoever asks for it (a cached whole set): its requests count once. */
export class SharedWork<T> {
  readonly promise: Promise<T>;
  private readonly tally = new Tally(undefined);
  private readonly startedBy = scope.getStore()?.place;

  constructor(work: () => Promise<T>) {
    scope.getStore()?.ask(this.tally);
    this.promise = within(this.tally, work);
  }

  /** Another asker: it pays instead when it comes earlier in a one-at-a-time run. */
  claim(): Promise<T> {
    scope.getStore()?.ask(this.tally);
    return this.promise;
  }

  /**
   * Whether the caller is of another check than the one that started the work: had the checks run
   * one after the other, it would have asked only after the work ended (a failed one is not cached).
   */
  startedByAnotherCheck(): boolean {
    const here = scope.getStore();
    return here !== undefined && this.startedBy !== undefined && checkOf(here.place) !== checkOf(this.startedBy);
  }
}
