import type { ChangeApplier } from '../state/changes.ts';
import { isCoordination, type Ask, type AskReply, type BrokerMessage, type MemberMessage, type Task, type TaskResult } from './messages.ts';
import { leaseConflictError, supersededError, type CoordinatorFactory } from '../state/coordination.ts';
import { mergeJournals } from '../journal/journal.ts';

/**
 * The coordinator of a cluster worker: the admin API's changes and questions go to the
 * primary (cluster-broker.ts) over IPC, and the tasks the primary gives (apply a change,
 * tell the journal) are done here. Fault injection takes each request's n from the
 * primary's count. Nothing here is on the path of a listing request unless faults are on.
 */
export function clusterMember(workers: number): CoordinatorFactory {
  return (applier) => {
    const waiting = new Map<number, (reply: AskReply) => void>();
    let lastId = 0;
    let workerPids: number[] | undefined;

    const send = (message: MemberMessage): boolean => {
      if (!process.connected || !process.send) return false;
      try {
        // With a callback, a failed send is reported to it instead of as an 'error' event nobody handles.
        process.send(message, undefined, undefined, () => {});
        return true;
      } catch {
        return false;
      }
    };
    /** `onReply` runs inside the message handler, in the order the primary answered. */
    const ask = (question: Ask, onReply: (reply: AskReply) => void): void => {
      const id = ++lastId;
      waiting.set(id, onReply);
      if (!send({ type: 'ask', id, ask: question })) {
        waiting.delete(id);
        onReply({ kind: 'failed', message: 'the cluster primary cannot be reached' });
      }
    };
    const asked = (question: Ask): Promise<AskReply> => new Promise((resolve) => ask(question, resolve));
    const failure = (reply: AskReply, expected: string) => new Error(reply.kind === 'failed' ? reply.message : `the cluster primary answered ${reply.kind} to ${expected}`);

    const perform = async (task: Task): Promise<TaskResult> => {
      try {
        // Started at once, in the order the tasks arrive: a change's ticket and settings take effect before later messages are read.
        if (task.kind === 'apply') return { kind: 'apply', applied: await applier.apply(task.change, task.ticket) };
        return { kind: 'journal', snapshot: applier.ops.journal.snapshot(task.query) };
      } catch (error) {
        applier.ops.logger.error({ err: error }, 'cluster task failed');
        return { kind: 'failed', message: error instanceof Error ? error.message : String(error) };
      }
    };

    process.on('message', (message: unknown) => {
      if (!isCoordination(message)) return;
      const received = message as BrokerMessage;
      if (received.type === 'reply') {
        const onReply = waiting.get(received.id);
        waiting.delete(received.id);
        onReply?.(received.reply);
      } else if (received.type === 'task') {
        void perform(received.task).then((result) => send({ type: 'done', seq: received.seq, result }));
      } else if (received.type === 'members') {
        workerPids = received.pids;
      }
    });
    process.on('disconnect', () => {
      for (const onReply of waiting.values()) onReply({ kind: 'failed', message: 'the cluster primary is gone' });
      waiting.clear();
    });

    applier.ops.faults.shareSequence((take, fail) =>
      ask({ kind: 'faultDraw' }, (reply) => (reply.kind === 'faultDraw' ? take(reply.n) : fail(failure(reply, 'faultDraw')))),
    );

    return {
      workers,
      pid: process.ppid,
      get workerPids() {
        return workerPids;
      },
      async apply(change) {
        const reply = await asked({ kind: 'change', change });
        if (reply.kind === 'conflict') throw leaseConflictError(reply.message);
        if (reply.kind !== 'change') throw failure(reply, 'change');
        if (reply.applied.superseded) throw supersededError();
        return reply.applied;
      },
      async stateLease(run) {
        const reply = await asked({ kind: 'stateLease', ...(run !== undefined ? { run } : {}) });
        if (reply.kind !== 'stateLease') throw failure(reply, 'stateLease');
        return reply.status;
      },
      async journal(query) {
        const reply = await asked({ kind: 'journal', query });
        if (reply.kind !== 'journal') throw failure(reply, 'journal');
        return mergeJournals(reply.snapshots, query.limit);
      },
      async faultDraws() {
        const reply = await asked({ kind: 'faultDraws' });
        if (reply.kind !== 'faultDraws') throw failure(reply, 'faultDraws');
        return reply.n;
      },
    };
  };
}
