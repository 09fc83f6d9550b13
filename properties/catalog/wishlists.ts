/** Properties of the wishlist endpoints: paging never changes wishlist-level fields; 4.4 agrees with 4.3. */
import fc from 'fast-check';
import { recordKey, targetLabel } from '../context.ts';
import { ENDPOINTS } from '../endpoints.ts';
import { walkSizeArb } from '../generators.ts';
import { countedTargets, isSkip, type ListingProperty } from '../property.ts';
import { fail } from '../violation.ts';
import { answerDifference, firstDifference, pageProperty, targetOf } from './common.ts';
import { walk } from './sets.ts';

export const wishlistFieldsStable: ListingProperty = {
  id: 'wishlist-fields-unchanged-by-paging',
  title: 'whatever skip/take a listing uses, each wishlist carries the same fields (all its items, the same items_count)',
  rule: 'spec',
  endpoints: ['wishlists'],
  build: (ctx, endpoint) =>
    pageProperty(ctx, endpoint, async (page) => {
      const ref = await ctx.reference({ endpoint });
      const byKey = new Map(ref.records.map((r, i) => [recordKey(r), i] as const));
      page.records.forEach((record, i) => {
        const at = byKey.get(recordKey(record));
        if (at === undefined) return;
        const d = firstDifference(ref.records[at], record);
        if (d) {
          fail({
            message: `paging must not change wishlist-level fields: wishlist ${recordKey(record)} differs from the same wishlist on a larger page`,
            url: page.ex.url,
            field: `data[${i}].${d.path}`,
            expected: d.expected,
            actual: d.actual,
            note: `expected as listed by GET ${ref.sources[at]}`,
          });
        }
      });
    }),
};

export const wishlistItemsAgree: ListingProperty = {
  id: 'wishlist-items-agree',
  title: "4.4's count is the wishlist's items_count, and its pages, concatenated, are the wishlist's embedded items",
  rule: 'spec',
  endpoints: ['wishlistItems'],
  heavy: true,
  build: async (ctx, endpoint) => {
    const targets = await countedTargets(ctx, endpoint);
    if (isSkip(targets)) return targets;
    const cases = fc.constantFrom(...targets).chain(({ target, count }) =>
      fc.record({ id: fc.constant(target.id!), size: walkSizeArb(count, ctx.maxPageSize, ctx.options.maxWalkPages) }),
    );
    return fc.asyncProperty(cases, async (c) => {
      const wishlist = await ctx.embeddedWishlist(c.id);
      if (!wishlist || !Array.isArray(wishlist.items)) {
        ctx.noteOnce(`wishlist ${c.id} is not among the wishlists fetched from 4.3 (or has no embedded items): its items are not compared`);
        return;
      }
      const items = wishlist.items as unknown[];
      const itemsCount = typeof wishlist.items_count === 'number' ? wishlist.items_count : items.length;
      const target = targetOf(endpoint, c);
      const result = await walk(ctx, target, c.size);
      const first = result.pages[0]!;
      if (first.count !== itemsCount) {
        fail({ message: "4.4's count equals the wishlist's items_count", url: first.ex.url, field: 'count', expected: itemsCount, actual: first.count, note: `items_count from 4.3 (GET ${(await ctx.reference({ endpoint: ENDPOINTS.wishlists })).firstUrl})` });
      }
      const n = result.capped ? Math.min(result.records.length, items.length) : Math.max(result.records.length, items.length);
      for (let i = 0; i < n; i++) {
        const d = firstDifference(items[i], result.records[i]);
        if (d) {
          fail({
            message: `4.4's pages, concatenated, must equal the wishlist's embedded items: item ${i + 1} differs`,
            url: result.sources[i] ?? result.pages[result.pages.length - 1]!.ex.url,
            field: `item ${i + 1}${d.path === '(body)' ? '' : `.${d.path}`}`,
            expected: d.expected,
            actual: d.actual,
            note: `walked ${targetLabel(target)} by nextPage with take=${c.size}; expected from the wishlist's items in 4.3`,
          });
        }
      }
    });
  },
};

export const itemsIdQuery: ListingProperty = {
  id: 'items-id-query',
  title: '4.4 accepts the wishlist id again as ?id= with the same answer (a different id: 400 invalid_data, strict only)',
  rule: 'spec',
  endpoints: ['wishlistItems'],
  build: async (ctx, endpoint) =>
    pageProperty(ctx, endpoint, async (page, c) => {
      const target = targetOf(endpoint, c);
      const withId = await ctx.request(target, { size: c.size, start: c.start }, [['id', c.id!]]);
      const d = answerDifference(page.ex, withId);
      if (withId.status !== 200 || d) {
        fail({
          message: '4.4 with ?id= equal to the path id answers as without it',
          url: withId.url,
          field: withId.status !== 200 ? 'status' : d!.path,
          expected: withId.status !== 200 ? 200 : d!.expected,
          actual: withId.status !== 200 ? withId.status : d!.actual,
          note: `expected as answered by GET ${page.ex.url}`,
        });
      }
      if (!ctx.strict) return;
      const other = `${c.id}_other`;
      const mismatch = await ctx.request(target, { size: c.size, start: c.start }, [['id', other]]);
      const body = mismatch.json as Record<string, unknown> | undefined;
      if (mismatch.status !== 400 || body?.type !== 'invalid_data') {
        fail({
          message: 'a ?id= that differs from the path id is a 400 invalid_data',
          url: mismatch.url,
          field: mismatch.status !== 400 ? 'status' : 'type',
          expected: mismatch.status !== 400 ? 400 : 'invalid_data',
          actual: mismatch.status !== 400 ? mismatch.status : body?.type,
          note: `body: ${mismatch.text.slice(0, 200)}`,
        });
      }
    }),
};
