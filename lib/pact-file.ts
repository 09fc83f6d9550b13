import type { V4Rules } from './pact-matchers.ts';

/**
 * Pact V4 files, written without Pact (its native core stays out of a mock's start-up): the
 * shape the kit's committed pacts have, keys sorted at every level and interactions in a fixed
 * order, so that the same interactions give the same bytes. Pure: the MSW handlers use it too.
 */

/** The two providers of the contracts, and the endpoints each serves. */
export const PROVIDERS = ['product-reviews', 'wishlist'] as const;
export type ProviderName = (typeof PROVIDERS)[number];

/**
 * Where a storefront's own pacts go (`serve --pact-consumer`, the MSW recording) and where `verify
 * --consumer` reads them, both by default: the project's `./pacts`, from the folder the command runs in.
 */
export const OWN_PACT_DIR = './pacts';

/** The file a consumer/provider pair's pact is in (as Pact names it). */
export function pactFileName(provider: ProviderName, consumer: string): string {
  return `${consumer}-${provider}.json`;
}

/** A consumer name that makes a file name on any system: letters, digits, '.', '_' and '-', 1 to 100 of them. */
export const CONSUMER_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

export function consumerNameProblem(name: unknown): string | undefined {
  if (typeof name !== 'string' || !CONSUMER_NAME_PATTERN.test(name)) {
    return `a pact consumer is named by 1 to 100 letters, digits, '.', '_' or '-' (starting with a letter or digit), got ${JSON.stringify(String(name).slice(0, 120))}`;
  }
  if (PROVIDERS.includes(name as ProviderName)) return `the pact consumer cannot be named like a provider ('${name}')`;
  return undefined;
}

export interface PactState {
  name: string;
  params: Record<string, unknown>;
}

/** One HTTP interaction of a V4 pact, as written. */
export interface PactInteraction {
  description: string;
  pending: false;
  providerStates: PactState[];
  request: {
    method: string;
    path: string;
    query?: Record<string, string[]>;
    headers?: Record<string, string[]>;
    matchingRules?: { header: V4Rules };
  };
  response: {
    status: number;
    headers: Record<string, string[]>;
    body: { content: unknown; contentType: 'application/json'; encoded: false };
    matchingRules: { body?: V4Rules; header: V4Rules };
  };
  type: 'Synchronous/HTTP';
}

/** What makes two interactions one in a pact file (Pact's own rule: the description and the provider states). */
export function interactionKey(interaction: Pick<PactInteraction, 'description' | 'providerStates'>): string {
  return `${interaction.description}\u0000${canonicalJson(interaction.providerStates)}`;
}

/** JSON with the keys of every object sorted; no spaces. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortedKeys(value));
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) Object.defineProperty(out, key, { value: sortedKeys((value as Record<string, unknown>)[key]), enumerable: true, writable: true, configurable: true });
  return out;
}

/** Thrown when the file already at a pact's place cannot be merged with (not JSON, another pair's, not V4). */
export class PactFileError extends Error {
  override readonly name = 'PactFileError';
}

/**
 * The text of the pact between `consumer` and `provider`: `interactions`, merged with those of the
 * file already there (`existing`, its text; an interaction of the same description and states is
 * replaced), sorted by description then states, keys sorted, two-space indented, one newline at the end.
 */
export function pactFileText(consumer: string, provider: ProviderName, interactions: readonly PactInteraction[], existing?: string, place = pactFileName(provider, consumer)): string {
  const merged = new Map<string, unknown>();
  if (existing !== undefined) {
    let old: unknown;
    try {
      old = JSON.parse(existing);
    } catch {
      throw new PactFileError(`${place} is there but is not JSON: move it away, or choose another pact directory`);
    }
    const o = old as { consumer?: { name?: unknown }; provider?: { name?: unknown }; interactions?: unknown; metadata?: { pactSpecification?: { version?: unknown } } };
    if (typeof old !== 'object' || old === null || o.consumer?.name !== consumer || o.provider?.name !== provider || !Array.isArray(o.interactions)) {
      throw new PactFileError(`${place} is there but is not a pact between '${consumer}' and '${provider}': move it away, or choose another pact directory`);
    }
    if (o.metadata?.pactSpecification?.version !== '4.0') throw new PactFileError(`${place} is a pact of specification ${JSON.stringify(o.metadata?.pactSpecification?.version ?? 'unknown')}, not 4.0: the kit merges only into V4 pacts`);
    for (const interaction of o.interactions as Array<Pick<PactInteraction, 'description' | 'providerStates'>>) merged.set(interactionKey({ description: interaction.description, providerStates: interaction.providerStates ?? [] }), interaction);
  }
  for (const interaction of interactions) merged.set(interactionKey(interaction), interaction);
  const ordered = [...merged.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, interaction]) => interaction);
  const pact = { consumer: { name: consumer }, interactions: ordered, metadata: { pactSpecification: { version: '4.0' } }, provider: { name: provider } };
  return `${JSON.stringify(sortedKeys(pact), null, 2)}\n`;
}
