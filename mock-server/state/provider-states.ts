import { Router, type Request, type Response } from 'express';
import { PROVIDER_STATES_PATH, STATES, STATE_LEASE_HEADER, STATE_NAMES, STATE_RUN_HEADER, stateByName, stateChangeSchema, type StateChange, type StateKey, type StateParams } from '../../lib/provider-states.ts';
import { describeIssues } from '../../lib/zod-issues.ts';
import { datasetFromRecords, generateDataset, type Dataset } from '../../fixtures/dataset.ts';
import type { Review, Wishlist } from '../../lib/records.ts';
import type { DatasetHolder } from '../dataset/holder.ts';
import { invalidRequest, quote } from '../support/errors.ts';
import { jsonBody } from '../support/json-body.ts';
import type { LeaseStatus } from './state-lease.ts';
import type { ValidStateChange } from './change-data.ts';

export type { ValidStateChange };

/**
 * The provider states of the contracts (lib/provider-states.ts), for the mock server.
 *
 * Each state is a pure function from its parameters to a whole dataset; setting a state
 * up installs that dataset (`holder.installState`), tearing it down serves again exactly what
 * was served before the setup (`holder.restoreState`: the dataset and its generation). The
 * same code serves two doors:
 * - in-process, as state handlers for Pact's Verifier (`pactStateHandlers`);
 * - over HTTP, as the state-change endpoint that Pact's `providerStatesSetupUrl` calls
 *   (`providerStatesRouter`, mounted at PROVIDER_STATES_PATH), which is the pattern a
 *   provider in any language can copy. In a mock server, its changes go through the server's
 *   coordinator and the lease on its provider state (state-lease.ts): one run at a time.
 */

/** The seed every state's records are drawn from: the same state always builds the same records. */
export const STATE_SEED = 4;
/** Reviews of other products beside the one `product has reviews` is about, so that 4.2's filter matters. */
const OTHER_PRODUCT_REVIEWS = 5;
/** Wishlists beside the one `wishlist has items` is about. */
const OTHER_WISHLISTS = 2;
/** The most items each wishlist of `wishlists exist` holds (keeps those pages small). */
const ITEMS_PER_LISTED_WISHLIST = 3;

const empty = { reviews: 0, wishlists: 0, maxItems: 0 } as const;

/** The dataset of each state, from its (already validated) parameters. */
export const STATE_DATASETS: { [K in StateKey]: (params: StateParams<K>) => Dataset } = {
  reviewsExist: ({ count }) => generateDataset({ ...empty, seed: STATE_SEED, reviews: count }),
  noReviewsExist: () => generateDataset({ ...empty, seed: STATE_SEED }),
  productHasReviews: ({ product_id, count }) => datasetFromRecords({ reviews: reviewsOfProduct(product_id, count), wishlists: [], productIds: [product_id] }),
  wishlistsExist: ({ count }) => generateDataset({ ...empty, seed: STATE_SEED, wishlists: count, maxItems: ITEMS_PER_LISTED_WISHLIST }),
  noWishlistsExist: () => generateDataset({ ...empty, seed: STATE_SEED }),
  wishlistHasItems: ({ wishlist_id, count }) => datasetFromRecords({ reviews: [], wishlists: wishlistsWith(wishlist_id, count) }),
};

/** `count` reviews of `productId`, plus a few of other products. */
function reviewsOfProduct(productId: string, count: number): Review[] {
  const source = generateDataset({ ...empty, seed: STATE_SEED, reviews: count + OTHER_PRODUCT_REVIEWS }).reviews.source;
  const reviews: Review[] = [];
  for (let i = 0; i < source.count; i++) {
    const review = source.review(i);
    if (i < count) reviews.push({ ...review, product_id: productId });
    else if (review.product_id !== productId) reviews.push(review);
  }
  return reviews;
}

/** Wishlist `wishlistId` with exactly `count` items, plus a few other wishlists. */
function wishlistsWith(wishlistId: string, count: number): Wishlist[] {
  // The generator gives its first wishlist exactly `maxItems` items.
  const source = generateDataset({ ...empty, seed: STATE_SEED, wishlists: 1 + OTHER_WISHLISTS, maxItems: count }).wishlists.source;
  const first = source.wishlist(0);
  const wishlists: Wishlist[] = [{ ...first, id: wishlistId, items: first.items.map((item) => ({ ...item, wishlist_id: wishlistId })) }];
  for (let w = 1; w < source.count; w++) {
    const other = source.wishlist(w);
    if (other.id !== wishlistId) wishlists.push(other);
  }
  return wishlists;
}

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

/** The dataset a state's setup installs. */
export function stateDataset(setup: Extract<ValidStateChange, { action: 'setup' }>): Dataset {
  const build = STATE_DATASETS[setup.key] as (params: unknown) => Dataset;
  return build(setup.params);
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
  else holder.installState(stateDataset(valid));
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

/** How the state-change endpoint of a mock server changes its data: through its coordinator, under its lease (state-lease.ts). */
export interface StateDoor {
  /** Applies a validated change asked by `run` (undefined: a caller that names none); rejects with the 409 when another run holds the state. */
  change(change: ValidStateChange, run: string | undefined): Promise<void>;
  /** Ends `run`'s hold, tearing down the state it has set up; rejects with the 409 when another run holds it. */
  release(run: string | undefined): Promise<void>;
  /** Who holds the state; a call from the run that holds it renews its hold. */
  status(run: string | undefined): Promise<LeaseStatus>;
}

/** The run a request names, by its X-Provider-State-Run header (undefined when it names none). */
export function stateRunOf(req: Request): string | undefined {
  const run = req.get(STATE_RUN_HEADER)?.trim();
  if (run === undefined || run === '') return undefined;
  if (run.length > 200) throw invalidRequest(`the ${STATE_RUN_HEADER} header names a run in at most 200 characters, got ${run.length}`);
  return run;
}

/**
 * The provider-state door, mounted at PROVIDER_STATES_PATH:
 *
 *   POST   { state, params, action }   Pact's state change (action: setup, the default, or teardown)
 *   GET                                who holds the provider state; from the holder, a heartbeat
 *   DELETE                             the end of the calling run's hold (its state torn down)
 *
 * With a `door` (a mock server's coordinator: in a cluster, every worker has a change before
 * the answer), changes are leased to one run at a time, and every answer says after how long
 * an idle hold lapses (STATE_LEASE_HEADER). Without one, changes go straight to this holder,
 * for anyone, and only POST is served.
 */
export function providerStatesRouter(holder: DatasetHolder, door?: StateDoor): Router {
  const router = Router();
  const leased = async (res: Response, run: string | undefined) => {
    const status = await door!.status(run);
    res.set(STATE_LEASE_HEADER, String(status.lapseSeconds));
    return status;
  };
  router.post(PROVIDER_STATES_PATH, jsonBody('64kb'), async (req, res) => {
    const parsed = stateChangeSchema.safeParse(req.body);
    if (!parsed.success) throw invalidRequest(`state change body: ${describeIssues(parsed.error)}`);
    if (!door) return void res.json(applyStateChange(holder, parsed.data));
    const run = stateRunOf(req);
    const valid = validateStateChange(parsed.data);
    await door.change(valid, run);
    await leased(res, undefined);
    res.json(stateAnswer(valid));
  });
  if (!door) return router;
  router.get(PROVIDER_STATES_PATH, async (req, res) => {
    res.json(await leased(res, stateRunOf(req)));
  });
  router.delete(PROVIDER_STATES_PATH, async (req, res) => {
    const run = stateRunOf(req);
    await door.release(run);
    res.json(await leased(res, undefined));
  });
  return router;
}
