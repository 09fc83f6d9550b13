/**
 * `check --dialect alphabite`: the listings judged by the published plugins' own rules where they
 * have them (the `data` envelope, limit/offset on every listing, their clamped page numbers) and,
 * everywhere, by what a storefront needs of a listing (a `count` that agrees with the records, a
 * walk by offset that visits every record once, the order asked for); and the records' shape, as
 * the alphabite pacts pin it (`record-shape`, contract.ts). The plugins' documented
 * choices (clamped `nextPage`/`prevPage`, `totalPages` at least 1, a fractional `currentPage`) are
 * their rules, not failures; only what breaks a storefront fails (docs/property-suite.md).
 */
import fc from 'fast-check';
import { alphabiteEchoRule, clampedPagesRule, dataEnvelopeRule } from '../../lib/answer-rules.ts';
import { pageLength } from '../../lib/paging.ts';
import { ALPHABITE_ORDER_FIELDS } from '../alphabite.ts';
import { recordKey, targetLabel, type CheckContext, type Page, type Target } from '../context.ts';
import { ALL_ENDPOINTS, type ListingEndpoint } from '../endpoints.ts';
import { walkSizeArb } from '../generators.ts';
import { countedTargets, isSkip, type ListingProperty } from '../property.ts';
import { fail, failOnFirst } from '../violation.ts';
import { orderQuery, pageProperty, targetOf, windowCases } from './common.ts';
import { alphabiteRecordShape } from './contract.ts';

export const dataEnvelope: ListingProperty = {
  id: 'data-envelope',
  title: "the plugins' envelope: the records in a 'data' array; count, take, skip, totalPages (at least 1), currentPage, nextPage and prevPage always there, numbers",
  rule: 'dialect',
  endpoints: ALL_ENDPOINTS,
  build: (ctx, endpoint) => pageProperty(ctx, endpoint, (page) => failOnFirst(page.ex.url, dataEnvelopeRule(page))),
};

export const clampedPages: ListingProperty = {
  id: 'clamped-page-numbers',
  title: "the plugins' page numbers from the echoed count, take and skip: totalPages = max(ceil(count / take), 1), currentPage = skip / take + 1, nextPage = min(currentPage + 1, totalPages), prevPage = max(currentPage - 1, 1)",
  rule: 'dialect',
  endpoints: ALL_ENDPOINTS,
  build: (ctx, endpoint) =>
    pageProperty(ctx, endpoint, (page) => failOnFirst(page.ex.url, clampedPagesRule(page))),
};

type Omitted = 'none' | 'limit' | 'offset' | 'both';

export const limitOffsetHonoured: ListingProperty = {
  id: 'limit-offset-honoured',
  title: 'limit and offset page every listing (defaults 20 and 0): the page holds records offset+1 … offset+limit of the listed set, echoed as take and skip',
  rule: 'dialect',
  endpoints: ALL_ENDPOINTS,
  build: async (ctx, endpoint) => {
    const cases = await windowCases(ctx, endpoint);
    if (isSkip(cases)) return cases;
    const omitted = fc.constantFrom<Omitted>('none', 'none', 'limit', 'offset', 'both');
    return fc.asyncProperty(cases, omitted, async (c, omit) => {
      const target = targetOf(endpoint, c);
      const sent = { size: omit === 'limit' || omit === 'both' ? undefined : c.size, start: omit === 'offset' || omit === 'both' ? undefined : c.start };
      const size = sent.size ?? endpoint.defaultSize;
      const start = sent.start ?? endpoint.defaultStart;
      const [page, ref] = await Promise.all([ctx.page(target, sent), ctx.reference(target)]);
      const note = `asked for ${sent.size === undefined ? `the default limit ${size}` : `limit=${size}`}, ${sent.start === undefined ? `the default offset ${start}` : `offset=${start}`}; the listing holds ${ref.complete ? '' : 'at least '}${ref.records.length} records (listed from GET ${ref.firstUrl})`;
      const length = pageLength(ref.count, start, size);
      if (ref.complete ? page.records.length !== length : page.records.length > size) {
        fail({ message: `a page holds at most limit records, from offset on: max(0, min(limit, count - offset))`, url: page.ex.url, field: 'data.length', expected: ref.complete ? length : `at most ${size}`, actual: page.records.length, note });
      }
      page.records.forEach((record, i) => {
        const pos = start + i;
        if (pos < ref.records.length && recordKey(record) !== recordKey(ref.records[pos])) {
          fail({ message: `record ${pos + 1} of the listing must be the same whatever the paging`, url: page.ex.url, field: `data[${i}].id`, expected: recordKey(ref.records[pos]), actual: recordKey(record), note: `record ${pos + 1} was ${recordKey(ref.records[pos])} on GET ${ref.sources[pos]}` });
        }
      });
      failOnFirst(page.ex.url, alphabiteEchoRule(page, { size, start }), note);
    });
  },
};

export const countMatches: ListingProperty = {
  id: 'count-matches-records',
  title: 'count is the number of records the listing holds (as listed page by page), whatever the paging',
  rule: 'storefront',
  endpoints: ALL_ENDPOINTS,
  build: (ctx, endpoint) =>
    pageProperty(ctx, endpoint, async (page, c) => {
      const ref = await ctx.reference(targetOf(endpoint, c));
      const ok = ref.complete ? page.count === ref.count : typeof page.count === 'number' && page.count >= ref.records.length;
      if (!ok) {
        fail({
          message: 'count must be the number of records the listing holds',
          url: page.ex.url,
          field: 'count',
          expected: ref.complete ? ref.count : `at least ${ref.records.length}`,
          actual: page.count,
          note: `the listing holds ${ref.complete ? '' : 'at least '}${ref.records.length} records, listed page by page from GET ${ref.firstUrl}`,
        });
      }
    }),
};

interface OffsetWalk {
  records: unknown[];
  sources: string[];
  pages: Page[];
  capped: boolean;
}

/**
 * Walks a listing as a storefront does with the plugins: offset 0, limit, 2 × limit, … until
 * currentPage reaches totalPages (nextPage never ends: it is clamped), an empty page, or the cap.
 * With `once`, a record seen twice fails at once.
 */
async function walkByOffset(ctx: CheckContext, target: Target, size: number, extra: Array<[string, string]>, once: boolean): Promise<OffsetWalk> {
  const seen = new Map<string, string>();
  const out: OffsetWalk = { records: [], sources: [], pages: [], capped: false };
  for (let start = 0; ; start += size) {
    const page = await ctx.page(target, { size, start }, extra);
    out.pages.push(page);
    page.records.forEach((record, i) => {
      const key = recordKey(record);
      const before = seen.get(key);
      if (once && before !== undefined) {
        fail({ message: `walking by offset with limit=${size} visits record ${key} twice (pages overlap)`, url: page.ex.url, field: `data[${i}].id`, expected: 'a record not seen on an earlier page', actual: key, note: `${key} was already on GET ${before}` });
      }
      seen.set(key, page.ex.url);
      out.records.push(record);
      out.sources.push(page.ex.url);
    });
    const { currentPage, totalPages } = page.body;
    const last = typeof currentPage === 'number' && typeof totalPages === 'number' ? currentPage >= totalPages : page.records.length < size;
    if (last || page.records.length === 0) return out;
    if (out.pages.length >= ctx.options.maxWalkPages) return { ...out, capped: true };
  }
}

async function walkCases(ctx: CheckContext, endpoint: ListingEndpoint) {
  const targets = await countedTargets(ctx, endpoint);
  if (isSkip(targets)) return targets;
  return fc.constantFrom(...targets).chain(({ target, count }) => fc.record({ id: fc.constant(target.id), size: walkSizeArb(count, ctx.maxPageSize, ctx.options.maxWalkPages) }));
}

export const walkByOffsetOnce: ListingProperty = {
  id: 'walk-by-offset',
  title: 'walking offset 0, limit, 2 × limit, … until currentPage reaches totalPages visits every record exactly once, in the listing order, for any limit',
  rule: 'storefront',
  endpoints: ALL_ENDPOINTS,
  heavy: true,
  build: async (ctx, endpoint) => {
    const cases = await walkCases(ctx, endpoint);
    if (isSkip(cases)) return cases;
    return fc.asyncProperty(cases, async (c) => {
      const target = targetOf(endpoint, c);
      const ref = await ctx.reference(target);
      const result = await walkByOffset(ctx, target, c.size, [], true);
      const lastUrl = result.pages[result.pages.length - 1]!.ex.url;
      if (result.capped) {
        ctx.noteOnce(`walks of ${targetLabel(target)} stop after ${ctx.options.maxWalkPages} pages (--max-walk-pages); longer listings are checked on that prefix only`);
      } else if (ref.complete) {
        const visited = new Set(result.records.map(recordKey));
        const missing = ref.records.findIndex((r) => !visited.has(recordKey(r)));
        if (missing >= 0) {
          fail({ message: `walking by offset with limit=${c.size} until currentPage reaches totalPages never visits record ${recordKey(ref.records[missing])} (record ${missing + 1} of ${ref.records.length})`, url: lastUrl, field: 'records visited', expected: `includes ${recordKey(ref.records[missing])}`, actual: 'missing', note: `${result.pages.length} pages; the walk ended on this request` });
        }
      }
      const n = Math.min(result.records.length, ref.records.length);
      for (let i = 0; i < n; i++) {
        if (recordKey(result.records[i]) !== recordKey(ref.records[i])) {
          fail({ message: `walking by offset must list the records in the listing's order: record ${i + 1} differs`, url: result.sources[i], field: `record ${i + 1}`, expected: recordKey(ref.records[i]), actual: recordKey(result.records[i]), note: `record ${i + 1} was ${recordKey(ref.records[i])} on GET ${ref.sources[i]}` });
        }
      }
    });
  },
};

/** A record's value for an order field: a number for `rating`, a time for timestamps, the string for `id`. */
function orderValue(record: unknown, field: string, url: string): number | string {
  const raw = (record as Record<string, unknown> | null)?.[field];
  const value = field === 'rating' ? raw : field === 'id' ? raw : typeof raw === 'string' ? Date.parse(raw) : NaN;
  if ((typeof value !== 'number' || Number.isNaN(value)) && typeof value !== 'string') {
    fail({ message: `records listed with order=${field} must show a comparable '${field}'`, url, field: `${recordKey(record)}.${field}`, expected: field === 'rating' ? 'a number' : field === 'id' ? 'a string' : 'an ISO-8601 timestamp', actual: raw });
  }
  return value as number | string;
}

export const orderHonoured: ListingProperty = {
  id: 'order-honoured',
  title: 'order=field and order=-field list the records sorted by that field, across pages (reviews: created_at, updated_at, rating; wishlists: created_at, id; items: id)',
  rule: 'storefront',
  endpoints: ALL_ENDPOINTS,
  heavy: true,
  build: async (ctx, endpoint) => {
    const cases = await walkCases(ctx, endpoint);
    if (isSkip(cases)) return cases;
    const fields = fc.constantFrom(...ALPHABITE_ORDER_FIELDS[endpoint.name]);
    // Both directions in each run: a listing that ignores `order` cannot be sorted both ways.
    return fc.asyncProperty(cases, fields, async (c, field) => {
      const target = targetOf(endpoint, c);
      for (const order of [`-${field}`, field]) {
        const result = await walkByOffset(ctx, target, c.size, orderQuery(order), false);
        for (let i = 1; i < result.records.length; i++) {
          const [a, b] = [orderValue(result.records[i - 1], field, result.sources[i - 1]!), orderValue(result.records[i], field, result.sources[i]!)];
          if (order.startsWith('-') ? a < b : a > b) {
            fail({
              message: `with order=${order} the records must be sorted by ${field}${order.startsWith('-') ? ' descending' : ' ascending'}, across pages`,
              url: result.sources[i],
              field: `records ${i} and ${i + 1} (${recordKey(result.records[i - 1])}, ${recordKey(result.records[i])})`,
              expected: 'in order',
              actual: [result.records[i - 1], result.records[i]].map((r) => ({ id: recordKey(r), [field]: (r as Record<string, unknown>)[field] })),
              note: result.sources[i - 1] !== result.sources[i] ? `record ${i} came from GET ${result.sources[i - 1]}` : `walked with limit=${c.size}`,
            });
          }
        }
      }
    });
  },
};

/** `check --dialect alphabite`'s properties, in the order they run and are reported. */
export const ALPHABITE_PROPERTIES: readonly ListingProperty[] = [dataEnvelope, limitOffsetHonoured, clampedPages, countMatches, walkByOffsetOnce, orderHonoured, alphabiteRecordShape];
