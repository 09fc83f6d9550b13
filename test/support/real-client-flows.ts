/**
 * What a storefront does with the published clients, against any backend that speaks the plugins'
 * dialect: @alphabite/medusa-sdk's list methods, walks by limit/offset, and an infinite list with
 * @tanstack/query-core's InfiniteQueryObserver driven by the envelope's nextPage. The same flows run
 * against `serve --dialect alphabite` (test/real-clients.test.ts) and against a real Medusa backend
 * with the plugins (test/medusa/real-clients.medusa.test.ts), and assert the same things; only the
 * data differs, so each backend says what it holds (`ListingBackend`).
 */
import { AlphabiteMedusaSdk, reviewsPlugin, wishlistPlugin } from '@alphabite/medusa-sdk';
import { InfiniteQueryObserver, QueryClient, type InfiniteData, type InfiniteQueryObserverResult } from '@tanstack/query-core';
import { expect } from 'vitest';
import { PUBLISHABLE_KEY_HEADER } from '../../lib/dialects/index.ts';
import { clampedPageNumbers } from '../../lib/paging.ts';

/** A backend and what it holds, in the plugins' default order (id ascending). */
export interface ListingBackend {
  baseUrl: string;
  publishableKey: string;
  /** A customer's `Authorization` header value (`Bearer ...`). */
  authorization: string;
  /** A product with several pages of reviews. */
  productId: string;
  /** The customer's wishlist with the most items. */
  wishlistId: string;
  /** Every review (4.1 with no filter). */
  allReviewIds(): Promise<string[]>;
  productReviewIds(productId: string): Promise<string[]>;
  /** How many of the product's reviews are approved (the aggregate counts only those). */
  approvedReviewCount(productId: string): Promise<number>;
  /** The customer's wishlists. */
  wishlistIds(): Promise<string[]>;
  itemIds(wishlistId: string): Promise<string[]>;
}

const AUTH = { type: 'jwt', jwtTokenStorageMethod: 'nostore' } as const;

export function sdkFor(backend: ListingBackend) {
  return new AlphabiteMedusaSdk({ baseUrl: backend.baseUrl, publishableKey: backend.publishableKey, auth: AUTH }, [reviewsPlugin, wishlistPlugin] as const, {
    getAuthHeader: () => ({ authorization: backend.authorization }),
  });
}

/** Every id once: the ids in the order seen. */
export const ids = (records: Array<{ id: string }>) => records.map((r) => r.id);
export const unique = (list: string[]) => new Set(list).size === list.length;
/** The plugins' default order: by id, ascending. */
export const byId = (list: string[]) => [...list].sort();

/** Walks a listing by the SDK's own paging parameters (limit/offset), as a storefront would: until offset reaches count. */
export async function walkByOffset<T extends { id: string }>(page: (limit: number, offset: number) => Promise<{ data: T[]; count: number }>, limit: number): Promise<{ seen: string[]; requests: number }> {
  const seen: string[] = [];
  let requests = 0;
  for (let offset = 0; requests < 1000; offset += limit) {
    const answer = await page(limit, offset);
    requests++;
    seen.push(...ids(answer.data));
    if (offset + limit >= answer.count) break;
  }
  return { seen, requests };
}

/** Requests a walk of `count` records by `limit` takes: one at least, then one per page. */
const walkRequests = (count: number, limit: number) => clampedPageNumbers(count, 0, limit).totalPages;

/** Every list method answers 200 with the plugins' envelope, its numbers the plugins' clamped arithmetic. */
export async function everyListMethodAnswers(backend: ListingBackend): Promise<void> {
  const sdk = sdkFor(backend);
  const reviews = await sdk.alphabite.reviews.list({});
  expect(Object.keys(reviews)).toEqual(['data', 'count', 'nextPage', 'currentPage', 'prevPage', 'totalPages', 'take', 'skip']);
  expect(reviews.data.length).toBeGreaterThan(0);

  const productReviews = await backend.productReviewIds(backend.productId);
  const product = await sdk.alphabite.reviews.listProductReviews({ product_id: backend.productId, limit: 5, offset: 5, include_aggregated_counts: true });
  expect(product).toMatchObject({ take: 5, skip: 5, ...clampedPageNumbers(productReviews.length, 5, 5) });
  expect(product).toMatchObject({ currentPage: 2, prevPage: 1 });
  expect(ids(product.data)).toEqual(productReviews.slice(5, 10));
  expect(product.total_count).toBe(await backend.approvedReviewCount(backend.productId));
  expect(product.counts.map((c) => c.rating)).toEqual([5, 4, 3, 2, 1]);
  expect(product.counts.reduce((n, c) => n + c.count, 0)).toBe(product.total_count);

  const wishlistIds = await backend.wishlistIds();
  const wishlists = await sdk.alphabite.wishlist.list({});
  expect(Object.keys(wishlists)).toEqual(['data', 'take', 'skip', 'count', 'nextPage', 'currentPage', 'prevPage', 'totalPages']);
  // the SDK sends limit 10, offset 0
  expect(wishlists).toMatchObject({ take: 10, skip: 0, ...clampedPageNumbers(wishlistIds.length, 0, 10) });
  expect(ids(wishlists.data)).toEqual(wishlistIds.slice(0, 10));

  const itemIds = await backend.itemIds(backend.wishlistId);
  const items = await sdk.alphabite.wishlist.listItems({ id: backend.wishlistId, limit: 5, offset: 5 });
  expect(Object.keys(items)).toEqual(['data', 'skip', 'take', 'count', 'nextPage', 'currentPage', 'prevPage', 'totalPages']);
  expect(items).toMatchObject({ skip: 5, take: 5, ...clampedPageNumbers(itemIds.length, 5, 5) });
  expect(ids(items.data)).toEqual(itemIds.slice(5, 10));
}

/** 4.1 ignores paging, as the plugin does: one call lists every review once, whatever limit/offset say. */
export async function allReviewsIgnorePaging(backend: ListingBackend): Promise<void> {
  const sdk = sdkFor(backend);
  const reference = await backend.allReviewIds();
  const answer = await sdk.alphabite.reviews.list({ limit: 5, offset: 100 });
  expect(answer.data).toHaveLength(reference.length);
  expect(new Set(ids(answer.data))).toEqual(new Set(reference));
  expect(ids(answer.data)).toEqual(byId(ids(answer.data))); // by id, the plugins' default order
  expect(answer).toMatchObject({ count: 0, nextPage: 1, currentPage: 1, prevPage: 1, totalPages: 1, take: 5, skip: 0 });
}

/** Walking 4.2, 4.3 and 4.4 by limit/offset visits every record once, in id order. */
export async function walksVisitEveryRecordOnce(backend: ListingBackend): Promise<void> {
  const sdk = sdkFor(backend);
  const productReviews = await backend.productReviewIds(backend.productId);
  const product = await walkByOffset((limit, offset) => sdk.alphabite.reviews.listProductReviews({ product_id: backend.productId, limit, offset }), 7);
  expect(product.seen).toEqual(productReviews);
  expect(product.requests).toBe(walkRequests(productReviews.length, 7));

  const wishlistIds = await backend.wishlistIds();
  const wishlists = await walkByOffset((limit, offset) => sdk.alphabite.wishlist.list({ limit, offset }), 5);
  expect(wishlists.seen).toEqual(wishlistIds);
  expect(wishlists.requests).toBe(walkRequests(wishlistIds.length, 5));

  const itemIds = await backend.itemIds(backend.wishlistId);
  const items = await walkByOffset((limit, offset) => sdk.alphabite.wishlist.listItems({ id: backend.wishlistId, limit, offset }), 10);
  expect(items.seen).toEqual(itemIds);
  expect(items.requests).toBe(walkRequests(itemIds.length, 10));
}

/** The SDK meets what the plugins refuse: no publishable key (400), no customer token on 4.3 (401). */
export async function refusesWhatThePluginsRefuse(backend: ListingBackend): Promise<void> {
  const anonymous = new AlphabiteMedusaSdk({ baseUrl: backend.baseUrl, auth: AUTH }, [reviewsPlugin, wishlistPlugin] as const);
  await expect(anonymous.alphabite.reviews.list({})).rejects.toMatchObject({ status: 400, message: expect.stringContaining(PUBLISHABLE_KEY_HEADER) });
  const guest = new AlphabiteMedusaSdk({ baseUrl: backend.baseUrl, publishableKey: backend.publishableKey, auth: AUTH }, [reviewsPlugin, wishlistPlugin] as const);
  await expect(guest.alphabite.wishlist.list({})).rejects.toMatchObject({ status: 401, message: 'Unauthorized' });
}

export interface Envelope {
  nextPage?: number | null;
  currentPage: number;
  totalPages: number;
  reviews?: Array<{ id: string }>;
  data?: Array<{ id: string }>;
}

/** An infinite list over `url(page)`, pages chained by the envelope's nextPage; answers the pages fetched. */
export async function infiniteList(url: (page: number) => string, headers: Record<string, string>, maxPages: number): Promise<{ pages: Envelope[]; hasNextPage: boolean }> {
  const client = new QueryClient();
  const observer = new InfiniteQueryObserver<Envelope, Error, InfiniteData<Envelope, number>, readonly unknown[], number>(client, {
    queryKey: [url(1)],
    queryFn: async ({ pageParam }) => {
      const res = await fetch(url(pageParam), { headers });
      if (!res.ok) throw new Error(`${url(pageParam)} answered ${res.status}`);
      return res.json() as Promise<Envelope>;
    },
    initialPageParam: 1,
    getNextPageParam: (last) => last.nextPage ?? undefined,
    retry: false,
  });
  const unsubscribe = observer.subscribe(() => {});
  try {
    await observer.refetch();
    let result: InfiniteQueryObserverResult<InfiniteData<Envelope, number>, Error> = observer.getCurrentResult();
    while (result.hasNextPage && (result.data?.pages.length ?? 0) < maxPages) result = await observer.fetchNextPage();
    if (result.error) throw result.error;
    return { pages: result.data?.pages ?? [], hasNextPage: result.hasNextPage };
  } finally {
    unsubscribe();
    client.clear();
  }
}

export const recordsOf = (pages: Envelope[]) => pages.flatMap((p) => ids(p.reviews ?? p.data ?? []));

/** The plugins' nextPage never runs out: an infinite list repeats its last page until the storefront stops it. */
export async function infiniteListNeverEnds(backend: ListingBackend): Promise<void> {
  const headers = { [PUBLISHABLE_KEY_HEADER]: backend.publishableKey, authorization: backend.authorization };
  const cap = 12;
  const listings = [
    { path: `/store/reviews/product/${backend.productId}`, reference: await backend.productReviewIds(backend.productId) },
    { path: '/store/wishlists', reference: await backend.wishlistIds() },
    { path: `/store/wishlists/${backend.wishlistId}/items`, reference: await backend.itemIds(backend.wishlistId) },
  ];
  for (const { path, reference } of listings) {
    const { pages, hasNextPage } = await infiniteList((page) => `${backend.baseUrl}${path}?limit=10&offset=${(page - 1) * 10}`, headers, cap);
    const total = pages[0]!.totalPages;
    expect(total, path).toBe(clampedPageNumbers(reference.length, 0, 10).totalPages);
    expect(total, path).toBeLessThan(cap);
    // nextPage on the last page is the last page itself: TanStack keeps going, the records repeat.
    expect(hasNextPage, path).toBe(true);
    expect(pages, path).toHaveLength(cap);
    expect(pages.slice(total - 1).every((p) => p.currentPage === total && p.nextPage === total), path).toBe(true);
    expect(unique(recordsOf(pages)), path).toBe(false);
    // the first totalPages pages hold every record once, in id order
    expect(recordsOf(pages.slice(0, total)), path).toEqual(reference);
  }
  // 4.1: every review on every page, nextPage 1 forever.
  const all = (await backend.allReviewIds()).length;
  const { pages } = await infiniteList((page) => `${backend.baseUrl}/store/products/reviews?limit=10&offset=${(page - 1) * 10}`, headers, 3);
  expect(pages.map((p) => (p.data ?? []).length)).toEqual([all, all, all]);
}
