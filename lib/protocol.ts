/**
 * `store-listing-kit/protocol`: the page arithmetic and the rules of the four listings, with no
 * dependency at all (no zod, no Node built-ins): cheap to import, and it runs in a browser.
 * The schemas of the records and envelopes are `store-listing-kit/schemas` (zod).
 */
export * from './paging.ts';
export * from './api-rules.ts';
export { ADMIN_PREFIX, ADMIN_PATHS, ADMIN_WRITE_HEADER, PROVIDER_STATES_PATH } from './admin-paths.ts';
