/**
 * `store-listing-kit/schemas`: the records, envelopes and provider states as zod schemas (the
 * one definition the mock server, the contracts and the property suite share), and the
 * provider states' names and parameters.
 */
export { TIMESTAMP_PATTERN, ID_PREFIXES, recordSchemas, strictRecordSchemas, EXAMPLE_RECORDS } from './records.ts';
export type { Review, ProductSummary, ProductVariant, WishlistItem, Wishlist } from './records.ts';
export { reviewsEnvelopeSchema, wishlistEnvelopeSchema, envelopeSchemas, errorBodySchema, type ErrorBody } from './envelopes.ts';
export { MAX_STATE_COUNT, STATES, STATE_NAMES, given, stateByName, stateChangeSchema } from './provider-states.ts';
export type { StateKey, StateParams, GivenState, StateChange } from './provider-states.ts';
