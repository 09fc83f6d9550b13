import { STATES, STATE_NAMES, stateByName, type StateChange, type StateKey, type StateParams } from '../../lib/provider-states.ts';
import { describeIssues } from '../../lib/zod-issues.ts';
import type { Dataset } from '../../fixtures/dataset.ts';
import type { GivenCatalogue } from '../../fixtures/catalogue.ts';
import { generateOver, STATE_DATASETS, type Generate } from '../../fixtures/state-datasets.ts';
import type { DatasetHolder } from '../dataset/holder.ts';
import { invalidRequest, quote } from '../helpers/errors.ts';
import type { ValidStateChange } from './change-data.ts';

export type { ValidStateChange };
export { STATE_DATASETS, STATE_SEED } from '../../fixtures/state-datasets.ts';

/**
 * The provider states of the contracts (lib/provider-states.ts), for the mock server.
 *
 * Each state is a pure function from its parameters to a whole dataset; setting a state
 * up installs that dataset (`holder.installState`), tearing it down serves again exactly what
 * was served before the setup (`holder.restoreState`: the dataset and its generation). The
 * same code serves two doors:
 * - in-process, as state handlers for Pact's Verifier (`pactStateHandlers`);
 * - over HTTP, as the state-change endpoint that Pact's `providerStatesSetupUrl` calls
 *   (`providerStatesRouter` of admin/provider-states.ts, mounted at PROVIDER_STATES_PATH), which is the pattern a
 *   provider in any language can copy. In a mock server, its changes go through the server's
 *   coordinator and the lease on its provider state (state-lease.ts): one run at a time.
 */

/**
 * Validates a state change. Throws the documented 400 (`invalid_data`) for an unknown
 * state or bad parameters.
 */
export function validateStateChange(change: StateChange): ValidStateChange {
  const state = stateByName(change.state);
  if (!state) throw invalidRequest(`unknown provider state ${quote(change.state)}; known states: ${STATE_NAMES.map((n) => `'${n}'`).join(', ')}`);
  if ((change.action ?? 'setup') === 'teardown') return { action: 'teardown' };
  const parsed = state.params.safeParse(change.params ?? {});
  if (!parsed.success) throw invalidRequest(`provider state ${quote(change.state)}: ${describeIssues(parsed.error)}`);
  return { action: 'setup', key: state.key, state: STATES[state.key].name, params: parsed.data as Record<string, unknown> };
}

/** The dataset a state's setup installs, over the server's catalogue when it has one (`generateOver`). */
export function stateDataset(setup: Extract<ValidStateChange, { action: 'setup' }>, catalogue?: GivenCatalogue): Dataset {
  const build = STATE_DATASETS[setup.key] as (params: unknown, generate: Generate) => Dataset;
  return build(setup.params, generateOver(catalogue));
}

/** What the state-change endpoint answers: the parameters, which Pact may inject into the interaction's request (`fromProviderState`). */
export function stateAnswer(change: ValidStateChange): Record<string, unknown> {
  return change.action === 'setup' ? change.params : {};
}

/**
 * Validates a state change and applies it to the holder: setup installs the state's dataset,
 * teardown serves again what was served before the setup. Throws the documented 400 for an
 * unknown state or bad parameters. Answers as `stateAnswer`. (No lease: for one run in-process.)
 */
export function applyStateChange(holder: DatasetHolder, change: StateChange): Record<string, unknown> {
  const valid = validateStateChange(change);
  if (valid.action === 'teardown') holder.restoreState();
  else holder.installState(stateDataset(valid, holder.catalogue));
  return stateAnswer(valid);
}

/**
 * State handlers for Pact's Verifier (`new Verifier({ stateHandlers })`), when the
 * mock runs in the same process as the verification.
 */
export function pactStateHandlers(holder: DatasetHolder): Record<string, { setup: (params?: unknown) => Promise<Record<string, unknown>>; teardown: () => Promise<undefined> }> {
  // No prototype: Pact looks a handler up by the pact's state name, and a pact may name any state (`constructor` included).
  const handlers: ReturnType<typeof pactStateHandlers> = Object.create(null) as ReturnType<typeof pactStateHandlers>;
  for (const { name } of Object.values(STATES)) {
    handlers[name] = {
      setup: async (params) => applyStateChange(holder, { state: name, params: (params ?? {}) as Record<string, unknown>, action: 'setup' }),
      teardown: async () => {
        holder.restoreState();
        return undefined;
      },
    };
  }
  return handlers;
}
