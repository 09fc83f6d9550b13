import { Router, type Request, type Response } from 'express';
import { PROVIDER_STATES_PATH, STATE_LEASE_HEADER, STATE_RUN_HEADER, stateChangeSchema } from '../../lib/provider-states.ts';
import { describeIssues } from '../../lib/zod-issues.ts';
import type { DatasetHolder } from '../dataset/holder.ts';
import { invalidRequest } from '../helpers/errors.ts';
import { jsonBody } from '../helpers/json-body.ts';
import type { LeaseStatus } from '../state/state-lease.ts';
import type { ValidStateChange } from '../state/change-data.ts';
import { lazily } from '../helpers/lazy.ts';

/**
 * The HTTP door of the provider states, loaded on first use by front/app.ts. The states themselves
 * (their validation and datasets) are state/provider-states.ts, which this door loads on its first
 * change (through `lazily`, so that a load that failed is tried again: a static import of a module
 * missing for a while would fail this module for good).
 */
const statesModule = lazily(() => import('../state/provider-states.ts'));

/** How the state-change endpoint of a mock server changes its data: through its coordinator, under its lease (state/state-lease.ts). */
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
    const { applyStateChange, stateAnswer, validateStateChange } = await statesModule();
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
