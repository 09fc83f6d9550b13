import { Router, type Request } from 'express';
import { DEFAULT_SEED, DEFAULT_SIZES } from '../../fixtures/generate.ts';
import type { GenerateOptions } from '../../fixtures/dataset.ts';
import { ADMIN_PATHS, ADMIN_PREFIX } from '../../lib/admin-paths.ts';
import { adminAccessMode, adminGuard } from './access.ts';
import type { Ops } from '../state/ops.ts';
import type { Coordinator } from '../state/coordination.ts';
import type { DatasetHolder } from '../dataset/holder.ts';
import { ApiError, invalidRequest, notFound } from '../helpers/errors.ts';
import { faultsActive, faultSettings, type FaultSettings } from '../state/faults.ts';
import { journalQuery } from './journal-query.ts';
import { serveDashboard } from './dashboard.ts';
import { jsonBody } from '../helpers/json-body.ts';
import { lazily } from '../helpers/lazy.ts';
import { queryPairs } from '../../lib/query.ts';

/** The admin bodies' schemas (zod), loaded on the first change that needs them. */
const adminSchemasModule = lazily(() => import('./schemas.ts'));

/**
 * The admin API, under ADMIN_PREFIX (`/__admin`), and the operational pieces it drives:
 *
 *   GET    /__admin/           the dashboard (dashboard.ts): an HTML page over the routes below
 *   GET    /__admin/health     liveness, uptime, memory, dataset version
 *   GET    /__admin/config     the server's settings, dataset, provider-state lease, faults and admin access mode
 *   POST   /__admin/reset      back to the dataset the server started with
 *   POST   /__admin/dataset    reseed or resize: { seed?, reviews?, products?, wishlists?, maxItems? }
 *   GET    /__admin/journal    recent requests (?limit, since, path, status, customer, by, violations), oldest first; DELETE clears it
 *   GET    /__admin/faults     fault settings; PUT changes those its body names (the rest are kept); DELETE turns them all off
 *   POST   /__admin/provider-states (and GET, DELETE): Pact's provider states, mounted by front/app.ts
 *          (provider-states.ts, loaded on first use), under the lease of state/state-lease.ts
 *
 * The validating proxy (`proxy`: `servesData` false) serves no dataset of its own, so the doors that change one
 * (reset, dataset, provider states) answer 404 with a sentence naming why (`noDatasetHere`) instead of
 * taking a change that would change nothing; its faults act on what passes through (backend/pass-faults.ts).
 *
 * Everything under the prefix (provider states too) passes the access guard (access.ts) first.
 * Admin requests are never delayed or failed by fault injection, and not journaled.
 *
 * A change is validated here, once (a bad one is answered 400 and goes nowhere), then
 * applied through the server's coordinator (state/coordination.ts): in a cluster, every worker
 * has applied it before the answer, and the journal and config speak for all of them.
 */

export interface AdminApiOptions {
  /** Whether the server serves a dataset of its own (default true); false: the validating proxy, whose dataset doors are refused. */
  servesData?: boolean;
}

/** The admin API of a server, to mount at ADMIN_PREFIX before any other /__admin route: the access guard (access.ts), then the routes. */
export function adminApi(holder: DatasetHolder, ops: Ops, coordinator: Coordinator, options: AdminApiOptions = {}): Router {
  const admin = Router();
  admin.use(adminGuard(ops.access));
  if (options.servesData === false) admin.use(noDatasetDoors());
  admin.use(adminRoutes(holder, ops, coordinator));
  return admin;
}

/** The paths of the admin doors that change the dataset served (and the provider states, which install one). */
const DATASET_DOORS = [ADMIN_PATHS.reset, ADMIN_PATHS.dataset, ADMIN_PATHS.providerStates].map((path) => path.slice(ADMIN_PREFIX.length));

/** Why the validating proxy refuses a dataset door: a 404 `not_found` naming the request and the reason. */
function noDatasetHere(method: string, path: string): ApiError {
  return notFound(
    `${method.slice(0, 16)} ${ADMIN_PREFIX}${path}: the validating proxy serves no dataset of its own (every request but ${ADMIN_PREFIX} goes to the backend), so there is nothing to reset, reseed or put in a provider state; faults and latency (${ADMIN_PATHS.faults}) act on the requests it passes on. For a dataset of the mock's, run serve (with --backend, in front of the same backend).`,
  );
}

/** The validating proxy's dataset doors (every method, any case, with a trailing slash, as Express routes them): refused. */
function noDatasetDoors(): Router {
  const router = Router();
  router.all(DATASET_DOORS, (req) => {
    throw noDatasetHere(req.method, req.path);
  });
  return router;
}

/** The customer a reset names (`{ "customer": "<id>" }`), or undefined for the whole reset (no body, `{}`). */
function resetCustomer(body: unknown): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body !== 'object' || Array.isArray(body)) throw invalidRequest('the body of POST /__admin/reset is { "customer": "<id>" } or nothing');
  const keys = Object.keys(body);
  const extra = keys.filter((key) => key !== 'customer');
  if (extra.length) throw invalidRequest(`unknown field${extra.length > 1 ? 's' : ''} ${extra.map((k) => `'${k.slice(0, 40)}'`).join(', ')} in the body of POST /__admin/reset: it takes { "customer": "<id>" } or nothing`);
  const customer = (body as { customer?: unknown }).customer;
  if (customer === undefined) return undefined;
  if (typeof customer !== 'string' || customer.length === 0 || customer.length > 200) throw invalidRequest("'customer' must be a customer id of 1 to 200 characters (as GET /__admin/journal shows it)");
  return customer;
}

function adminRoutes(holder: DatasetHolder, ops: Ops, coordinator: Coordinator): Router {
  const router = Router();
  const json = jsonBody('16kb');
  const noQuery = (req: Request) => {
    const at = req.originalUrl.indexOf('?');
    if (at >= 0 && at < req.originalUrl.length - 1) throw invalidRequest(`${req.method} ${ADMIN_PREFIX}${req.path} takes no query parameters`);
  };
  const datasetState = () => ({ version: holder.version, current: holder.current.summary, initial: holder.initial.summary });
  /** The fault settings (by default those in force now; after a change, those it left), with what they imply. */
  const faultState = async (settings: FaultSettings = ops.faults.settings) => ({ ...settings, active: faultsActive(settings), defaultSeed: ops.faults.defaultSeed, requestsSeen: await coordinator.faultDraws() });

  router.get('/', async (req, res) => {
    noQuery(req);
    await serveDashboard(req, res);
  });

  router.get('/health', (req, res) => {
    noQuery(req);
    const memory = process.memoryUsage();
    res.json({
      status: 'ok',
      uptimeSeconds: Math.round((Date.now() - ops.startedAt) / 100) / 10,
      pid: process.pid,
      ...(coordinator.workerPids ? { workerPids: coordinator.workerPids } : {}),
      memory: { rss: memory.rss, heapUsed: memory.heapUsed },
      datasetVersion: holder.version,
      fastPathAnswers: ops.stats.fastPathAnswers,
    });
  });

  router.get('/config', async (req, res) => {
    noQuery(req);
    res.json({
      server: { ...ops.info, pid: coordinator.pid, workers: coordinator.workers },
      logLevel: ops.logger.level,
      journalSize: ops.journal.capacity,
      journalBodyBytes: ops.journal.bodyBytes,
      admin: { access: adminAccessMode(ops.access) },
      dataset: { ...datasetState(), generation: holder.generation ?? null },
      providerStates: await coordinator.stateLease(),
      faults: await faultState(),
    });
  });

  router.post('/reset', json, async (req, res) => {
    noQuery(req);
    // With { "customer": "<id>" }: forgets that customer's writes only (docs/writes.md); without a body, the whole reset.
    const customer = resetCustomer(req.body);
    if (customer !== undefined) {
      const had = holder.writes.of(customer) !== undefined;
      await coordinator.apply({ kind: 'forgetWrites', customer });
      return res.json({ customer, forgotten: had, customersWithWrites: holder.writes.customerCount });
    }
    await coordinator.apply({ kind: 'reset' });
    res.json(datasetState());
  });

  router.post('/dataset', json, async (req, res) => {
    noQuery(req);
    const change = (await adminSchemasModule()).parseDatasetChange(req.body ?? {});
    if (holder.awaitedCatalogue !== undefined) {
      throw new ApiError(409, 'conflict', `The catalogue of ${holder.awaitedCatalogue} is not read yet (it is read with the publishable key of the first request to the plugins' routes, or at start with --publishable-key): reseed once it is.`);
    }
    // Over a catalogue (given, or a backend's) the products are the catalogue's.
    const catalogue = holder.catalogue;
    if (catalogue && change.products !== undefined && change.products !== catalogue.count) {
      throw invalidRequest(`'products' is ${change.products}, but the dataset is generated over the catalogue of ${catalogue.from}, whose ${catalogue.count} products are the products: leave 'products' out`);
    }
    const base = holder.generation ?? {};
    const generation: Required<GenerateOptions> = {
      seed: change.seed ?? base.seed ?? DEFAULT_SEED,
      reviews: change.reviews ?? base.reviews ?? DEFAULT_SIZES.reviews,
      products: catalogue ? catalogue.count : (change.products ?? base.products ?? DEFAULT_SIZES.products),
      wishlists: change.wishlists ?? base.wishlists ?? DEFAULT_SIZES.wishlists,
      maxItems: change.maxItems ?? base.maxItems ?? DEFAULT_SIZES.maxItems,
    };
    await coordinator.apply({ kind: 'reseed', generation });
    // As applied: over a backend's catalogue, read again for the reseed, `products` is its count now.
    res.json({ ...datasetState(), generation: holder.generation ?? generation });
  });

  router.get('/journal', async (req, res) => {
    const query = journalQuery(queryPairs(req.originalUrl), ops.journal.capacity);
    res.json({ capacity: ops.journal.capacity, bodyBytes: ops.journal.bodyBytes, ...(await coordinator.journal(query)) });
  });

  router.delete('/journal', async (req, res) => {
    noQuery(req);
    const { cleared } = await coordinator.apply({ kind: 'clearJournal' });
    res.json({ cleared });
  });

  router.get('/faults', async (req, res) => {
    noQuery(req);
    res.json(await faultState());
  });

  router.put('/faults', json, async (req, res) => {
    noQuery(req);
    if (req.body === undefined) throw invalidRequest('the fault settings must be a JSON object sent with Content-Type: application/json');
    // A merge: what the body leaves out keeps its value (state/faults.ts, mergedFaultSettings). Merged where the
    // change is applied, not here: in a cluster, onto the settings every worker holds when the primary's turn
    // for it comes, so two PUTs at once through different workers both count.
    const change = (await adminSchemasModule()).parseFaultSettings(req.body);
    const applied = await coordinator.apply({ kind: 'faults', settings: change, merge: true });
    // As they were right after this change (a later one may be in force already).
    res.json(await faultState(applied.faults));
  });

  router.delete('/faults', async (req, res) => {
    noQuery(req);
    const applied = await coordinator.apply({ kind: 'faults', settings: faultSettings() });
    res.json(await faultState(applied.faults));
  });

  return router;
}
