/**
 * The journal with bodies (issue 23): what each entry keeps and shows (headers with their secrets
 * redacted, the query, the answer's headers and first bytes of body, the customer, a listing's page
 * arithmetic), its filters, its cursor, its memory bound, and which requests it keeps at all.
 * (Merged across workers: test/scale-workers.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../mock-server/server.ts';
import {
  DEFAULT_JOURNAL_BODY_BYTES,
  defaultJournalBodyBytes,
  Journal,
  JOURNAL_MEMORY_BUDGET,
  journalMemoryBound,
  journalProblem,
  MAX_JOURNAL_SIZE,
} from '../mock-server/journal/journal.ts';
import { MAX_VIOLATION_VALUE, REDACTED, type RecordedRequest } from '../mock-server/journal/journal-entry.ts';
import type { RuleViolation } from '../lib/answer-rules.ts';
import { customerOf } from '../lib/customers.ts';
import { startFakeBackend, type FakeBackend } from './support/fake-backend.ts';
import type { BackendAnswerHook } from '../mock-server/backend/hooks.ts';
import { exactRequest, get } from './support/http.ts';
import { requestBytes, sendRaw } from './support/raw-http.ts';
import { generateDataset } from '../fixtures/dataset.ts';
import { SEEDED_WISHLISTS_PER_CUSTOMER } from '../mock-server/writes/customer-seed.ts';
import { customerToken } from './support/customer-token.ts';

const TOKEN = 'admin-token-for-journal-test';
const ADMIN = { authorization: `Bearer ${TOKEN}` };


const journal = async (mock: MockServer, query = '') => {
  const answer = await get(mock.url, `/__admin/journal${query}`, { headers: ADMIN });
  expect(answer.status, answer.text).toBe(200);
  return answer.json;
};

/** Names that are JavaScript's own (Object.prototype's): a plain object used as a map loses them, or reads its own. */
const OWN_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'isPrototypeOf'] as const;

const portOf = (mock: MockServer) => Number(new URL(mock.url).port);

const clear = (mock: MockServer) => exactRequest(mock.url, '/__admin/journal', { ...ADMIN }, 'DELETE');

describe('journal entries', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ seed: 2, reviews: 40, products: 4, wishlists: 5, maxItems: 4, adminToken: TOKEN, journalBodyBytes: 300 });
  });
  afterAll(() => mock.close());

  it('keeps the request headers with authorization, cookies and the admin token redacted, and the customer by id', async () => {
    await clear(mock);
    const headers = {
      authorization: 'Bearer customer-token-1',
      cookie: 'connect.sid=s%3Aabc; theme=dark',
      'proxy-authorization': 'Basic cHJveHk6cHc=',
      'x-forwarded-token': `token ${TOKEN}`,
      'x-trace': 'kept-as-is',
    };
    expect((await exactRequest(mock.url, '/store/products/reviews?limit=2&offset=4', headers)).status).toBe(200);
    const [entry] = (await journal(mock)).entries;
    expect(entry.request.headers).toMatchObject({ authorization: REDACTED, cookie: REDACTED, 'proxy-authorization': REDACTED, 'x-forwarded-token': REDACTED, 'x-trace': 'kept-as-is' });
    expect(JSON.stringify(entry)).not.toContain('customer-token-1');
    expect(JSON.stringify(entry)).not.toContain(TOKEN);
    expect(JSON.stringify(entry)).not.toContain('s%3Aabc');
    expect(entry.customer).toBe(customerOf({ authorization: 'Bearer customer-token-1' })!.id);
    expect(entry.query).toEqual([
      ['limit', '2'],
      ['offset', '4'],
    ]);
    expect(entry.path).toBe('/store/products/reviews');
    expect(entry.response.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('redacts a set-cookie of the answer and the admin token in a URL', () => {
    const j = new Journal({ capacity: 2, secrets: { token: TOKEN } });
    j.record({ arrivedMs: 0, method: 'GET', url: `/store/x?t=${TOKEN}`, status: 200, durationMs: 1, requestHeaders: ['Host', 'h'], responseHeaders: ['Set-Cookie', 'sid=1', 'Set-Cookie', 'b=2', 'X-Ok', 'y'] });
    const [entry] = j.entries();
    expect(entry!.response.headers).toEqual({ 'set-cookie': [REDACTED, REDACTED], 'x-ok': 'y' });
    expect(entry!.url).toBe(`/store/x?t=${REDACTED}`);
  });

  it('keeps the first bytes of the answer body up to the cap, with its whole length, through Express and the fast path alike', async () => {
    await clear(mock);
    const path = '/store/products/reviews?limit=5&offset=0';
    const first = await exactRequest(mock.url, path);
    await exactRequest(mock.url, path); // kept: the fast path answers from now on
    await exactRequest(mock.url, path);
    await exactRequest(mock.url, path, {}, 'HEAD');
    const entries = (await journal(mock)).entries;
    expect(entries).toHaveLength(4);
    const whole = Buffer.byteLength(first.text);
    expect(whole).toBeGreaterThan(300);
    for (const entry of entries.slice(0, 3)) {
      expect(entry.response.body).toEqual({ text: Buffer.from(first.text).subarray(0, 300).toString('utf8'), bytes: whole, truncated: true });
    }
    expect(entries[3].method).toBe('HEAD');
    expect(entries[3].response.body).toBeNull();
    // A small answer is kept whole.
    await clear(mock);
    const small = await exactRequest(mock.url, '/store/products/reviews?limit=0');
    expect((await journal(mock)).entries[0].response.body).toEqual({ text: small.text, bytes: Buffer.byteLength(small.text), truncated: false });
  });

  it('shows the page arithmetic beside a listing answer, from the rule the dialect names', async () => {
    await clear(mock);
    await exactRequest(mock.url, '/store/products/reviews?limit=7&offset=14');
    await exactRequest(mock.url, '/store/products/reviews?limit=7&offset=14');
    await exactRequest(mock.url, '/store/wishlists?take=2&skip=4');
    await exactRequest(mock.url, '/store/products/reviews?limit=abc');
    const [express, fast, wishlists, refused] = (await journal(mock)).entries;
    const reviewsPage = { rule: 'reviewsPageMeta', matching: 40, size: 7, start: 14, count: 40, totalPages: 6, currentPage: 3, nextPage: 4, prevPage: 2 };
    expect(express.page).toMatchObject(reviewsPage);
    expect(fast.page).toMatchObject(reviewsPage);
    expect(express.page.formula).toContain('floor(offset / limit)');
    expect(wishlists.page).toMatchObject({ rule: 'wishlistPageMeta', matching: 5, size: 2, start: 4, count: 5, totalPages: 3, currentPage: 3, nextPage: null, prevPage: 2 });
    expect(refused.status).toBe(400);
    expect(refused.page).toBeNull();
  });

  it("journals every request outside /__admin (writes under /store too), and successful provider-state changes, but none of the admin API's own", async () => {
    await clear(mock);
    await exactRequest(mock.url, '/store/wishlists/wl_nope/items', { 'content-type': 'application/json', authorization: 'Bearer writer' }, 'POST', '{"product_variant_id":"variant_1"}');
    await exactRequest(mock.url, '/store/unknown');
    for (const path of ['/__admin/config', '/__admin/health', '/__admin/faults', '/__admin/', '/__admin/journal', '/__admin/provider-states']) await exactRequest(mock.url, path, ADMIN);
    await exactRequest(mock.url, '/__admin/faults', { ...ADMIN, 'content-type': 'application/json' }, 'PUT', '{}');
    await exactRequest(mock.url, '/__admin/config'); // refused: no token
    const state = JSON.stringify({ state: 'no reviews exist', params: {}, action: 'setup' });
    expect((await exactRequest(mock.url, '/__admin/provider-states', { ...ADMIN, 'content-type': 'application/json' }, 'POST', state)).status).toBe(200);
    expect((await exactRequest(mock.url, '/__admin/provider-states', { ...ADMIN, 'content-type': 'application/json' }, 'POST', '{"state":"no such state"}')).status).toBe(400);
    await exactRequest(mock.url, '/__admin/provider-states', { ...ADMIN, 'content-type': 'application/json' }, 'POST', JSON.stringify({ state: 'no reviews exist', params: {}, action: 'teardown' }));
    const entries = (await journal(mock)).entries;
    expect(entries.map((e: { method: string; path: string; status: number }) => `${e.method} ${e.path} ${e.status}`)).toEqual([
      'POST /store/wishlists/wl_nope/items 405',
      'GET /store/unknown 404',
      'POST /__admin/provider-states 200',
      'POST /__admin/provider-states 200',
    ]);
    expect(entries[0].customer).toBe(customerOf({ authorization: 'Bearer writer' })!.id);
    expect(entries[1].response.body.text).toContain('No route for GET /store/unknown');
    expect(JSON.parse(entries[2].request.body.text)).toEqual({ state: 'no reviews exist', params: {}, action: 'setup' });
  });

  it('filters by path (contained), status (exact or class) and customer, with limit and a since-cursor', async () => {
    await clear(mock);
    await exactRequest(mock.url, '/store/products/reviews?limit=1', { authorization: 'Bearer alice' });
    await exactRequest(mock.url, '/store/wishlists?take=1', { authorization: 'Bearer bob' });
    await exactRequest(mock.url, '/store/products/reviews?limit=-1', { authorization: 'Bearer alice' });
    await exactRequest(mock.url, '/store/nothing-here');
    const urls = (j: { entries: Array<{ url: string }> }) => j.entries.map((e) => e.url);
    expect(urls(await journal(mock, '?path=reviews'))).toEqual(['/store/products/reviews?limit=1', '/store/products/reviews?limit=-1']);
    expect(urls(await journal(mock, '?path=/store/wish'))).toEqual(['/store/wishlists?take=1']);
    expect(urls(await journal(mock, '?status=4xx'))).toEqual(['/store/products/reviews?limit=-1', '/store/nothing-here']);
    expect(urls(await journal(mock, '?status=404'))).toEqual(['/store/nothing-here']);
    expect(urls(await journal(mock, '?status=2XX&limit=1'))).toEqual(['/store/wishlists?take=1']);
    const alice = customerOf({ authorization: 'Bearer alice' })!.id;
    expect(urls(await journal(mock, `?customer=${alice}`))).toEqual(['/store/products/reviews?limit=1', '/store/products/reviews?limit=-1']);
    expect(urls(await journal(mock, `?customer=${alice}&status=200`))).toEqual(['/store/products/reviews?limit=1']);

    const { cursor, entries } = await journal(mock);
    const last = entries[entries.length - 1].seq;
    expect(cursor).toBe(`${process.pid}:${last}`);
    expect((await journal(mock, `?since=${cursor}`)).entries).toEqual([]);
    await exactRequest(mock.url, '/store/wishlists?take=2', { authorization: 'Bearer bob' });
    const after = await journal(mock, `?since=${encodeURIComponent(cursor)}`);
    expect(urls(after)).toEqual(['/store/wishlists?take=2']);
    expect(after.entries[0].seq).toBe(last + 1);
    // A clear does not renumber: a cursor from before it still means "after those".
    await clear(mock);
    await exactRequest(mock.url, '/store/wishlists?take=3');
    expect(urls(await journal(mock, `?since=${encodeURIComponent(after.cursor)}`))).toEqual(['/store/wishlists?take=3']);
  });

  it("keeps header names and query keys that are JavaScript's own as sent, in the JSON and as own keys", async () => {
    await clear(mock);
    const headers: [string, string][] = [...OWN_NAMES.map((name, i): [string, string] => [name, `value-${i}`]), ['Constructor', 'again'], ['x-after', 'seen']];
    const target = '/store/products/reviews?__proto__=x&constructor=y&toString=z&constructor=y2';
    const answer = await sendRaw(portOf(mock), requestBytes({ method: 'GET', target, headers }));
    expect(answer.status).toBe(400);
    const { text } = await get(mock.url, '/__admin/journal', { headers: ADMIN });
    const entry = JSON.parse(text).entries[0];
    const shown = entry.request.headers;
    // Header names are shown in lower case (HTTP's are case-insensitive), as every other.
    for (const [i, sent] of OWN_NAMES.entries()) {
      const name = sent.toLowerCase();
      expect(Object.hasOwn(shown, name), name).toBe(true);
      expect(shown[name], name).toEqual(name === 'constructor' ? [`value-${i}`, 'again'] : `value-${i}`);
    }
    expect(shown['x-after']).toBe('seen');
    expect(text).toContain('"__proto__":"value-0"');
    expect(text).toContain('"constructor":["value-1","again"]');
    expect(Object.keys(shown)).toEqual(expect.arrayContaining([...OWN_NAMES.map((name) => name.toLowerCase()), 'x-after', 'host']));
    expect(entry.query).toEqual([
      ['__proto__', 'x'],
      ['constructor', 'y'],
      ['toString', 'z'],
      ['constructor', 'y2'],
    ]);
    expect(entry.url).toBe(target);
  });

  it("keeps and filters a customer whose id is JavaScript's own (a JWT's actor_id)", async () => {
    await clear(mock);
    for (const actor of ['constructor', '__proto__', 'toString']) {
      expect((await exactRequest(mock.url, '/store/products/reviews?limit=1', { authorization: `Bearer ${customerToken(actor)}` })).status).toBe(200);
    }
    await exactRequest(mock.url, '/store/products/reviews?limit=2');
    const all = (await journal(mock)).entries;
    expect(all.map((e: { customer: string | null }) => e.customer)).toEqual(['constructor', '__proto__', 'toString', null]);
    for (const actor of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const { entries } = await journal(mock, `?customer=${actor}`);
      expect(entries.map((e: { customer: string }) => e.customer), actor).toEqual(actor === 'hasOwnProperty' ? [] : [actor]);
    }
  });

  it('refuses a bad filter with the documented JSON 400 that names it', async () => {
    for (const [query, name] of [
      ['?status=600', 'status'],
      ['?status=4x', 'status'],
      ['?status=abc', 'status'],
      ['?customer=a%20b', 'customer'],
      ['?path=', 'path'],
      [`?path=${'x'.repeat(300)}`, 'path'],
      ['?since=abc', 'since'],
      ['?since=1:2,', 'since'],
      ['?limit=0', 'limit'],
      ['?status=200&status=404', 'status'],
      ['?colour=red', 'colour'],
      ['?constructor=1', 'constructor'],
      ['?__proto__=1', '__proto__'],
    ] as const) {
      const answer = await get(mock.url, `/__admin/journal${query}`, { headers: ADMIN });
      expect(answer.status, query).toBe(400);
      expect(answer.contentType).toContain('application/json');
      expect(answer.json, query).toMatchObject({ type: 'invalid_data', message: expect.stringContaining(`'${name}'`) });
    }
  });
});

/** A request as the overlay or the validating proxy records it, made by hand (no backend needed). */
const recorded = (url: string, more: Partial<RecordedRequest> = {}): RecordedRequest => ({
  arrivedMs: Date.UTC(2026, 0, 2, 3, 4, 5),
  method: 'GET',
  url,
  status: 200,
  durationMs: 14.2,
  requestHeaders: ['Host', 'shop.example'],
  ...more,
});

/** Broken rules as lib/answer-rules.ts reports them: a field that must be absent, one that was, one without a field. */
const VIOLATIONS: RuleViolation[] = [
  { rule: 'clamped-page-numbers', message: 'nextPage as the plugins compute it (lib/paging.ts clampedPageNumbers)', field: 'nextPage', expected: 2, actual: 3, note: 'count 30, skip 0, take 10' },
  { rule: 'envelope-shape', message: "in the wishlist envelope 'prevPage' is absent when there is none, never null", field: 'prevPage', expected: undefined, actual: null },
  { rule: 'envelope-shape', message: "the reviews envelope always has 'nextPage' (null when there is none)", field: 'nextPage', expected: 'an integer or null', actual: undefined },
  { rule: 'record-shape', message: 'the response body must be a JSON object', expected: 'a JSON object', actual: [] },
];

describe('entries answered by the backend, and checked (issue 28)', () => {
  it('show who answered: the mock (no backend, unchecked), or the backend with its time or its error', () => {
    const j = new Journal({ capacity: 5 });
    j.record(recorded('/store/products/reviews?limit=2'));
    j.record(recorded('/store/products', { answeredBy: 'backend', backend: { ms: 12.3 } }));
    j.record(recorded('/store/carts', { answeredBy: 'backend', status: 502, backend: { ms: 3000, error: 'the backend did not answer within 3000 ms' } }));
    const [mock, backend, failed] = j.entries();
    expect(mock).toMatchObject({ answeredBy: 'mock', backend: null, check: null });
    expect(backend).toMatchObject({ answeredBy: 'backend', backend: { ms: 12.3, error: null }, check: null, durationMs: 14.2 });
    expect(failed).toMatchObject({ answeredBy: 'backend', status: 502, backend: { ms: 3000, error: 'the backend did not answer within 3000 ms' }, check: null });
  });

  it("show a checked answer's verdict: checked, and each broken rule with its field, what was expected and what came", () => {
    const j = new Journal({ capacity: 5 });
    j.record(recorded('/store/reviews?limit=10', { answeredBy: 'backend', backend: { ms: 5 }, check: { violations: VIOLATIONS } }));
    j.record(recorded('/store/products/prod_1/reviews', { answeredBy: 'backend', backend: { ms: 4 }, check: { violations: [] } }));
    const [broken, held] = j.entries();
    expect(broken!.check).toStrictEqual({
      checked: true,
      found: 4,
      violations: [
        { rule: 'clamped-page-numbers', message: VIOLATIONS[0]!.message, field: 'nextPage', expected: 2, actual: 3, note: 'count 30, skip 0, take 10' },
        // A value that must be absent, or was, has no key: null stays null.
        { rule: 'envelope-shape', message: VIOLATIONS[1]!.message, field: 'prevPage', actual: null, note: null },
        { rule: 'envelope-shape', message: VIOLATIONS[2]!.message, field: 'nextPage', expected: 'an integer or null', note: null },
        { rule: 'record-shape', message: VIOLATIONS[3]!.message, field: null, expected: 'a JSON object', actual: [], note: null },
      ],
    });
    expect(held!.check).toStrictEqual({ checked: true, found: 0, violations: [] });
  });

  it('keep an expected or actual value whose JSON is long (a whole body) cut, as they keep a long message, and a short one whole', () => {
    const j = new Journal({ capacity: 1 });
    const body = { data: Array.from({ length: 200 }, (_, i) => ({ id: `rev_${i}` })) };
    const message = `record ${JSON.stringify(body)}: Required`;
    j.record(recorded('/store/reviews', { answeredBy: 'backend', backend: { ms: 1 }, check: { violations: [{ rule: 'data-envelope', message, expected: { short: [1, 2] }, actual: body }] } }));
    const [violation] = j.entries()[0]!.check!.violations;
    expect(violation!.expected).toEqual({ short: [1, 2] });
    expect(violation!.actual).toBe(`${JSON.stringify(body).slice(0, MAX_VIOLATION_VALUE)}…`);
    expect(violation!.message).toBe(`${message.slice(0, MAX_VIOLATION_VALUE)}… (${message.length - MAX_VIOLATION_VALUE} more characters)`);
    // A recorder's violation without a message (its types say it has one) is kept, not a failure.
    j.record(recorded('/store/reviews', { answeredBy: 'backend', backend: { ms: 1 }, check: { violations: [{ rule: 'data-envelope', expected: 1, actual: 2 } as unknown as RuleViolation] } }));
    expect(j.entries()[0]!.check!.violations).toEqual([{ rule: 'data-envelope', message: '', field: null, expected: 1, actual: 2, note: null }]);
  });

  it("keep the first violations of a very broken answer within the request body's share of the cap, and count them all", () => {
    // A page of 1,000 broken records breaks record-shape 1,000 times; each kept violation costs about 300 bytes here.
    const violations: RuleViolation[] = Array.from({ length: 1000 }, (_, i) => ({ rule: 'record-shape', message: `record rev_${i}: Required`, field: `data[${i}].rating`, expected: 'Required', actual: 'x'.repeat(100) }));
    const check = { violations };
    const kept = (bodyBytes: number) => {
      const j = new Journal({ capacity: 1, bodyBytes });
      j.record(recorded('/store/reviews?limit=1000', { answeredBy: 'backend', backend: { ms: 1 }, check }));
      return j.entries()[0]!.check!;
    };
    const some = kept(4096);
    expect(some.found).toBe(1000);
    expect(some.violations.length).toBeGreaterThan(5);
    expect(some.violations.length).toBeLessThan(20);
    expect(some.violations.map((v) => v.field)).toEqual(violations.slice(0, some.violations.length).map((v) => v.field));
    expect(kept(1024 * 1024).violations).toHaveLength(1000);
    expect(kept(0)).toStrictEqual({ checked: true, found: 1000, violations: [] });
    // What was recorded is not changed: the proxy's own report keeps them all.
    expect(check.violations).toHaveLength(1000);
    // With no violation kept (no body bytes), the entry is still one whose check found some.
    const j = new Journal({ capacity: 2, bodyBytes: 0 });
    j.record(recorded('/store/reviews?limit=1000', { answeredBy: 'backend', backend: { ms: 1 }, check }));
    j.record(recorded('/store/reviews?limit=1', { answeredBy: 'backend', backend: { ms: 1 }, check: { violations: [] } }));
    expect(j.snapshot({ limit: 2, violations: true }).entries.map((e) => e.entry.url)).toEqual(['/store/reviews?limit=1000']);
  });

  it('are the same after JSON, as a worker sends its journal to the primary (node:cluster IPC) and the admin API answers it', () => {
    const j = new Journal({ capacity: 4, stamped: true });
    j.record(recorded('/store/reviews?limit=10', { answeredBy: 'backend', backend: { ms: 5.5, error: 'socket hang up' }, check: { violations: VIOLATIONS } }), 1);
    j.record(recorded('/store/wishlists'), 2);
    const snapshot = j.snapshot({ limit: 4 });
    const wire = JSON.parse(JSON.stringify(snapshot)) as typeof snapshot;
    for (const [i, { entry }] of snapshot.entries.entries()) {
      const sent = wire.entries[i]!.entry;
      expect(sent.answeredBy).toBe(entry.answeredBy);
      expect(sent.backend).toStrictEqual(entry.backend);
      expect(sent.check).toStrictEqual(entry.check);
    }
    expect(wire.entries.map(({ entry }) => entry.answeredBy)).toEqual(['backend', 'mock']);
  });

  describe('filters by=mock|backend and violations=1', () => {
    let mock: MockServer;
    beforeAll(async () => {
      mock = await startMockServer({ seed: 1, reviews: 10, wishlists: 2, adminToken: TOKEN });
    });
    afterAll(() => mock.close());

    it('pick the entries the mock answered, those the backend did, and those whose check found a rule broken, with the other filters', async () => {
      await clear(mock);
      expect((await exactRequest(mock.url, '/store/products/reviews?limit=1')).status).toBe(200);
      mock.ops.journal.record(recorded('/store/products?limit=2', { answeredBy: 'backend', backend: { ms: 8 } }));
      mock.ops.journal.record(recorded('/store/reviews?limit=10', { answeredBy: 'backend', backend: { ms: 9 }, check: { violations: VIOLATIONS.slice(0, 1) } }));
      mock.ops.journal.record(recorded('/store/reviews?limit=20', { answeredBy: 'backend', backend: { ms: 7 }, check: { violations: [] } }));
      mock.ops.journal.record(recorded('/store/carts', { answeredBy: 'backend', status: 502, backend: { ms: 0.4, error: 'connect ECONNREFUSED 127.0.0.1:1' } }));
      const urls = async (query: string) => (await journal(mock, query)).entries.map((e: { url: string }) => e.url);
      expect(await urls('?by=mock')).toEqual(['/store/products/reviews?limit=1']);
      expect(await urls('?by=backend')).toEqual(['/store/products?limit=2', '/store/reviews?limit=10', '/store/reviews?limit=20', '/store/carts']);
      expect(await urls('?violations=1')).toEqual(['/store/reviews?limit=10']);
      expect(await urls('?by=mock&violations=1')).toEqual([]);
      expect(await urls('?by=backend&status=5xx')).toEqual(['/store/carts']);
      expect(await urls('?by=backend&path=/store/reviews&limit=1')).toEqual(['/store/reviews?limit=20']);

      const { entries } = await journal(mock);
      expect(entries.map((e: { answeredBy: string }) => e.answeredBy)).toEqual(['mock', 'backend', 'backend', 'backend', 'backend']);
      expect(entries[0]).toMatchObject({ backend: null, check: null });
      expect(entries[2].check).toEqual({ checked: true, found: 1, violations: [{ rule: 'clamped-page-numbers', message: VIOLATIONS[0]!.message, field: 'nextPage', expected: 2, actual: 3, note: 'count 30, skip 0, take 10' }] });
      expect(entries[4].backend).toEqual({ ms: 0.4, error: 'connect ECONNREFUSED 127.0.0.1:1' });
    });

    it('refuse a bad value with the documented JSON 400 that names the filter', async () => {
      for (const [query, name] of [
        ['?by=proxy', 'by'],
        ['?by=Backend', 'by'],
        ['?by=', 'by'],
        ['?by=mock&by=backend', 'by'],
        ['?violations=0', 'violations'],
        ['?violations=true', 'violations'],
        ['?violations=', 'violations'],
        ['?violations=1&violations=1', 'violations'],
      ] as const) {
        const answer = await get(mock.url, `/__admin/journal${query}`, { headers: ADMIN });
        expect(answer.status, query).toBe(400);
        expect(answer.contentType).toContain('application/json');
        expect(answer.json, query).toMatchObject({ type: 'invalid_data', message: expect.stringContaining(`'${name}'`) });
      }
    });
  });
});

describe('entries of serve --backend, as the overlay records them', () => {
  let backend: FakeBackend;
  let mock: MockServer;
  beforeAll(async () => {
    backend = await startFakeBackend();
    // A dataset given: in the alphabite dialect a backend's catalogue is read otherwise, and this backend has none.
    mock = await startMockServer({ dataset: generateDataset({ seed: 1, reviews: 10, wishlists: 2 }), dialect: 'alphabite', backend: backend.url });
  });
  afterAll(async () => {
    await mock.close();
    await backend.close();
  });

  it("say which the mock answered and which the backend did, with the backend's time, and filter by them", async () => {
    await clear(mock);
    expect((await exactRequest(mock.url, '/store/products?limit=2', { 'x-publishable-api-key': 'pk_test' })).status).toBe(200);
    expect((await exactRequest(mock.url, '/store/products/reviews?limit=2', { 'x-publishable-api-key': 'pk_test' })).status).toBe(200);
    expect((await exactRequest(mock.url, '/status/204')).status).toBe(204);
    const { entries } = await journal(mock);
    expect(entries.map((e: { url: string; answeredBy: string }) => `${e.answeredBy} ${e.url}`)).toEqual(['backend /store/products?limit=2', 'mock /store/products/reviews?limit=2', 'backend /status/204']);
    for (const entry of [entries[0], entries[2]]) {
      expect(entry.backend).toEqual({ ms: expect.any(Number), error: null });
      expect(entry.backend.ms).toBeGreaterThanOrEqual(0);
      expect(entry.backend.ms).toBeLessThanOrEqual(entry.durationMs);
      expect(entry.check).toBeNull();
    }
    expect(entries[1]).toMatchObject({ backend: null, check: null });
    expect(entries[1].page).not.toBeNull();
    const urls = async (query: string) => (await journal(mock, query)).entries.map((e: { url: string }) => e.url);
    expect(await urls('?by=backend')).toEqual(['/store/products?limit=2', '/status/204']);
    expect(await urls('?by=mock')).toEqual(['/store/products/reviews?limit=2']);
    expect(await urls('?by=backend&status=2xx&path=/status')).toEqual(['/status/204']);
  });
});

describe("entries of the validating proxy's mode: the verdict of the onBackendAnswer hook on the entry", () => {
  it('shows the check the sink gave at the end of the answer, and filters by it', async () => {
    const backend = await startFakeBackend();
    const bodies = new Map<string, number>();
    // A checker made for the test: every answer under /store/wishlists breaks one rule; the others hold.
    const onBackendAnswer: BackendAnswerHook = (exchange) => {
      let bytes = 0;
      return {
        write: (chunk) => void (bytes += chunk.length),
        end: async () => {
          bodies.set(exchange.url, bytes);
          return { violations: exchange.url.startsWith('/store/wishlists') ? [{ rule: 'data-envelope', message: "the plugins' envelope always has 'count', a number", field: 'count', expected: 'a number', actual: undefined }] : [] };
        },
        abort: () => undefined,
      };
    };
    const proxy = await startMockServer({ mode: 'proxy', backend: backend.url, onBackendAnswer });
    try {
      for (const path of ['/store/wishlists?limit=2', '/store/products/reviews?limit=2', '/status/204']) await exactRequest(proxy.url, path);
      const { entries } = (await get(proxy.url, '/__admin/journal')).json as { entries: Array<Record<string, any>> };
      expect(entries.map((e) => `${e.answeredBy} ${e.url}`)).toEqual(['backend /store/wishlists?limit=2', 'backend /store/products/reviews?limit=2', 'backend /status/204']);
      expect(entries[0]!.check).toEqual({ checked: true, found: 1, violations: [{ rule: 'data-envelope', message: "the plugins' envelope always has 'count', a number", field: 'count', expected: 'a number', note: null }] });
      expect(entries[1]!.check).toEqual({ checked: true, found: 0, violations: [] });
      expect(entries[0]!.response.body.bytes).toBe(bodies.get('/store/wishlists?limit=2'));
      const urls = async (query: string) => ((await get(proxy.url, `/__admin/journal${query}`)).json as { entries: Array<{ url: string }> }).entries.map((e) => e.url);
      expect(await urls('?violations=1')).toEqual(['/store/wishlists?limit=2']);
      expect(await urls('?by=mock')).toEqual([]);
    } finally {
      await proxy.close();
      await backend.close();
    }
  });
});

describe('journal memory', () => {
  it('keeps no body with --journal-body-bytes 0, only its length', async () => {
    const mock = await startMockServer({ seed: 1, reviews: 10, wishlists: 1, journalBodyBytes: 0 });
    try {
      const page = await exactRequest(mock.url, '/store/products/reviews?limit=3');
      await exactRequest(mock.url, '/store/products/reviews?limit=3');
      const answer = (await get(mock.url, '/__admin/journal')).json;
      expect(answer.bodyBytes).toBe(0);
      for (const entry of answer.entries) expect(entry.response.body).toEqual({ text: '', bytes: Buffer.byteLength(page.text), truncated: true });
    } finally {
      await mock.close();
    }
  });

  it('is bounded: a size and body cap past the budget are refused up front, and the default cap shrinks for a large journal', async () => {
    expect(defaultJournalBodyBytes(200)).toBe(DEFAULT_JOURNAL_BODY_BYTES);
    expect(journalMemoryBound(200, DEFAULT_JOURNAL_BODY_BYTES)).toBeLessThan(32 * 2 ** 20);
    const large = defaultJournalBodyBytes(MAX_JOURNAL_SIZE);
    expect(large).toBeGreaterThan(0);
    expect(large).toBeLessThan(DEFAULT_JOURNAL_BODY_BYTES);
    expect(journalMemoryBound(MAX_JOURNAL_SIZE, large)).toBeLessThanOrEqual(JOURNAL_MEMORY_BUDGET);
    expect(journalProblem(MAX_JOURNAL_SIZE, large)).toBeUndefined();
    expect(journalProblem(MAX_JOURNAL_SIZE, large + 1)).toMatch(/--journal-body-bytes/);
    await expect(startMockServer({ journalSize: MAX_JOURNAL_SIZE, journalBodyBytes: 65536 })).rejects.toThrow(/journal/);
    await expect(startMockServer({ journalBodyBytes: 2 * 1024 * 1024 })).rejects.toThrow(/body cap/);
    await expect(startMockServer({ journalBodyBytes: -1 })).rejects.toThrow(/body cap/);
  });

  it('copies an answer larger than the cap once, and keeps a smaller one by reference', () => {
    const j = new Journal({ capacity: 4, bodyBytes: 8 });
    const big = Buffer.from('0123456789abcdef');
    const small = Buffer.from('tiny');
    const a = j.keptAnswer(big);
    expect(a).toEqual({ bytes: Buffer.from('01234567'), length: 16 });
    big.write('XXXXXXXX');
    expect(a.bytes.toString()).toBe('01234567');
    expect(j.keptAnswer(big).bytes).toBe(a.bytes);
    expect(j.keptAnswer(small).bytes).toBe(small);
  });
});

describe('the dashboard page', () => {
  it('is served under the admin rules, with a strict Content-Security-Policy; with a token, the page alone needs none', async () => {
    const open = await startMockServer({ seed: 1, reviews: 5, wishlists: 1 });
    const locked = await startMockServer({ seed: 1, reviews: 5, wishlists: 1, adminToken: TOKEN });
    try {
      const page = await get(open.url, '/__admin/');
      expect(page.status).toBe(200);
      expect(page.contentType).toBe('text/html; charset=utf-8');
      const csp = page.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'none'");
      expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'(;|$)/);
      expect(csp).not.toContain('unsafe-inline');
      expect(page.headers.get('access-control-allow-origin')).toBeNull();
      expect(page.text).not.toMatch(/<script[^>]+src=|<link[^>]+href="(?!data:)|https?:\/\//);
      expect((await get(open.url, '/__admin')).status).toBe(200);
      expect((await exactRequest(open.url, '/__admin/', { host: 'evil.example' })).status).toBe(403);
      expect((await get(open.url, '/__admin/?x=1')).status).toBe(400);

      expect((await get(locked.url, '/__admin/')).status).toBe(200);
      expect((await get(locked.url, '/__admin/journal')).status).toBe(401);
      expect((await get(locked.url, '/__admin/config')).status).toBe(401);
      expect((await exactRequest(locked.url, '/__admin/', {}, 'POST')).status).toBe(401);
    } finally {
      await Promise.all([open.close(), locked.close()]);
    }
  });
});

describe('journal entries of writes (alphabite dialect)', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ seed: 2, reviews: 10, products: 3, wishlists: 2, maxItems: 3, dialect: 'alphabite', allowMultipleWishlists: true });
  });
  afterAll(() => mock.close());

  it("keep the write's body and its customer, and the page arithmetic of that customer's own listing", async () => {
    const headers = { 'content-type': 'application/json', 'x-publishable-api-key': 'pk_test', authorization: 'Bearer journal-writer' };
    const created = await exactRequest(mock.url, '/store/wishlists', headers, 'POST', JSON.stringify({ name: 'Journaled', sales_channel_id: 'sc_1' }));
    expect(created.status, created.text).toBe(201);
    // Their own listing: the seeded wishlist a customer the dataset does not name starts with, then the new one.
    const theirs = SEEDED_WISHLISTS_PER_CUSTOMER + 1;
    expect((await exactRequest(mock.url, `/store/wishlists?limit=1&offset=${theirs - 1}`, headers)).status).toBe(200);
    const customer = customerOf({ authorization: 'Bearer journal-writer' })!.id;
    const { entries } = await get(mock.url, `/__admin/journal?customer=${customer}`).then((a) => a.json as { entries: Array<Record<string, any>> });
    expect(entries.map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual(['POST /store/wishlists 201', 'GET /store/wishlists 200']);
    expect(JSON.parse(entries[0]!.request.body.text)).toEqual({ name: 'Journaled', sales_channel_id: 'sc_1' });
    expect(JSON.parse(entries[0]!.response.body.text)).toMatchObject({ name: 'Journaled', customer_id: customer });
    expect(entries[0]!.request.headers.authorization).toBe(REDACTED);
    expect(entries[1]!.page).toMatchObject({ matching: theirs, size: 1, start: theirs - 1, count: theirs });
  });

  it("keep the writes of a customer whose id is JavaScript's own (a JWT whose actor_id is 'constructor')", async () => {
    const headers = { 'content-type': 'application/json', 'x-publishable-api-key': 'pk_test', authorization: `Bearer ${customerToken('constructor')}` };
    const created = await exactRequest(mock.url, '/store/wishlists', headers, 'POST', JSON.stringify({ name: 'Mine', sales_channel_id: 'sc_1' }));
    expect(created.status, created.text).toBe(201);
    expect(JSON.parse(created.text)).toMatchObject({ customer_id: 'constructor' });
    const { entries } = (await get(mock.url, '/__admin/journal?customer=constructor')).json as { entries: Array<Record<string, any>> };
    expect(entries.map((e) => `${e.method} ${e.path} ${e.status} ${e.customer}`)).toEqual(['POST /store/wishlists 201 constructor']);
  });
});
