/** Properties of a single page's navigation numbers (all four endpoints). */
import fc from 'fast-check';
import { pageLength } from '../../lib/paging.ts';
import { checkCurrentPage, checkEcho, checkLength, checkNextPrev, checkShape, checkTotalPages, intField } from '../checks.ts';
import { ALL_ENDPOINTS } from '../endpoints.ts';
import { isSkip, type ListingProperty } from '../property.ts';
import { fail } from '../violation.ts';
import { answerDifference, orderQuery, pageProperty, targetOf, windowCases } from './common.ts';

export const envelopeShape: ListingProperty = {
  id: 'envelope-shape',
  title: 'the envelope has the keys and JSON types of its dialect (reviews: nextPage/prevPage null when none; wishlists: absent when none, never null)',
  rule: 'spec',
  endpoints: ALL_ENDPOINTS,
  build: (ctx, endpoint) => pageProperty(ctx, endpoint, (page) => checkShape(endpoint, page), { order: true }),
};

export const countIndependent: ListingProperty = {
  id: 'count-independent-of-paging',
  title: 'count is the number of matching records, the same whatever the page size and start',
  rule: 'spec',
  endpoints: ALL_ENDPOINTS,
  build: (ctx, endpoint) =>
    pageProperty(ctx, endpoint, async (page, c) => {
      const ref = await ctx.reference(targetOf(endpoint, c));
      if (page.count !== ref.count) {
        fail({
          message: 'count must not depend on the page size or start',
          url: page.ex.url,
          field: 'count',
          expected: ref.count,
          actual: page.count,
          note: `count was ${ref.count} on GET ${ref.firstUrl}`,
        });
      }
    }),
};

export const echoParams: ListingProperty = {
  id: 'echo-size-and-start',
  title: 'limit/take and offset/skip echo the page size and start asked for, not the number of records returned',
  rule: 'spec',
  endpoints: ALL_ENDPOINTS,
  build: (ctx, endpoint) => pageProperty(ctx, endpoint, (page, c) => checkEcho(endpoint, page, c.size, c.start)),
};

export const pageLengthProp: ListingProperty = {
  id: 'page-length',
  title: 'a page holds max(0, min(size, count - start)) records',
  rule: 'spec',
  endpoints: ALL_ENDPOINTS,
  build: (ctx, endpoint) => pageProperty(ctx, endpoint, (page) => checkLength(endpoint, page), { order: true }),
};

export const totalPagesProp: ListingProperty = {
  id: 'total-pages',
  title: 'totalPages = ceil(count / size) (0 for an empty set)',
  rule: 'spec',
  endpoints: ALL_ENDPOINTS,
  build: (ctx, endpoint) => pageProperty(ctx, endpoint, (page) => checkTotalPages(endpoint, page)),
};

export const currentPageProp: ListingProperty = {
  id: 'current-page',
  title: 'currentPage = floor(start / size) + 1, 1-based (unaligned starts: strict only)',
  rule: 'spec',
  endpoints: ALL_ENDPOINTS,
  build: (ctx, endpoint) => pageProperty(ctx, endpoint, (page) => checkCurrentPage(endpoint, page, ctx.strict)),
};

export const nextPrevProp: ListingProperty = {
  id: 'next-and-prev-page',
  title: 'nextPage exists iff currentPage < totalPages and prevPage iff currentPage > 1, with those values, past the end too (unaligned starts: strict only)',
  rule: 'spec',
  endpoints: ALL_ENDPOINTS,
  build: (ctx, endpoint) => pageProperty(ctx, endpoint, (page) => checkNextPrev(endpoint, page, ctx.strict)),
};

export const defaultsProp: ListingProperty = {
  id: 'defaults',
  title: 'a missing size or start means the default (skip 0, take 10 [spec]; offset 0, limit 20 [kit, pinned by the pacts]), echoed as such',
  rule: (endpoint) => endpoint.defaultsRule,
  endpoints: ALL_ENDPOINTS,
  build: async (ctx, endpoint) => {
    const cases = await windowCases(ctx, endpoint);
    if (isSkip(cases)) return cases;
    const omit = fc.constantFrom('both', 'size', 'start') as fc.Arbitrary<'both' | 'size' | 'start'>;
    return fc.asyncProperty(cases, omit, async (c, omitted) => {
      const target = targetOf(endpoint, c);
      const size = omitted === 'start' ? c.size : undefined;
      const start = omitted === 'size' ? c.start : undefined;
      const page = await ctx.page(target, { size, start });
      const expected = { size: size ?? endpoint.defaultSize, start: start ?? endpoint.defaultStart };
      checkEcho(endpoint, page, expected.size, expected.start);
      const count = intField(page, 'count', page.count);
      const length = pageLength(count, expected.start, expected.size);
      if (page.records.length !== length) {
        fail({
          message: `with the default ${omitted === 'start' ? endpoint.startParam : endpoint.sizeParam} the page holds ${length} records`,
          url: page.ex.url,
          field: `${endpoint.recordsKey}.length`,
          expected: length,
          actual: page.records.length,
        });
      }
      const explicit = await ctx.request(target, expected);
      const d = answerDifference(explicit, page.ex);
      if (d) {
        fail({
          message: 'leaving a parameter out must answer the same as sending its default',
          url: page.ex.url,
          field: d.path,
          expected: d.expected,
          actual: d.actual,
          note: `expected as answered by GET ${explicit.url}`,
        });
      }
    });
  },
};

export const deterministic: ListingProperty = {
  id: 'same-request-same-body',
  title: 'the same request against unchanged data answers the same body',
  rule: 'spec',
  endpoints: ALL_ENDPOINTS,
  build: (ctx, endpoint) =>
    pageProperty(
      ctx,
      endpoint,
      async (first, c) => {
        const again = await ctx.request(targetOf(endpoint, c), { size: c.size, start: c.start }, orderQuery(c.order));
        const d = answerDifference(first.ex, again);
        if (d) {
          fail({
            message: 'the same request answered two different bodies',
            url: first.ex.url,
            field: d.path,
            expected: d.expected,
            actual: d.actual,
            note: 'expected = first answer, actual = second answer to the same request',
          });
        }
      },
      { order: true },
    ),
};
