/** Rules API.md marks [kit]: checked only with --strict. */
import fc from 'fast-check';
import { reviewsPageMeta } from '../../lib/paging.ts';
import { recordSchemaOf, recordShapeRule } from '../../lib/answer-rules.ts';
import { targetLabel, type Target } from '../context.ts';
import { ALL_ENDPOINTS, type ListingEndpoint } from '../endpoints.ts';
import type { Exchange, Query } from '../http.ts';
import { countedTargets, isSkip, type ListingProperty } from '../property.ts';
import { fail, failWith } from '../violation.ts';
import { firstDifference } from './common.ts';

/** Values that are not a plain decimal integer (or are out of range) for any integer parameter. */
const BAD_INTEGERS = ['-1', '-5', '+5', '1.5', '1e2', ' 5', '5 ', '', 'abc', '0x10', '9007199254740992', '99999999999999999999', '٣'];
const BAD_ORDERS = ['bogus', '-bogus', 'id', '--rating', 'rating,created_at', '', ' rating', 'RATING'];
const UNKNOWN_PARAMS = ['page', 'per_page', 'sort', 'foo'];

interface BadCase {
  /** The parameter the 400 must name. */
  param: string;
  query: Query;
  why: string;
}

function badCases(endpoint: ListingEndpoint): fc.Arbitrary<BadCase> {
  const { sizeParam, startParam } = endpoint;
  const ints = [sizeParam, startParam];
  const arbs: fc.Arbitrary<BadCase>[] = [
    fc.tuple(fc.constantFrom(...ints), fc.constantFrom(...BAD_INTEGERS)).map(([param, v]) => ({ param, query: [[param, v]] as Query, why: 'not a plain decimal integer in range' })),
    fc.constant({ param: sizeParam, query: [[sizeParam, '0']] as Query, why: 'a page size below 1' }),
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
  title: 'a bad parameter (sign, decimal, exponent, spaces, empty, repeated, too big, unknown, bad order) is a 400 invalid_data naming it',
  rule: 'kit',
  endpoints: ALL_ENDPOINTS,
  build: async (ctx, endpoint) => {
    const targets = await countedTargets(ctx, endpoint);
    if (isSkip(targets)) return targets;
    const target = targets[0]!.target;
    return fc.asyncProperty(badCases(endpoint), async (c) => {
      const ex = await ctx.client.get(endpoint.path(target.id), c.query);
      checkError(ex, 400, 'invalid_data', c.param, `${c.why} ('${c.param}')`);
    });
  },
};

export const unknownIds: ListingProperty = {
  id: 'unknown-ids',
  title: 'an unknown product on 4.2 is an empty 200 page (count 0); an unknown wishlist on 4.4 is a 404 not_found',
  rule: 'kit',
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


export const recordShape: ListingProperty = {
  id: 'record-shape',
  title: 'records have the fields and types API.md lists (ids with their prefixes, ISO timestamps with ms, updated_at >= created_at)',
  rule: 'kit',
  endpoints: ALL_ENDPOINTS,
  build: async (ctx, endpoint) => {
    const targets = await countedTargets(ctx, endpoint);
    if (isSkip(targets)) return targets;
    const schema = recordSchemaOf('spec', endpoint.name);
    const refs = await Promise.all(targets.map(({ target }) => ctx.reference(target)));
    const nonEmpty = refs.filter((r) => r.records.length > 0);
    if (nonEmpty.length === 0) return { skip: `no record to check on ${targetLabel(targets[0]!.target)}` };
    const cases = fc.constantFrom(...nonEmpty.map((_, i) => i)).chain((i) =>
      fc.record({ ref: fc.constant(i), index: fc.nat({ max: nonEmpty[i]!.records.length - 1 }) }),
    );
    return fc.asyncProperty(cases, async ({ ref, index }) => {
      const set = nonEmpty[ref]!;
      const record = set.records[index];
      const broken = recordShapeRule(schema, record, `${endpoint.recordsKey}[${index % ctx.maxPageSize}]`);
      if (broken) failWith(set.sources[index]!, broken);
    });
  },
};
