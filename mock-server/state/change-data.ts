import type { GenerateOptions } from '../../fixtures/dataset.ts';
import type { StateKey } from '../../lib/provider-states.ts';
import type { PartialFaultSettings } from './faults.ts';
import type { WriteCommand } from '../writes/types.ts';

/** A state change that passed validation: plain data, so that it can cross processes. */
export type ValidStateChange = { action: 'teardown' } | { action: 'setup'; key: StateKey; state: string; params: Record<string, unknown> };

/**
 * What the admin API changes at run time, as plain data (validated already, so that it
 * can be sent to every worker of a cluster and applied there without a second opinion).
 * How one server process applies it: changes.ts.
 */
export type AdminChange =
  | { kind: 'reseed'; generation: Required<GenerateOptions> }
  | { kind: 'reset' }
  /** `run`: who asked (its X-Provider-State-Run header), for the lease (state-lease.ts); the change itself is the same for anyone. */
  | { kind: 'providerState'; change: ValidStateChange; run?: string }
  /** The end of a run's hold on the provider state: its release, or its lapse (`lapsed`); tears down the state installed, if any. */
  | { kind: 'releaseState'; run?: string; lapsed?: { state: string | null; idleSeconds: number } }
  /**
   * New fault settings. `merge` (PUT /__admin/faults): the fields `settings` names change, the others keep
   * the values in force when the change is applied, in the order changes are applied; so changes asked at
   * once through different workers all count, and every worker ends with the same settings. Without it
   * (DELETE, which turns everything off), `settings` replaces them all, what it leaves out at its default.
   */
  | { kind: 'faults'; settings: PartialFaultSettings; merge?: boolean }
  /**
   * A customer's write (mock-server/writes): applied in the same order by every process, at the time
   * `at` (epoch ms) stamped once by the process that received it; `token` names the answer that
   * process awaits.
   */
  | { kind: 'write'; command: WriteCommand; at: number; token: string }
  /** Forgets one customer's writes (`POST /__admin/reset` with `{ "customer": "<id>" }`); the dataset stays. */
  | { kind: 'forgetWrites'; customer: string }
  | { kind: 'clearJournal' };
