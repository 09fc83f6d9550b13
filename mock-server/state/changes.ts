import { generateDatasetInSteps, type GenerateOptions } from '../../fixtures/dataset.ts';
import { buildBetweenRequests } from '../dataset/builder.ts';
import type { DatasetHolder } from '../dataset/holder.ts';
import { faultSettings, mergedFaultSettings, type FaultInjector, type FaultSettings } from './faults.ts';
import type { Journal } from '../journal/journal.ts';
import type { Logger } from '../helpers/logging.ts';
import { lazily } from '../helpers/lazy.ts';
import type { AdminChange } from './change-data.ts';
import { seedOf } from '../writes/seed.ts';

export type { AdminChange };

/** The provider states' datasets (zod validation), loaded on the first provider-state change. */
const providerStatesModule = lazily(() => import('./provider-states.ts'));

/** The parts of a server's operational state (ops.ts `Ops`) that changes act on. */
export interface ChangedOps {
  readonly faults: FaultInjector;
  readonly journal: Journal;
  readonly logger: Logger;
  /** After how long without a state change a run's hold on the provider state lapses (state-lease.ts). */
  readonly stateLeaseMs: number;
}

/** The changes that swap the dataset; they are numbered (their ticket), and the last one asked wins. */
export function changesDataset(change: AdminChange): boolean {
  return change.kind === 'reseed' || change.kind === 'reset' || change.kind === 'providerState' || change.kind === 'releaseState';
}

/** What applying a change did in one process. */
export interface Applied {
  /** A later dataset change was asked before this one was in place: it never was, or not for long. */
  superseded: boolean;
  /** Journal entries dropped (clearJournal). */
  cleared: number;
  /** The fault settings in force right after a faults change (absent for other changes). */
  faults?: FaultSettings;
}

const DONE: Applied = Object.freeze({ superseded: false, cleared: 0 });
const SUPERSEDED: Applied = Object.freeze({ superseded: true, cleared: 0 });

/**
 * Applies changes to one server process's dataset holder and operational state.
 *
 * A dataset change carries a ticket, its number in the order changes were asked (the
 * version the dataset gets). A reseed is built between requests (dataset-builder.ts), so
 * the old dataset is served until the new one is ready; if a later change is asked
 * meanwhile, the build is abandoned and the later change is what stays: whatever the
 * timing, the dataset served in the end is the one asked last.
 */
export class ChangeApplier {
  /** The ticket of the latest dataset change asked of this process. */
  #latest = 0;

  constructor(
    readonly holder: DatasetHolder,
    readonly ops: ChangedOps,
  ) {}

  /** A ticket for a dataset change asked now, when this process numbers its own changes. */
  nextTicket(): number {
    return Math.max(this.#latest, this.holder.version) + 1;
  }

  async apply(change: AdminChange, ticket: number): Promise<Applied> {
    const { holder, ops } = this;
    if (changesDataset(change)) this.#latest = Math.max(this.#latest, ticket);
    const current = () => ticket === this.#latest;
    // Customers' writes refer to the dataset's records: a change of the dataset forgets them all, when
    // it is asked (in the order changes are applied, so every worker forgets the same writes).
    if (change.kind === 'reset' || change.kind === 'reseed' || change.kind === 'providerState' || (change.kind === 'releaseState' && holder.inProviderState)) holder.writes.forget();
    switch (change.kind) {
      case 'reset':
        if (!current()) return SUPERSEDED;
        holder.reset(ticket);
        // In front of a backend with the plugins, each customer's data is read from it again.
        holder.customerData?.forget();
        ops.logger.info({ dataset: holder.current.summary }, 'dataset reset');
        return DONE;
      case 'providerState': {
        if (!current()) return SUPERSEDED;
        // A teardown serves again what was served before the setup (dataset and generation alike).
        if (change.change.action === 'teardown') {
          holder.restoreState(ticket);
          return DONE;
        }
        // Loaded on the first state change (its validation needs zod; a mock that is never verified never loads it).
        const { stateDataset } = await providerStatesModule();
        if (!current()) return SUPERSEDED;
        holder.installState(stateDataset(change.change, holder.catalogue), ticket);
        return DONE;
      }
      case 'releaseState': {
        if (!current()) return SUPERSEDED;
        const restored = holder.restoreState(ticket);
        if (change.lapsed) {
          ops.logger.warn(
            { run: change.run ?? null, state: change.lapsed.state, dataset: holder.current.summary },
            `provider state hold lapsed after ${change.lapsed.idleSeconds} s without a state change${restored ? '; the dataset served before it is back' : ''}`,
          );
        }
        return DONE;
      }
      case 'reseed': {
        // Over the catalogue the holder keeps (given, or a backend's, read again first: products added since are in it).
        await holder.rereadCatalogue?.();
        if (!current()) return SUPERSEDED;
        const { catalogue } = holder;
        // A catalogue's products are its own (their number may have changed with the read).
        const generation = catalogue ? { ...change.generation, products: catalogue.count } : change.generation;
        const dataset = await buildBetweenRequests(generateDatasetInSteps(generation, catalogue), () => !current());
        if (!dataset || !current()) return SUPERSEDED;
        holder.replace(dataset, ticket, generation);
        ops.logger.info({ dataset: holder.current.summary }, 'dataset replaced');
        return DONE;
      }
      case 'faults':
        // Merged here, synchronously, onto the settings of the moment: in a cluster every worker applies the
        // changes in the order the primary gave them, so each merge sees the one before it.
        ops.faults.set(change.merge ? mergedFaultSettings(ops.faults.settings, change.settings) : faultSettings(change.settings));
        ops.logger.info({ faults: ops.faults.settings }, ops.faults.active ? 'fault settings changed' : 'fault injection off');
        return { ...DONE, faults: ops.faults.settings };
      case 'write': {
        const dialect = holder.writes.dialect;
        holder.writes.apply(change.command, change.at, dialect && seedOf(holder.datasetOf(change.command.customer), dialect), change.token);
        return DONE;
      }
      case 'forgetWrites':
        holder.writes.forget(change.customer);
        return DONE;
      case 'clearJournal': {
        const cleared = Math.min(ops.journal.recorded, ops.journal.capacity);
        ops.journal.clear();
        return { superseded: false, cleared };
      }
    }
  }
}
