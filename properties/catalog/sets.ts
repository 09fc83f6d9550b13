/** Properties of whole sets: page contents, walking by nextPage, order, and 4.2 agreeing with 4.1. */
import fc from 'fast-check';
import { REVIEW_ORDER_VALUES, parseReviewOrder } from '../../lib/api-rules.ts';
import { currentPage, pageStart } from '../../lib/paging.ts';
import { preconditionOf, recordKey, targetLabel, type CheckContext, type Page, type ReferenceSet, type Target } from '../context.ts';
import { ALL_ENDPOINTS, ENDPOINTS, sendsOrder } from '../endpoints.ts';
import { walkSizeArb } from '../generators.ts';
import { countedTargets, isSkip, type ListingProperty } from '../property.ts';
import { fail } from '../violation.ts';
import { orderQuery, pageProperty, targetOf } from './common.ts';
import { checkSorted, sortValue } from './order.ts';

export const pageContents: ListingProperty = {
  id: 'page-contents',
  title: 'a page holds records start+1 … start+size of the ordered set, the same set that larger pages show',
  rule: 'spec',
  endpoints: ALL_ENDPOINTS,
  build: (ctx, endpoint) =>
    pageProperty(ctx, endpoint, async (page, c) => {
      const ref = await ctx.reference(targetOf(endpoint, c));
      page.records.forEach((record, i) => {
        const pos = c.start + i;
        if (pos >= ref.records.length) {
          if (ref.complete) {
            fail({ message: `the set has ${ref.records.length} records; this page lists one at position ${pos + 1}`, url: page.ex.url, field: `${endpoint.recordsKey}[${i}]`, expected: undefined, actual: recordKey(record) });
          }
          return;
        }
        if (recordKey(record) !== recordKey(ref.records[pos])) {
          fail({
            message: `record ${pos + 1} of the ordered set must be the same whatever the paging`,
            url: page.ex.url,
            field: `${endpoint.recordsKey}[${i}].id`,
            expected: recordKey(ref.records[pos]),
            actual: recordKey(record),
            note: `record ${pos + 1} was ${recordKey(ref.records[pos])} on GET ${ref.sources[pos]}`,
          });
        }
      });
    }),
};

interface WalkResult {
  records: unknown[];
  sources: string[];
  pages: Page[];
  capped: boolean;
}

/** Follows nextPage from the first page; throws at the first record seen twice or a broken link. */
export async function walk(ctx: CheckContext, target: Target, size: number, extra: Array<[string, string]> = []): Promise<WalkResult> {
  const { endpoint } = target;
  const seen = new Map<string, string>();
  const records: unknown[] = [];
  const sources: string[] = [];
  const pages: Page[] = [];
  let start = 0;
  for (;;) {
    const page = await ctx.page(target, { size, start }, extra);
    pages.push(page);
    for (const record of page.records) {
      const key = recordKey(record);
      const before = seen.get(key);
      if (before !== undefined) {
        fail({
          message: `walking by nextPage with ${endpoint.sizeParam}=${size} visits record ${key} twice (pages overlap)`,
          url: page.ex.url,
          field: `${endpoint.recordsKey}[${page.records.indexOf(record)}].id`,
          expected: 'a record not seen on an earlier page',
          actual: key,
          note: `${key} was already on GET ${before}`,
        });
      }
      seen.set(key, page.ex.url);
      records.push(record);
      sources.push(page.ex.url);
    }
    const next = page.nextPage;
    if (next === null || next === undefined) return { records, sources, pages, capped: false };
    const current = currentPage(start, size);
    if (next !== current + 1) {
      fail({ message: 'nextPage is the page after the current one', url: page.ex.url, field: 'nextPage', expected: current + 1, actual: next });
    }
    if (page.records.length === 0) {
      fail({ message: 'an empty page has no next page', url: page.ex.url, field: 'nextPage', expected: endpoint.dialect === 'reviews' ? null : undefined, actual: next });
    }
    if (pages.length >= ctx.options.maxWalkPages) return { records, sources, pages, capped: true };
    start = pageStart(next, size);
  }
}

function missingCheck(target: Target, size: number, result: WalkResult, count: number, refKeys: string[] | undefined): void {
  const { endpoint } = target;
  const last = result.pages[result.pages.length - 1]!;
  if (refKeys) {
    const visited = new Set(result.records.map(recordKey));
    const missing = refKeys.findIndex((k) => !visited.has(k));
    if (missing >= 0) {
      const page = currentPage(missing, size);
      fail({
        message: `walking by nextPage with ${endpoint.sizeParam}=${size} never visits record ${refKeys[missing]} (position ${missing + 1} of the set)`,
        url: result.pages[page - 1]?.ex.url ?? last.ex.url,
        field: `${endpoint.recordsKey} (page ${page})`,
        expected: `includes ${refKeys[missing]}`,
        actual: 'missing',
      });
    }
  }
  if (result.records.length !== count) {
    fail({
      message: `walking every page by nextPage must visit each of the count records exactly once`,
      url: last.ex.url,
      field: 'records visited',
      expected: count,
      actual: result.records.length,
      note: `${result.pages.length} pages of ${endpoint.sizeParam}=${size}; the walk ended on this request`,
    });
  }
}

export const walkOnce: ListingProperty = {
  id: 'walk-visits-each-once',
  title: 'walking pages 1…totalPages by nextPage visits every record exactly once, in order, for any page size (and any order)',
  rule: 'spec',
  endpoints: ALL_ENDPOINTS,
  heavy: true,
  build: async (ctx, endpoint) => {
    const targets = await countedTargets(ctx, endpoint);
    if (isSkip(targets)) return targets;
    const orders: fc.Arbitrary<string | undefined> = sendsOrder(endpoint, ctx.strict) ? fc.constantFrom(undefined, ...REVIEW_ORDER_VALUES) : fc.constant(undefined);
    const cases = fc.constantFrom(...targets).chain(({ target, count }) =>
      fc.record({ id: fc.constant(target.id), size: walkSizeArb(count, ctx.maxPageSize, ctx.options.maxWalkPages), order: orders }),
    );
    return fc.asyncProperty(cases, async (c) => {
      const target = targetOf(endpoint, c);
      const ref = await ctx.reference(target, c.order);
      const result = await walk(ctx, target, c.size, orderQuery(c.order));
      if (result.capped) {
        ctx.noteOnce(`walks of ${targetLabel(target)} stop after ${ctx.options.maxWalkPages} pages (--max-walk-pages); longer sets are checked on that prefix only`);
      } else {
        missingCheck(target, c.size, result, ref.count, ref.complete ? ref.records.map(recordKey) : undefined);
      }
      // In order: the walk lists the set in the same order as the large pages (ties may differ without --strict).
      const n = Math.min(result.records.length, ref.records.length);
      for (let i = 0; i < n; i++) {
        const same = c.order !== undefined && !ctx.strict
          ? sortValue(result.records[i], parseReviewOrder(c.order)!.field, result.sources[i]) === sortValue(ref.records[i], parseReviewOrder(c.order)!.field, ref.sources[i])
          : recordKey(result.records[i]) === recordKey(ref.records[i]);
        if (!same) {
          fail({
            message: `walking by nextPage must list the set in order: record ${i + 1} differs from the one the large pages list`,
            url: result.sources[i],
            field: `record ${i + 1}`,
            expected: recordKey(ref.records[i]),
            actual: recordKey(result.records[i]),
            note: `record ${i + 1} was ${recordKey(ref.records[i])} on GET ${ref.sources[i]}`,
          });
        }
      }
    });
  },
};

export const orderProp: ListingProperty = {
  id: 'order-sorts-whole-set',
  title: 'order=field / -field sorts the whole set before paging (ties by id ascending: strict only), for each allowed field',
  // 4.2 accepting `order` is the kit's choice: checked there only when strict.
  rule: (endpoint) => endpoint.orderRule ?? 'spec',
  endpoints: ['reviews', 'productReviews'],
  build: (ctx, endpoint) =>
    pageProperty(
      ctx,
      endpoint,
      async (page, c) => {
        const order = c.order;
        if (order === undefined) return;
        const target = targetOf(endpoint, c);
        const [ref, plain] = await Promise.all([ctx.reference(target, order), ctx.reference(target)]);
        checkSorted(order, ref.records, ref.sources, ctx.strict, 'the set');
        if (ref.count !== plain.count) {
          fail({ message: 'ordering does not change count', url: ref.firstUrl, field: 'count', expected: plain.count, actual: ref.count, note: `count without order on GET ${plain.firstUrl}` });
        }
        if (ref.complete && plain.complete) {
          const keys = new Set(ref.records.map(recordKey));
          const missing = plain.records.find((r) => !keys.has(recordKey(r)));
          if (missing) fail({ message: `ordering does not change which records are listed`, url: ref.firstUrl, field: 'records', expected: `includes ${recordKey(missing)}`, actual: 'missing' });
        }
        const field = parseReviewOrder(order)!.field;
        page.records.forEach((record, i) => {
          const pos = c.start + i;
          if (pos >= ref.records.length) return;
          const same = ctx.strict
            ? recordKey(record) === recordKey(ref.records[pos])
            : sortValue(record, field, page.ex.url) === sortValue(ref.records[pos], field, ref.sources[pos]);
          if (!same) {
            fail({
              message: `with order=${order} the page must be a slice of the sorted whole set (sorted before paging, not after)`,
              url: page.ex.url,
              field: `${endpoint.recordsKey}[${i}]${ctx.strict ? '.id' : `.${field}`}`,
              expected: ctx.strict ? recordKey(ref.records[pos]) : (ref.records[pos] as Record<string, unknown>)[field],
              actual: ctx.strict ? recordKey(record) : (record as Record<string, unknown>)[field],
              note: `record ${pos + 1} of the sorted set is ${recordKey(ref.records[pos])} (GET ${ref.sources[pos]})`,
            });
          }
        });
      },
      { order: 'always' },
    ),
};

export const productReviews: ListingProperty = {
  id: 'product-reviews-match',
  title: '4.2 lists only reviews of the path product, and exactly the 4.1 reviews of that product',
  rule: 'spec',
  endpoints: ['productReviews'],
  build: async (ctx, endpoint) => {
    let all: ReferenceSet;
    try {
      all = await ctx.reference({ endpoint: ENDPOINTS.reviews });
    } catch (error) {
      return { skip: `4.1's reviews, which 4.2 is compared with, could not be read (${preconditionOf(error)})` };
    }
    if (!all.records.some((r) => typeof (r as Record<string, unknown>)?.product_id === 'string')) {
      return { skip: 'the reviews of 4.1 carry no product_id, so which product a review belongs to cannot be told' };
    }
    return pageProperty(ctx, endpoint, async (page, c) => {
      const id = c.id!;
      page.records.forEach((r, i) => {
        const pid = (r as Record<string, unknown>)?.product_id;
        if (pid !== id) fail({ message: '4.2 lists only the reviews of the product in the path', url: page.ex.url, field: `reviews[${i}].product_id`, expected: id, actual: pid });
      });
      const mine = await ctx.reference(targetOf(endpoint, c));
      mine.records.forEach((r, i) => {
        const pid = (r as Record<string, unknown>)?.product_id;
        if (pid !== id) fail({ message: '4.2 lists only the reviews of the product in the path', url: mine.sources[i], field: `record ${i + 1}.product_id`, expected: id, actual: pid });
      });
      if (!all.complete) return;
      const expected = all.records.filter((r) => (r as Record<string, unknown>).product_id === id);
      if (mine.count !== expected.length) {
        fail({ message: `4.2's count is the number of 4.1 reviews of the product`, url: mine.firstUrl, field: 'count', expected: expected.length, actual: mine.count, note: `counted on ${all.records.length} reviews of GET ${all.firstUrl} …` });
      }
      if (!mine.complete) return;
      const keys = new Set(mine.records.map(recordKey));
      const absent = expected.find((r) => !keys.has(recordKey(r)));
      if (absent) fail({ message: `4.2 lists every 4.1 review of the product`, url: mine.firstUrl, field: 'reviews', expected: `includes ${recordKey(absent)}`, actual: 'missing' });
      if (ctx.strict) {
        mine.records.forEach((r, i) => {
          if (recordKey(r) !== recordKey(expected[i])) {
            fail({ message: '4.2 lists the product reviews in the same order as 4.1', url: mine.sources[i], field: `record ${i + 1}.id`, expected: recordKey(expected[i]), actual: recordKey(r) });
          }
        });
      }
    });
  },
};
