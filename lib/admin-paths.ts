/**
 * Where the mock server's admin API lives. Pact's state-change calls go to the provider
 * states path, which any provider that wants to be verified serves too (see
 * lib/provider-states.ts), and which `check --vary-dataset` uses.
 */
export const ADMIN_PREFIX = '/__admin';

export const ADMIN_PATHS = {
  health: `${ADMIN_PREFIX}/health`,
  config: `${ADMIN_PREFIX}/config`,
  reset: `${ADMIN_PREFIX}/reset`,
  dataset: `${ADMIN_PREFIX}/dataset`,
  journal: `${ADMIN_PREFIX}/journal`,
  faults: `${ADMIN_PREFIX}/faults`,
  providerStates: `${ADMIN_PREFIX}/provider-states`,
} as const;

/**
 * The header that marks an admin change (`POST`, `PUT`, `DELETE`) as sent by a script or a tool,
 * not by a web page: on loopback without a token, the mock takes a change only with this header
 * (any value) or `Content-Type: application/json`, neither of which a page can send to another
 * origin without a CORS preflight, which the admin API refuses (mock-server/admin/access.ts).
 */
export const ADMIN_WRITE_HEADER = 'X-Requested-By';

/** Whether a request path (no query) is under the admin prefix, as Express matches it (any case). */
export function isAdminPath(path: string): boolean {
  if (path.length < ADMIN_PREFIX.length || path.slice(0, ADMIN_PREFIX.length).toLowerCase() !== ADMIN_PREFIX) return false;
  const next = path[ADMIN_PREFIX.length];
  return next === undefined || next === '/' || next === '?';
}

/** Where the mock serves the OpenAPI document of its dialect (lib/openapi/). */
export const OPENAPI_PATH = '/openapi.json';

/** Where a provider answers Pact's state-change calls (`POST { state, params, action }`). */
export const PROVIDER_STATES_PATH = ADMIN_PATHS.providerStates;

/**
 * The header with which a run names itself on its provider-state calls (the kit's `verify` and
 * `check --vary-dataset` send it): the mock lets one run at a time hold its provider state, from
 * its first setup to its release (mock-server/state/state-lease.ts).
 */
export const STATE_RUN_HEADER = 'x-provider-state-run';

/**
 * The header of the mock's answers to provider-state calls: after how many seconds without a
 * state change a run's hold lapses. A run that sees it releases its hold when it ends
 * (`DELETE` on the provider-states path) and, while it holds a state long, sends a heartbeat
 * (`GET` on that path); to a service without it, a run sends neither.
 */
export const STATE_LEASE_HEADER = 'x-provider-state-lease-seconds';
