/**
 * The four listings as `check --dialect alphabite` sees them: the published plugins' parameters
 * (limit/offset on every listing, defaults 20/0), their `data` envelope, and a context that learns
 * each listing's records from what the backend lists, without trusting its `count` (the plugins'
 * 4.1 always says 0) and without the kit's admin API (a real Medusa has none).
 */
import { ALPHABITE_DEFAULT_LIMIT, ALPHABITE_DEFAULT_OFFSET } from '../lib/dialects/alphabite.ts';
import { PATHS } from '../lib/api-rules.ts';
import { CheckContext, preconditionOf, recordKey, targetLabel, type ReferenceSet, type Target } from './context.ts';
import type { EndpointName, ListingEndpoint } from './endpoints.ts';
import type { Query } from './http.ts';

const fill = (template: string, id: string | undefined): string => template.replace(/:[a-z_]+/, encodeURIComponent(id ?? ''));

const plugins = {
  sizeParam: 'limit',
  startParam: 'offset',
  recordsKey: 'data',
  acceptsOrder: true,
  defaultSize: ALPHABITE_DEFAULT_LIMIT,
  defaultStart: ALPHABITE_DEFAULT_OFFSET,
  defaultsRule: 'spec',
} as const;

/** The listings with the plugins' parameters; `dialect` keeps the family (reviews 4.1/4.2, wishlists 4.3/4.4). */
export const ALPHABITE_ENDPOINTS: Record<EndpointName, ListingEndpoint> = {
  reviews: { name: 'reviews', section: '4.1', dialect: 'reviews', ...plugins, path: () => PATHS.reviews },
  productReviews: { name: 'productReviews', section: '4.2', dialect: 'reviews', ...plugins, pathId: 'product', path: (id) => fill(PATHS.productReviews, id) },
  wishlists: { name: 'wishlists', section: '4.3', dialect: 'wishlist', ...plugins, path: () => PATHS.wishlists },
  wishlistItems: { name: 'wishlistItems', section: '4.4', dialect: 'wishlist', ...plugins, pathId: 'wishlist', path: (id) => fill(PATHS.wishlistItems, id) },
};

/**
 * The `order` values a storefront may send, per listing, with a field every listed record shows
 * (so the order given can be judged): the plugins sort by any column (`order=[-]column`).
 * 4.4's items show no timestamp, so they are ordered by id.
 */
export const ALPHABITE_ORDER_FIELDS: Record<EndpointName, readonly string[]> = {
  reviews: ['created_at', 'updated_at', 'rating'],
  productReviews: ['created_at', 'updated_at', 'rating'],
  wishlists: ['created_at', 'id'],
  wishlistItems: ['id'],
};

/** How many wishlists 4.4 is checked with, and how many of 4.3's are looked at to choose them. */
const WISHLISTS_CHECKED = 6;
const WISHLISTS_LOOKED_AT = 20;

export class AlphabiteContext extends CheckContext {
  /**
   * The whole set as the backend lists it, in pages of the largest size by offset: it ends at an
   * empty page, a short page, or a page with nothing new (a listing that ignores offset lists the
   * same records again). `count` is the number of distinct records listed, not the one answered:
   * whether the answered one agrees is what `count-matches-records` checks. Cached by `reference`.
   */
  protected override async fetchReference(target: Target, order?: string): Promise<ReferenceSet> {
    const size = this.maxPageSize;
    const extra: Query = order === undefined ? [] : [['order', order]];
    const seen = new Set<string>();
    const records: unknown[] = [];
    const sources: string[] = [];
    let firstUrl = '';
    let answeredCount = 0;
    for (let pageIndex = 0; pageIndex < this.options.maxReferencePages; pageIndex++) {
      const page = await this.page(target, { size, start: records.length }, extra);
      if (pageIndex === 0) {
        firstUrl = page.ex.url;
        answeredCount = typeof page.count === 'number' ? page.count : 0;
      }
      let fresh = 0;
      for (const record of page.records) {
        const k = recordKey(record);
        if (seen.has(k)) continue;
        seen.add(k);
        records.push(record);
        sources.push(page.ex.url);
        fresh += 1;
      }
      if (page.records.length < size || fresh === 0) return { target, order, count: records.length, records, sources, complete: true, firstUrl };
    }
    this.noteOnce(
      `${targetLabel(target)}${order ? ` (order=${order})` : ''} lists more than ${records.length} records (${this.options.maxReferencePages} pages of ${size}): the suite compares pages against those only`,
    );
    return { target, order, count: Math.max(records.length, answeredCount), records, sources, complete: false, firstUrl };
  }

  /** Products for 4.2: the ones given, else those of the reviews 4.1 lists (most reviewed first). */
  override async productTargets(): Promise<{ targets: Target[]; note?: string }> {
    const endpoint = ALPHABITE_ENDPOINTS.productReviews;
    if (this.options.productIds?.length) return { targets: this.options.productIds.map((id) => ({ endpoint, id })) };
    let all: ReferenceSet;
    try {
      all = await this.reference({ endpoint: ALPHABITE_ENDPOINTS.reviews });
    } catch (error) {
      return { targets: [], note: `the products to list could not be learnt from 4.1 (${preconditionOf(error)}); pass --product-id` };
    }
    const tally = new Map<string, number>();
    for (const r of all.records) {
      const pid = (r as { product_id?: unknown })?.product_id;
      if (typeof pid === 'string') tally.set(pid, (tally.get(pid) ?? 0) + 1);
    }
    if (tally.size === 0) return { targets: [], note: 'no product id found in the reviews 4.1 lists; pass --product-id' };
    const chosen = [...tally.keys()].sort((a, b) => tally.get(b)! - tally.get(a)!).slice(0, 8);
    this.noteOnce(`4.2 is checked with products ${chosen.join(', ')} (from the reviews 4.1 lists)`);
    return { targets: chosen.map((id) => ({ endpoint, id })) };
  }

  /**
   * Wishlists for 4.4: the ones given, else some of those 4.3 lists (the plugins embed no items, so
   * each of the first ones is asked for its item count): the fullest ones, an empty one, the first.
   */
  override async wishlistTargets(): Promise<{ targets: Target[]; note?: string }> {
    const endpoint = ALPHABITE_ENDPOINTS.wishlistItems;
    if (this.options.wishlistIds?.length) return { targets: this.options.wishlistIds.map((id) => ({ endpoint, id })) };
    let all: ReferenceSet;
    try {
      all = await this.reference({ endpoint: ALPHABITE_ENDPOINTS.wishlists });
    } catch (error) {
      return { targets: [], note: `the wishlists to list could not be learnt from 4.3 (${preconditionOf(error)}); pass --wishlist-id` };
    }
    const ids = all.records.map((r) => (r as { id?: unknown })?.id).filter((id): id is string => typeof id === 'string');
    if (ids.length === 0) return { targets: [], note: 'no wishlist found in 4.3; pass --wishlist-id' };
    const sized: Array<{ id: string; items: number }> = [];
    for (const id of ids.slice(0, WISHLISTS_LOOKED_AT)) {
      const ex = await this.request({ endpoint, id }, { size: 1, start: 0 });
      const count = (ex.json as { count?: unknown } | undefined)?.count;
      sized.push({ id, items: ex.status === 200 && typeof count === 'number' ? count : 0 });
    }
    const fullest = [...sized].sort((a, b) => b.items - a.items);
    const chosen: string[] = [];
    for (const w of [...fullest.slice(0, WISHLISTS_CHECKED - 2), ...sized.filter((w) => w.items === 0).slice(0, 1), ...sized]) {
      if (chosen.length < WISHLISTS_CHECKED && !chosen.includes(w.id)) chosen.push(w.id);
    }
    this.noteOnce(`4.4 is checked with wishlists ${chosen.join(', ')} (from those 4.3 lists)`);
    return { targets: chosen.map((id) => ({ endpoint, id })) };
  }
}
