/**
 * lib/answer-rules.ts: the rules that judge one listing answer from its own body and its request.
 * Each rule holds on correct answers (the bug-free reference servers, the mock in both dialects)
 * and is broken by the answers of a deliberately broken reference server (test/support/); every
 * rule is collected at once; and the published plugins' answers, as the alphabite dialect emulates
 * them and @alphabite/medusa-sdk asks for them, break exactly the rules of docs/dialects.md rows 7
 * and 8 on 4.1 and none on 4.2 to 4.4.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANSWER_RULES, checkListingAnswer, type AnswerRule, type ListingAnswer, type RuleViolation } from '../lib/answer-rules.ts';
import type { EndpointName } from '../lib/dialects/index.ts';
import { queryPairs } from '../lib/query.ts';
import { EXAMPLE_RECORDS } from '../lib/records.ts';
import { startMockServer, type MockServer } from '../mock-server/server.ts';
import { startAlphabiteReferenceServer, type AlphabiteBugName } from './support/alphabite-reference-server.ts';
import { ALPHABITE_ANSWER_RULE_ROWS } from './support/alphabite-verdicts.ts';
import { sdkFor } from './support/real-client-flows.ts';
import { startRecordingProxy } from './support/recording-proxy.ts';
import { startReferenceServer, type BugName } from './support/reference-server.ts';

const KEY = 'pk_test_rules';
const TOKEN = 'Bearer customer-token';
const ALPHABITE_HEADERS = { 'x-publishable-api-key': KEY, authorization: TOKEN };

/** Which listing a request target is (the four paths of lib/api-rules.ts), and its path id. */
function listingOf(target: string): { endpoint: EndpointName; id?: string } {
  const path = target.split('?')[0]!;
  if (path === '/store/products/reviews') return { endpoint: 'reviews' };
  if (path === '/store/wishlists') return { endpoint: 'wishlists' };
  let m = /^\/store\/reviews\/product\/([^/]+)$/.exec(path);
  if (m) return { endpoint: 'productReviews', id: decodeURIComponent(m[1]!) };
  m = /^\/store\/wishlists\/([^/]+)\/items$/.exec(path);
  if (m) return { endpoint: 'wishlistItems', id: decodeURIComponent(m[1]!) };
  throw new Error(`not a listing: ${target}`);
}

/** A request's answer as checkListingAnswer takes it. */
async function answerOf(baseUrl: string, target: string, headers: Record<string, string> = {}): Promise<ListingAnswer> {
  const res = await fetch(`${baseUrl}${target}`, { headers });
  return { ...listingOf(target), query: queryPairs(target), status: res.status, contentType: res.headers.get('content-type'), body: await res.json() };
}

const rulesOf = (violations: RuleViolation[]) => [...new Set(violations.map((v) => v.rule))].sort();
/** The rules a broken answer breaks beyond those the bug-free answer to the same request breaks. */
const added = (broken: RuleViolation[], correct: RuleViolation[]) => rulesOf(broken).filter((r) => !rulesOf(correct).includes(r));

interface BrokenCase<Bug> {
  rule: AnswerRule;
  bug: Bug;
  target: string;
  /** Every rule the broken answer breaks (the rule of the case among them). */
  breaks: AnswerRule[];
  strict?: boolean;
}

// The reference dataset: 23 reviews over prod_1, prod_2, prod_10, prod_11, prod_3; wishlists wl_000 … wl_006 with 3, 0, 10, 1, 12, 5, 2 items.
const SPEC_CASES: BrokenCase<BugName>[] = [
  { rule: 'envelope-shape', bug: 'null-instead-of-absent', target: '/store/wishlists?take=3', breaks: ['envelope-shape', 'next-and-prev-page'] },
  { rule: 'echo-size-and-start', bug: 'limit-echoes-returned', target: '/store/products/reviews?limit=5&offset=21', breaks: ['echo-size-and-start', 'total-pages'] },
  { rule: 'page-length', bug: 'offset-off-by-one', target: '/store/products/reviews?limit=5&offset=20', breaks: ['page-length'] },
  { rule: 'total-pages', bug: 'floored-total-pages', target: '/store/products/reviews?limit=5', breaks: ['total-pages'] },
  { rule: 'current-page', bug: 'zero-based-pages', target: '/store/wishlists/wl_004/items?take=5&skip=5', breaks: ['current-page', 'envelope-shape', 'next-and-prev-page'] },
  { rule: 'next-and-prev-page', bug: 'next-page-on-last-page', target: '/store/products/reviews?limit=5&offset=20', breaks: ['next-and-prev-page'] },
  { rule: 'record-shape', bug: 'rating-as-string', target: '/store/reviews/product/prod_1?limit=3', breaks: ['record-shape'] },
  { rule: 'records-within-count', bug: 'count-of-page', target: '/store/products/reviews?limit=5&offset=5', breaks: ['page-length', 'total-pages', 'next-and-prev-page', 'records-within-count'] },
];

const ALPHABITE_CASES: BrokenCase<AlphabiteBugName>[] = [
  { rule: 'data-envelope', bug: 'spec-nulls', target: '/store/products/reviews?limit=5&offset=20', breaks: ['data-envelope', 'clamped-page-numbers'] },
  { rule: 'clamped-page-numbers', bug: 'floored-current-page', target: '/store/reviews/product/prod_1?limit=2&offset=1', breaks: ['clamped-page-numbers'] },
  { rule: 'echo-size-and-start', bug: 'reviews-ignore-paging', target: '/store/products/reviews?limit=10', breaks: ['echo-size-and-start', 'records-within-count'] },
  { rule: 'records-within-count', bug: 'reviews-count-zero', target: '/store/products/reviews?limit=5', breaks: ['records-within-count'] },
  // A count of the page's records is seen in one answer once the offset is past 0: 5 records from offset 5 for a count of 5.
  { rule: 'records-within-count', bug: 'items-count-of-page', target: '/store/wishlists/wl_004/items?limit=5&offset=5', breaks: ['records-within-count'] },
];

describe('each rule holds on correct answers and is broken by a broken implementation', () => {
  it('every rule has a broken answer below', () => {
    expect(new Set([...SPEC_CASES, ...ALPHABITE_CASES].map((c) => c.rule))).toEqual(new Set(ANSWER_RULES));
  });

  for (const c of SPEC_CASES) {
    it(`spec: ${c.rule} (reference server bug ${c.bug}: GET ${c.target}${c.strict ? ', strict' : ''})`, async () => {
      const [correct, broken] = await Promise.all([startReferenceServer(), startReferenceServer({ bug: c.bug })]);
      try {
        const strict = c.strict ?? false;
        const good = checkListingAnswer('spec', await answerOf(correct.url, c.target), { strict });
        expect(good).toEqual([]);
        const bad = checkListingAnswer('spec', await answerOf(broken.url, c.target), { strict });
        expect(rulesOf(bad)).toEqual([...c.breaks].sort());
        const first = bad.find((v) => v.rule === c.rule)!;
        expect(first.message).toBeTruthy();
        expect(first.field).toBeTruthy();
        expect(first).toHaveProperty('expected');
        expect(first).toHaveProperty('actual');
        if (!strict) expect(checkListingAnswer('spec', await answerOf(broken.url, c.target), { strict: true }).map((v) => v.rule)).toEqual(expect.arrayContaining(c.breaks));
      } finally {
        await Promise.all([correct.close(), broken.close()]);
      }
    }, 30_000);
  }

  for (const c of ALPHABITE_CASES) {
    it(`alphabite: ${c.rule} (reference server bug ${c.bug}: GET ${c.target})`, async () => {
      const [correct, broken] = await Promise.all([startAlphabiteReferenceServer(), startAlphabiteReferenceServer({ bug: c.bug })]);
      try {
        const good = checkListingAnswer('alphabite', await answerOf(correct.url, c.target, ALPHABITE_HEADERS));
        expect(good).toEqual([]);
        const bad = checkListingAnswer('alphabite', await answerOf(broken.url, c.target, ALPHABITE_HEADERS));
        expect(added(bad, good)).toEqual([...c.breaks].sort());
      } finally {
        await Promise.all([correct.close(), broken.close()]);
      }
    }, 30_000);
  }
});

describe('the mock answers break no rule', () => {
  let spec: MockServer;
  let alphabite: MockServer;
  beforeAll(async () => {
    [spec, alphabite] = await Promise.all([startMockServer({ seed: 1 }), startMockServer({ seed: 1, dialect: 'alphabite' })]);
  });
  afterAll(async () => {
    await Promise.all([spec?.close(), alphabite?.close()]);
  });

  it('the spec dialect, also with --strict, on every listing, paged and not', async () => {
    const wishlists = (await answerOf(spec.url, '/store/wishlists?take=50')).body as { data: Array<{ id: string; items: unknown[] }> };
    const wishlist = [...wishlists.data].sort((a, b) => b.items.length - a.items.length)[0]!.id;
    const product = ((await answerOf(spec.url, '/store/products/reviews?limit=1')).body as { reviews: Array<{ product_id: string }> }).reviews[0]!.product_id;
    const targets = [
      '/store/products/reviews',
      '/store/products/reviews?limit=7&offset=14&order=-rating',
      '/store/products/reviews?offset=100000',
      `/store/reviews/product/${product}?limit=2&offset=1`,
      '/store/reviews/product/prod_unknown',
      '/store/wishlists?take=3&skip=3',
      `/store/wishlists/${wishlist}/items`,
      `/store/wishlists/${wishlist}/items?take=4&skip=4&id=${wishlist}`,
    ];
    for (const target of targets) {
      const answer = await answerOf(spec.url, target);
      expect(answer.status, target).toBe(200);
      for (const strict of [false, true]) expect(checkListingAnswer('spec', answer, { strict }), `${target}${strict ? ' strict' : ''}`).toEqual([]);
    }
  });

  it('the alphabite dialect on 4.2 to 4.4, paged and not, with limit=0 aside (row 6: its null page numbers break the envelope)', async () => {
    const wishlist = ((await answerOf(alphabite.url, '/store/wishlists?limit=1', ALPHABITE_HEADERS)).body as { data: Array<{ id: string }> }).data[0]!.id;
    const product = ((await answerOf(alphabite.url, '/store/products/reviews', ALPHABITE_HEADERS)).body as { data: Array<{ product_id: string }> }).data[0]!.product_id;
    const targets = [
      `/store/reviews/product/${product}`,
      `/store/reviews/product/${product}?limit=3&offset=2&order=-created_at&include_aggregated_counts=true`,
      '/store/wishlists',
      '/store/wishlists?limit=2&offset=1',
      `/store/wishlists/${wishlist}/items?limit=1`,
      `/store/wishlists/${wishlist}/items?offset=500`,
      '/store/wishlists/wl_unknown/items',
    ];
    for (const target of targets) {
      const answer = await answerOf(alphabite.url, target, ALPHABITE_HEADERS);
      expect(answer.status, target).toBe(200);
      expect(checkListingAnswer('alphabite', answer), target).toEqual([]);
    }
    const zero = checkListingAnswer('alphabite', await answerOf(alphabite.url, `/store/reviews/product/${product}?limit=0`, ALPHABITE_HEADERS));
    // 'take' 0 breaks both of the plugins' rules with the same words: reported once.
    expect(rulesOf(zero)).toEqual(['data-envelope']);
  });

  it('record-shape: a 4.4 item whose variant was deleted (no product_variant, as a real backend answers it)', async () => {
    const wishlists = (await answerOf(alphabite.url, '/store/wishlists?limit=100', ALPHABITE_HEADERS)).body as { data: Array<{ id: string }> };
    let answer: ListingAnswer | undefined;
    for (const { id } of wishlists.data) {
      answer = await answerOf(alphabite.url, `/store/wishlists/${id}/items?limit=3`, ALPHABITE_HEADERS);
      if ((answer.body as { data: unknown[] }).data.length > 1) break;
    }
    expect(checkListingAnswer('alphabite', answer!)).toEqual([]);
    const items = (answer!.body as { data: Array<Record<string, unknown>> }).data;
    const { product_variant: _gone, ...orphan } = items[1]!;
    const broken = checkListingAnswer('alphabite', { ...answer!, body: { ...(answer!.body as object), data: [items[0], orphan, ...items.slice(2)] } });
    expect(broken).toEqual([expect.objectContaining({ rule: 'record-shape', field: 'data[1].product_variant', actual: undefined })]);
    expect(broken[0]!.message).toMatch(new RegExp(`^record ${orphan.id as string}: `));
  });
});

describe('checkListingAnswer collects every violation at once', () => {
  const page = (overrides: Record<string, unknown>, query = 'limit=5&offset=5'): ListingAnswer => ({
    endpoint: 'reviews',
    query: queryPairs(`?${query}`),
    status: 200,
    contentType: 'application/json; charset=utf-8',
    body: { reviews: [], count: 7, limit: 5, offset: 5, totalPages: 2, currentPage: 2, nextPage: null, prevPage: 1, ...overrides },
  });

  it('a correct page breaks nothing; one with several faults is reported rule by rule, each field once', () => {
    const records = (n: number) => Array.from({ length: n }, () => EXAMPLE_RECORDS.review);
    expect(checkListingAnswer('spec', page({ reviews: records(2) }))).toEqual([]);
    // Asked limit 5 from offset 5 over 7; answered 6 records, limit 1 echoed, the page numbers of limit 5.
    const broken = checkListingAnswer('spec', page({ reviews: records(6), limit: 1, totalPages: 1, nextPage: null, prevPage: 1 }));
    expect(broken.map((v) => `${v.rule} ${v.field}`)).toEqual([
      'page-length reviews.length',
      'total-pages totalPages',
      'current-page currentPage',
      'next-and-prev-page nextPage',
      'next-and-prev-page prevPage',
      'echo-size-and-start limit',
      'records-within-count reviews.length',
    ]);
    expect(broken.find((v) => v.rule === 'records-within-count')).toMatchObject({ expected: 'at most 2', actual: 6, note: 'count 7 answered; limit 5, offset 5 in force' });
  });

  it("a number that is not one is reported once, by the envelope's rule, not again by each rule that reads it", () => {
    const broken = checkListingAnswer('spec', page({ count: '7', reviews: [] }));
    expect(broken).toEqual([expect.objectContaining({ rule: 'envelope-shape', field: 'count', message: "'count' must be a non-negative integer" })]);
  });

  it('a body with no records array, or none at all, is the envelope rule of the dialect; a status other than 200 is not judged', () => {
    const { reviews: _none, ...elsewhere } = page({ data: [] }).body as Record<string, unknown>;
    expect(checkListingAnswer('spec', { ...page({}), body: elsewhere })).toEqual([expect.objectContaining({ rule: 'envelope-shape', field: 'reviews', note: "keys: count, limit, offset, totalPages, currentPage, nextPage, prevPage, data; the records seem to be under 'data'" })]);
    expect(checkListingAnswer('alphabite', { ...page({}), body: 'Internal error' })).toEqual([expect.objectContaining({ rule: 'data-envelope', field: 'body' })]);
    expect(checkListingAnswer('spec', { ...page({}), status: 500, body: { type: 'unknown_error' } })).toEqual([]);
  });

  it("spec: the reviews' defaults are the kit's choice ([kit]) that the pacts pin: left out, they are judged without strict too", () => {
    const defaulted = page({ limit: 10, offset: 0, count: 0, totalPages: 0, currentPage: 1, prevPage: null }, '');
    expect(checkListingAnswer('spec', defaulted)).toEqual([expect.objectContaining({ rule: 'echo-size-and-start', field: 'limit', expected: 20, actual: 10 })]);
    expect(rulesOf(checkListingAnswer('spec', defaulted, { strict: true }))).toEqual(['echo-size-and-start']);
    // the wishlists' defaults are the spec's (take 10, skip 0)
    const wishlists: ListingAnswer = { endpoint: 'wishlists', query: [], status: 200, body: { data: [], count: 0, skip: 0, take: 20, totalPages: 0, currentPage: 1 } };
    expect(checkListingAnswer('spec', wishlists)).toEqual([expect.objectContaining({ rule: 'echo-size-and-start', field: 'take', expected: 10, actual: 20 })]);
  });

  it("a request the dialect refuses is not judged by the window (a bad limit), the envelope still is", () => {
    const refused = checkListingAnswer('alphabite', { endpoint: 'productReviews', id: 'prod_1', query: [['limit', 'abc']], status: 200, body: { data: [{ id: 'x' }], count: 0, take: 20, skip: 0, nextPage: 1, currentPage: 1, prevPage: 1, totalPages: 1 } });
    expect(rulesOf(refused)).toEqual(['record-shape']);
  });

  it('a window past 2^53 - 1 or larger than the set is judged like the end of the set', () => {
    const record = { id: 'rev_1' };
    const answer = (limit: string, offset: string, data: unknown[]): ListingAnswer => ({ endpoint: 'productReviews', id: 'prod_1', query: [['limit', limit], ['offset', offset]], status: 200, body: { data, count: 3, take: Number(limit), skip: Number(offset), nextPage: 1, currentPage: 1, prevPage: 1, totalPages: 1 } });
    const huge = '99999999999999999999';
    // The whole set for a limit beyond it: holds.
    expect(checkListingAnswer('alphabite', answer(huge, '0', [record, record, record])).filter((v) => v.rule === 'records-within-count')).toEqual([]);
    // Records from an offset beyond the set (the plugins list from the first record there): none may come.
    expect(checkListingAnswer('alphabite', answer('5', huge, [record])).filter((v) => v.rule === 'records-within-count')).toEqual([expect.objectContaining({ expected: 'at most 0', actual: 1 })]);
  });
});

describe("docs/dialects.md: the plugins' answers to @alphabite/medusa-sdk's list calls (the alphabite dialect's emulation)", () => {
  let mock: MockServer;
  let proxy: Awaited<ReturnType<typeof startRecordingProxy>>;
  beforeAll(async () => {
    mock = await startMockServer({ seed: 1, dialect: 'alphabite' });
    proxy = await startRecordingProxy(mock.url);
  });
  afterAll(async () => {
    await proxy?.close();
    await mock?.close();
  });

  const backend = () => ({ baseUrl: proxy.url, publishableKey: KEY, authorization: TOKEN }) as Parameters<typeof sdkFor>[0];
  /** The SDK's call, and the rules its answer breaks (the request as the SDK sent it, the answer as it came). */
  async function violationsOf(call: () => Promise<unknown>): Promise<{ target: string; violations: RuleViolation[] }> {
    const before = proxy.exchanges.length;
    await call();
    expect(proxy.exchanges.length).toBe(before + 1);
    const exchange = proxy.exchanges[before]!;
    const answer: ListingAnswer = { ...listingOf(exchange.target), query: queryPairs(exchange.target), status: exchange.status, contentType: exchange.headers.get('content-type') ?? null, body: JSON.parse(exchange.body) };
    return { target: exchange.target, violations: checkListingAnswer('alphabite', answer) };
  }

  it('4.1 breaks exactly the rules of rows 7 and 8: reviews.list({}), with limit 5, with limit 10', async () => {
    const sdk = sdkFor(backend());
    const none = await violationsOf(() => sdk.alphabite.reviews.list({}));
    const five = await violationsOf(() => sdk.alphabite.reviews.list({ limit: 5 }));
    const ten = await violationsOf(() => sdk.alphabite.reviews.list({ limit: 10 }));
    expect([none.target, five.target, ten.target]).toEqual(['/store/products/reviews', '/store/products/reviews?limit=5', '/store/products/reviews?limit=10']);

    // No limit: the default 20 is in force, the plugin echoes take 5 (row 8) and lists every review for count 0 (rows 7, 8).
    expect(rulesOf(none.violations)).toEqual(['echo-size-and-start', 'records-within-count']);
    expect(none.violations.find((v) => v.rule === 'echo-size-and-start')).toMatchObject({ field: 'take', expected: 20, actual: 5, note: 'asked for the default limit 20, the default offset 0' });
    const all = (JSON.parse(proxy.exchanges.at(-3)!.body) as { data: unknown[] }).data.length;
    expect(all).toBeGreaterThan(20);
    expect(none.violations.find((v) => v.rule === 'records-within-count')).toMatchObject({ field: 'data.length', expected: 'at most 0', actual: all });
    // limit=5: the echo holds by chance (the plugin always echoes 5); the records still exceed the count.
    expect(rulesOf(five.violations)).toEqual(['records-within-count']);
    // limit=10: both.
    expect(rulesOf(ten.violations)).toEqual(['echo-size-and-start', 'records-within-count']);

    const rows = new Set([...none.violations, ...five.violations, ...ten.violations].flatMap((v) => ALPHABITE_ANSWER_RULE_ROWS[v.rule] ?? [0])); // 0: a rule no row explains
    expect([...rows].sort()).toEqual([7, 8]);
    // The rows say what the rules see.
    const doc = readFileSync(new URL('../docs/dialects.md', import.meta.url), 'utf8');
    expect(doc).toMatch(/^\| 7 \| 4\.1 \| [^\n]*\*\*ignores `limit`, `offset` and `order`\*\*/m);
    expect(doc).toMatch(/^\| 8 \| 4\.1 \| [^\n]*always `count: 0, [^\n]*take: 5, skip: 0`/m);
  });

  it('4.2 to 4.4 break none: listProductReviews, wishlist.list, listItems', async () => {
    const sdk = sdkFor(backend());
    const product = ((await sdk.alphabite.reviews.list({})).data[0] as { product_id: string }).product_id;
    const wishlists = await sdk.alphabite.wishlist.list({});
    const wishlist = (wishlists.data[0] as { id: string }).id;
    const calls = [
      () => sdk.alphabite.reviews.listProductReviews({ product_id: product }),
      () => sdk.alphabite.reviews.listProductReviews({ product_id: product, limit: 5, offset: 5, include_aggregated_counts: true }),
      () => sdk.alphabite.wishlist.list({}),
      () => sdk.alphabite.wishlist.list({ limit: 2, offset: 1 }),
      () => sdk.alphabite.wishlist.listItems({ id: wishlist }),
      () => sdk.alphabite.wishlist.listItems({ id: wishlist, limit: 5, offset: 5 }),
    ];
    for (const call of calls) {
      const { target, violations } = await violationsOf(call);
      expect(violations, target).toEqual([]);
    }
  });
});
