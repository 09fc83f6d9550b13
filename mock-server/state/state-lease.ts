import { ADMIN_PATHS, STATE_RUN_HEADER } from '../../lib/admin-paths.ts';
import type { AdminChange } from './change-data.ts';

/**
 * Who may change a server's provider state: a lease, held by one run at a time.
 *
 * Every client of the mock sees the data a provider state installs, and a reseed's; two runs that
 * set states at once (two `verify`, or `verify` beside `check --vary-dataset`) would each serve the
 * other's data. So the first state change of a run takes the lease, and a state change, a release or
 * a reseed from anyone else is refused (409 `conflict`, saying who holds it and what to do) until
 * the run lets go of it:
 *
 * - A run names itself with the X-Provider-State-Run header (the kit's `verify` and `check` do).
 *   It keeps the lease from its first setup to its release (`DELETE /__admin/provider-states`),
 *   across its teardowns, so that nobody slips in between two of its interactions.
 * - A caller that names no run (Pact's own `providerStatesSetupUrl`, curl) holds it from a setup
 *   to the teardown that follows: no run's state is changed under it, but two such callers cannot
 *   be told apart.
 * - A hold lapses `lapseMs` after its run's last state change (or heartbeat,
 *   `GET /__admin/provider-states` with its header): the state installed then is torn down, so a
 *   killed run leaves the data as it was before it. `POST /__admin/reset` ends any hold at once.
 *
 * The lease is kept where changes are ordered: by the single server, or a cluster's primary
 * (cluster-broker.ts), which only then has every worker apply what it admits. The clients are
 * runs; when clients get identities of their own (a bearer token, a cookie) and data of their own,
 * this is the lease of one client's data.
 */

/** How long a hold lasts without a state change (or heartbeat) from its run: Pact's gaps between two interactions are milliseconds. */
export const DEFAULT_STATE_LEASE_MS = 30_000;
/** The longest lapse time accepted (an hour). */
export const MAX_STATE_LEASE_MS = 3_600_000;

/** A hold, as `GET /__admin/provider-states` and `GET /__admin/config` report it. */
export interface StateHold {
  /** The run that holds it (its X-Provider-State-Run header); null for a caller that names none. */
  run: string | null;
  /** The state set up and not yet torn down; null between two states. */
  state: string | null;
  params: Record<string, unknown> | null;
  heldSeconds: number;
  idleSeconds: number;
  lapsesInSeconds: number;
}

export interface LeaseStatus {
  hold: StateHold | null;
  /** A hold lapses after this many seconds without a state change (or heartbeat) from its run. */
  lapseSeconds: number;
}

/** What to do with a change asked: refuse it (the 409's message), or apply this (nothing, when undefined). */
export type Admission = { refused: string } | { apply: AdminChange | undefined };

interface Hold {
  run: string | undefined;
  state: string | undefined;
  params: Record<string, unknown> | undefined;
  since: number;
  last: number;
}

/** Checks a lapse time given as an option: a whole number of milliseconds, 1 to MAX_STATE_LEASE_MS. */
export function assertStateLeaseMs(ms: number): void {
  if (!Number.isSafeInteger(ms) || ms < 1 || ms > MAX_STATE_LEASE_MS) throw new RangeError(`stateLeaseMs must be a whole number of milliseconds from 1 to ${MAX_STATE_LEASE_MS}, got ${ms}`);
}

export class StateLease {
  #hold: Hold | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;

  /** `onLapse` applies the release of a hold that lapsed (it tears down the state installed then). */
  constructor(
    readonly lapseMs: number,
    private readonly onLapse: (release: Extract<AdminChange, { kind: 'releaseState' }>) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** Decides a change asked now, and takes, keeps or ends the lease accordingly. Synchronous: changes are admitted in the order they are asked. */
  admit(change: AdminChange): Admission {
    switch (change.kind) {
      case 'reset':
        this.#end();
        return { apply: change };
      case 'reseed':
        return this.#hold ? { refused: this.#refusal('a reseed now would change the data under it') } : { apply: change };
      case 'providerState':
        return this.#stateChange(change);
      case 'releaseState':
        return this.#release(change.run);
      default:
        return { apply: change };
    }
  }

  /** The lease as it stands; a call from the run that holds it counts as a sign of life. */
  status(run?: string): LeaseStatus {
    const hold = this.#hold;
    if (hold && run !== undefined && hold.run === run) this.#touch(hold);
    return { hold: hold ? this.#view(hold) : null, lapseSeconds: this.lapseMs / 1000 };
  }

  #stateChange(change: Extract<AdminChange, { kind: 'providerState' }>): Admission {
    const { run } = change;
    let hold = this.#hold;
    if (hold && hold.run !== run) return { refused: this.#refusal() };
    if (change.change.action === 'setup') {
      hold ??= this.#hold = { run, state: undefined, params: undefined, since: this.now(), last: 0 };
      hold.state = change.change.state;
      hold.params = change.change.params;
      this.#touch(hold);
      return { apply: change };
    }
    if (!hold) return { apply: undefined };
    const installed = hold.state !== undefined;
    hold.state = undefined;
    hold.params = undefined;
    // A run that names itself keeps the lease until its release; one that does not, until here.
    if (run === undefined) this.#end();
    else this.#touch(hold);
    return { apply: installed ? change : undefined };
  }

  #release(run: string | undefined): Admission {
    const hold = this.#hold;
    if (!hold) return { apply: undefined };
    if (hold.run !== run) return { refused: this.#refusal() };
    this.#end();
    return { apply: hold.state !== undefined ? { kind: 'releaseState', ...(run !== undefined ? { run } : {}) } : undefined };
  }

  #touch(hold: Hold): void {
    hold.last = this.now();
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#lapse(hold), this.lapseMs);
    this.#timer.unref?.();
  }

  #lapse(hold: Hold): void {
    if (this.#hold !== hold) return;
    this.#end();
    this.onLapse({
      kind: 'releaseState',
      ...(hold.run !== undefined ? { run: hold.run } : {}),
      lapsed: { state: hold.state ?? null, idleSeconds: Math.round((this.now() - hold.last) / 1000) },
    });
  }

  #end(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#hold = undefined;
  }

  #view(hold: Hold): StateHold {
    const now = this.now();
    const tenths = (ms: number) => Math.round(ms / 100) / 10;
    return {
      run: hold.run ?? null,
      state: hold.state ?? null,
      params: hold.params ?? null,
      heldSeconds: tenths(now - hold.since),
      idleSeconds: tenths(now - hold.last),
      lapsesInSeconds: tenths(Math.max(0, hold.last + this.lapseMs - now)),
    };
  }

  /** The 409's message: who holds the lease, doing what, and what to do about it. One sentence. */
  #refusal(consequence?: string): string {
    const hold = this.#hold!;
    const who = hold.run !== undefined ? `run '${hold.run}'` : `a run that names none (no ${STATE_RUN_HEADER} header)`;
    const doing = hold.state !== undefined ? `has '${hold.state}' set up` : 'is between two states';
    const idle = Math.round((this.now() - hold.last) / 1000);
    return (
      `${consequence ? 'a run' : 'another run'} holds the mock's provider state (${who} ${doing}, last heard from ${idle} s ago)${consequence ? `, and ${consequence}` : ''}: ` +
      `wait for it to end (a hold lapses ${seconds(this.lapseMs)} after its run's last state change) or POST ${ADMIN_PATHS.reset} to end it now`
    );
  }
}

const seconds = (ms: number) => `${ms % 1000 === 0 ? ms / 1000 : (ms / 1000).toFixed(1)} s`;
