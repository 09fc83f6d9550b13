/**
 * `store-listing-kit/contracts`: the storefront's typed client, the Pact verifier and the
 * provider states, for a backend team's own verification code. Loads Pact (its native core).
 */
export { StorefrontClient, StorefrontApiError } from './client.ts';
export type { ReviewsQuery, WishlistQuery, WishlistItemsQuery, StorefrontClientOptions } from './client.ts';
export { CONSUMER, SDK_CONSUMER, CONSUMER_OF_DIALECT, PROVIDERS, PACT_DIR, DEFAULT_CONSUMER_VERSION_SELECTORS, type ProviderName, type ConsumerVersionSelector } from './names.ts';
export { verifyProviders, VerifyConfigError, ProviderUnreachableError, ProviderRefusedError, ProviderDialectError, StateConflictError, pactFilesFor, statesIn } from './verify.ts';
export { classifyRefusal, type AccessRefusal, type RefusalCause } from './refusals.ts';
export type { BrokerSource, StateHandler, VerifyOptions, Mismatch, ProviderResult, InteractionOutcome } from './verify.ts';
export { verifyJsonReport, verifyJunitReport, VERIFY_REPORT_VERSION, type VerifyRun } from './verify-report.ts';
export { PROVIDER_STATES_PATH, STATES, STATE_NAMES, given } from '../lib/provider-states.ts';
export type { StateKey, StateParams, GivenState } from '../lib/provider-states.ts';
