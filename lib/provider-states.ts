import { z } from 'zod';
import { MAX_WISHLIST_ITEMS } from './api-rules.ts';
export { PROVIDER_STATES_PATH, STATE_LEASE_HEADER, STATE_RUN_HEADER } from './admin-paths.ts';

/**
 * The provider-state vocabulary of the contracts: every state an interaction is given,
 * with its parameters, and the body of the state-change call. A provider that wants to be
 * verified implements each of them (the mock server does, in mock-server/state/provider-states.ts);
 * the README lists them.
 *
 * A state describes the whole data set the interaction relies on: "reviews exist
 * { count: 12 }" means exactly 12 reviews, so the page numbers of the answer are fixed.
 * Ids given as parameters are the ids the provider must give its records.
 */

/**
 * The largest `count` a state may ask for (keeps a state change quick on any provider); a wishlist's
 * items at most MAX_WISHLIST_ITEMS, so that the mock can list the wishlist with its items embedded.
 */
export const MAX_STATE_COUNT = 10_000;

const count = z.number().int().min(0).max(MAX_STATE_COUNT);
const prefixedId = (prefix: string) =>
  z.string().regex(new RegExp(`^${prefix}_[0-9A-Za-z_-]+$`), { message: `must be an id like '${prefix}_01...' (letters, digits, '_' and '-')` });

export const STATES = {
  /** Exactly `count` reviews in all (of any products). */
  reviewsExist: { name: 'reviews exist', params: z.strictObject({ count }) },
  /** No review at all. */
  noReviewsExist: { name: 'no reviews exist', params: z.strictObject({}) },
  /** Product `product_id` has exactly `count` reviews; other products may have reviews too. */
  productHasReviews: { name: 'product has reviews', params: z.strictObject({ product_id: prefixedId('prod'), count }) },
  /** Exactly `count` wishlists, each holding a few items. */
  wishlistsExist: { name: 'wishlists exist', params: z.strictObject({ count }) },
  /** No wishlist at all (so any wishlist id is unknown). */
  noWishlistsExist: { name: 'no wishlists exist', params: z.strictObject({}) },
  /** Wishlist `wishlist_id` exists and holds exactly `count` items; other wishlists may exist too. */
  wishlistHasItems: { name: 'wishlist has items', params: z.strictObject({ wishlist_id: prefixedId('wl'), count: z.number().int().min(0).max(MAX_WISHLIST_ITEMS) }) },
} as const;

export type StateKey = keyof typeof STATES;
export type StateParams<K extends StateKey> = z.infer<(typeof STATES)[K]['params']>;

/** A state as an interaction is given it: `given(state.name, state.params)`. */
export interface GivenState {
  name: string;
  params: Record<string, string | number>;
}

/** Builds a `given` of the vocabulary, checking its parameters as a provider would. */
export function given<K extends StateKey>(key: K, params: StateParams<K>): GivenState {
  const parsed = STATES[key].params.parse(params) as Record<string, string | number>;
  return { name: STATES[key].name, params: parsed };
}

export const STATE_NAMES: readonly string[] = Object.values(STATES).map((s) => s.name);

/** The schema of a state by its name, or undefined for a name outside the vocabulary. */
export function stateByName(name: string): { key: StateKey; params: z.ZodType } | undefined {
  for (const [key, state] of Object.entries(STATES) as Array<[StateKey, (typeof STATES)[StateKey]]>) {
    if (state.name === name) return { key, params: state.params };
  }
  return undefined;
}

/** The body of Pact's state-change call. */
export const stateChangeSchema = z.object({
  state: z.string({ message: "'state' must be a string naming a provider state" }).min(1, { message: "'state' must not be empty" }),
  params: z.record(z.string(), z.unknown(), { message: "'params' must be an object" }).optional(),
  action: z.enum(['setup', 'teardown'], { message: "'action' must be 'setup' or 'teardown'" }).optional(),
});

export type StateChange = z.infer<typeof stateChangeSchema>;
