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
 * origin without a CORS preflight, which the admin API refuses (mock-server/access.ts).
 */
export const ADMIN_WRITE_HEADER = 'X-Requested-By';

/** Where the mock serves the OpenAPI document of its dialect (lib/openapi/). */
export const OPENAPI_PATH = '/openapi.json';

/** Where a provider answers Pact's state-change calls (`POST { state, params, action }`). */
export const PROVIDER_STATES_PATH = ADMIN_PATHS.providerStates;
