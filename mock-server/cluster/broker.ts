import type { Worker } from 'node:cluster';
import type { AdminChange } from '../state/change-data.ts';
import { changesDataset } from '../state/changes.ts';
import { isCoordination, type AskReply, type BrokerMessage, type MemberMessage, type Task, type TaskResult } from './messages.ts';
import { combineApplied, NOTHING_APPLIED } from '../state/coordination.ts';
import type { JournalQuery, JournalSnapshot } from '../journal/journal.ts';
import { DEFAULT_STATE_LEASE_MS, StateLease } from '../state/state-lease.ts';

/**
 * The primary's side of a cluster's coordination (workers: cluster-member.ts).
 *
 * - A change a worker received is given to every worker as a task, in the order the
 *   changes arrive here; the asking worker gets the reply when every worker has done it.
 *   The lease on provider states (state-lease.ts) is kept here, where changes are ordered:
 *   a change it refuses goes to no worker, and a hold that lapses is released in every one.
 *   Dataset changes are numbered here (their ticket), so that every worker knows which
 *   one was asked last, and ends up serving it.
 * - A journal question gathers every worker's entries.
 * - The count of faulted requests is kept here: each faulted request, in any worker,
 *   takes the next n, as it would in a single server. It restarts with each fault change.
 *
 * Changes and journal questions that arrive before every worker listens wait until then,
 * so that no worker starts after a change that it never got.
 */
export class ClusterBroker {
  #members: Worker[] = [];
  #started = false;
  readonly #early: [Worker, MemberMessage][] = [];
  #lastTicket = 0;
  #faultDraws = 0;
  #lastSeq = 0;
  readonly #tasks = new Map<number, { waiting: Set<Worker>; results: TaskResult[]; finish: (results: TaskResult[]) => void }>();
  readonly #lease: StateLease;

  /** `stateLeaseMs`: after how long without a state change a run's hold on the provider state lapses. */
  constructor(stateLeaseMs = DEFAULT_STATE_LEASE_MS) {
    this.#lease = new StateLease(stateLeaseMs, (release) => void this.#dispatch(release));
  }

  /** Listens to a worker from its start (it may ask before the others are up). */
  attach(worker: Worker): void {
    worker.on('message', (message: unknown) => {
      if (!isCoordination(message)) return;
      try {
        this.#receive(worker, message as MemberMessage);
      } catch (error) {
        process.stderr.write(`store-listing-kit: cluster coordination: ${error instanceof Error ? error.message : String(error)}\n`);
      }
    });
    worker.on('exit', () => this.#leave(worker));
  }

  /** Every worker listens: tell them who they are, and handle what waited. */
  start(workers: readonly Worker[]): void {
    this.#members = workers.filter((w) => !w.isDead());
    this.#started = true;
    const pids = this.#members.map((w) => w.process.pid ?? 0);
    for (const worker of this.#members) send(worker, { type: 'members', pids });
    for (const [worker, message] of this.#early.splice(0)) this.#receive(worker, message);
  }

  #receive(worker: Worker, message: MemberMessage): void {
    if (message.type === 'done') return this.#taskDone(worker, message.seq, message.result);
    if (message.type !== 'ask') return;
    const { id, ask } = message;
    const reply = (answer: AskReply): void => void send(worker, { type: 'reply', id, reply: answer });
    if (ask.kind === 'faultDraw') return reply({ kind: 'faultDraw', n: this.#faultDraws++ });
    if (ask.kind === 'faultDraws') return reply({ kind: 'faultDraws', n: this.#faultDraws });
    if (ask.kind === 'stateLease') return reply({ kind: 'stateLease', status: this.#lease.status(ask.run) });
    if (!this.#started) {
      this.#early.push([worker, message]);
      return;
    }
    if (ask.kind === 'change') {
      // Admitted here, synchronously: in the order the changes arrive, as they are dispatched.
      const admission = this.#lease.admit(ask.change);
      if ('refused' in admission) return reply({ kind: 'conflict', message: admission.refused });
      if (!admission.apply) return reply({ kind: 'change', applied: NOTHING_APPLIED });
      void this.#dispatch(admission.apply).then(reply);
      return;
    }
    void this.#journal(ask.query).then(reply);
  }

  /** Has every worker apply a change the lease let through. */
  async #dispatch(change: AdminChange): Promise<AskReply> {
    if (change.kind === 'faults') this.#faultDraws = 0;
    const ticket = changesDataset(change) ? ++this.#lastTicket : 0;
    const results = await this.#everyWorker({ kind: 'apply', change, ticket });
    const failed = results.find((r) => r.kind === 'failed');
    if (failed) return failed;
    return { kind: 'change', applied: combineApplied(results.flatMap((r) => (r.kind === 'apply' ? [r.applied] : []))) };
  }

  /** Every worker's most recent journal entries. */
  async #journal(query: JournalQuery): Promise<AskReply> {
    const results = await this.#everyWorker({ kind: 'journal', query });
    const snapshots: JournalSnapshot[] = [];
    for (const result of results) {
      if (result.kind === 'failed') return result;
      if (result.kind === 'journal') snapshots.push(result.snapshot);
    }
    return { kind: 'journal', snapshots };
  }

  /** Gives every worker the task; resolves with their results when all have answered (or exited). */
  #everyWorker(task: Task): Promise<TaskResult[]> {
    const seq = ++this.#lastSeq;
    return new Promise((finish) => {
      const waiting = new Set(this.#members.filter((worker) => send(worker, { type: 'task', seq, task })));
      this.#tasks.set(seq, { waiting, results: [], finish });
      this.#settle(seq);
    });
  }

  #taskDone(worker: Worker, seq: number, result: TaskResult): void {
    const task = this.#tasks.get(seq);
    if (!task || !task.waiting.delete(worker)) return;
    task.results.push(result);
    this.#settle(seq);
  }

  #settle(seq: number): void {
    const task = this.#tasks.get(seq);
    if (task && task.waiting.size === 0) {
      this.#tasks.delete(seq);
      task.finish(task.results);
    }
  }

  /** A worker that exits is not waited for any longer. */
  #leave(worker: Worker): void {
    this.#members = this.#members.filter((w) => w !== worker);
    for (const [seq, task] of this.#tasks) if (task.waiting.delete(worker)) this.#settle(seq);
  }
}

function send(worker: Worker, message: BrokerMessage): boolean {
  if (worker.isDead() || !worker.isConnected()) return false;
  try {
    // With a callback, a failed send is reported to it instead of as an 'error' event nobody handles.
    worker.send(message, () => {});
    return true;
  } catch {
    return false;
  }
}
