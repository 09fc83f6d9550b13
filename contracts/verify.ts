import { readRegularText } from '../files/input-file.ts';
import { Verifier, type VerifierOptions } from '@pact-foundation/pact';
import { PATHS } from '../lib/api-rules.ts';
import { detectOtherDialect } from '../lib/dialects/detect.ts';
import { describeAnswer, isObject, NoAnswerError, type Answer } from '../lib/http.ts';
import { boundedText } from '../lib/quote.ts';
import { exchange } from '../client/exchange.ts';
import { ORIGIN_CREDENTIAL_HEADERS } from '../client/http.ts';
import { stateConflict, StateRun } from '../client/state-run.ts';
import { CONSUMER, PROVIDERS, type ProviderName } from './interactions.ts';
import { PACT_DIR } from './pacts.ts';
import { consumersIn, noPactSentence, pactFilesFor, VerifyConfigError } from './pact-dir.ts';
import { CONSUMER_OF_DIALECT } from './names.ts';
import type { DialectName } from '../lib/dialects/types.ts';
import { classifyRefusal, type AccessRefusal } from './refusals.ts';
import { BrokerUnusableError, checkBroker } from './broker-check.ts';
import { interactionOutcomes, interactionsIn, parseVerification, type InteractionOutcome, type Mismatch, type StateFailure } from './outcomes.ts';

/**
 * Provider verification: replays the storefront's pacts against a running provider and
 * reports whether it honours them. Used by `store-listing-kit verify` and by the drift
 * guard of the test suite.
 */

import { DEFAULT_CONSUMER_VERSION_SELECTORS, type ConsumerVersionSelector } from './names.ts';

export { DEFAULT_CONSUMER_VERSION_SELECTORS, type ConsumerVersionSelector } from './names.ts';

export interface BrokerSource {
  url: string;
  token?: string;
  username?: string;
  password?: string;
  consumerVersionSelectors?: ConsumerVersionSelector[];
  enablePending?: boolean;
  includeWipPactsSince?: string;
  /**
   * The provider's branch, which the broker needs to tell pending and work-in-progress pacts
   * (required by Pact with either); also the branch results are published for.
   */
  providerBranch?: string;
}

export type StateHandler = { setup?: (params?: unknown) => Promise<unknown>; teardown?: (params?: unknown) => Promise<unknown> };

export interface VerifyOptions {
  providerBaseUrl: string;
  /**
   * Whose pacts: `spec` (default) the storefront of the listing spec (consumer `storefront`);
   * `alphabite` a storefront on @alphabite/medusa-sdk against the published plugins (consumer
   * `alphabite-sdk-storefront`), which also sets the checks before the replay to the plugins' paging.
   */
  dialect?: DialectName;
  /**
   * Whose pacts, by consumer name, instead of the dialect's own: a storefront's own pacts (`serve
   * --pact-consumer`, issue 30), from `pactDir` or the broker. The dialect still sets the checks before the replay.
   */
  consumer?: string;
  /**
   * With `pactDir` and no `consumer`: the pacts of every consumer in the folder, each pact its own
   * result, as Pact's verifier reads a folder (`verify --pact-dir <dir>`). Default: the dialect's consumer only.
   */
  allConsumers?: boolean;
  /** Default: both. */
  providers?: readonly ProviderName[];
  /** Pacts from files in this directory (default: the package's committed contracts/pacts) ... */
  pactDir?: string;
  /** ... or from a Pact Broker. */
  broker?: BrokerSource;
  /**
   * `{ state, params, action }` is POSTed here before (and after) each interaction. (Through state
   * handlers that forward to it: Pact's own `providerStatesSetupUrl` option is deprecated.)
   */
  providerStatesSetupUrl?: string;
  /** In-process state handlers, when the provider runs in the same process (tests). */
  stateHandlers?: Record<string, StateHandler>;
  /** Publish the results to the broker as this provider version (and branch). */
  publish?: { providerVersion: string; providerBranch?: string; buildUrl?: string };
  logLevel?: 'trace' | 'debug' | 'info' | 'warn' | 'error';
  /** Per-request timeout in milliseconds (default 10 000 for the checks before the replay, Pact's own otherwise). */
  timeout?: number;
  /** The most bytes of a body the kit's own requests read (the checks before the replay; default 128 MiB, client/http.ts). */
  maxBodyBytes?: number;
  /**
   * Headers sent with every request to the provider, e.g. `{ 'x-publishable-api-key': 'pk_...',
   * authorization: 'Bearer ...' }` (names in lower case); a header of the same name in a pact is
   * replaced. Not sent to the state-change URL.
   */
  headers?: Record<string, string>;
}

export { describeMismatch, parseMismatches, type InteractionOutcome, type Mismatch } from './outcomes.ts';

export interface ProviderResult {
  provider: ProviderName;
  /** The consumer whose pacts were verified (the dialect's: `storefront` or `alphabite-sdk-storefront`). */
  consumer: string;
  ok: boolean;
  /** Failures as Pact reported them, one per mismatch. */
  mismatches: Mismatch[];
  /** Why the verification could not run at all (no pact, bad option, broker unreachable...). */
  error?: string;
  /** State changes the provider refused or failed (the interactions after them ran on the wrong data). */
  stateErrors?: string[];
  /**
   * Each interaction: passed or failed, its mismatches and failed state changes, its provider state
   * and request (from the pact file; only the description for a broker's pacts) and Pact's time.
   * The JUnit and JSON reports of `verify` are made of these.
   */
  interactions: InteractionOutcome[];
  /**
   * Failed state changes that belong to no interaction the kit knows (a broker's pacts, whose
   * states it does not read); they fail the provider all the same.
   */
  unclaimedStateErrors?: string[];
  /** Wall-clock time of this provider's verification, in milliseconds. */
  durationMs: number;
}

export { pactFilesFor, VerifyConfigError } from './pact-dir.ts';

/** The provider or its state-change URL does not answer usably: nothing to replay the pacts against. */
export class ProviderUnreachableError extends VerifyConfigError {}

/** The provider refuses every request for a missing or bad publishable key or customer token (`refusal` says which, and what to send). */
export class ProviderRefusedError extends VerifyConfigError {
  /** `dialectHint`: the dialect the refusal itself points to, said before what to send. */
  constructor(
    readonly refusal: AccessRefusal,
    dialectHint?: string,
  ) {
    super(`cannot run: ${dialectHint ? `${dialectHint}; and ` : ''}${refusal.sentence}`);
  }
}

/**
 * A refusal for the publishable key names the dialect first: the listing spec's routes ask for no
 * key, Medusa's store routes (the plugins') do, and the key alone would only lead to a second run
 * that says "add --dialect alphabite".
 */
const dialectHintOf = (refusal: AccessRefusal, asked: DialectName, base: string): string | undefined =>
  refusal.cause === 'publishable-key' && asked === 'spec'
    ? `${base} asks for a publishable key, as Medusa's store routes do and the listing spec's do not: if it runs the published @alphabite plugins, add --dialect alphabite`
    : undefined;

/** The provider speaks the other dialect: its pacts cannot be replayed against it (`--dialect` names the storefront whose pacts are). */
export class ProviderDialectError extends VerifyConfigError {}

/**
 * The state-change URL refused a state change with a 409: another run holds the provider state (the
 * mock lets one run at a time set states). The verification cannot tell anything: it cannot run.
 */
export class StateConflictError extends VerifyConfigError {}

/** The provider states the interactions of these pact files rely on, in order of first use. */
export function statesIn(files: string[]): string[] {
  const names: string[] = [];
  for (const file of files) {
    let pact: { interactions?: Array<{ providerStates?: Array<{ name?: unknown }>; providerState?: unknown }> };
    try {
      pact = JSON.parse(readRegularText(file)) as typeof pact;
    } catch {
      continue;
    }
    for (const interaction of pact.interactions ?? []) {
      const states = [...(interaction.providerStates ?? []).map((s) => s.name), interaction.providerState];
      for (const name of states) if (typeof name === 'string' && name && !names.includes(name)) names.push(name);
    }
  }
  return names;
}

/**
 * State handlers that POST each state change to the run's URL, for any state name (a broker's pacts
 * may name states the kit does not know). A refused or failed change is recorded in `failures` rather
 * than thrown: Pact would print a stack of its own and carry on anyway. A 409 (another run holds the
 * provider state) is also recorded in `conflicts`.
 */
function forwardingStateHandlers(run: StateRun, failures: StateFailure[], conflicts: string[]): NonNullable<VerifierOptions['stateHandlers']> {
  const change = async (state: string, params: unknown, action: 'setup' | 'teardown') => {
    const what = `${action} of '${state}'${isObject(params) && Object.keys(params).length ? ` ${JSON.stringify(params)}` : ''}`;
    try {
      const ex = await run.change(state, isObject(params) ? params : {}, action);
      if (ex.status >= 200 && ex.status < 300) return isObject(ex.json) ? (ex.json as Record<string, never>) : undefined;
      const conflict = stateConflict(ex);
      if (conflict) conflicts.push(conflict);
      failures.push({ state, params: isObject(params) ? params : {}, text: `${what}: POST ${run.url} answered ${ex.status} ${boundedText(ex.text, 200)}` });
    } catch (error) {
      failures.push({ state, params: isObject(params) ? params : {}, text: `${what}: ${(error as Error).message}` });
    }
    return undefined;
  };
  const handlerFor = (state: string) => ({
    setup: (params?: unknown) => change(state, params, 'setup'),
    teardown: (params?: unknown) => change(state, params, 'teardown'),
  });
  // Pact looks a handler up by the state's name; nothing enumerates the map.
  return new Proxy({} as NonNullable<VerifierOptions['stateHandlers']>, {
    get: (_target, key) => (typeof key === 'string' && key !== 'toJSON' && key !== 'then' ? handlerFor(key) : undefined),
  });
}

const DEFAULT_TIMEOUT_MS = 10_000;

/** The run's calls to the state-change URL, when the states are changed over HTTP. */
function stateRunFor(options: VerifyOptions): StateRun | undefined {
  if (options.stateHandlers || !options.providerStatesSetupUrl) return undefined;
  return new StateRun(options.providerStatesSetupUrl, 'verify', options.timeout ?? DEFAULT_TIMEOUT_MS);
}

function verifierOptions(options: VerifyOptions, provider: ProviderName, consumer: string, run: StateRun | undefined, stateFailures: StateFailure[], conflicts: string[]): VerifierOptions & { providerBaseUrl: string } {
  const stateHandlers = options.stateHandlers ? (options.stateHandlers as VerifierOptions['stateHandlers']) : run ? forwardingStateHandlers(run, stateFailures, conflicts) : undefined;
  const base: VerifierOptions & { providerBaseUrl: string } = {
    provider,
    providerBaseUrl: options.providerBaseUrl,
    logLevel: options.logLevel ?? 'warn',
    ...(options.timeout !== undefined ? { timeout: options.timeout } : {}),
    ...(stateHandlers ? { stateHandlers } : {}),
    ...(options.headers && Object.keys(options.headers).length ? { customProviderHeaders: { ...options.headers } } : {}),
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
    const branch = options.publish?.providerBranch ?? b.providerBranch;
    return {
      ...base,
      ...(branch ? { providerVersionBranch: branch } : {}),
      pactBrokerUrl: b.url,
      ...(b.token ? { pactBrokerToken: b.token } : {}),
      ...(b.username ? { pactBrokerUsername: b.username } : {}),
      ...(b.password ? { pactBrokerPassword: b.password } : {}),
      consumerVersionSelectors: b.consumerVersionSelectors ?? DEFAULT_CONSUMER_VERSION_SELECTORS,
      consumerFilters: [consumerOf(options)],
      ...(b.enablePending ? { enablePending: true } : {}),
      ...(b.includeWipPactsSince ? { includeWipPactsSince: b.includeWipPactsSince } : {}),
    };
  }
  const dir = options.pactDir ?? PACT_DIR;
  const files = pactFilesFor(dir, provider, consumer);
  if (files.length === 0) throw new VerifyConfigError(noPactSentence(dir, `between '${consumer}' and '${provider}'`, provider));
  return { ...base, pactUrls: files };
}

/** The consumer whose pacts `options` asks for. */
const consumerOf = (options: VerifyOptions): string => options.consumer ?? CONSUMER_OF_DIALECT[options.dialect ?? 'spec'];

/** Whose pacts with `provider` are verified: every consumer's in the folder (`allConsumers`), or the one `options` asks for. */
function consumersFor(options: VerifyOptions, provider: ProviderName): string[] {
  if (!options.allConsumers || options.consumer !== undefined || options.broker) return [consumerOf(options)];
  const dir = options.pactDir ?? PACT_DIR;
  const consumers = consumersIn(dir, provider);
  if (consumers.length === 0) throw new VerifyConfigError(noPactSentence(dir, `with '${provider}'`));
  return consumers;
}

/** A listing of each provider, for the check before the replay, in each dialect's paging; and the key of its records. */
const PREFLIGHT: Record<DialectName, Record<ProviderName, { path: string; records: string }>> = {
  spec: { 'product-reviews': { path: `${PATHS.reviews}?limit=1`, records: 'reviews' }, wishlist: { path: `${PATHS.wishlists}?take=1`, records: 'data' } },
  // 4.1 of the plugins lists every review whatever the limit (docs/dialects.md row 7): a known bug, not
  // a page-size check; the pacts' states bound how many there are.
  alphabite: { 'product-reviews': { path: `${PATHS.reviews}?limit=1`, records: '' }, wishlist: { path: `${PATHS.wishlists}?limit=1`, records: 'data' } },
};
const PREFLIGHT_ATTEMPTS = 3;

/**
 * Why the replay cannot go where the preflight was redirected, or undefined: Pact's verifier follows
 * a redirect with every --header but authorization and cookie, the publishable key too, so a
 * provider base URL that redirects to another origin would carry a credential there. The kit's own
 * calls do not (client/http.ts); the replay is asked to go there directly instead.
 */
function credentialsCarriedAway(ex: Answer, headers: Readonly<Record<string, string>> | undefined): string | undefined {
  if (ex.redirectedTo === undefined || new URL(ex.redirectedTo).origin === new URL(ex.url).origin) return undefined;
  const names = Object.keys(headers ?? {}).filter((name) => ORIGIN_CREDENTIAL_HEADERS.has(name.toLowerCase()));
  if (names.length === 0) return undefined;
  return `GET ${ex.url} redirects to another origin (${ex.redirectedTo}), and Pact's replay would send the --header ${names.join(', ')} there: give that server as --provider-base-url if it is the provider`;
}
/** More records than this, when one was asked for, is a provider that ignores the page size. */
const HUGE_PAGE = 1000;

async function send(attempt: () => Promise<Answer>): Promise<Answer> {
  for (let n = 1; ; n++) {
    const ex = await attempt();
    // A 5xx may be a fault injected at random: ask again before calling the target broken.
    if (ex.status < 500 || n === PREFLIGHT_ATTEMPTS) return ex;
  }
}

/**
 * Before anything is replayed: the provider answers a listing of each provider as JSON, and the
 * state-change URL (when there is one) answers a harmless teardown (one with nothing set up: the
 * mock changes nothing for it). Throws ProviderUnreachableError with one sentence naming the URL and
 * why; Pact itself would print hundreds of lines, or crash on a reset connection. A listing refused
 * for its publishable key or customer token (sent with `options.headers`, as the replay sends them)
 * is ProviderRefusedError: every interaction would be. Throws StateConflictError when the teardown
 * is refused because another run holds the provider state.
 */
export async function preflight(options: VerifyOptions, stateForTeardown?: string, run = stateRunFor(options)): Promise<Map<ProviderName, string>> {
  const ignoresPageSize = new Map<ProviderName, string>();
  const timeoutMs = options.timeout ?? DEFAULT_TIMEOUT_MS;
  const base = options.providerBaseUrl.replace(/\/+$/, '');
  for (const provider of options.providers ?? PROVIDERS) {
    const probe = PREFLIGHT[options.dialect ?? 'spec'][provider];
    const get = async (url: string): Promise<Answer> => {
      try {
        return await send(() => exchange(url, { timeoutMs, ...(options.maxBodyBytes === undefined ? {} : { maxBodyBytes: options.maxBodyBytes }) }, undefined, options.headers));
      } catch (error) {
        if (error instanceof NoAnswerError) throw new ProviderUnreachableError(`cannot verify ${provider}: ${error.message}`);
        throw error;
      }
    };
    const ex = await get(`${base}${probe.path}`);
    const carried = credentialsCarriedAway(ex, options.headers);
    if (carried) throw new ProviderUnreachableError(`cannot verify ${provider}: ${carried}`);
    const refusal = classifyRefusal(ex, options.headers);
    if (refusal) throw new ProviderRefusedError(refusal, dialectHintOf(refusal, options.dialect ?? 'spec', base));
    if (ex.status === 404) {
      throw new ProviderUnreachableError(`nothing at ${base} answers the ${provider} listing: GET ${ex.url} answered 404 (is --provider-base-url right? it is the part before /store/...)`);
    }
    if (ex.status >= 500) {
      throw new ProviderUnreachableError(`nothing at ${base} answers the listings: GET ${ex.url} got ${describeAnswer(ex)} (${PREFLIGHT_ATTEMPTS} times in a row)`);
    }
    if (!(ex.status >= 200 && ex.status < 300 && isObject(ex.json)) && ex.status !== 400) {
      throw new ProviderUnreachableError(`nothing at ${base} answers the listings as JSON (GET ${ex.url} got ${describeAnswer(ex)})`);
    }
    const asked = options.dialect ?? 'spec';
    const path = probe.path.slice(0, probe.path.indexOf('?'));
    const other = await detectOtherDialect({
      base,
      asked,
      endpoint: provider === 'wishlist' ? 'wishlists' : 'reviews',
      first: ex,
      size: 1,
      askAgain: (query) => get(`${base}${path}?${new URLSearchParams(query).toString()}`),
    });
    if (other) throw new ProviderDialectError(other.sentence);
    const page = isObject(ex.json) && probe.records ? ex.json[probe.records] : undefined;
    if (Array.isArray(page) && page.length > HUGE_PAGE) {
      ignoresPageSize.set(
        provider,
        `GET ${ex.url} asked for 1 record and got a page of ${page.length}: the provider ignores the page size, so its pacts were not replayed (matching pages this large takes Pact many minutes)`,
      );
    }
  }
  if (!run) return ignoresPageSize;
  const url = run.url;
  const state = stateForTeardown ?? statesIn(PROVIDERS.flatMap((p) => pactFilesFor(PACT_DIR, p, consumerOf(options))))[0] ?? 'reviews exist';
  let ex: Answer;
  try {
    ex = await send(() => run.change(state, {}, 'teardown'));
  } catch (error) {
    if (error instanceof NoAnswerError) throw new ProviderUnreachableError(`the state-change URL does not answer: ${error.message}`);
    throw error;
  }
  const conflict = stateConflict(ex);
  if (conflict) throw new StateConflictError(conflict);
  if (ex.status < 200 || ex.status >= 300 || (ex.text.trim() !== '' && ex.json === undefined)) {
    throw new ProviderUnreachableError(
      `the state-change URL ${url} does not work: a teardown of '${state}' got ${describeAnswer(ex)} (it must answer 200 with a JSON object; see "What your service must implement")`,
    );
  }
  return ignoresPageSize;
}

/**
 * Verifies each provider in turn; Pact prints its report (with any mismatch) to stdout as it goes.
 * Checks first that the provider (and its state-change URL) answers: ProviderUnreachableError if not.
 */
export async function verifyProviders(options: VerifyOptions): Promise<ProviderResult[]> {
  const run = stateRunFor(options);
  const conflicts: string[] = [];
  // One verification per pact: a provider's pacts of several consumers are verified one after the other.
  const configs = (options.providers ?? PROVIDERS).flatMap((provider) =>
    consumersFor(options, provider).map((consumer) => {
      const stateFailures: StateFailure[] = [];
      return { provider, consumer, stateFailures, config: verifierOptions(options, provider, consumer, run, stateFailures, conflicts) };
    }),
  );
  if (options.broker) {
    try {
      await checkBroker(options.broker, options.timeout ?? DEFAULT_TIMEOUT_MS);
    } catch (error) {
      if (error instanceof BrokerUnusableError) throw new VerifyConfigError(error.message);
      throw error;
    }
  }
  const files = configs.flatMap((c) => c.config.pactUrls ?? []);
  const ignoresPageSize = await preflight(options, statesIn(files)[0], run);
  const results: ProviderResult[] = [];
  const noPacts: ProviderName[] = [];
  try {
    for (const { provider, consumer, config, stateFailures } of configs) {
      // From a broker, the interactions are known only by Pact's results.
      const interactions = config.pactUrls ? interactionsIn(config.pactUrls) : undefined;
      const started = performance.now();
      const evidence = ignoresPageSize.get(provider);
      if (evidence) {
        const { outcomes } = interactionOutcomes({ ...(interactions ? { interactions } : {}), stateFailures: [], error: `not replayed: ${evidence}` });
        results.push({ provider, consumer, ok: false, mismatches: [], error: evidence, interactions: outcomes, durationMs: 0 });
        continue;
      }
      let text: string;
      let passed = false;
      try {
        text = String(await new Verifier(config).verifyProvider());
        passed = true;
      } catch (error) {
        text = error instanceof Error ? error.message : String(error);
      }
      const durationMs = Math.round(performance.now() - started);
      const verification = parseVerification(text);
      const notLoaded = verification?.errors.find((m) => m.interaction === PACT_NOT_LOADED);
      if (options.broker && verification && verification.interactionResults.length === 0 && verification.errors.length === 0 && verification.pendingErrors.length === 0) {
        // The broker gave no pact of this consumer for this provider: nothing to verify here.
        noPacts.push(provider);
        continue;
      }
      if (notLoaded && options.broker) {
        // No pact of this consumer for this provider under the selectors: nothing to verify here.
        if (NO_PACTS_FOUND.test(notLoaded.detail) && !/failed validation/.test(notLoaded.detail)) {
          noPacts.push(provider);
          continue;
        }
        throw new VerifyConfigError(`the Pact Broker at ${options.broker.url} did not give the pacts of ${provider}: ${notLoaded.detail.split('\n')[0]}`);
      }
      const mismatches = verification?.errors ?? [];
      // Pact's own error (no JSON result, or one without mismatches) is the reason when it failed.
      const error = !passed && mismatches.length === 0 ? text : undefined;
      const { outcomes, unclaimedStateErrors } = interactionOutcomes({
        ...(interactions ? { interactions } : {}),
        ...(verification ? { verification } : {}),
        stateFailures,
        ...(error && !verification ? { error } : {}),
      });
      const stateErrors = stateFailures.map((f) => f.text);
      results.push({
        provider,
        consumer,
        ok: passed && stateErrors.length === 0,
        mismatches,
        ...(error ? { error } : {}),
        ...(stateErrors.length ? { stateErrors } : {}),
        interactions: outcomes,
        ...(unclaimedStateErrors.length ? { unclaimedStateErrors } : {}),
        durationMs,
      });
      // Interactions replayed on another run's data prove nothing either way.
      if (conflicts.length) throw new StateConflictError(conflicts[0]!);
    }
  } finally {
    // The mock lets this run hold its provider state until it says it is done (or the hold lapses).
    await run?.release();
  }
  if (results.length === 0 && noPacts.length) {
    throw new VerifyConfigError(`the Pact Broker at ${options.broker!.url} has no pact of '${consumerOf(options)}' with ${noPacts.join(' or ')} for the consumer version selectors given (--consumer-version-selectors; has the consumer published its pacts?)`);
  }
  return results;
}

/** How Pact names the failure to fetch a broker's pacts, and what it says when there are none. */
const PACT_NOT_LOADED = 'Failed to load pact';
const NO_PACTS_FOUND = /^No pacts found for provider /;
