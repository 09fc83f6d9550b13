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
import { MAX_HEADER_BYTES, MAX_URL_LENGTH } from '../mock-server/request-guards.ts';
import { requestBytes, sendRaw, type RawRequest, type RawResponse } from './support/raw-http.ts';

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

// ---------------------------------------------------------------- generators

type EndpointKey = 'reviews' | 'productReviews' | 'wishlists' | 'wishlistItems';
const ACCEPTED: Record<EndpointKey, readonly string[]> = {
  reviews: ['limit', 'offset', 'order'],
  productReviews: ['limit', 'offset', 'order'],
  wishlists: ['skip', 'take'],
  wishlistItems: ['skip', 'take', 'id'],
};

/** UTF-8 %-encoding of every byte outside the unreserved set (lone surrogates become U+FFFD). */
function percentEncode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const ch = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(ch) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Raw UTF-8 bytes, except the few that would end the request line (space, CR, LF): those %-encoded. */
function rawBytes(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    out += byte === 0x20 || byte === 0x0d || byte === 0x0a ? `%${byte.toString(16).padStart(2, '0')}` : String.fromCharCode(byte);
  }
  return out;
}

/** What the server will read back from an encoded query component (the WHATWG rules it uses). */
function decodedComponent(encoded: string): string {
  return new URLSearchParams(`x=${encoded.replace(/&/g, '%26').replace(/#/g, '%23')}`).get('x') ?? '';
}

const ODD_STRINGS = [
  '', ' ', '-1', '-0', '+1', '1.5', '1e3', '0x10', '1_000', ' 1', '1 ', '0 ', '１', '٣', 'NaN', 'Infinity', 'null', 'undefined', 'true', '[]', '{}',
  '[object Object]', '9'.repeat(40), '9007199254740992', '%', '%zz', '%00', '%ED%A0%80', '%C0%AF', '\u0000', '\uFEFF1', '1\u0000', '../../etc/passwd',
  '..%2F..%2F', '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '<script>alert(1)</script>', "' OR 1=1 --", '🙂', 'ü', '\u202e',
];

const encodedText = (text: fc.Arbitrary<string>) =>
  fc.tuple(text, fc.constantFrom('percent', 'raw', 'asIs')).map(([t, style]) => (style === 'percent' ? percentEncode(t) : style === 'raw' ? rawBytes(t) : t.replace(/[ \r\n]/g, '+')));

const oddText = fc.oneof(
  fc.constantFrom(...ODD_STRINGS),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.string({ maxLength: 20 }),
);

const validValue: Record<string, fc.Arbitrary<string>> = {
  limit: fc.integer({ min: 1, max: DEFAULT_MAX_PAGE_SIZE }).map(String),
  take: fc.integer({ min: 1, max: DEFAULT_MAX_PAGE_SIZE }).map(String),
  offset: fc.nat().map(String),
  skip: fc.nat().map(String),
  order: fc.constantFrom(...REVIEW_ORDER_VALUES),
};

function isValid(name: string, value: string): boolean {
  if (name === 'order') return REVIEW_ORDER_VALUES.includes(value);
  if (!/^[0-9]+$/.test(value) || !Number.isSafeInteger(Number(value))) return false;
  const n = Number(value);
  return name === 'limit' || name === 'take' ? n >= 1 && n <= DEFAULT_MAX_PAGE_SIZE : n >= 0;
}

const HOSTILE_NAMES = [
  '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '__defineGetter__', 'limit[]', 'take[]', 'limit[0]', 'skip[a]', 'offset.x',
  'order[field]', 'LIMIT', 'Take', 'limit ', ' take', '', '%00', '\u0000', 'ü', '🙂', 'page', 'per_page', 'fields', 'expand', 'q', 'id[]', '__proto__[limit]',
  'constructor[prototype][x]', '%5F%5Fproto%5F%5F', 'limit%5B%5D',
];

const HOSTILE_IDS = [
  '..', '../..', '../../etc/passwd', '..%2F..%2Fetc%2Fpasswd', '%2e%2e', '%2e%2e%2f%2e%2e', '....//....//', '%00', 'x%00y', '%ZZ', '%', '%E0%A4%A',
  '%ED%A0%80', '__proto__', 'constructor', 'prototype', '%F0%9F%98%80', 'wl_', 'wl_../../x', `${'a'.repeat(3000)}`, '%252e%252e', '.', '~', '%7e',
];

const hostileId = fc.oneof(
  fc.constantFrom(...HOSTILE_IDS),
  encodedText(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 })).filter((s) => s.length > 0 && !s.includes('/') && !s.includes('?') && !s.includes('#')),
  fc.integer({ min: 1000, max: 7000 }).map((n) => percentEncode('é'.repeat(Math.floor(n / 6)))),
);

interface Generated {
  request: RawRequest;
  /** What makes it hostile, for failure messages. */
  poison: string;
}

const endpointKey = fc.constantFrom<EndpointKey>('reviews', 'productReviews', 'wishlists', 'wishlistItems');

function pathOf(endpoint: EndpointKey, id: string): string {
  switch (endpoint) {
    case 'reviews':
      return '/store/products/reviews';
    case 'productReviews':
      return `/store/reviews/product/${id}`;
    case 'wishlists':
      return '/store/wishlists';
    case 'wishlistItems':
      return `/store/wishlists/${id}/items`;
  }
}

/** Valid parameters in any number, some with %-encoded names: never the reason for a refusal. */
const noise = (endpoint: EndpointKey) =>
  fc.uniqueArray(fc.constantFrom(...ACCEPTED[endpoint].filter((n) => n !== 'id')), { maxLength: 3 }).chain((names) =>
    fc.tuple(...names.map((name) => fc.tuple(fc.constant(name), validValue[name] as fc.Arbitrary<string>, fc.boolean()))).map((pairs) =>
      pairs.map(([name, value, encodeName]) => `${encodeName ? percentEncode(name).replace(/^l/, '%6C').replace(/^t/, '%74') : name}=${value}`),
    ),
  );

/** One thing the server must refuse, as query pairs, or a change to method, path or headers. */
type Poison = { kind: string; pairs?: string[]; method?: string; path?: string; headers?: [string, string][] };

const poison = (endpoint: EndpointKey): fc.Arbitrary<Poison> => {
  const accepted = ACCEPTED[endpoint];
  const integerNames = accepted.filter((n) => n !== 'order' && n !== 'id');
  const options: fc.Arbitrary<Poison>[] = [
    fc.constantFrom('POST', 'PUT', 'PATCH', 'DELETE', 'TRACE', 'OPTIONS', 'PROPFIND', 'MKCOL', 'LINK', 'FOO', 'get', 'G ET', 'GET\u0000').map((method) => ({ kind: `method ${JSON.stringify(method)}`, method })),
    fc
      .tuple(fc.oneof(fc.constantFrom(...HOSTILE_NAMES).map(percentEncode), fc.constantFrom(...HOSTILE_NAMES), encodedText(fc.string({ maxLength: 12 }))), encodedText(oddText))
      .filter(([name]) => !accepted.includes(decodedComponent(name)))
      .map(([name, value]) => ({ kind: `unknown parameter ${JSON.stringify(name)}`, pairs: [`${name}=${value}`] })),
    fc
      .tuple(fc.constantFrom(...accepted.filter((n) => n !== 'id')), fc.integer({ min: 2, max: 4 }))
      .chain(([name, times]) => fc.array(validValue[name] as fc.Arbitrary<string>, { minLength: times, maxLength: times }).map((values) => ({ kind: `repeated '${name}'`, pairs: values.map((v) => `${name}=${v}`) }))),
    fc
      .tuple(fc.constantFrom(...integerNames, ...(accepted.includes('order') ? ['order'] : [])), encodedText(oddText))
      .filter(([name, value]) => !isValid(name, decodedComponent(value)))
      .map(([name, value]) => ({ kind: `bad value ${name}=${JSON.stringify(value)}`, pairs: [`${name}=${value}`] })),
    fc.constantFrom(0, DEFAULT_MAX_PAGE_SIZE + 1, 10 ** 16, 2 ** 53).chain((n) =>
      fc.constantFrom(...integerNames).filter((name) => !isValid(name, String(n))).map((name) => ({ kind: `out of range ${name}=${n}`, pairs: [`${name}=${n}`] })),
    ),
    fc.integer({ min: MAX_URL_LENGTH + 1, max: 3 * MAX_HEADER_BYTES }).map((n) => ({ kind: `URL of ${n} characters`, pairs: [`limit=${'9'.repeat(n)}`] })),
    fc.integer({ min: MAX_HEADER_BYTES + 1, max: 4 * MAX_HEADER_BYTES }).map((n) => ({ kind: `header of ${n} bytes`, headers: [['X-Padding', 'a'.repeat(n)]] as [string, string][] })),
    fc
      .constantFrom('\u0000', '\u0001', '\u0008', '\u007f', '\u0080', '\u00ff', '\u00c3\u00a9', '\t', '"', '<', '>', '\\', '^', '`', '{', '|', '}')
      .map((bytes) => ({ kind: `raw byte(s) ${JSON.stringify(bytes)} in the target`, pairs: [`${integerNames[0]}=1${bytes}`] })),
    fc
      .constantFrom(
        '/', '/store', '/store/', '/store/products', '/store/reviews', '/store/reviews/product', '/store/wishlists/items', '/store/wishlists//items',
        '/store/products/reviews/..', '/store/products/reviews/%2e%2e/x', '/store/wishlists/../../etc/passwd', '/store/%2e%2e/%2e%2e/etc/passwd',
        '//store/wishlists', '/store//wishlists', '/store/wishlists%2F', '/store/products/reviews.json', '/index.html', '/favicon.ico', '/.env',
        '/store/reviews/product/x/y', '/store/wishlists/x/items/y', '/__admin', '/__admin/../store/wishlists', '/%5F%5Fadmin/health', '/__proto__',
        '/constructor/prototype', '/store/wishlists/%2F/items/..', '/*', '*',
      )
      .map((path) => ({ kind: `unknown path ${path}`, path })),
  ];
  if (endpoint === 'wishlistItems') {
    options.push(hostileId.map((id) => ({ kind: `unknown wishlist id ${JSON.stringify(id.slice(0, 40))}`, path: pathOf('wishlistItems', id) })));
    options.push(encodedText(oddText).filter((v) => decodedComponent(v) !== wishlistId).map((v) => ({ kind: `?id=${JSON.stringify(v)} unlike the path's`, pairs: [`id=${v}`], path: pathOf('wishlistItems', wishlistId) })));
  }
  return fc.oneof(...options);
};

const HEADER_NOISE: [string, string][] = [
  ['Accept', 'text/html'],
  ['Accept', '*/*'],
  ['X-Mock-Status', '500'],
  ['X-Mock-Delay', '30000'],
  ['Content-Type', 'application/x-www-form-urlencoded'],
  ['X-Forwarded-For', '10.0.0.1'],
  ['Cookie', '__proto__=1; constructor=2'],
  ['Origin', 'http://evil.example'],
];

const hostileRequest: fc.Arbitrary<Generated> = endpointKey.chain((endpoint) =>
  fc
    .record({
      id: endpoint === 'productReviews' ? fc.oneof(hostileId, fc.constant('prod_x')) : fc.constant(''),
      noise: noise(endpoint),
      poison: poison(endpoint),
      headerNoise: fc.subarray(HEADER_NOISE, { maxLength: 3 }),
      poisonFirst: fc.boolean(),
    })
    .map(({ id, noise: valid, poison: p, headerNoise, poisonFirst }) => {
      const pairs = poisonFirst ? [...(p.pairs ?? []), ...valid] : [...valid, ...(p.pairs ?? [])];
      const path = p.path ?? pathOf(endpoint, id || wishlistId);
      const target = pairs.length ? `${path}?${pairs.join('&')}` : path;
      return {
        request: { method: p.method ?? 'GET', target, headers: [...headerNoise, ...(p.headers ?? [])] },
        poison: `${endpoint}: ${p.kind}`,
      };
    }),
);

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
      fc.asyncProperty(hostileRequest, async ({ request, poison: what }) => {
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
    const batch = fc.sample(hostileRequest, { seed: SEED + 1, numRuns: 150 });
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
    ['unsupported method', { method: 'DELETE', target: '/store/wishlists' }, 404],
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
