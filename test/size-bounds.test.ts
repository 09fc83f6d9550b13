/**
 * Every configuration the options and the admin API accept is served promptly, and whatever could
 * not be is refused up front (issue 19): a property draws dataset sizes and pages across the whole
 * accepted range, maxima included, in both dialects, and every answer must arrive within
 * ANSWER_BOUND_MS, never as a 5xx, while another client's small requests keep being answered.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ANSWER_CHARS, MAX_ANSWER_RECORDS, MAX_MAX_PAGE_SIZE, REVIEW_ORDER_VALUES } from '../lib/api-rules.ts';
import { datasetFromRecords, generateDataset } from '../fixtures/dataset.ts';
import { fixturesChunks } from '../fixtures/file.ts';
import { SIZE_LIMITS, type DatasetSizes } from '../fixtures/generate.ts';
import { startMockServer, type MockServer } from '../mock-server/server.ts';
import type { DialectName } from '../lib/dialects/index.ts';
import { PROVIDER_STATES_PATH, STATES } from '../lib/provider-states.ts';

/**
 * The bound every answer must meet (docs/operations.md): 1 s on the reference machine, whose slowest
 * answers take a fraction of it. On a machine with more runnable processes than cores, a CPU-bound
 * answer takes that many times longer whatever the server does: the bound is stretched by that
 * factor (the 1-minute load average over the cores, when above 1), so an overloaded CI machine does
 * not fail the test, while a hang (the 32 s and 60 s) still does.
 */
const ANSWER_BOUND_MS = 1000;
/**
 * The 1-minute load average lags: when other work starts on the machine, it reads the load of a
 * minute ago (seen in CI: 1,422 ms against a bound of 1,230 ms computed from a load of 2.5 while
 * far more was runnable). So the runnable processes are also sampled (Linux's /proc/loadavg, every
 * 50 ms, the last 2 s), and the larger of the two stretches the bound.
 */
const runnable: number[] = [];
function sampleRunnable(): void {
  try {
    const running = Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[3]?.split('/')[0]);
    if (Number.isFinite(running)) runnable.push(running);
    if (runnable.length > 40) runnable.shift();
  } catch {
    // not Linux: the load average alone
  }
}
sampleRunnable();
setInterval(sampleRunnable, 50).unref();
const boundNow = () => {
  const recent = runnable.length ? runnable.reduce((a, b) => a + b, 0) / runnable.length : 0;
  return ANSWER_BOUND_MS * Math.max(1, loadavg()[0]! / availableParallelism(), recent / availableParallelism());
};
const SEED = 19_003;
const RUNS = 12;
const ALPHABITE_HEADERS = { 'x-publishable-api-key': 'pk_test', authorization: 'Bearer test-token' };

interface Answer {
  status: number;
  text: string;
  ms: number;
}

/** Two clients on their own connections: the one asking for large pages, and another one. */
const agents = { asking: new Agent({ keepAlive: true }), other: new Agent({ keepAlive: true }) };
afterAll(() => Object.values(agents).forEach((a) => a.destroy()));

function call(url: string, options: { method?: string; body?: unknown; headers?: Record<string, string>; agent?: Agent } = {}): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const headers = { ...options.headers, ...(payload ? { 'content-type': 'application/json' } : {}) };
    const req = request(url, { method: options.method ?? 'GET', agent: options.agent ?? agents.asking, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - started }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** Records an answer holds: each record one, each wishlist's embedded items one each. */
function recordsIn(text: string): number {
  const body = JSON.parse(text) as { reviews?: unknown[]; data?: Array<{ items?: unknown[] }> };
  const records = (body.reviews ?? body.data ?? []) as Array<{ items?: unknown[] }>;
  return records.reduce((sum, r) => sum + 1 + (Array.isArray(r.items) ? r.items.length : 0), 0);
}

/** `url` asked while the other client keeps asking small things; both must be answered promptly. */
async function askWhileOthersAsk(mock: MockServer, url: string, headers: Record<string, string>): Promise<{ answer: Answer; others: Answer[] }> {
  let done = false;
  const others: Answer[] = [];
  const small = [`${mock.url}/__admin/health`, `${mock.url}/store/wishlists/wl_nope/items?limit=1`];
  const meanwhile = (async () => {
    for (let i = 0; !done || i === 0; i++) others.push(await call(small[i % small.length]!, { agent: agents.other, headers }));
  })();
  const answer = await call(url, { headers });
  done = true;
  await meanwhile;
  return { answer, others };
}

const sizeArb = (key: keyof DatasetSizes) => {
  const { min, max } = SIZE_LIMITS[key];
  return fc.oneof(fc.constant(max), fc.constant(min), fc.integer({ min, max }), fc.integer({ min, max: Math.min(max, 200) }));
};
const sizesArb = fc.record({ reviews: sizeArb('reviews'), products: sizeArb('products'), wishlists: sizeArb('wishlists'), maxItems: sizeArb('maxItems') });

interface Ask {
  endpoint: 'reviews' | 'productReviews' | 'wishlists' | 'wishlistItems';
  /** Page size: a share of the largest accepted, or (alphabite) any number the plugins take. */
  size: number;
  /** Start, as a share of the listing (past its end when above 1). */
  start: number;
  order: string | undefined;
  /** Which record the path names (a share of the product or wishlist count; 0 is the largest). */
  which: number;
  filters: string;
}

/** A share from 0 to `most`, in thousandths (fast-check's doubles crowd near 0). */
const share = (most: number) => fc.integer({ min: 0, max: Math.round(most * 1000) }).map((n) => n / 1000);

const askArb = (dialect: DialectName): fc.Arbitrary<Ask> =>
  fc.record({
    endpoint: fc.constantFrom('reviews', 'productReviews', 'wishlists', 'wishlistItems'),
    size: dialect === 'spec' ? fc.oneof(fc.constant(MAX_MAX_PAGE_SIZE), fc.constant(1), fc.integer({ min: 1, max: MAX_MAX_PAGE_SIZE })) : fc.oneof(fc.constant(100_000), fc.constant(MAX_ANSWER_RECORDS), fc.constant(0), fc.integer({ min: 0, max: 2 ** 40 })),
    start: fc.oneof(fc.constant(0), share(1.2)),
    order: dialect === 'spec' ? fc.option(fc.constantFrom(...REVIEW_ORDER_VALUES), { nil: undefined }) : fc.option(fc.constantFrom('id', '-id', 'created_at', '-created_at', 'updated_at', '-updated_at', 'rating', '-rating'), { nil: undefined }),
    which: fc.oneof(fc.constant(0), share(0.999)),
    filters: dialect === 'spec' ? fc.constant('') : fc.constantFrom('', '&rating=5', '&verified_purchase_only=1', '&rating=1&verified_purchase_only=1'),
  });

/** The URL of an ask, against the dataset the server has now. */
function urlOf(mock: MockServer, dialect: DialectName, ask: Ask): string {
  const dataset = mock.dataset.current;
  const [sizeParam, startParam] = dialect === 'spec' && ask.endpoint.startsWith('wishlist') ? ['take', 'skip'] : ['limit', 'offset'];
  const pick = (count: number) => Math.min(count - 1, Math.floor(ask.which * count));
  let path: string;
  let count: number;
  if (ask.endpoint === 'reviews' || ask.endpoint === 'productReviews') {
    const source = dataset.reviews.source;
    const product = pick(source.productCount);
    path = ask.endpoint === 'reviews' ? '/store/products/reviews' : `/store/reviews/product/${source.productId(product)}`;
    // Counted here, not through the table: its orders are built by the requests under test.
    count = ask.endpoint === 'reviews' ? source.count : source.product.reduce((n, p) => n + (p === product ? 1 : 0), 0);
  } else {
    const source = dataset.wishlists.source;
    const wishlist = source.count === 0 ? -1 : pick(source.count);
    path = ask.endpoint === 'wishlists' ? '/store/wishlists' : `/store/wishlists/${wishlist < 0 ? 'wl_none' : source.wishlist(wishlist, false).id}/items`;
    count = ask.endpoint === 'wishlists' ? source.count : wishlist < 0 ? 0 : source.itemCount(wishlist);
  }
  const order = ask.order !== undefined && (dialect === 'alphabite' ? ask.endpoint === 'productReviews' : ask.endpoint.endsWith('eviews')) ? `&order=${ask.order}` : '';
  const filters = ask.endpoint.endsWith('eviews') ? ask.filters : '';
  return `${mock.url}${path}?${sizeParam}=${ask.size}&${startParam}=${Math.floor(ask.start * count)}${order}${filters}`;
}

function expectPrompt(what: string, answer: Answer): void {
  const bound = boundNow();
  expect(answer.ms, `${what} took ${Math.round(answer.ms)} ms (bound now ${Math.round(bound)} ms)`).toBeLessThan(bound);
  expect(answer.status, `${what}: ${answer.text.slice(0, 300)}`).toBeLessThan(500);
}

/** Asks `url`, checks the answer and the other client's, and follows a refusal's advice once. */
async function checkAsk(mock: MockServer, url: string, headers: Record<string, string>, followAdvice = true): Promise<void> {
  const { answer, others } = await askWhileOthersAsk(mock, url, headers);
  expectPrompt(url, answer);
  for (const other of others) expectPrompt(`another client's request while ${url} was answered`, other);
  if (answer.status === 200) {
    expect(recordsIn(answer.text)).toBeLessThanOrEqual(MAX_ANSWER_RECORDS);
    return;
  }
  // The only refusals a well-formed request can get: 404 for a wishlist the dataset does not have
  // (the spec dialect, when there is none), and the documented 400 for a page too large.
  if (answer.status === 404 && url.includes('/wl_none/')) return expect(JSON.parse(answer.text).type).toBe('not_found');
  expect(answer.status, answer.text).toBe(400);
  const body = JSON.parse(answer.text) as { type: string; message: string };
  expect(body.type).toBe('invalid_data');
  expect(body.message).toMatch(/one answer of the mock may hold/);
  const advice = /ask for (limit|take)=(\d+) or less/.exec(body.message);
  if (advice && followAdvice) {
    const smaller = url.replace(new RegExp(`([?&])${advice[1]}=\\d+`), `$1${advice[1]}=${advice[2]}`);
    const followed = await call(smaller, { headers });
    expectPrompt(smaller, followed);
    expect(followed.status, followed.text.slice(0, 300)).toBe(200);
  } else if (followAdvice) {
    // Alphabite 4.1 lists every matching review: the advice is to narrow it.
    expect(body.message).toMatch(/narrow it with product_ids or rating/);
  }
}

describe('every accepted configuration is served promptly', () => {
  const servers = {} as Record<DialectName, MockServer>;
  beforeAll(async () => {
    servers.spec = await startMockServer({ dialect: 'spec', maxPageSize: MAX_MAX_PAGE_SIZE });
    servers.alphabite = await startMockServer({ dialect: 'alphabite' });
  });
  afterAll(async () => {
    await Promise.all(Object.values(servers).map((s) => s?.close()));
  });

  it(`answers every page of every accepted dataset within ${ANSWER_BOUND_MS} ms, never a 5xx, while another client is served`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<DialectName>('spec', 'alphabite').chain((dialect) => fc.tuple(fc.constant(dialect), sizesArb, fc.array(askArb(dialect), { minLength: 3, maxLength: 4 }))),
        async ([dialect, sizes, asks]) => {
          const mock = servers[dialect];
          const reseed = await call(`${mock.url}/__admin/dataset`, { method: 'POST', body: { seed: 1, ...sizes } });
          expect(reseed.status, reseed.text).toBe(200);
          const headers = dialect === 'alphabite' ? ALPHABITE_HEADERS : {};
          for (const ask of asks) await checkAsk(mock, urlOf(mock, dialect, ask), headers);
        },
      ),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  }, 240_000);
});

describe('the first request for an order at the largest sizes', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ seed: 3, reviews: SIZE_LIMITS.reviews.max, products: SIZE_LIMITS.products.max, wishlists: 0, maxPageSize: MAX_MAX_PAGE_SIZE });
  }, 60_000);
  afterAll(async () => {
    await mock?.close();
  });

  it('builds the order and its grouping by product between requests: another client is answered all along', async () => {
    const source = mock.dataset.current.reviews.source;
    const product = source.productId(0);
    const url = `${mock.url}/store/reviews/product/${product}?limit=${MAX_MAX_PAGE_SIZE}&order=-created_at`;
    const { answer, others } = await askWhileOthersAsk(mock, url, {});
    expectPrompt(url, answer);
    expect(answer.status, answer.text.slice(0, 300)).toBe(200);
    for (const other of others) expectPrompt('another client meanwhile', other);
    // Built in one go, the sort would hold the other client's next request until it ends: one or
    // two of its requests would overlap it. Built between requests, many are answered meanwhile.
    expect(others.length).toBeGreaterThanOrEqual(3);
    const body = JSON.parse(answer.text) as { reviews: Array<{ id: string; product_id: string; created_at: string }>; count: number };
    expect(body.count).toBe(source.product.reduce((n, p) => n + (p === 0 ? 1 : 0), 0));
    expect(body.reviews).toHaveLength(Math.min(MAX_MAX_PAGE_SIZE, body.count));
    for (let i = 1; i < body.reviews.length; i++) {
      const [a, b] = [body.reviews[i - 1]!, body.reviews[i]!];
      expect(b.product_id).toBe(product);
      expect(a.created_at > b.created_at || (a.created_at === b.created_at && a.id < b.id), `${a.id} before ${b.id}`).toBe(true);
    }
  });
});

describe('the configurations of issue 19 are refused up front', () => {
  let mock: MockServer;
  let dir: string;
  beforeAll(async () => {
    mock = await startMockServer({ maxItems: SIZE_LIMITS.maxItems.max, wishlists: 200 });
    dir = mkdtempSync(join(tmpdir(), 'size-bounds-'));
  });
  afterAll(async () => {
    await mock?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('POST /__admin/dataset {"wishlists":5000000,"maxItems":100000} is a 400 naming maxItems, and changes nothing', async () => {
    const before = (await call(`${mock.url}/__admin/health`)).text;
    const res = await call(`${mock.url}/__admin/dataset`, { method: 'POST', body: { wishlists: 5_000_000, maxItems: 100_000 } });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toEqual({
      type: 'invalid_data',
      message: expect.stringMatching(/^Invalid request: dataset change: field 'maxItems': must be a whole number from 0 to 499 \(a page of the default 10 wishlists embeds every item/),
    });
    expect(JSON.parse((await call(`${mock.url}/__admin/health`)).text).datasetVersion).toBe(JSON.parse(before).datasetVersion);
    const tooMany = await call(`${mock.url}/__admin/dataset`, { method: 'POST', body: { reviews: 20_000_000 } });
    expect(tooMany.status).toBe(400);
    expect(JSON.parse(tooMany.text).message).toMatch(/field 'reviews': must be a whole number from 0 to 1000000/);
  });

  it('startMockServer refuses sizes out of range, and datasets or fixtures files it could not serve, with one sentence', async () => {
    await expect(startMockServer({ maxItems: 100_000 })).rejects.toThrow(/^Cannot serve the dataset asked for: 'maxItems' must be a whole number from 0 to 499 .*got 100000$/);
    await expect(startMockServer({ reviews: 20_000_000 })).rejects.toThrow(/'reviews' must be a whole number from 0 to 1000000/);
    // generateDataset itself takes any size: a dataset made with a larger maxItems is refused when served.
    const big = generateDataset({ seed: 4, reviews: 3, wishlists: 2, maxItems: 500 });
    await expect(startMockServer({ dataset: big })).rejects.toThrow(/^Cannot serve the dataset given: wishlist wl_\w+ holds 500 items, and a wishlist may hold from 0 to 499/);
    const file = join(dir, 'big-wishlist.json');
    writeFileSync(file, [...fixturesChunks(big)].join(''));
    await expect(startMockServer({ fixtures: file })).rejects.toThrow(new RegExp(`^Cannot serve fixtures file ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: wishlist wl_\\w+ holds 500 items`));
  });

  it('at the largest maxItems, ?take=45 is a prompt 400 that says which take fits, and that take is served', async () => {
    const res = await call(`${mock.url}/store/wishlists?take=45`);
    expectPrompt('take=45', res);
    expect(res.status).toBe(400);
    const message = JSON.parse(res.text).message as string;
    expect(message).toMatch(/^Invalid request: these 45 wishlists hold \d+ records with their embedded items, more than the 5000 records one answer of the mock may hold: ask for take=\d+ or less \(from skip=0\)$/);
    const fit = Number(/take=(\d+)/.exec(message)![1]);
    expect(fit).toBeGreaterThanOrEqual(10);
    const served = await call(`${mock.url}/store/wishlists?take=${fit}`);
    expectPrompt(`take=${fit}`, served);
    expect(served.status).toBe(200);
    expect(recordsIn(served.text)).toBeLessThanOrEqual(MAX_ANSWER_RECORDS);
    const oneMore = await call(`${mock.url}/store/wishlists?take=${fit + 1}`);
    expect(oneMore.status).toBe(400);
  });

  it('a page longer than 32 Mi characters of JSON (records with very long text) is refused, saying how many records fit', async () => {
    const generated = generateDataset({ seed: 5, reviews: 40, wishlists: 0 });
    const long = 'a'.repeat(1024 * 1024);
    const reviews = Array.from({ length: 40 }, (_, i) => ({ ...generated.reviews.source.review(i), content: long }));
    const wordy = await startMockServer({ dataset: datasetFromRecords({ reviews, wishlists: [] }) });
    try {
      const res = await call(`${wordy.url}/store/products/reviews?limit=40`);
      expectPrompt('limit=40', res);
      expect(res.status).toBe(400);
      const message = JSON.parse(res.text).message as string;
      expect(message).toMatch(/^Invalid request: these 40 reviews are longer than the 33554432 characters of JSON one answer of the mock may hold: ask for limit=\d+ or less \(from offset=0\)$/);
      const fit = Number(/limit=(\d+)/.exec(message)![1]);
      expect(fit).toBe(31);
      const served = await call(`${wordy.url}/store/products/reviews?limit=${fit}`);
      expect(served.status).toBe(200);
      expect(served.text.length).toBeLessThanOrEqual(MAX_ANSWER_CHARS);
    } finally {
      await wordy.close();
    }
  });

  it('the MSW handlers refuse the same sizes', async () => {
    const { createListingHandlers } = await import('../msw/index.ts');
    expect(() => createListingHandlers({ maxItems: 100_000 })).toThrow(/^Cannot serve the dataset asked for: 'maxItems' must be a whole number from 0 to 499/);
    expect(() => createListingHandlers({ dataset: generateDataset({ seed: 4, reviews: 3, wishlists: 1, maxItems: 500 }) })).toThrow(/^Cannot serve the dataset given: wishlist wl_\w+ holds 500 items/);
  });

  it('the default page is always served, however many items the wishlists hold', async () => {
    for (const skip of [0, 10, 100, 190]) {
      const res = await call(`${mock.url}/store/wishlists?skip=${skip}`);
      expectPrompt(`skip=${skip}`, res);
      expect(res.status).toBe(200);
    }
  });

  it('a provider state may not give a wishlist more items than the mock can embed in one answer', async () => {
    const state = (count: number) => call(`${mock.url}${PROVIDER_STATES_PATH}`, { method: 'POST', body: { state: STATES.wishlistHasItems.name, params: { wishlist_id: 'wl_01BOUNDS', count } } });
    const tooMany = await state(SIZE_LIMITS.maxItems.max + 1);
    expect(tooMany.status).toBe(400);
    expect(JSON.parse(tooMany.text).message).toMatch(/'count'/);
    const most = await state(SIZE_LIMITS.maxItems.max);
    expect(most.status, most.text).toBe(200);
    for (const path of ['/store/wishlists', '/store/wishlists?take=1', `/store/wishlists/wl_01BOUNDS/items?take=${SIZE_LIMITS.maxItems.max}`]) {
      const res = await call(`${mock.url}${path}`);
      expectPrompt(path, res);
      expect(res.status, res.text.slice(0, 300)).toBe(200);
    }
    await call(`${mock.url}/__admin/reset`, { method: 'POST' });
  });
});
