/**
 * Hostile input: generated requests, sent as raw bytes to every endpoint, each of which
 * carries at least one thing the API must refuse. Every answer must be a documented JSON
 * 4xx (never HTML, never a 5xx, never a hang), and the listings must answer afterwards
 * with the same bytes as before.
 *
 * Deterministic by default (fast-check seed 20260601); set HOSTILE_SEED to explore others.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_PAGE_SIZE, REVIEW_ORDER_VALUES } from '../lib/api-rules.ts';
import { startMockServer, type MockServer } from '../mock-server/server.ts';
import { MAX_HEADER_BYTES, MAX_URL_LENGTH } from '../mock-server/front/request-guards.ts';
import { requestBytes, sendRaw, type RawRequest, type RawResponse } from './support/raw-http.ts';
import { hostileId, hostileRequests } from './support/hostile-requests.ts';

const SEED = Number(process.env.HOSTILE_SEED ?? 20260601);
const RUNS = Number(process.env.HOSTILE_RUNS ?? 400);
const DOCUMENTED_TYPES = ['invalid_data', 'not_found', 'unknown_error', 'unauthorized', 'not_allowed', 'conflict'];

let mock: MockServer;
let wishlistId: string;
let productId: string;
/** The listings' bytes before any hostile request was sent. */
let reference: string[];

/** Listings whose bytes must not change, whatever is sent in between. */
const SNAPSHOT_TARGETS = () => [
  '/store/products/reviews',
  '/store/products/reviews?limit=7&offset=13&order=-rating',
  `/store/reviews/product/${productId}?limit=5&offset=1`,
  '/store/wishlists?skip=3&take=4',
  `/store/wishlists/${wishlistId}/items?skip=2&take=3&id=${wishlistId}`,
];

async function snapshot(): Promise<string[]> {
  const bodies: string[] = [];
  for (const target of SNAPSHOT_TARGETS()) {
    const res = await sendRaw(mock.port, requestBytes({ method: 'GET', target }));
    expect(res.status, target).toBe(200);
    bodies.push(res.body);
  }
  return bodies;
}

beforeAll(async () => {
  mock = await startMockServer({ seed: 11, reviews: 120, products: 5, wishlists: 12, maxItems: 15 });
  wishlistId = mock.dataset.current.wishlists.source.wishlist(3).id;
  productId = mock.dataset.current.reviews.source.review(0).product_id;
  reference = await snapshot();
});

afterAll(async () => {
  await mock?.close();
});

// The generators are in test/support/hostile-requests.ts.

// ---------------------------------------------------------------- checks

function expectDocumented4xx(res: RawResponse, what: string): void {
  const where = `${what} -> ${res.raw.slice(0, 300)}`;
  expect(res.status, where).toBeGreaterThanOrEqual(400);
  expect(res.status, where).toBeLessThan(500);
  expect(res.headers.get('content-type') ?? '', where).toMatch(/^application\/json\b/);
  let body: unknown;
  expect(() => (body = JSON.parse(res.body)), where).not.toThrow();
  expect(body, where).toEqual({ type: expect.any(String), message: expect.any(String) });
  const { type, message } = body as { type: string; message: string };
  expect(DOCUMENTED_TYPES, where).toContain(type);
  expect(message.length, where).toBeGreaterThan(0);
  // A refusal quotes what it refuses, cut short: a huge request cannot make a huge answer.
  expect(res.body.length, where).toBeLessThan(1200);
}

describe('hostile input, generated (fast-check over raw HTTP)', () => {
  it('answers every hostile request to every endpoint with a documented JSON 4xx, and the listings keep their bytes', async () => {
    const before = await snapshot();
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(hostileRequests(wishlistId), async ({ request, poison: what }) => {
        const res = await sendRaw(mock.port, requestBytes(request));
        expectDocumented4xx(res, `${what} [${request.method} ${request.target.slice(0, 200)}]`);
        if (++runs % 100 === 0) expect(await snapshot()).toEqual(before);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    expect(await snapshot()).toEqual(before);
  });

  it('keeps its answers to everyone else while hostile requests arrive all at once', async () => {
    const before = await snapshot();
    const batch = fc.sample(hostileRequests(wishlistId), { seed: SEED + 1, numRuns: 150 });
    const [answers, during] = await Promise.all([Promise.all(batch.map(({ request }) => sendRaw(mock.port, requestBytes(request), 10_000))), snapshot()]);
    answers.forEach((res, i) => expectDocumented4xx(res, batch[i]!.poison));
    expect(during).toEqual(before);
    expect(await snapshot()).toEqual(before);
  });

  it('treats a hostile product id on 4.2 as an unknown product: an empty page, not an error and not a leak', async () => {
    await fc.assert(
      fc.asyncProperty(hostileId.filter((id) => !id.includes('/')), async (id) => {
        const res = await sendRaw(mock.port, requestBytes({ method: 'GET', target: `/store/reviews/product/${id}?limit=3` }));
        if (res.status === 200) {
          const body = JSON.parse(res.body);
          expect(body, id).toMatchObject({ reviews: [], count: 0, limit: 3, offset: 0, totalPages: 0, currentPage: 1, nextPage: null, prevPage: null });
        } else expectDocumented4xx(res, `product id ${JSON.stringify(id.slice(0, 60))}`);
      }),
      { seed: SEED + 2, numRuns: 100 },
    );
  });
});

describe('hostile input, named cases', () => {
  const cases: [string, RawRequest, number][] = [
    ['bracket syntax limit[]=1', { method: 'GET', target: '/store/products/reviews?limit[]=1' }, 400],
    ['__proto__ key', { method: 'GET', target: '/store/wishlists?__proto__[take]=1' }, 400],
    ['constructor key', { method: 'GET', target: '/store/wishlists?constructor=1' }, 400],
    ['repeated take', { method: 'GET', target: '/store/wishlists?take=1&take=1' }, 400],
    ['malformed %-escape in a path id', { method: 'GET', target: '/store/wishlists/%E0%A4%A/items' }, 400],
    ['path traversal in a wishlist id', { method: 'GET', target: '/store/wishlists/..%2F..%2Fetc%2Fpasswd/items' }, 404],
    ['path traversal in the path', { method: 'GET', target: '/store/wishlists/../../../etc/passwd' }, 404],
    ['unsupported method', { method: 'DELETE', target: '/store/elsewhere' }, 404],
    ['a write on a listing (the spec shows no writes: docs/writes.md)', { method: 'DELETE', target: '/store/wishlists' }, 405],
    ['unknown method token', { method: 'BREW', target: '/store/wishlists' }, 400],
    ['bare OPTIONS (not a CORS preflight)', { method: 'OPTIONS', target: '/store/wishlists' }, 404],
    ['CONNECT', { method: 'CONNECT', target: '127.0.0.1:9' }, 404],
    ['request target longer than the URL limit', { method: 'GET', target: `/store/wishlists?take=${'1'.repeat(MAX_URL_LENGTH)}` }, 414],
    ['request line beyond the header limit', { method: 'GET', target: `/${'a'.repeat(MAX_HEADER_BYTES + 10)}` }, 431],
    ['oversized header', { method: 'GET', target: '/store/wishlists', headers: [['X-Big', 'b'.repeat(MAX_HEADER_BYTES + 10)]] }, 431],
    ['many headers', { method: 'GET', target: '/store/wishlists', headers: Array.from({ length: 3000 }, (_, i) => [`X-H${i}`, 'v'] as [string, string]) }, 431],
    ['HTTP/1.1 without Host', { method: 'GET', target: '/store/wishlists', headers: [['Host', '']] }, 400],
    ['NUL byte in the target', { method: 'GET', target: '/store/wishlists\u0000' }, 400],
    ['non-ASCII bytes in the target', { method: 'GET', target: '/store/wishlists/\u00ff\u00fe/items' }, 400],
    ['Expect other than 100-continue', { method: 'GET', target: '/store/wishlists', headers: [['Expect', 'teapot']] }, 417],
    ['invalid Content-Length', { method: 'GET', target: '/store/wishlists', headers: [['Content-Length', 'abc']] }, 400],
  ];
  for (const [name, request, status] of cases) {
    it(`${name}: ${status}, JSON`, async () => {
      const bytes = name === 'HTTP/1.1 without Host' ? Buffer.from('GET /store/wishlists HTTP/1.1\r\nConnection: close\r\n\r\n') : requestBytes(request);
      const res = await sendRaw(mock.port, bytes);
      expect(res.status, res.raw.slice(0, 200)).toBe(status);
      expectDocumented4xx(res, name);
    });
  }

  it('answers garbage that is not HTTP at all with a JSON 400', async () => {
    const res = await sendRaw(mock.port, Buffer.from('\u0016\u0003\u0001\u0000\u00a5\u0001\u0000\u0000\u00a1\u0003\u0003garbage\r\n\r\n', 'latin1'));
    expectDocumented4xx(res, 'TLS-ish garbage');
  });

  it('answers a malformed request pipelined behind a good one, after the good one', async () => {
    const { connect } = await import('node:net');
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(mock.port, '127.0.0.1');
      let received = '';
      const timer = setTimeout(() => (socket.destroy(), reject(new Error(`hang: ${received.slice(0, 200)}`))), 5000);
      socket.on('data', (chunk) => (received += chunk.toString('latin1')));
      socket.on('close', () => (clearTimeout(timer), resolve(received)));
      socket.write('GET /store/wishlists?take=1 HTTP/1.1\r\nHost: x\r\n\r\nBREW /store/wishlists HTTP/1.1\r\nHost: x\r\n\r\n');
    });
    const statuses = [...raw.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1]));
    expect(statuses).toEqual([200, 400]);
    expect(raw.slice(raw.lastIndexOf('HTTP/1.1 400'))).toMatch(/Content-Type: application\/json[^]*\r\n\r\n\{"type":"invalid_data","message":"[^"]+"\}$/);
  });

  it('still answers the listings with the same bytes as before all of them, and as a server that never saw them', async () => {
    expect(await snapshot()).toEqual(reference);
    const fresh = await startMockServer({ seed: 11, reviews: 120, products: 5, wishlists: 12, maxItems: 15 });
    try {
      const bodies = await Promise.all(SNAPSHOT_TARGETS().map(async (target) => (await sendRaw(fresh.port, requestBytes({ method: 'GET', target }))).body));
      expect(bodies).toEqual(reference);
    } finally {
      await fresh.close();
    }
  });
});
