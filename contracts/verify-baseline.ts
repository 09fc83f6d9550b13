/**
 * `verify`'s failures as a baseline records them (lib/baseline.ts): each failing interaction by its
 * consumer, provider, description and provider states (what names it in the pacts), the endpoint its
 * request goes to, and its kinds of failure (contracts/outcomes.ts: a mismatch's type and path, a
 * state change refused, not verified), never a value, a count or a time.
 */
import { ENDPOINT_NAMES, PATHS, SECTIONS } from '../lib/api-rules.ts';
import { isObject } from '../lib/http.ts';
import type { BaselineFormat } from '../lib/baseline.ts';
import { stateLine, type InteractionOutcome } from './outcomes.ts';
import type { ProviderResult } from './verify.ts';

export interface VerifyBaselineEntry {
  consumer: string;
  provider: string;
  interaction: string;
  /** The provider states, as `name {params}` (the pact's params, keys sorted). */
  states: string[];
  /** `4.2 GET /store/reviews/product/:product_id`; `(unknown)` for a broker's pacts, whose requests the kit does not read. */
  endpoint: string;
  kinds: string[];
}

/** The endpoint a pact's request goes to, as its path template. */
export function endpointOf(o: InteractionOutcome): string {
  if (!o.request) return '(unknown)';
  for (const name of ENDPOINT_NAMES) {
    const pattern = new RegExp(`^${PATHS[name].replace(/:[a-z_]+/g, '[^/]+')}$`);
    if (pattern.test(o.request.path)) return `${SECTIONS[name]} ${o.request.method} ${PATHS[name]}`;
  }
  return `${o.request.method} ${o.request.path}`;
}

/** This run's failures, one entry per failing interaction (pending ones do not fail the run: not recorded). */
export function verifyBaselineEntries(results: readonly ProviderResult[]): VerifyBaselineEntry[] {
  const out: VerifyBaselineEntry[] = [];
  for (const r of results) {
    for (const o of r.interactions) {
      if (o.status !== 'failed') continue;
      out.push({ consumer: r.consumer, provider: r.provider, interaction: o.description, states: o.states.map(stateLine), endpoint: endpointOf(o), kinds: o.kinds.length ? o.kinds : ['NotVerified'] });
    }
    // State changes of no interaction the kit knows (a broker's pacts): one failure of the provider's.
    if (r.unclaimedStateErrors?.length) {
      const kinds = [...new Set(r.unclaimedStateErrors.map((t) => /^(?:setup|teardown) of '([^']*)'/.exec(t)?.[1]).map((s) => (s === undefined ? 'StateChangeFailed' : `StateChangeFailed '${s}'`)))].sort();
      out.push({ consumer: r.consumer, provider: r.provider, interaction: '(provider states)', states: [], endpoint: '(none)', kinds });
    }
  }
  return out;
}

/** The key of what an interaction outcome names, as verifyBaselineEntries would key its failure. */
export function verifyOutcomeKey(r: Pick<ProviderResult, 'consumer' | 'provider'>, o: InteractionOutcome): string {
  return keyOf({ consumer: r.consumer, provider: r.provider, interaction: o.description, states: o.states.map(stateLine) });
}

/** The keys of the interactions that ran and passed in this run. */
export function passedVerifyKeys(results: readonly ProviderResult[]): Set<string> {
  return new Set(results.flatMap((r) => r.interactions.filter((o) => o.status === 'passed').map((o) => verifyOutcomeKey(r, o))));
}

const keyOf = (e: Pick<VerifyBaselineEntry, 'consumer' | 'provider' | 'interaction' | 'states'>) => JSON.stringify([e.consumer, e.provider, e.interaction, e.states]);

const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');

export const VERIFY_BASELINE: BaselineFormat<VerifyBaselineEntry> = {
  command: 'verify',
  parse(value) {
    if (!isObject(value) || Array.isArray(value)) return 'not an object';
    for (const field of ['consumer', 'provider', 'interaction', 'endpoint'] as const) if (typeof value[field] !== 'string' || value[field] === '') return `"${field}" must be a non-empty string`;
    if (!isStrings(value.states)) return '"states" must be a list of strings';
    if (!isStrings(value.kinds) || value.kinds.length === 0) return '"kinds" must be a non-empty list of strings';
    return {
      consumer: value.consumer as string,
      provider: value.provider as string,
      interaction: value.interaction as string,
      states: value.states,
      endpoint: value.endpoint as string,
      kinds: [...new Set(value.kinds)].sort(),
    };
  },
  key: keyOf,
  kinds: (e) => e.kinds,
  label: (e) => `${e.provider}: ${e.states.length ? `Given ${e.states.join(' and ')} - ` : ''}${e.interaction} (${e.endpoint})`,
};
