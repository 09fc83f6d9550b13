import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StorefrontApiError, StorefrontClient } from '../contracts/client.ts';
import { PROVIDERS, interactionsOf } from '../contracts/interactions.ts';
import { PACT_DIR, pactFilePath, writePacts } from '../contracts/pacts.ts';
import { reviewsPageMeta } from '../lib/paging.ts';

// The consumer side: every interaction runs through the storefront client against Pact's
// mock server, and the pacts it writes must be the committed ones.

/** A pact file as read for comparison: what the contract says, without the versions of the tools that wrote it. */
function readPactForComparison(file: string): unknown {
  const pact = JSON.parse(readFileSync(file, 'utf8')) as { metadata?: Record<string, unknown> };
  const { pactSpecification } = pact.metadata ?? {};
  return { ...pact, metadata: { pactSpecification } };
}

let scratch: string;
beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'slk-pacts-'));
  await writePacts(scratch);
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface PactFile {
  interactions: Array<{
    description: string;
    providerStates?: Array<{ name: string; params?: Record<string, unknown> }>;
    request: { path: string; query?: Record<string, string[]> };
    response: { status: number; body?: { content: Record<string, unknown> }; matchingRules?: { body?: Record<string, { matchers: Array<{ match: string }> }> } };
  }>;
}

const committed = (provider: (typeof PROVIDERS)[number]) => readPactForComparison(pactFilePath(provider)) as PactFile;

describe('consumer contracts', () => {
  for (const provider of PROVIDERS) {
    it(`the committed pact for ${provider} is up to date (else: npm run pacts:update, and commit contracts/pacts)`, () => {
      const fresh = readPactForComparison(pactFilePath(provider, scratch));
      expect(fresh, `contracts/pacts/ is stale for ${provider}: run \`npm run pacts:update\` and commit ${PACT_DIR}`).toEqual(readPactForComparison(pactFilePath(provider)));
    });
  }

  it('covers every case the issue lists, per endpoint', () => {
    const descriptions = (provider: (typeof PROVIDERS)[number], path: RegExp) =>
      interactionsOf(provider)
        .filter((i) => path.test(i.request.path))
        .map((i) => `${i.description} -> ${i.response.status}`);
    const paged = [/first page.* -> 200/, /middle page.* -> 200/, /last page.* -> 200/, /past the end.* -> 200/, /(none|empty|has none).* -> 200/, /defaults.* -> 200/, / -> 400/];
    const endpoints = [
      { provider: 'product-reviews', path: /^\/store\/products\/reviews$/, extra: [/ordered by created_at/, /ordered by -created_at/] },
      { provider: 'product-reviews', path: /^\/store\/reviews\/product\//, extra: [] },
      { provider: 'wishlist', path: /^\/store\/wishlists$/, extra: [] },
      { provider: 'wishlist', path: /^\/store\/wishlists\/[^/]+\/items$/, extra: [/\?id=.* -> 200/, / -> 404/] },
    ] as const;
    for (const e of endpoints) {
      const list = descriptions(e.provider, e.path);
      for (const pattern of [...paged, ...e.extra]) expect(list.some((d) => pattern.test(d)), `${e.path} lacks ${pattern}`).toBe(true);
    }
  });

  it('pins the reviews envelope: exact page numbers, prevPage null on page 1, integer ratings', () => {
    const pact = committed('product-reviews');
    const first = pact.interactions.find((i) => i.description.startsWith('a request for the first page of reviews'))!;
    const { limit, offset } = Object.fromEntries(Object.entries(first.request.query!).map(([k, [v]]) => [k, Number(v)]));
    const count = first.providerStates![0]!.params!.count as number;
    const body = first.response.body!.content;
    expect(body).toMatchObject({ ...reviewsPageMeta(count, offset!, limit!) });
    expect(body.prevPage).toBeNull();
    const rules = first.response.matchingRules!.body!;
    // Page numbers are compared by value (and so by type): no rule loosens them.
    for (const key of ['count', 'limit', 'offset', 'totalPages', 'currentPage', 'nextPage', 'prevPage']) expect(rules[`$.${key}`]).toBeUndefined();
    expect(rules['$.reviews']!.matchers[0]).toMatchObject({ match: 'type', min: 5, max: 5 });
    expect(rules['$.reviews[*].rating']!.matchers[0]!.match).toBe('integer');
  });

  it('describes the wishlist envelope without nextPage/prevPage where there is none (absence is the property suite\'s to check)', () => {
    const pact = committed('wishlist');
    const first = pact.interactions.find((i) => i.description.startsWith('a request for the first page of wishlists'))!;
    const last = pact.interactions.find((i) => i.description.startsWith('a request for the last page of wishlists'))!;
    expect(first.response.body!.content).not.toHaveProperty('prevPage');
    expect(first.response.body!.content).toHaveProperty('nextPage', 2);
    expect(last.response.body!.content).not.toHaveProperty('nextPage');
    expect(last.response.body!.content).toHaveProperty('prevPage', 2);
  });
});

describe('the storefront client', () => {
  const answering = (status: number, body: string, contentType = 'application/json') =>
    (async () => new Response(body, { status, headers: { 'content-type': contentType } })) as unknown as typeof fetch;

  it('sends only the parameters given, and the wishlist id again when asked', async () => {
    const urls: string[] = [];
    const fetchSpy = (async (url: string) => {
      urls.push(url);
      return new Response('{}', { status: 200 });
    }) as unknown as typeof fetch;
    const client = new StorefrontClient('http://shop.test/', { fetch: fetchSpy });
    await client.listReviews();
    await client.listReviews({ limit: 5, order: '-created_at' });
    await client.listProductReviews('prod 1', { offset: 3 });
    await client.listWishlistItems('wl_1', { take: 2, idInQuery: true });
    expect(urls).toEqual([
      'http://shop.test/store/products/reviews',
      'http://shop.test/store/products/reviews?limit=5&order=-created_at',
      'http://shop.test/store/reviews/product/prod%201?offset=3',
      'http://shop.test/store/wishlists/wl_1/items?id=wl_1&take=2',
    ]);
  });

  it('surfaces the documented error body, and something readable when there is none', async () => {
    const documented = new StorefrontClient('http://shop.test', { fetch: answering(404, '{"type":"not_found","message":"Wishlist with id: wl_x was not found"}') });
    await expect(documented.listWishlistItems('wl_x')).rejects.toMatchObject({ name: 'StorefrontApiError', status: 404, type: 'not_found', message: 'Wishlist with id: wl_x was not found' });
    const html = new StorefrontClient('http://shop.test', { fetch: answering(502, '<html>Bad gateway</html>', 'text/html') });
    const error = await html.listWishlists().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorefrontApiError);
    expect(error).toMatchObject({ status: 502, type: 'unknown_error' });
    expect((error as Error).message).toContain('HTTP 502');
  });
});
