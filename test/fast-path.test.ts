/**
 * The fast path (mock-server/front/fast-path.ts) changes nothing a client can see: every valid and
 * hostile request of the suites, sent to a server with the fast path and to one without, gets the
 * same status, headers (bar Date) and bytes: in both dialects, with and without explicit CORS
 * origins, for GET, HEAD and conditional requests. Each request is sent twice, so the second one
 * is answered from what the first one left (by the fast path, where it is on).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REVIEW_ORDER_VALUES } from '../lib/api-rules.ts';
import { sizeArb, startArb } from '../properties/generators.ts';
import { startMockServer, type MockServer, type MockServerOptions } from '../mock-server/server.ts';
import { hostileRequests } from './support/hostile-requests.ts';
import { requestBytes, sendRaw, type RawRequest, type RawResponse } from './support/raw-http.ts';
import { get } from './support/http.ts';
import cors from 'cors';
import { corsHeaders, corsOptions, corsPolicy } from '../mock-server/helpers/cors-policy.ts';

const DATA = { seed: 11, reviews: 120, products: 5, wishlists: 12, maxItems: 15 } as const;
const ORIGIN = 'http://shop.test';
const KEYED: [string, string][] = [
  ['x-publishable-api-key', 'pk_fast'],
  ['Authorization', 'Bearer fast'],
];

/** What a client can see of an answer: status, headers without Date, body. */
function seen(res: RawResponse): unknown {
  const headers = Object.fromEntries([...res.headers].filter(([name]) => name !== 'date').sort());
  return { status: res.status, headers, body: res.body };
}

/** Valid listing requests of a dialect, with the header variations that change an answer. */
function validRequests(dialect: 'spec' | 'alphabite', wishlistId: string, productId: string): fc.Arbitrary<RawRequest> {
  const paging = (endpoint: string) => (dialect === 'alphabite' || endpoint.includes('reviews') ? ['limit', 'offset'] : ['take', 'skip']);
  const endpoints = ['/store/products/reviews', `/store/reviews/product/${productId}`, '/store/wishlists', `/store/wishlists/${wishlistId}/items`];
  return fc
    .record({
      path: fc.constantFrom(...endpoints),
      size: sizeArb(40, 100),
      start: fc.option(startArb(7, { count: 40 }), { nil: undefined }),
      order: fc.option(fc.constantFrom(...REVIEW_ORDER_VALUES), { nil: undefined }),
      method: fc.constantFrom('GET', 'GET', 'HEAD'),
      origin: fc.constantFrom(undefined, ORIGIN, 'http://elsewhere.test'),
      credentials: fc.constantFrom(...(dialect === 'alphabite' ? [KEYED, KEYED, [KEYED[0]!], []] : [[]])),
    })
    .map(({ path, size, start, order, method, origin, credentials }) => {
      const [sizeName, startName] = paging(path);
      const pairs = [`${sizeName}=${size}`, ...(start === undefined ? [] : [`${startName}=${start}`]), ...(order !== undefined && path.includes('reviews') ? [`order=${order}`] : [])];
      return { method, target: `${path}?${pairs.join('&')}`, headers: [...credentials, ...(origin ? [['Origin', origin] as [string, string]] : [])] };
    });
}

const CONFIGS: Array<{ name: string; options: MockServerOptions; dialect: 'spec' | 'alphabite' }> = [
  { name: 'spec, any origin', options: { ...DATA }, dialect: 'spec' },
  { name: 'spec, explicit origins (credentials)', options: { ...DATA, corsOrigin: [ORIGIN] }, dialect: 'spec' },
  { name: 'alphabite, explicit origins', options: { ...DATA, dialect: 'alphabite', corsOrigin: [ORIGIN] }, dialect: 'alphabite' },
];

for (const config of CONFIGS) {
  describe(`fast path on and off: ${config.name}`, () => {
    let fast: MockServer;
    let slow: MockServer;
    let wishlistId: string;
    let productId: string;
    beforeAll(async () => {
      [fast, slow] = await Promise.all([startMockServer(config.options), startMockServer({ ...config.options, fastPath: false })]);
      wishlistId = fast.dataset.current.wishlists.source.wishlist(2).id;
      productId = fast.dataset.current.reviews.source.productId(1);
    });
    afterAll(async () => {
      await Promise.all([fast?.close(), slow?.close()]);
    });

    /** Sends `request` to both servers twice (and once more conditionally): every answer must be the same. */
    async function compare(request: RawRequest): Promise<void> {
      for (let round = 0; round < 2; round++) {
        const [a, b] = await Promise.all([sendRaw(fast.port, requestBytes(request)), sendRaw(slow.port, requestBytes(request))]);
        expect(seen(a), `${request.method} ${request.target.slice(0, 160)} (round ${round + 1})`).toEqual(seen(b));
        const etag = a.headers.get('etag');
        if (round === 1 && etag) {
          for (const condition of [etag, 'W/"0-nope"', `"x", ${etag}`]) {
            const conditional = { ...request, headers: [...(request.headers ?? []), ['If-None-Match', condition] as [string, string]] };
            const [c, d] = await Promise.all([sendRaw(fast.port, requestBytes(conditional)), sendRaw(slow.port, requestBytes(conditional))]);
            expect(seen(c), `${request.target.slice(0, 160)} If-None-Match ${condition}`).toEqual(seen(d));
          }
        }
      }
    }

    it('valid requests: same status, headers and bytes, and the fast path answered most of them', async () => {
      const before = (await get(fast.url, '/__admin/health')).json.fastPathAnswers as number;
      for (const request of fc.sample(validRequests(config.dialect, wishlistId, productId), { seed: 7, numRuns: 120 })) await compare(request);
      const answered = ((await get(fast.url, '/__admin/health')).json.fastPathAnswers as number) - before;
      expect(answered).toBeGreaterThan(120);
      expect((await get(slow.url, '/__admin/health')).json.fastPathAnswers).toBe(0);
    }, 60_000);

    it('hostile requests: same answers', async () => {
      for (const { request } of fc.sample(hostileRequests(wishlistId), { seed: 8, numRuns: 150 })) await compare(request);
    }, 60_000);
  });
}

describe('what the fast path leaves to Express', () => {
  it('keeps an answer the second time it is asked, never the first (a long tail of pages asked once costs no memory)', async () => {
    const mock = await startMockServer({ ...DATA, journalSize: 0 });
    try {
      const targets = Array.from({ length: 40 }, (_, k) => `/store/products/reviews?limit=3&offset=${k}`);
      const fastAnswers = async () => (await get(mock.url, '/__admin/health')).json.fastPathAnswers as number;
      for (const target of targets) expect((await get(mock.url, target)).status).toBe(200);
      expect(await fastAnswers()).toBe(0);
      // asked again: nothing was kept, so Express makes each answer again (and keeps it now)
      for (const target of targets) await get(mock.url, target);
      expect(await fastAnswers()).toBe(0);
      for (const target of targets) await get(mock.url, target);
      expect(await fastAnswers()).toBe(targets.length);
    } finally {
      await mock.close();
    }
  });

  it('faults, request logs, and the journal keeps recording what the fast path answers', async () => {
    const mock = await startMockServer({ ...DATA, journalSize: 10 });
    try {
      // asked once: made by Express and not kept; twice: made again, and kept; the third goes out by the fast path
      for (let n = 0; n < 3; n++) await get(mock.url, '/store/wishlists?take=2');
      const journal = (await get(mock.url, '/__admin/journal')).json;
      expect(journal.entries.map((e: { url: string; status: number }) => [e.url, e.status])).toEqual([
        ['/store/wishlists?take=2', 200],
        ['/store/wishlists?take=2', 200],
        ['/store/wishlists?take=2', 200],
      ]);
      expect((await get(mock.url, '/__admin/health')).json.fastPathAnswers).toBe(1);
      // faults on: every request goes through Express, so the injected status wins over the kept answer
      await fetch(`${mock.url}/__admin/faults`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ errorRate: 1, errorStatus: 503 }) });
      expect((await get(mock.url, '/store/wishlists?take=2')).status).toBe(503);
      expect((await get(mock.url, '/__admin/health')).json.fastPathAnswers).toBe(1);
    } finally {
      await mock.close();
    }
  });
});

describe('corsHeaders', () => {
  it('are the headers the cors package writes on an actual answer, for any policy and origin', () => {
    for (const origin of [undefined, ['http://shop.test'], ['http://a.test', 'http://shop.test'], '*']) {
      const policy = corsPolicy(origin);
      for (const requestOrigin of [undefined, 'http://shop.test', 'http://elsewhere.test']) {
        const written: Array<[string, string]> = [];
        const res = { setHeader: (name: string, value: string) => void written.push([name, value]), getHeader: () => undefined };
        let passed = false;
        cors(corsOptions(policy))({ method: 'GET', headers: requestOrigin ? { origin: requestOrigin } : {} } as never, res as never, () => (passed = true));
        expect(passed).toBe(true);
        expect(corsHeaders(policy, requestOrigin), `${JSON.stringify(origin)} / ${requestOrigin}`).toEqual(written);
      }
    }
  });
});
