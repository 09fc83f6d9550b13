/**
 * Rules API.md marks [kit] that the kit's pacts do not pin: checked only with --strict (those the
 * pacts pin are in contract.ts, checked by default).
 */
import fc from 'fast-check';
import { reviewsPageMeta } from '../../lib/paging.ts';
import type { CheckContext, Target } from '../context.ts';
import { ALL_ENDPOINTS, type ListingEndpoint } from '../endpoints.ts';
import type { Exchange, Query } from '../http.ts';
import { countedTargets, isSkip, type ListingProperty } from '../property.ts';
import { fail } from '../violation.ts';
import { firstDifference } from './common.ts';

const BAD_ORDERS = ['bogus', '-bogus', 'id', '--rating', 'rating,created_at', '', ' rating', 'RATING'];
const UNKNOWN_PARAMS = ['page', 'per_page', 'sort', 'foo'];

/** What a 400 for a bad parameter must say, and the request that must get it. */
export interface BadCase {
  /** The parameter the 400 must name. */
  param: string;
  query: Query;
  why: string;
}

/** Bad queries beyond a bad paging value (contract.ts has those): repeated or unknown parameters, a bad order. */
function badCases(endpoint: ListingEndpoint): fc.Arbitrary<BadCase> {
  const { sizeParam, startParam } = endpoint;
  const ints = [sizeParam, startParam];
  const arbs: fc.Arbitrary<BadCase>[] = [
    fc.tuple(fc.constantFrom(...ints), fc.integer({ min: 1, max: 20 })).map(([param, n]) => ({ param, query: [[param, String(n)], [param, String(n)]] as Query, why: 'a repeated parameter' })),
    fc.tuple(fc.constantFrom(...UNKNOWN_PARAMS), fc.integer({ min: 1, max: 20 })).map(([param, n]) => ({ param, query: [[param, String(n)]] as Query, why: 'an unknown parameter' })),
  ];
  if (endpoint.acceptsOrder) {
    arbs.push(fc.constantFrom(...BAD_ORDERS).map((v) => ({ param: 'order', query: [['order', v]] as Query, why: 'not an accepted order value' })));
  } else {
    arbs.push(fc.constant({ param: 'order', query: [['order', 'created_at']] as Query, why: 'order is not a wishlist parameter' }));
  }
  return fc.oneof(...arbs);
}

export function checkError(ex: Exchange, status: number, type: string, mentions: string | undefined, why: string): void {
  const body = ex.json as Record<string, unknown> | undefined;
  const base = { url: ex.url, note: `body: ${ex.text.slice(0, 160)}` };
  if (ex.status !== status) fail({ message: `${why}: a ${status} ${type}`, ...base, field: 'status', expected: status, actual: ex.status });
  if (!body || typeof body !== 'object') fail({ message: `errors answer JSON {type, message}`, ...base, field: 'body', expected: '{ "type": ..., "message": ... }', actual: ex.text.slice(0, 200) });
  if (body.type !== type) fail({ message: `${why}: error type ${type}`, ...base, field: 'type', expected: type, actual: body.type });
  if (typeof body.message !== 'string' || !body.message) fail({ message: 'errors carry a message', ...base, field: 'message', expected: 'a non-empty string', actual: body.message });
  if (mentions !== undefined && !body.message.includes(`'${mentions}'`) && !body.message.includes(mentions)) {
    fail({ message: `the error message names the parameter`, ...base, field: 'message', expected: `mentions ${mentions}`, actual: body.message });
  }
  if (!/^application\/json\b/i.test(ex.contentType ?? '')) fail({ message: 'errors answer JSON', ...base, field: 'Content-Type', expected: 'application/json', actual: ex.contentType ?? undefined });
}

export const badParameters: ListingProperty = {
  id: 'bad-parameters-400',
  title: 'a repeated or unknown parameter, or a bad order, is a 400 invalid_data naming it',
  rule: 'kit',
  endpoints: ALL_ENDPOINTS,
  build: async (ctx, endpoint) => {
    const targets = await countedTargets(ctx, endpoint);
    if (isSkip(targets)) return targets;
    const target = targets[0]!.target;
    return fc.asyncProperty(badCases(endpoint), (c) => refusedAsBad(ctx, endpoint, target.id, c));
  },
};

/** The listing answers `c`'s query with a 400 invalid_data that names the parameter. */
export async function refusedAsBad(ctx: CheckContext, endpoint: ListingEndpoint, id: string | undefined, c: BadCase): Promise<void> {
  const ex = await ctx.client.get(endpoint.path(id), c.query);
  checkError(ex, 400, 'invalid_data', c.param, `${c.why} ('${c.param}')`);
}

export const unknownIds: ListingProperty = {
  id: 'unknown-ids',
  title: 'an unknown product on 4.2 is an empty 200 page (count 0); an unknown wishlist on 4.4 is a 404 not_found',
  // The pacts pin 4.4's 404 (an interaction asks for a wishlist that does not exist), not 4.2's empty page.
  rule: (endpoint) => (endpoint.name === 'wishlistItems' ? 'contract' : 'kit'),
  endpoints: ['productReviews', 'wishlistItems'],
  build: async (ctx, endpoint) => {
    const ids = fc.stringMatching(/^[a-z0-9]{1,12}$/).map((s) => `${endpoint.pathId === 'product' ? 'prod' : 'wl'}_unknown_${s}`);
    const windows = fc.record({ size: fc.integer({ min: 1, max: ctx.maxPageSize }), start: fc.integer({ min: 0, max: 50 }) });
    return fc.asyncProperty(ids, windows, async (id, w) => {
      const target: Target = { endpoint, id };
      const ex = await ctx.request(target, w);
      if (endpoint.pathId === 'wishlist') return checkError(ex, 404, 'not_found', id, 'an unknown wishlist');
      const expected = { reviews: [], ...reviewsPageMeta(0, w.start, w.size) };
      const d = firstDifference(expected, ex.json, '', true);
      if (ex.status !== 200 || d) {
        fail({
          message: 'an unknown product is not an error: 200 with an empty page and count 0',
          url: ex.url,
          field: ex.status !== 200 ? 'status' : d!.path,
          expected: ex.status !== 200 ? 200 : d!.expected,
          actual: ex.status !== 200 ? ex.status : d!.actual,
        });
      }
    });
  },
};
