/**
 * `store-listing-kit/medusa`: the provider-state endpoint for a Medusa 2 app with the published
 * plugins, enabled with one file, `src/api/kit/provider-states/route.ts`:
 *
 *     export { POST } from 'store-listing-kit/medusa';
 *
 * and switched on by `STORE_LISTING_KIT_PROVIDER_STATES=1` (else it answers 404); the wishlists
 * belong to `STORE_LISTING_KIT_STATES_CUSTOMER` (the id or email of the customer whose token
 * `verify --header` sends), in `STORE_LISTING_KIT_STATES_SALES_CHANNEL` (optional: the channel whose
 * products the states draw on; what they lack is made as a draft product, deleted on teardown). Then `verify --provider-states-setup-url <app>/kit/provider-states`.
 * (Not under /store or /admin, whose middlewares ask for a key or an admin; Medusa's router skips
 * folders starting with `_`, so the mock's `/__admin/provider-states` cannot be a Medusa route.)
 * docs/contracts.md, "Verify your Medusa backend in CI".
 */
import { stateByName, stateChangeSchema, STATE_NAMES, type StateKey } from '../lib/provider-states.ts';
import { describeIssues } from '../lib/zod-issues.ts';
import { CUSTOMER_ENV, ENABLE_ENV, MedusaProviderStates, SALES_CHANNEL_ENV, StateSetupError, type ServiceResolver } from './provider-states.ts';

export { CUSTOMER_ENV, ENABLE_ENV, FILLER_HANDLE, ITEMS_PER_WISHLIST, MedusaProviderStates, MODULE_NAMES, SALES_CHANNEL_ENV, StateSetupError } from './provider-states.ts';
export type { ServiceResolver, StatesConfig } from './provider-states.ts';

/** The path the kit's docs name for the route file (`src/api/kit/provider-states/route.ts`). */
export const MEDUSA_PROVIDER_STATES_PATH = '/kit/provider-states';

/** What the handler needs of Medusa's request and response (a MedusaRequest and MedusaResponse are both). */
export interface RouteRequest {
  body?: unknown;
  scope: ServiceResolver;
}
export interface RouteResponse {
  status(code: number): { json(body: unknown): unknown };
}

export interface ProviderStatesRouteOptions {
  /** Where the switch and the customer are read, at each request (default `process.env`). */
  env?: Record<string, string | undefined>;
}

const answer = (res: RouteResponse, status: number, body: unknown) => {
  res.status(status).json(body);
};

/**
 * A route handler for `POST` that sets up and tears down the kit's provider states. One instance
 * keeps what each setup did, to undo it; the calls run one after another.
 */
export function providerStatesRoute(options: ProviderStatesRouteOptions = {}): (req: RouteRequest, res: RouteResponse) => Promise<void> {
  let states: MedusaProviderStates | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  return async (req, res) => {
    const env = options.env ?? process.env;
    if (!/^(1|true)$/i.test(env[ENABLE_ENV] ?? '')) {
      answer(res, 404, { type: 'not_found', message: `The provider-state endpoint is off: set ${ENABLE_ENV}=1 in the environment of the app to switch it on (tests only)` });
      return;
    }
    const parsed = stateChangeSchema.safeParse(req.body ?? {});
    if (!parsed.success) {
      answer(res, 400, { type: 'invalid_data', message: `state change body: ${describeIssues(parsed.error, req.body)} (it is { "state": "...", "params": { ... }, "action": "setup" | "teardown" })` });
      return;
    }
    const { state, params = {}, action = 'setup' } = parsed.data;
    const known = stateByName(state);
    let key: StateKey | undefined;
    let stateParams: unknown;
    if (action === 'setup') {
      if (!known) {
        answer(res, 400, { type: 'invalid_data', message: `unknown provider state '${state}'; known states: ${STATE_NAMES.map((n) => `'${n}'`).join(', ')}` });
        return;
      }
      const checked = known.params.safeParse(params);
      if (!checked.success) {
        answer(res, 400, { type: 'invalid_data', message: `provider state '${state}': ${describeIssues(checked.error, params)}` });
        return;
      }
      [key, stateParams] = [known.key, checked.data];
    }
    const run = async () => {
      // what the previous setup did is undone first, whatever comes next
      await states?.teardown();
      states = undefined;
      if (key === undefined) return {};
      // the customer and the channel are read at each setup: the app's environment decides
      states = new MedusaProviderStates(req.scope, { customer: env[CUSTOMER_ENV] || undefined, salesChannel: env[SALES_CHANNEL_ENV] || undefined });
      return { state, ...(await states.setup(key, stateParams as never)) };
    };
    const done = queue.then(run, run);
    queue = done.catch(() => {});
    try {
      answer(res, 200, await done);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof StateSetupError) answer(res, 422, { type: 'invalid_state', message: `Cannot set up '${state}': ${message}` });
      else answer(res, 500, { type: 'unexpected_state', message: `Setting up '${state}' (${action}) failed: ${message}` });
    }
  };
}

/** The handler for `src/api/kit/provider-states/route.ts`: `export { POST } from 'store-listing-kit/medusa'`. */
export const POST = providerStatesRoute();
