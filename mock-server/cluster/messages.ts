import type { AdminChange } from '../state/change-data.ts';
import type { Applied } from '../state/changes.ts';
import type { JournalQuery, JournalSnapshot } from '../journal/journal.ts';
import type { LeaseStatus } from '../state/state-lease.ts';

/**
 * The messages of a cluster's coordination (node:cluster IPC, JSON), between the workers
 * (cluster-member.ts) and the primary (cluster-broker.ts). Start-up and shutdown messages
 * are in cluster.ts.
 *
 * A worker asks the primary (`ask`, answered by `reply` with the same id). To answer, the
 * primary may give every worker a task (`task`, answered by `done` with the same seq).
 */

/** What a worker asks of the primary. */
export type Ask =
  /** Have every worker apply this (validated) change, if the lease on provider states lets it through; reply when all have. */
  | { kind: 'change'; change: AdminChange }
  /** Who holds the provider state (renewing the hold of `run`, when it is the holder). */
  | { kind: 'stateLease'; run?: string }
  /** The last `query.limit` journal entries of every worker that pass the query's filters. */
  | { kind: 'journal'; query: JournalQuery }
  /** The n of the next faulted request (the count shared by every worker). */
  | { kind: 'faultDraw' }
  /** How many n have been handed out since the fault settings were set. */
  | { kind: 'faultDraws' };

export type AskReply =
  | { kind: 'change'; applied: Applied }
  | { kind: 'journal'; snapshots: JournalSnapshot[] }
  | { kind: 'faultDraw'; n: number }
  | { kind: 'faultDraws'; n: number }
  | { kind: 'stateLease'; status: LeaseStatus }
  /** The change was refused: another run holds the provider state (the 409's message). */
  | { kind: 'conflict'; message: string }
  | { kind: 'failed'; message: string };

/** What the primary has every worker do. */
export type Task = { kind: 'apply'; change: AdminChange; ticket: number } | { kind: 'journal'; query: JournalQuery };

export type TaskResult = { kind: 'apply'; applied: Applied } | { kind: 'journal'; snapshot: JournalSnapshot } | { kind: 'failed'; message: string };

export type MemberMessage = { type: 'ask'; id: number; ask: Ask } | { type: 'done'; seq: number; result: TaskResult };

export type BrokerMessage =
  | { type: 'reply'; id: number; reply: AskReply }
  | { type: 'task'; seq: number; task: Task }
  /** Every worker's pid, once all of them listen. */
  | { type: 'members'; pids: number[] };

/** Whether a message received over IPC is one of ours (and not, say, a start-up message). */
export function isCoordination(message: unknown): message is MemberMessage | BrokerMessage {
  const type = (message as { type?: unknown } | null)?.type;
  return type === 'ask' || type === 'done' || type === 'reply' || type === 'task' || type === 'members';
}
