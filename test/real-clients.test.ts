/**
 * The published clients against the mock: @alphabite/medusa-sdk (on @medusajs/js-sdk) in both
 * dialects, and an infinite list with @tanstack/query-core's InfiniteQueryObserver driven by the
 * envelope's nextPage, as storefronts write it.
 */
import { AlphabiteMedusaSdk, reviewsPlugin, wishlistPlugin } from '@alphabite/medusa-sdk';
import { FetchError } from '@medusajs/js-sdk';
import { InfiniteQueryObserver, QueryClient, type InfiniteData, type InfiniteQueryObserverResult } from '@tanstack/query-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLISHABLE_KEY_HEADER } from '../lib/dialects/index.ts';
import { startMockServer, type MockServer } from '../mock-server/server.ts';

const KEY = 'pk_test_storefront';
const TOKEN = 'Bearer customer-token';

function sdkFor(baseUrl: string) {
  return new AlphabiteMedusaSdk({ baseUrl, publishableKey: KEY, auth: { type: 'jwt', jwtTokenStorageMethod: 'nostore' } }, [reviewsPlugin, wishlistPlugin] as const, {
    getAuthHeader: () => ({ authorization: TOKEN }),
  });
}

let spec: MockServer;
let alphabite: MockServer;
beforeAll(async () => {
  [spec, alphabite] = await Promise.all([startMockServer({ seed: 1 }), startMockServer({ seed: 1, dialect: 'alphabite' })]);
});
afterAll(async () => {
  await Promise.all([spec?.close(), alphabite?.close()]);
});

/** Every id once: the ids in the order seen, and whether any repeats. */
const ids = (records: Array<{ id: string }>) => records.map((r) => r.id);
const unique = (list: string[]) => new Set(list).size === list.length;

/** Ids of a whole listing, from the spec dialect with one large page (the reference). */
async function referenceIds(path: string, sizeParam: 'limit' | 'take'): Promise<string[]> {
  const body = (await (await fetch(`${spec.url}${path}${path.includes('?') ? '&' : '?'}${sizeParam}=1000`)).json()) as { reviews?: Array<{ id: string }>; data?: Array<{ id: string }> };
  return ids(body.reviews ?? body.data ?? []);
}

/** Walks a listing by the SDK's own paging parameters (limit/offset), as a storefront would: until offset reaches count. */
async function walkByOffset<T extends { id: string }>(page: (limit: number, offset: number) => Promise<{ data: T[]; count: number }>, limit: number): Promise<{ seen: string[]; requests: number }> {
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

describe('@alphabite/medusa-sdk against the alphabite dialect', () => {
  it('every list method answers 200 with the plugins\' envelope', async () => {
    const sdk = sdkFor(alphabite.url);
    const reviews = await sdk.alphabite.reviews.list({});
    expect(Object.keys(reviews)).toEqual(['data', 'count', 'nextPage', 'currentPage', 'prevPage', 'totalPages', 'take', 'skip']);
    const productId = reviews.data[0]!.product_id;
    const product = await sdk.alphabite.reviews.listProductReviews({ product_id: productId, limit: 5, offset: 5, include_aggregated_counts: true });
    expect(product).toMatchObject({ take: 5, skip: 5, currentPage: 2, prevPage: 1 });
    expect(product.total_count).toBe(product.count);
    expect(product.counts.map((c) => c.rating)).toEqual([5, 4, 3, 2, 1]);
    const wishlists = await sdk.alphabite.wishlist.list({});
    expect(wishlists).toMatchObject({ take: 10, skip: 0, count: 45, currentPage: 1, nextPage: 2, totalPages: 5 });
    const items = await sdk.alphabite.wishlist.listItems({ id: wishlists.data[0]!.id, limit: 5, offset: 5 });
    expect(Object.keys(items)).toEqual(['data', 'skip', 'take', 'count', 'nextPage', 'currentPage', 'prevPage', 'totalPages']);
  });

  it('4.1 ignores paging, as the plugin does: one call lists every review once, whatever limit/offset say', async () => {
    const sdk = sdkFor(alphabite.url);
    const reference = await referenceIds('/store/products/reviews?order=created_at', 'limit');
    const answer = await sdk.alphabite.reviews.list({ limit: 5, offset: 100 });
    expect(answer.data).toHaveLength(reference.length);
    expect(new Set(ids(answer.data))).toEqual(new Set(reference));
    expect(ids(answer.data)).toEqual([...ids(answer.data)].sort()); // by id, the plugins' default order
    expect(answer).toMatchObject({ count: 0, take: 5, skip: 0, totalPages: 1 });
  });

  it('walking 4.2, 4.3 and 4.4 by limit/offset visits every record once', async () => {
    const sdk = sdkFor(alphabite.url);
    const productId = (await sdk.alphabite.reviews.list({})).data[0]!.product_id;
    const product = await walkByOffset((limit, offset) => sdk.alphabite.reviews.listProductReviews({ product_id: productId, limit, offset }), 7);
    expect(unique(product.seen)).toBe(true);
    expect(new Set(product.seen)).toEqual(new Set(await referenceIds(`/store/reviews/product/${productId}`, 'limit')));

    const wishlists = await walkByOffset((limit, offset) => sdk.alphabite.wishlist.list({ limit, offset }), 10);
    expect(wishlists.seen).toEqual(await referenceIds('/store/wishlists', 'take'));
    expect(wishlists.requests).toBe(5);

    const fullest = wishlists.seen[0]!;
    const items = await walkByOffset((limit, offset) => sdk.alphabite.wishlist.listItems({ id: fullest, limit, offset }), 10);
    expect(items.seen).toEqual(await referenceIds(`/store/wishlists/${fullest}/items`, 'take'));
  });

  it('refuses what the plugins refuse: no publishable key, no customer token on 4.3', async () => {
    const anonymous = new AlphabiteMedusaSdk({ baseUrl: alphabite.url, auth: { type: 'jwt', jwtTokenStorageMethod: 'nostore' } }, [reviewsPlugin, wishlistPlugin] as const);
    await expect(anonymous.alphabite.reviews.list({})).rejects.toMatchObject({ status: 400, message: expect.stringContaining(PUBLISHABLE_KEY_HEADER) });
    const guest = new AlphabiteMedusaSdk({ baseUrl: alphabite.url, publishableKey: KEY, auth: { type: 'jwt', jwtTokenStorageMethod: 'nostore' } }, [reviewsPlugin, wishlistPlugin] as const);
    await expect(guest.alphabite.wishlist.list({})).rejects.toMatchObject({ status: 401, message: 'Unauthorized' });
  });
});

describe('@alphabite/medusa-sdk against the spec dialect', () => {
  it('the reviews methods work', async () => {
    const sdk = sdkFor(spec.url);
    const reviews = (await sdk.alphabite.reviews.list({ limit: 5, offset: 5, order: '-created_at' as 'desc' })) as unknown as { reviews: unknown[]; limit: number };
    expect(reviews.reviews).toHaveLength(5);
    const product = (await sdk.alphabite.reviews.listProductReviews({ product_id: 'prod_0000000000DG0Z6FHNZDXQTW3V', limit: 3 })) as unknown as { reviews: unknown[] };
    expect(product.reviews).toHaveLength(3);
  });

  it('the wishlist methods get a 400 that says why and what to do', async () => {
    const sdk = sdkFor(spec.url);
    for (const call of [() => sdk.alphabite.wishlist.list({}), () => sdk.alphabite.wishlist.listItems({ id: 'wl_0000000000CQN6QG3QXJQ55NPW' })]) {
      const error = await call().then(
        () => undefined,
        (e: unknown) => e,
      );
      // the SDK bundles its own copy of @medusajs/js-sdk: its FetchError, by shape
      expect(error).toMatchObject({ name: 'Error', status: 400, statusText: 'Bad Request' });
      expect(Object.keys(new FetchError('m', 'Bad Request', 400))).toEqual(Object.keys(error as object));
      expect((error as Error).message).toMatch(/unknown query parameter 'limit'; accepted parameters: skip, take.*wishlists page with 'skip' and 'take'.*@alphabite\/medusa-sdk.*--dialect alphabite/);
    }
  });
});

interface Envelope {
  nextPage?: number | null;
  currentPage: number;
  totalPages: number;
  reviews?: Array<{ id: string }>;
  data?: Array<{ id: string }>;
}

/** An infinite list over `url(page)`, pages chained by the envelope's nextPage; answers the pages fetched. */
async function infiniteList(url: (page: number) => string, headers: Record<string, string>, maxPages: number): Promise<{ pages: Envelope[]; hasNextPage: boolean }> {
  const client = new QueryClient();
  const observer = new InfiniteQueryObserver<Envelope, Error, InfiniteData<Envelope, number>, readonly unknown[], number>(client, {
    queryKey: [url(1)],
    queryFn: async ({ pageParam }) => (await fetch(url(pageParam), { headers })).json() as Promise<Envelope>,
    initialPageParam: 1,
    getNextPageParam: (last) => last.nextPage ?? undefined,
  });
  const unsubscribe = observer.subscribe(() => {});
  try {
    await observer.refetch();
    let result: InfiniteQueryObserverResult<InfiniteData<Envelope, number>, Error> = observer.getCurrentResult();
    while (result.hasNextPage && (result.data?.pages.length ?? 0) < maxPages) result = await observer.fetchNextPage();
    return { pages: result.data?.pages ?? [], hasNextPage: result.hasNextPage };
  } finally {
    unsubscribe();
    client.clear();
  }
}

const recordsOf = (pages: Envelope[]) => pages.flatMap((p) => ids(p.reviews ?? p.data ?? []));

describe('an infinite list (@tanstack/query-core) by nextPage', () => {
  const wishlistId = 'wl_0000000000CQN6QG3QXJQ55NPW';
  const productId = 'prod_0000000000DG0Z6FHNZDXQTW3V';

  it('spec: stops exactly at the last page of each endpoint, every record once', async () => {
    const cases = [
      { path: '/store/products/reviews', size: 'limit', start: 'offset', per: 20 },
      { path: `/store/reviews/product/${productId}`, size: 'limit', start: 'offset', per: 20 },
      { path: '/store/wishlists', size: 'take', start: 'skip', per: 10 },
      { path: `/store/wishlists/${wishlistId}/items`, size: 'take', start: 'skip', per: 10 },
    ] as const;
    for (const c of cases) {
      const { pages, hasNextPage } = await infiniteList((page) => `${spec.url}${c.path}?${c.size}=${c.per}&${c.start}=${(page - 1) * c.per}`, {}, 100);
      expect(hasNextPage, c.path).toBe(false);
      expect(pages.length, c.path).toBe(pages[0]!.totalPages);
      expect(recordsOf(pages), c.path).toEqual(await referenceIds(c.path, c.size));
    }
  });

  it('alphabite: nextPage never runs out, so the list repeats its last page until the storefront stops it', async () => {
    const headers = { [PUBLISHABLE_KEY_HEADER]: KEY, authorization: TOKEN };
    const cap = 12;
    for (const path of [`/store/reviews/product/${productId}`, '/store/wishlists', `/store/wishlists/${wishlistId}/items`]) {
      const { pages, hasNextPage } = await infiniteList((page) => `${alphabite.url}${path}?limit=10&offset=${(page - 1) * 10}`, headers, cap);
      const total = pages[0]!.totalPages;
      expect(total, path).toBeLessThan(cap);
      // nextPage on the last page is the last page itself: TanStack keeps going, the records repeat.
      expect(hasNextPage, path).toBe(true);
      expect(pages, path).toHaveLength(cap);
      expect(pages.slice(total - 1).every((p) => p.currentPage === total && p.nextPage === total), path).toBe(true);
      const records = recordsOf(pages);
      expect(unique(records), path).toBe(false);
      // the first totalPages pages hold every record once (in id order, the plugins' default)
      const first = recordsOf(pages.slice(0, total));
      expect(unique(first), path).toBe(true);
      expect(new Set(first), path).toEqual(new Set(await referenceIds(path, path.includes('reviews') ? 'limit' : 'take')));
    }
    // 4.1: every review on every page, nextPage 1 forever.
    const { pages } = await infiniteList((page) => `${alphabite.url}/store/products/reviews?limit=10&offset=${(page - 1) * 10}`, headers, 3);
    expect(pages.map((p) => (p.data ?? []).length)).toEqual([300, 300, 300]);
  });
});
