import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Verifier, type VerifierOptions } from '@pact-foundation/pact';
import { CONSUMER, PROVIDERS, type ProviderName } from './interactions.ts';
import { PACT_DIR } from './pacts.ts';

/**
 * Provider verification: replays the storefront's pacts against a running provider and
 * reports whether it honours them. Used by `store-listing-kit verify` and by the drift
 * guard of the test suite.
 */

export interface ConsumerVersionSelector {
  mainBranch?: boolean;
  branch?: string;
  matchingBranch?: boolean;
  deployedOrReleased?: boolean;
  deployed?: boolean;
  released?: boolean;
  environment?: string;
  tag?: string;
  fallbackTag?: string;
  latest?: boolean;
  consumer?: string;
}

/** The selectors Pact recommends: the consumer's main branch and whatever is deployed or released. */
export const DEFAULT_CONSUMER_VERSION_SELECTORS: ConsumerVersionSelector[] = [{ mainBranch: true }, { deployedOrReleased: true }];

export interface BrokerSource {
  url: string;
  token?: string;
  username?: string;
  password?: string;
  consumerVersionSelectors?: ConsumerVersionSelector[];
  enablePending?: boolean;
  includeWipPactsSince?: string;
}

export type StateHandler = { setup?: (params?: unknown) => Promise<unknown>; teardown?: (params?: unknown) => Promise<unknown> };

export interface VerifyOptions {
  providerBaseUrl: string;
  /** Default: both. */
  providers?: readonly ProviderName[];
  /** Pacts from files in this directory (default: the package's committed contracts/pacts) ... */
  pactDir?: string;
  /** ... or from a Pact Broker. */
  broker?: BrokerSource;
  /** Pact POSTs `{ state, params, action }` here before (and after) each interaction. */
  providerStatesSetupUrl?: string;
  /** In-process state handlers, when the provider runs in the same process (tests). */
  stateHandlers?: Record<string, StateHandler>;
  /** Publish the results to the broker as this provider version (and branch). */
  publish?: { providerVersion: string; providerBranch?: string; buildUrl?: string };
  logLevel?: 'trace' | 'debug' | 'info' | 'warn' | 'error';
  /** Per-request timeout in milliseconds. */
  timeout?: number;
}

export interface Mismatch {
  interaction: string;
  detail: string;
}

export interface ProviderResult {
  provider: ProviderName;
  ok: boolean;
  /** Failures as Pact reported them, one per mismatch. */
  mismatches: Mismatch[];
  /** Why the verification could not run at all (no pact, bad option, broker unreachable...). */
  error?: string;
}

export class VerifyConfigError extends Error {}

/** The pact files in `dir` whose consumer is the storefront and whose provider is `provider`. */
export function pactFilesFor(dir: string, provider: ProviderName): string[] {
  let names: string[];
  try {
    if (!statSync(dir).isDirectory()) throw new VerifyConfigError(`--pact-dir ${dir} is not a directory`);
    names = readdirSync(dir).filter((n) => n.endsWith('.json')).sort();
  } catch (error) {
    if (error instanceof VerifyConfigError) throw error;
    throw new VerifyConfigError(`cannot read the pact directory ${dir}: ${(error as Error).message}`);
  }
  return names
    .map((name) => join(dir, name))
    .filter((file) => {
      try {
        const pact = JSON.parse(readFileSync(file, 'utf8')) as { provider?: { name?: string }; consumer?: { name?: string } };
        return pact.provider?.name === provider && pact.consumer?.name === CONSUMER;
      } catch {
        return false;
      }
    });
}

function verifierOptions(options: VerifyOptions, provider: ProviderName): VerifierOptions & { providerBaseUrl: string } {
  const base: VerifierOptions & { providerBaseUrl: string } = {
    provider,
    providerBaseUrl: options.providerBaseUrl,
    logLevel: options.logLevel ?? 'warn',
    ...(options.timeout !== undefined ? { timeout: options.timeout } : {}),
    ...(options.providerStatesSetupUrl ? { providerStatesSetupUrl: options.providerStatesSetupUrl } : {}),
    ...(options.stateHandlers ? { stateHandlers: options.stateHandlers as VerifierOptions['stateHandlers'] } : {}),
  };
  if (options.publish) {
    if (!options.broker) throw new VerifyConfigError('publishing verification results needs a broker (--broker-url or PACT_BROKER_BASE_URL)');
    Object.assign(base, {
      publishVerificationResult: true,
      providerVersion: options.publish.providerVersion,
      ...(options.publish.providerBranch ? { providerVersionBranch: options.publish.providerBranch } : {}),
      ...(options.publish.buildUrl ? { buildUrl: options.publish.buildUrl } : {}),
    });
  }
  if (options.broker) {
    const b = options.broker;
    return {
      ...base,
      pactBrokerUrl: b.url,
      ...(b.token ? { pactBrokerToken: b.token } : {}),
      ...(b.username ? { pactBrokerUsername: b.username } : {}),
      ...(b.password ? { pactBrokerPassword: b.password } : {}),
      consumerVersionSelectors: b.consumerVersionSelectors ?? DEFAULT_CONSUMER_VERSION_SELECTORS,
      consumerFilters: [CONSUMER],
      ...(b.enablePending ? { enablePending: true } : {}),
      ...(b.includeWipPactsSince ? { includeWipPactsSince: b.includeWipPactsSince } : {}),
    };
  }
  const dir = options.pactDir ?? PACT_DIR;
  const files = pactFilesFor(dir, provider);
  if (files.length === 0) throw new VerifyConfigError(`no pact between '${CONSUMER}' and '${provider}' in ${dir}`);
  return { ...base, pactUrls: files };
}

/** Verifies each provider in turn; Pact prints its report (with any mismatch) to stdout as it goes. */
export async function verifyProviders(options: VerifyOptions): Promise<ProviderResult[]> {
  const results: ProviderResult[] = [];
  for (const provider of options.providers ?? PROVIDERS) {
    const config = verifierOptions(options, provider);
    try {
      await new Verifier(config).verifyProvider();
      results.push({ provider, ok: true, mismatches: [] });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const mismatches = parseMismatches(message);
      results.push({ provider, ok: false, mismatches, ...(mismatches.length === 0 ? { error: message } : {}) });
    }
  }
  return results;
}

/** The failures of Pact's JSON verification result, flattened; empty when `text` is not such a result. */
export function parseMismatches(text: string): Mismatch[] {
  let result: unknown;
  try {
    result = JSON.parse(text);
  } catch {
    return [];
  }
  const errors = (result as { errors?: Array<{ interaction?: string; mismatch?: unknown }> }).errors ?? [];
  const out: Mismatch[] = [];
  for (const entry of errors) {
    const interaction = entry.interaction ?? '(unknown interaction)';
    const mismatch = entry.mismatch as { message?: string; mismatches?: Array<Record<string, unknown>>; type?: string } | undefined;
    const details = mismatch?.mismatches ?? [];
    if (details.length === 0) out.push({ interaction, detail: mismatch?.message ?? JSON.stringify(mismatch) });
    for (const d of details) out.push({ interaction, detail: describeMismatch(d) });
  }
  return out;
}

function describeMismatch(d: Record<string, unknown>): string {
  const where = typeof d.path === 'string' ? `${d.path}: ` : typeof d.key === 'string' ? `${d.key}: ` : '';
  const what = typeof d.mismatch === 'string' ? d.mismatch : JSON.stringify(d);
  return `${d.type ?? 'Mismatch'} ${where}${what}`;
}
