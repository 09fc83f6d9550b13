/**
 * What the kit's pacts pin beyond the spec's own rules, checked by default so that `check` and
 * `verify` give one verdict on them (docs/contracts.md, "Who checks what"): the records' shape as
 * the dialect gives it (the pacts' record matchers: ids with their prefixes, timestamps with
 * milliseconds, field types) and, in the spec dialect, the 400 for a bad paging parameter (the
 * pacts' negative `limit`/`offset`/`take`/`skip` interactions; here every bad value API.md lists).
 */
import fc from 'fast-check';
import { recordSchemaOf, recordShapeRule } from '../../lib/answer-rules.ts';
import type { DialectName } from '../../lib/dialects/types.ts';
import { targetLabel } from '../context.ts';
import { ALL_ENDPOINTS, type ListingEndpoint } from '../endpoints.ts';
import type { Query } from '../http.ts';
import { countedTargets, isSkip, type ListingProperty, type Rule } from '../property.ts';
import { failWith } from '../violation.ts';
import { refusedAsBad, type BadCase } from './strict.ts';

/** Values that are not a plain decimal integer (or are out of range) for any integer parameter. */
const BAD_INTEGERS = ['-1', '-5', '+5', '1.5', '1e2', ' 5', '5 ', '', 'abc', '0x10', '9007199254740992', '99999999999999999999', '٣'];

function badPagingCases(endpoint: ListingEndpoint): fc.Arbitrary<BadCase> {
  const { sizeParam, startParam } = endpoint;
  return fc.oneof(
    fc.tuple(fc.constantFrom(sizeParam, startParam), fc.constantFrom(...BAD_INTEGERS)).map(([param, v]) => ({ param, query: [[param, v]] as Query, why: 'not a plain decimal integer in range' })),
    fc.constant({ param: sizeParam, query: [[sizeParam, '0']] as Query, why: 'a page size below 1' }),
  );
}

export const badPaging: ListingProperty = {
  id: 'bad-paging-400',
  title: 'a bad paging value (negative, signed, decimal, exponent, spaces, empty, not a number, too big; a page size of 0) is a 400 invalid_data naming the parameter',
  rule: 'contract',
  endpoints: ALL_ENDPOINTS,
  build: async (ctx, endpoint) => {
    const targets = await countedTargets(ctx, endpoint);
    if (isSkip(targets)) return targets;
    const target = targets[0]!.target;
    return fc.asyncProperty(badPagingCases(endpoint), (c) => refusedAsBad(ctx, endpoint, target.id, c));
  },
};

/** Every record of the listings has the fields and types of the dialect's record schema (lib/records.ts, lib/dialects/alphabite-schemas.ts). */
function recordShapeOf(dialect: DialectName, rule: Rule, title: string): ListingProperty {
  return {
    id: 'record-shape',
    title,
    rule,
    endpoints: ALL_ENDPOINTS,
    build: async (ctx, endpoint) => {
      const targets = await countedTargets(ctx, endpoint);
      if (isSkip(targets)) return targets;
      const schema = recordSchemaOf(dialect, endpoint.name);
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
}

export const recordShape = recordShapeOf('spec', 'contract', 'records have the fields and types API.md lists (ids with their prefixes, ISO timestamps with ms, updated_at >= created_at)');

export const alphabiteRecordShape = recordShapeOf(
  'alphabite',
  'dialect',
  "records have the fields and types the plugins answer (ids with their prefixes, the item's product_variant, ISO timestamps with ms), as the alphabite pacts' record matchers pin them",
);
