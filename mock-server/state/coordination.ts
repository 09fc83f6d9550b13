import type { AdminChange } from './change-data.ts';
import { changesDataset, type Applied, type ChangeApplier } from './changes.ts';
import { ApiError } from '../helpers/errors.ts';
import { mergeJournals, type JournalQuery, type MergedJournal } from '../journal/journal.ts';
import { StateLease, type Admission, type LeaseStatus } from './state-lease.ts';

/**
 * Where the admin API's changes and questions go. A single server answers them itself
 * (`localCoordinator`: plain calls, no messages). A worker of a cluster
 * (cluster-member.ts) sends them to the primary, which has every worker apply a change
 * before the call answers, and gathers the answers to questions from all of them
 * (cluster-broker.ts): whichever worker a client reaches, it sees one server.
 */
export interface Coordinator {
  /** Server processes answering requests: 1, or the workers of a cluster. */
  readonly workers: number;
  /** The process a user started: this one, or the cluster's primary. */
  readonly pid: number;
  /** The pids of the workers of a cluster (undefined for a single server). */
  readonly workerPids: readonly number[] | undefined;
  /**
   * Applies a validated change in every server process; resolves when all have.
   * Rejects with a 409 when another run holds the provider state (state-lease.ts), or when a
   * later dataset change overtook this one.
   */
  apply(change: AdminChange): Promise<Applied>;
  /** Who holds the provider state; a call from the run that holds it (`run`) renews its hold. */
  stateLease(run?: string): Promise<LeaseStatus>;
  /** The most recent `query.limit` journal entries of every process that pass its filters, as one journal. */
  journal(query: JournalQuery): Promise<MergedJournal>;
  /** Requests fault injection has drawn for since the settings were last set. */
  faultDraws(): Promise<number>;
}

/** How a server gets its coordinator, once its changes can be applied. */
export type CoordinatorFactory = (applier: ChangeApplier) => Coordinator;

/** The answer of a dataset change that a later one overtook (the same in one process and in a cluster). */
export function supersededError(): ApiError {
  return new ApiError(409, 'conflict', 'This dataset change was overtaken by a later one (reset, reseed or provider state) asked before it was in place; the later one is served.');
}

/** The answer of a change refused because another run holds the provider state (the same in one process and in a cluster). */
export function leaseConflictError(message: string): ApiError {
  return new ApiError(409, 'conflict', message);
}

/** A change the lease let through without anything to apply (a teardown with no state set up). */
export const NOTHING_APPLIED: Applied = Object.freeze({ superseded: false, cleared: 0 });

/**
 * The outcome of a change over every process: superseded if it was anywhere, entries cleared summed,
 * the fault settings of the first (every process applied the same changes in the same order: they agree).
 */
export function combineApplied(outcomes: readonly Applied[]): Applied {
  const faults = outcomes.find((o) => o.faults !== undefined)?.faults;
  return {
    superseded: outcomes.some((o) => o.superseded),
    cleared: outcomes.reduce((sum, o) => sum + o.cleared, 0),
    ...(faults !== undefined ? { faults } : {}),
  };
}

/** One server process, coordinating with nobody. */
export const localCoordinator: CoordinatorFactory = (applier) => {
  const run = (change: AdminChange) => applier.apply(change, changesDataset(change) ? applier.nextTicket() : 0);
  const lease = new StateLease(applier.ops.stateLeaseMs, (release) => {
    run(release).catch((error: unknown) => applier.ops.logger.error({ err: error }, 'the release of a lapsed provider state failed'));
  });
  return {
    workers: 1,
    pid: process.pid,
    workerPids: undefined,
    async apply(change) {
      const admission: Admission = lease.admit(change);
      if ('refused' in admission) throw leaseConflictError(admission.refused);
      if (!admission.apply) return NOTHING_APPLIED;
      const applied = await run(admission.apply);
      if (applied.superseded) throw supersededError();
      return applied;
    },
    async stateLease(runId) {
      return lease.status(runId);
    },
    async journal(query) {
      return mergeJournals([applier.ops.journal.snapshot(query)], query.limit);
    },
    async faultDraws() {
      return applier.ops.faults.seen;
    },
  };
};
