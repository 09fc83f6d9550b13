/**
 * The response header in which the mock says why it answered a write route as it did, where the
 * plugins' own answer does not say: each empty 500, and the few answers that look like success but
 * did something else (one short sentence each, mock-server/writes/reasons.ts; docs/writes.md); and
 * each of the alphabite listings' own empty 500s (ALPHABITE_LISTING_REASONS, lib/dialects/alphabite.ts). Not the
 * plugins': a real backend never sends it. Here, without zod, because the server's start-up and the
 * CORS policy read it.
 */
export const REASON_HEADER = 'x-store-listing-kit-reason';
