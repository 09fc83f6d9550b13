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
  /** Shared work this scope is the earliest to have asked for. */
  private readonly adopted = new Set<Tally>();
  /** For shared work: the scope that pays for it (the earliest asker so far). */
  owner: Tally | undefined;

  /** @param own the scope's place (placeOf); shared work takes its owner's */
  constructor(private readonly own = Number.POSITIVE_INFINITY) {}

  get place(): number {
    return this.owner ? this.owner.place : this.own;
  }

  get requests(): number {
    let n = this.direct;
    for (const t of this.adopted) n += t.requests;
    return n;
  }

  count(): void {
    this.direct += 1;
  }

  adopt(work: Tally): void {
    work.owner?.adopted.delete(work);
    work.owner = this;
    this.adopted.add(work);
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
  private readonly tally = new Tally();
  private readonly startedBy = scope.getStore()?.place;

  constructor(work: () => Promise<T>) {
    scope.getStore()?.adopt(this.tally);
    this.promise = within(this.tally, work);
  }

  /** Another asker: it pays instead when it comes earlier in a one-at-a-time run. */
  claim(): Promise<T> {
    const here = scope.getStore();
    if (here && (!this.tally.owner || here.place < this.tally.place)) here.adopt(this.tally);
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
