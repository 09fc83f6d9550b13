/**
 * Hostile requests for the listings, generated: each carries at least one thing the API must
 * refuse (a method, an unknown or repeated parameter, a bad value, an oversized URL or header,
 * odd bytes, an unknown path or wishlist). Used by test/hostile-input.test.ts and, to compare the
 * fast path with Express, by test/fast-path.test.ts.
 */
import fc from 'fast-check';
import { DEFAULT_MAX_PAGE_SIZE, REVIEW_ORDER_VALUES } from '../../lib/api-rules.ts';
import { MAX_HEADER_BYTES, MAX_URL_LENGTH } from '../../mock-server/front/request-guards.ts';
import type { RawRequest } from './raw-http.ts';

/** The wishlist the generated 4.4 requests list (a real one, so that only the poison is wrong). */
let wishlistId = 'wl_unset';


export type EndpointKey = 'reviews' | 'productReviews' | 'wishlists' | 'wishlistItems';
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

export const hostileId = fc.oneof(
  fc.constantFrom(...HOSTILE_IDS),
  encodedText(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 })).filter((s) => s.length > 0 && !s.includes('/') && !s.includes('?') && !s.includes('#')),
  fc.integer({ min: 1000, max: 7000 }).map((n) => percentEncode('é'.repeat(Math.floor(n / 6)))),
);

export interface Generated {
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
        '/store/reviews/product/x/y', '/store/wishlists/x/items/y', '/__admin/unknown', '/__admin/../store/wishlists', '/%5F%5Fadmin/health', '/__proto__',
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

/** Hostile requests to the four endpoints; 4.4's go to `wishlist` (a real one, so that only the poison is wrong). */
export function hostileRequests(wishlist: string): fc.Arbitrary<Generated> {
  wishlistId = wishlist;
  return endpointKey.chain((endpoint) =>
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
}
