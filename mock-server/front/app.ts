import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response, type Router } from 'express';
import cors from 'cors';
import { DEFAULT_MAX_PAGE_SIZE } from '../../lib/api-rules.ts';
import { createDialect, DEFAULT_DIALECT, type DialectName } from '../../lib/dialects/index.ts';
import type { DatasetHolder } from '../dataset/holder.ts';
import { errorHandler, routeNotFound } from '../helpers/errors.ts';
import { ListingAnswers, mountListings } from '../listings/answers.ts';
import { ADMIN_PREFIX, isAdminPath, OPENAPI_PATH } from '../../lib/admin-paths.ts';
import { adminApi } from '../admin/routes.ts';
import { ChangeApplier } from '../state/changes.ts';
import { observeRequests, type RequestObserver } from '../journal/observe.ts';
import { createOps, type Ops } from '../state/ops.ts';
import type { Coordinator } from '../state/coordination.ts';
import { lazily } from '../helpers/lazy.ts';
import type { StateDoor } from '../admin/provider-states.ts';
import { corsHeaderSetter, corsOptions, corsPolicy } from '../helpers/cors-policy.ts';
import { preflightOnly } from './request-guards.ts';
import { writeRoutes } from './writes.ts';
import { MOCK_SHARE_TOKEN_SECRET, wishlistSettings } from '../writes/routes.ts';
import type { WishlistSettings } from '../writes/types.ts';
import type { VariantJson } from '../writes/types.ts';
import type { PactRecorder } from '../pacts/recorder.ts';
import { pactsAdminRouter } from '../pacts/routes.ts';

/** The provider-state door (zod validation, the states' datasets), loaded on first use. */
const providerStatesModule = lazily(() => import('../admin/provider-states.ts'));
/** The OpenAPI document and its route (zod's JSON Schema output), loaded on first use. */
const openApiModule = lazily(() => import('../listings/openapi.ts'));

export interface AppOptions {
  /** The largest `limit` / `take` accepted (default 1000; the spec dialect's bound). */
  maxPageSize?: number;
  /** How the listings speak (default `spec`; `alphabite`: the published plugins). */
  dialect?: DialectName;
  /** The alphabite dialect's publishable keys: another key is refused (default: any key is taken). */
  publishableKeys?: readonly string[];
  /** The Medusa version the alphabite dialect answers as (default the newest tested). */
  medusaVersion?: string;
  /** The kept answers, when a fast path in front of the app shares them (process.ts). */
  answers?: ListingAnswers;
  /** Origins allowed by CORS; default any (`*`, without credentials). Explicit origins may send credentials. */
  corsOrigin?: string | string[];
  /** Told about unexpected faults (the answer is the documented 500 either way). */
  onFault?: (error: unknown) => void;
  /** Faults, journal, logger and admin access (mock-server/state/ops.ts); default: all off, admin on loopback. */
  ops?: Ops;
  /** The alphabite dialect's wishlist setting `allow_multiple_wishlists` (default false, as a fresh install; docs/writes.md). */
  allowMultipleWishlists?: boolean;
  /** The wishlist plugin's settings as the write routes read them, when someone else keeps them (a backend's, read: backend/customer-data.ts); else from `allowMultipleWishlists`. */
  settings?: WishlistSettings;
  /** The alphabite dialect's wishlist plugin option `shareTokenSecret` (default MOCK_SHARE_TOKEN_SECRET; '': left out, docs/writes.md). */
  shareTokenSecret?: string;
  /** add-item's lookup of a variant the dataset does not know (a backend's catalogue read again: backend/catalogue.ts). */
  findVariant?: (variantId: string) => Promise<VariantJson | undefined>;
  /** Pact's provider-state door under /__admin (default true; the validating proxy has none: it serves no listings). */
  providerStates?: boolean;
  /** Whether the app serves a dataset of its own (default true); false: the validating proxy, whose admin API refuses reset, reseed and provider states with a 404 naming why (admin/routes.ts). */
  servesData?: boolean;
  /** (issue 30) Records the consumer's requests under provider states as pacts, with its admin door (`/__admin/pacts`). */
  pacts?: PactRecorder;
}

/** The kept answers of a server: its dataset, in its dialect. */
export function listingAnswers(holder: DatasetHolder, options: Pick<AppOptions, 'dialect' | 'maxPageSize' | 'publishableKeys' | 'medusaVersion'>): ListingAnswers {
  const { publishableKeys, medusaVersion } = options;
  const dialectOptions = { maxPageSize: options.maxPageSize ?? DEFAULT_MAX_PAGE_SIZE, ...(publishableKeys ? { publishableKeys } : {}), ...(medusaVersion !== undefined ? { medusaVersion } : {}) };
  return new ListingAnswers(holder, createDialect(options.dialect ?? DEFAULT_DIALECT, dialectOptions));
}

/** The Express application: the four listings, CORS, and JSON errors for everything else. */
export function createApp(holder: DatasetHolder, options: AppOptions = {}): Express {
  const app = express();
  app.disable('x-powered-by');
  // Query strings are read by the listing handlers themselves (mock-server/params.ts),
  // strictly; Express's own parser would turn `a[b]=1` into objects nobody asked for.
  app.set('query parser', false);
  // Preflights through the `cors` package; actual answers get the same headers from corsHeaders,
  // computed once per request without the package's per-request option copying. Neither
  // under /__admin: no web page of another origin may read it, and its preflights go to the
  // admin guard (admin/access.ts), which refuses them.
  const policy = corsPolicy(options.corsOrigin);
  // In the alphabite dialect the plugins' write routes are answered too: their preflights allow POST, PUT and DELETE.
  const answersWrites = (options.answers?.dialect.name ?? options.dialect ?? DEFAULT_DIALECT) === 'alphabite';
  const preflight = preflightOnly(cors(corsOptions(policy, answersWrites)));
  const setCors = corsHeaderSetter(policy);
  const ops = options.ops ?? createOps({ generation: holder.initialGeneration });
  const { coordinator, observe, admin, faults } = opsHandlers(holder, ops, options.servesData !== false);
  // What every request passes, in this order, in one layer (each layer is a dispatch per request):
  // CORS (not on /__admin), observation (journal, logs), fault injection (which leaves /__admin alone).
  const pacts = options.pacts;
  const pass = (req: Request, res: Response, next: NextFunction, adminPath: boolean) => {
    if (!adminPath) setCors(res, req.headers.origin);
    pacts?.observe(req, res);
    observe?.(req, res);
    faults(req, res, next);
  };
  app.use((req, res, next) => {
    const adminPath = isAdminPath(req.path);
    if (req.method === 'OPTIONS' && !adminPath) return preflight(req, res, (error?: unknown) => (error ? next(error) : pass(req, res, next, false)));
    pass(req, res, next, adminPath);
  });
  // The admin guard and routes, before the listings and every other /__admin route.
  app.use(ADMIN_PREFIX, admin);
  if (pacts) app.use(ADMIN_PREFIX, pactsAdminRouter(pacts));
  const answers = options.answers ?? listingAnswers(holder, options);
  mountListings(app, { answers });
  // The plugins' other routes (writes, and the reads around them) in the alphabite dialect; the spec dialect's 405 for writes.
  app.use(writeRoutes({ answers, coordinator, settings: options.settings ?? wishlistSettings(options.allowMultipleWishlists), shareTokenSecret: options.shareTokenSecret ?? MOCK_SHARE_TOKEN_SECRET, ...(options.findVariant ? { findVariant: options.findVariant } : {}) }));
  // The OpenAPI document of the dialect the listings speak (examples from the seed-1 dataset, whatever this one serves).
  app.get(OPENAPI_PATH, lazyOpenApiRoute({ dialect: answers.dialect.name, ...(answers.dialect.maxPageSize !== undefined ? { maxPageSize: answers.dialect.maxPageSize } : {}) }));
  // Pact's state-change endpoint (POST, GET and DELETE /__admin/provider-states); any /__admin guard must be
  // mounted before it. Applied through the coordinator, under its lease (one run at a time): in a cluster,
  // by every worker before the answer. Loaded on the first /__admin request that gets this far (not on a write)
  // (mock-server/admin/provider-states.ts and state/provider-states.ts validate with zod, which nothing on a mock's start-up path needs);
  // the router matches the path as if mounted here.
  const states = lazily(async () => (await providerStatesModule()).providerStatesRouter(holder, stateDoor(coordinator)));
  if (options.providerStates !== false) {
    app.use((req, res, next) => {
      if (!isAdminPath(req.path)) return next();
      states().then((router) => router(req, res, next), next);
    });
  }
  app.use(routeNotFound);
  app.use(errorHandler(options.onFault ?? ((error: unknown) => ops.logger.error({ err: error }, 'unexpected fault'))));
  return app;
}

/** What the operational pieces add to an app (createApp mounts them). */
interface OpsHandlers {
  /** Through which the other admin doors (provider states) apply changes. */
  coordinator: Coordinator;
  /** Journal and logs, for every request before it is answered (undefined when both are off). */
  observe: RequestObserver | undefined;
  /** The admin guard and routes, to mount at ADMIN_PREFIX before any other /__admin route. */
  admin: Router;
  /** Fault injection, for every request after observation (it leaves admin paths alone). */
  faults: RequestHandler;
}

function opsHandlers(holder: DatasetHolder, ops: Ops, servesData: boolean): OpsHandlers {
  const coordinator = ops.coordinate(new ChangeApplier(holder, ops));
  return { coordinator, observe: observeRequests(ops.journal, ops.logger), admin: adminApi(holder, ops, coordinator, { servesData }), faults: ops.faults.middleware() };
}

/** The provider-state door of a server: its changes go through the coordinator, which keeps the lease. */
function stateDoor(coordinator: Coordinator): StateDoor {
  return {
    change: async (change, run) => void (await coordinator.apply({ kind: 'providerState', change, ...(run !== undefined ? { run } : {}) })),
    release: async (run) => void (await coordinator.apply({ kind: 'releaseState', ...(run !== undefined ? { run } : {}) })),
    status: (run) => coordinator.stateLease(run),
  };
}

/**
 * `GET /openapi.json` (mock-server/listings/openapi.ts), loaded on its first request: the document is built
 * with zod's JSON Schema, which no other request of a running mock needs, so it stays off the
 * start-up path.
 */
function lazyOpenApiRoute(options: Parameters<typeof import('../listings/openapi.ts').openApiRoute>[0]): (req: Request, res: Response) => Promise<void> {
  const route = lazily(async () => (await openApiModule()).openApiRoute(options));
  return async (req, res) => (await route())(req, res);
}
