/**
 * mock-server/backend/check.ts and verdicts.ts: the validating proxy's checker, fed as the overlay
 * feeds it (an exchange at the answer's head, the body in chunks, then end). Which answers it
 * checks (GET 200 on the four listing paths, as Express matches them; not HEAD, not another status),
 * the cap on what it holds (as received and decompressed), the encodings it reads, what a body
 * that is no JSON breaks, and what the store keeps and counts.
 */
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectRules, rulesApplied, type AnswerCheck, type ListingAnswer } from '../lib/answer-rules.ts';
import { queryPairs } from '../lib/query.ts';
import { answerChecker, listingOfPath, MAX_CHECKED_BODY_BYTES } from '../mock-server/backend/check.ts';
import type { BackendExchange } from '../mock-server/backend/hooks.ts';
import { Verdicts, violationLine, type FoundViolation } from '../mock-server/backend/verdicts.ts';
import { startMockServer, type MockServer } from '../mock-server/server.ts';

const HEADERS = { 'x-publishable-api-key': 'pk_check', authorization: 'Bearer customer-token' };

function exchange(url: string, overrides: Partial<BackendExchange> = {}): BackendExchange {
  return { method: 'GET', url, requestHeaders: {}, status: 200, responseHeaders: { 'content-type': 'application/json; charset=utf-8' }, backendMs: 1, ...overrides };
}

/** The body fed in chunks of `size` bytes, then the verdict (undefined when the hook took no sink). */
async function feed(hook: ReturnType<typeof answerChecker>, ex: BackendExchange, body: Buffer, size = 1000): Promise<AnswerCheck | undefined | 'not watched'> {
  const sink = hook(ex);
  if (!sink) return 'not watched';
  for (let at = 0; at < body.length; at += size) sink.write(body.subarray(at, at + size));
  return sink.end();
}

const rules = (check: AnswerCheck | undefined | 'not watched') => (check === undefined || check === 'not watched' ? check : [...new Set(check.violations.map((v) => v.rule))].sort());

describe('listingOfPath: the four listing paths as the plugins\' Express routes match them', () => {
  it('matches each listing, its id decoded; any case, one trailing slash', () => {
    expect(listingOfPath('/store/products/reviews')).toEqual({ endpoint: 'reviews' });
    expect(listingOfPath('/Store/Products/Reviews/')).toEqual({ endpoint: 'reviews' });
    expect(listingOfPath('/store/reviews/product/prod_01%20X')).toEqual({ endpoint: 'productReviews', id: 'prod_01 X' });
    expect(listingOfPath('/store/wishlists')).toEqual({ endpoint: 'wishlists' });
    expect(listingOfPath('/store/%77ishlists')).toEqual({ endpoint: 'wishlists' });
    expect(listingOfPath('/store/wishlists/wl_Ab/ITEMS')).toEqual({ endpoint: 'wishlistItems', id: 'wl_Ab' });
  });

  it('matches nothing else', () => {
    for (const path of ['/store/products', '/store/products/reviews/x', '//store/wishlists', '/store/wishlists/wl_1', '/store/wishlists/wl_1/items/x', '/store/reviews/product/', '/store/products%2Freviews', '/store/reviews/product/%zz', '/admin/wishlists', '/']) {
      expect(listingOfPath(path), path).toBeUndefined();
    }
  });
});

describe('answerChecker', () => {
  let mock: MockServer;
  let product: string;
  /** A correct alphabite page (4.2) and the 4.1 emulation (docs/dialects.md rows 7 and 8), as the mock answers them. */
  let correct: { url: string; body: Buffer };
  let row78: { url: string; body: Buffer };
  const get = async (url: string) => Buffer.from(await (await fetch(`${mock.url}${url}`, { headers: HEADERS })).arrayBuffer());

  beforeAll(async () => {
    mock = await startMockServer({ seed: 3, dialect: 'alphabite' });
    product = ((JSON.parse((await get('/store/products/reviews')).toString()) as { data: Array<{ product_id: string }> }).data[0]!).product_id;
    const url = `/store/reviews/product/${product}?limit=3&offset=1`;
    correct = { url, body: await get(url) };
    row78 = { url: '/store/products/reviews?limit=5&offset=0', body: await get('/store/products/reviews?limit=5&offset=0') };
  });
  afterAll(async () => {
    await mock?.close();
  });

  it('a correct answer holds every rule applied; 4.1 as the plugin answers it breaks records-within-count; both are counted', async () => {
    const verdicts = new Verdicts();
    const hook = answerChecker({ dialect: 'alphabite', verdicts });
    expect(await feed(hook, exchange(correct.url), correct.body)).toEqual({ violations: [] });
    expect(rules(await feed(hook, exchange(row78.url), row78.body))).toEqual(['records-within-count']);
    expect(rules(await feed(hook, exchange('/store/products/reviews'), await get('/store/products/reviews')))).toEqual(['echo-size-and-start', 'records-within-count']);
    expect(verdicts.checked).toBe(3);
    const byRule = new Map(verdicts.tallies().map((t) => [`${t.endpoint} ${t.rule}`, t]));
    expect(byRule.get('productReviews data-envelope')).toMatchObject({ held: 1, broken: 0 });
    expect(byRule.get('productReviews record-shape')).toMatchObject({ held: 1, broken: 0 });
    expect(byRule.get('reviews records-within-count')).toMatchObject({ held: 0, broken: 2 });
    expect(byRule.get('reviews echo-size-and-start')).toMatchObject({ held: 1 });
    expect(byRule.get('reviews echo-size-and-start')!.broken).toBeGreaterThan(0);
    expect(verdicts.violationCount).toBe(verdicts.violations.length);
  });

  it('HEAD, another status, another path or method: not watched', async () => {
    const verdicts = new Verdicts();
    const hook = answerChecker({ dialect: 'alphabite', verdicts });
    expect(await feed(hook, exchange(row78.url, { method: 'HEAD' }), Buffer.alloc(0))).toBe('not watched');
    expect(await feed(hook, exchange(row78.url, { status: 400 }), Buffer.from('{"type":"invalid_data"}'))).toBe('not watched');
    expect(await feed(hook, exchange(row78.url, { status: 304 }), Buffer.alloc(0))).toBe('not watched');
    expect(await feed(hook, exchange(row78.url, { method: 'POST' }), row78.body)).toBe('not watched');
    expect(await feed(hook, exchange('/store/products?limit=5'), Buffer.from('{}'))).toBe('not watched');
    expect(verdicts.checked).toBe(0);
  });

  it('reads gzip, x-gzip, deflate, br and a chain of them: the same verdict as the plain body', async () => {
    const verdicts = new Verdicts();
    const hook = answerChecker({ dialect: 'alphabite', verdicts });
    const plain = await feed(hook, exchange(row78.url), row78.body);
    const encoded: Array<[string, Buffer]> = [
      ['gzip', gzipSync(row78.body)],
      ['x-gzip', gzipSync(row78.body)],
      ['deflate', deflateSync(row78.body)],
      ['br', brotliCompressSync(row78.body)],
      ['gzip, br', brotliCompressSync(gzipSync(row78.body))],
    ];
    for (const [coding, body] of encoded) {
      expect(await feed(hook, exchange(row78.url, { responseHeaders: { 'content-encoding': coding } }), body, 100), coding).toEqual(plain);
    }
    expect(verdicts.checked).toBe(6);
  });

  it('past the cap, as received or decompressed: answer-too-large-to-check, counted; under it, checked', async () => {
    const verdicts = new Verdicts();
    const max = correct.body.length;
    const hook = answerChecker({ dialect: 'alphabite', verdicts, maxBodyBytes: max });
    expect(await feed(hook, exchange(correct.url), correct.body)).toEqual({ violations: [] });
    const big = Buffer.concat([correct.body, Buffer.from(' ')]);
    const check = (await feed(hook, exchange(correct.url), big)) as AnswerCheck;
    expect(check.violations).toEqual([expect.objectContaining({ rule: 'answer-too-large-to-check', expected: `at most ${max} bytes` })]);
    const bomb = (await feed(hook, exchange(correct.url, { responseHeaders: { 'content-encoding': 'gzip' } }), gzipSync(big))) as AnswerCheck;
    expect(bomb.violations).toEqual([expect.objectContaining({ rule: 'answer-too-large-to-check', actual: expect.stringMatching(/decompressed \(gzip\)/) })]);
    expect(verdicts.checked).toBe(3);
    expect(verdicts.violationCount).toBe(2);
    expect(MAX_CHECKED_BODY_BYTES).toBe(64 * 1024 * 1024);
  });

  it('a body that is no JSON, or cannot be decoded, breaks the dialect\'s envelope rule and says why', async () => {
    const verdicts = new Verdicts();
    const alphabite = answerChecker({ dialect: 'alphabite', verdicts });
    const html = (await feed(alphabite, exchange(row78.url, { responseHeaders: { 'content-type': 'text/html' } }), Buffer.from('<html>Bad gateway</html>'))) as AnswerCheck;
    expect(html.violations).toEqual([expect.objectContaining({ rule: 'data-envelope', field: 'body', expected: 'a JSON object', actual: '<html>Bad gateway</html>', note: 'Content-Type text/html' })]);
    expect(html.violations[0]!.message).toMatch(/^the answer must be a JSON envelope, and its body is not JSON \(/);
    const spec = answerChecker({ dialect: 'spec', verdicts });
    expect(rules(await feed(spec, exchange('/store/wishlists'), Buffer.from('not json')))).toEqual(['envelope-shape']);
    const corrupt = (await feed(alphabite, exchange(row78.url, { responseHeaders: { 'content-encoding': 'gzip' } }), Buffer.from('not gzip at all'))) as AnswerCheck;
    expect(corrupt.violations[0]).toMatchObject({ rule: 'data-envelope', message: expect.stringMatching(/could not be decompressed as its Content-Encoding 'gzip' says/) });
    const zstd = (await feed(alphabite, exchange(row78.url, { responseHeaders: { 'content-encoding': 'zstd' } }), Buffer.from('x'))) as AnswerCheck;
    expect(zstd.violations[0]!.message).toMatch(/Content-Encoding "zstd" is not one the checker reads/);
    // The backend's header is quoted bounded: a coding of 8 kB is cut, saying how much more there was.
    const long = (await feed(alphabite, exchange(row78.url, { responseHeaders: { 'content-encoding': `x${'y'.repeat(8000)}` } }), Buffer.from('x'))) as AnswerCheck;
    expect(long.violations[0]!.message).toMatch(/Content-Encoding "xy{59}"… \(7941 more characters\) is not one the checker reads/);
    expect(long.violations[0]!.message.length).toBeLessThan(400);
    const tallies = verdicts.tallies();
    // An unreadable body: only the envelope rule was applied (the others were not exercised).
    expect(tallies.map((t) => t.rule).sort()).toEqual(['data-envelope', 'envelope-shape']);
  });

  it('an answer that did not complete is not counted', async () => {
    const verdicts = new Verdicts();
    const sink = answerChecker({ dialect: 'alphabite', verdicts })(exchange(row78.url))!;
    sink.write(row78.body.subarray(0, 10));
    sink.abort();
    expect(await sink.end()).toBeUndefined();
    expect(verdicts.checked).toBe(0);
  });
});

describe('Verdicts', () => {
  const violation = { rule: 'echo-size-and-start' as const, message: "'take' echoes the limit in force", field: 'take', expected: 20, actual: 5, note: 'asked for the default limit 20, the default offset 0' };

  it('keeps the first violations whole, counts all, tells each as found', () => {
    const verdicts = new Verdicts(3);
    const told: FoundViolation[] = [];
    verdicts.onViolation((v) => told.push(v));
    for (let i = 0; i < 5; i++) verdicts.record({ method: 'GET', path: `/store/products/reviews?i=${i}`, endpoint: 'reviews', applied: ['echo-size-and-start'], violations: [violation] });
    expect(verdicts.checked).toBe(5);
    expect(verdicts.violationCount).toBe(5);
    expect(verdicts.violations.map((v) => v.path)).toEqual(['/store/products/reviews?i=0', '/store/products/reviews?i=1', '/store/products/reviews?i=2']);
    expect(told).toHaveLength(5);
    expect(verdicts.tallies()).toEqual([expect.objectContaining({ endpoint: 'reviews', rule: 'echo-size-and-start', held: 0, broken: 5 })]);
  });

  it('one line per violation; values from the answer are cut, absent keys said', () => {
    const verdicts = new Verdicts();
    verdicts.record({ method: 'GET', path: '/store/products/reviews', endpoint: 'reviews', applied: [], violations: [violation] });
    expect(violationLine(verdicts.violations[0]!)).toBe(
      'violation: GET /store/products/reviews (4.1) echo-size-and-start: take expected 20, got 5 (asked for the default limit 20, the default offset 0)',
    );
    verdicts.record({
      method: 'GET',
      path: '/store/wishlists',
      endpoint: 'wishlists',
      applied: [],
      violations: [
        { rule: 'data-envelope', message: 'm', field: 'nextPage', expected: 'a number', actual: undefined },
        { rule: 'data-envelope', message: 'm', field: 'body', expected: 'a JSON object', actual: 'x'.repeat(1000) },
      ],
    });
    const [, absent, long] = verdicts.violations;
    expect(violationLine(absent!)).toBe('violation: GET /store/wishlists (4.3) data-envelope: nextPage expected a number, got (absent)');
    expect(long!.actual).toMatch(/^x{200}… \(800 more characters\)$/);
  });
});

describe('rulesApplied: the rules checkListingAnswer applies to an answer (what a report counts as held)', () => {
  const spec = (target: string, body: unknown = { reviews: [], count: 0, limit: 20, offset: 0, totalPages: 0, currentPage: 1, nextPage: null, prevPage: null }): ListingAnswer => ({
    endpoint: 'reviews',
    query: queryPairs(target),
    status: 200,
    contentType: 'application/json',
    body,
  });

  it('spec: a default left to the server and the records\' shape ([kit] rules the pacts pin) are judged with or without strict', () => {
    const all = ['envelope-shape', 'page-length', 'total-pages', 'current-page', 'next-and-prev-page', 'echo-size-and-start', 'records-within-count', 'record-shape'];
    for (const target of ['/store/products/reviews', '/store/products/reviews?limit=5', '/store/products/reviews?limit=5&offset=0']) {
      expect(rulesApplied('spec', spec(target))).toEqual(all);
      expect(rulesApplied('spec', spec(target), { strict: true })).toEqual(all);
    }
    expect(new Set(rulesApplied('spec', spec('/store/products/reviews')))).toEqual(new Set(dialectRules('spec')));
  });

  it('a body that is no envelope: only the envelope rule; a refused window: no echo, no records-within-count; not a 200: none', () => {
    expect(rulesApplied('spec', spec('/store/products/reviews', [1, 2]))).toEqual(['envelope-shape']);
    expect(rulesApplied('alphabite', { ...spec('/store/products/reviews'), body: { items: [] } })).toEqual(['data-envelope']);
    expect(rulesApplied('alphabite', { ...spec('/store/products/reviews?limit=abc'), body: { data: [] } })).toEqual(['data-envelope', 'clamped-page-numbers', 'record-shape']);
    expect(rulesApplied('alphabite', { ...spec('/store/products/reviews'), body: { data: [] } })).toEqual(dialectRules('alphabite'));
    expect(rulesApplied('alphabite', { ...spec('/store/products/reviews'), status: 400 })).toEqual([]);
  });
});
