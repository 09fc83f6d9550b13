/**
 * Every answer the mock gives is one its OpenAPI document allows (status, headers, body, with
 * Ajv's JSON Schema 2020-12 validator): what the property suite receives (through a recording
 * proxy), what the hostile-input generator's GET requests to the four paths receive, and, in
 * both dialects, the answers to generated listing requests and refusals; in the alphabite
 * dialect, the answers to the write routes (the write table of test/support/write-cases.ts and
 * writes over seeded wishlists). And the validator is shown to refuse: a tampered answer, another
 * dialect's answers, an undocumented status.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DialectName } from '../lib/dialects/index.ts';
import { generateDataset } from '../fixtures/dataset.ts';
import { mockOpenApiDocument } from '../mock-server/listings/openapi.ts';
import { startMockServer, type MockServer } from '../mock-server/server.ts';
import { runListingProperties } from '../properties/runner.ts';
import { hostileRequests } from './support/hostile-requests.ts';
import { listingRequests } from './support/listing-requests.ts';
import { answerValidator, OpenApiValidator, type ObservedAnswer } from './support/openapi-validator.ts';
import { caseRequest, caseValues, saveFromAnswer, WRITE_CASES, type Json } from './support/write-cases.ts';
import { mockWriteWorld, WRITE_WORLD_DATA, WRITE_WORLD_KEY } from './support/mock-write-world.ts';
import { requestBytes, sendRaw } from './support/raw-http.ts';
import { startRecordingProxy } from './support/recording-proxy.ts';

const DATA = { seed: 5, reviews: 120, products: 5, wishlists: 20, maxItems: 15 };
const validators = { spec: new OpenApiValidator(mockOpenApiDocument({ dialect: 'spec' })), alphabite: new OpenApiValidator(mockOpenApiDocument({ dialect: 'alphabite' })) };

async function observe(mock: MockServer, target: string, headers: Record<string, string>): Promise<ObservedAnswer> {
  const res = await fetch(`${mock.url}${target}`, { headers });
  return { method: 'GET', target, status: res.status, headers: new Map(res.headers), body: await res.text() };
}

/** Each answer's problems, keyed by what was asked; `{}` when all hold. */
function problemsOf(validator: OpenApiValidator, answers: ObservedAnswer[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const answer of answers) {
    const problems = validator.check(answer);
    if (problems?.length) out[`${answer.status} ${answer.target.slice(0, 120)}`] = problems;
  }
  return out;
}

describe('the spec mock answers as its document says', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer(DATA);
  });
  afterAll(async () => {
    await mock?.close();
  });

  it('to every request of the property suite', async () => {
    const proxy = await startRecordingProxy(mock.url);
    try {
      const report = await runListingProperties({ baseUrl: proxy.url, seed: 11, runs: 4, strict: true });
      expect(report.passed).toBe(true);
    } finally {
      await proxy.close();
    }
    const answers = proxy.exchanges.filter((x) => validators.spec.operationOf(x.method, x.target));
    expect(answers.length).toBeGreaterThan(200);
    expect(new Set(answers.map((a) => a.status))).toContain(400);
    expect(problemsOf(validators.spec, answers)).toEqual({});
  }, 60_000);

  it("to the hostile-input generator's GET requests on the four paths", async () => {
    const wishlistId = mock.dataset.current.wishlists.source.wishlist(3).id;
    const requests = fc.sample(hostileRequests(wishlistId), { seed: 20260601, numRuns: 400 }).map((g) => g.request);
    const answers: ObservedAnswer[] = [];
    for (const request of requests.filter((r) => validators.spec.operationOf(r.method, r.target))) {
      const res = await sendRaw(mock.port, requestBytes(request));
      answers.push({ method: request.method, target: request.target, status: res.status, headers: res.headers, body: res.body });
    }
    expect(answers.length).toBeGreaterThan(100);
    expect(problemsOf(validators.spec, answers)).toEqual({});
  }, 60_000);
});

for (const dialect of ['spec', 'alphabite'] as const satisfies DialectName[]) {
  describe(`the ${dialect} mock answers generated requests as its document says`, () => {
    let mock: MockServer;
    let answers: ObservedAnswer[];
    beforeAll(async () => {
      mock = await startMockServer({ ...DATA, dialect });
      const requests = fc.sample(listingRequests(dialect, generateDataset(DATA), 50), { seed: 99, numRuns: 250 });
      answers = [];
      for (const { target, headers } of requests) answers.push(await observe(mock, target, headers));
    });
    afterAll(async () => {
      await mock?.close();
    });

    it('every status, header and body holds', () => {
      expect(new Set(answers.map((a) => a.status)).size).toBeGreaterThanOrEqual(dialect === 'spec' ? 3 : 4);
      expect(problemsOf(validators[dialect], answers)).toEqual({});
    });

    it("and the other dialect's document refuses its pages of records", () => {
      const other = validators[dialect === 'spec' ? 'alphabite' : 'spec'];
      // (An empty page with whole page numbers reads the same in both dialects: records differ, and keys.)
      const records = (a: ObservedAnswer) => Object.values(JSON.parse(a.body) as Record<string, unknown>).find(Array.isArray) as unknown[];
      const ok = answers.filter((a) => a.status === 200 && records(a).length > 0);
      expect(ok.length).toBeGreaterThan(50);
      expect(ok.filter((a) => !other.check(a)?.length).map((a) => a.target)).toEqual([]);
    });
  });
}

describe('the validator refuses what the document does not allow', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer(DATA);
  });
  afterAll(async () => {
    await mock?.close();
  });

  it('a tampered page (nextPage null on a wishlist page, a rating of 6, an extra key), an undocumented status, HTML', async () => {
    const page = await observe(mock, '/store/wishlists?take=2', {});
    const reviews = await observe(mock, '/store/products/reviews?limit=2', {});
    const specProblems = (answer: ObservedAnswer) => validators.spec.check(answer) ?? ['reaches no operation'];
    expect(specProblems(page)).toEqual([]);
    const tamper = (answer: ObservedAnswer, change: (body: Record<string, unknown>) => void): ObservedAnswer => {
      const body = JSON.parse(answer.body) as Record<string, unknown>;
      change(body);
      return { ...answer, body: JSON.stringify(body) };
    };
    expect(specProblems(tamper(page, (b) => (b.nextPage = null))).join()).toMatch(/nextPage must be integer/);
    expect(specProblems(tamper(reviews, (b) => ((b.reviews as Array<Record<string, unknown>>)[0]!.rating = 6))).join()).toMatch(/rating must be <= 5/);
    expect(specProblems(tamper(reviews, (b) => (b.page = 1))).join()).toMatch(/must NOT have additional properties/);
    expect(specProblems({ ...page, status: 404 }).join()).toMatch(/status 404 is not documented/);
    expect(specProblems({ ...page, body: '<html></html>' }).join()).toMatch(/not JSON/);
  });
});

describe('the alphabite mock\'s write answers hold against its document (the write routes of lib/openapi/alphabite-write-api.ts)', () => {
  const check = answerValidator(mockOpenApiDocument({ dialect: 'alphabite' }));
  let mock: MockServer;
  let seeded: MockServer;
  beforeAll(async () => {
    [mock, seeded] = await Promise.all([
      startMockServer({ ...WRITE_WORLD_DATA, dialect: 'alphabite', allowMultipleWishlists: true, publishableKeys: [WRITE_WORLD_KEY] }),
      startMockServer({ ...DATA, dialect: 'alphabite' }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([mock?.close(), seeded?.close()]);
  });

  it(`every answer to the ${WRITE_CASES.length} write cases: its status documented for its route, its headers and body valid`, async () => {
    const world = mockWriteWorld(mock.url);
    const values = caseValues(world);
    const problems: Record<string, string[]> = {};
    const statuses = new Set<number>();
    for (const c of WRITE_CASES) {
      const { url, init } = caseRequest(world, c, values);
      const res = await fetch(url, init);
      const body = await res.text();
      const found = check(c.method, url.slice(mock.url.length), res.status, res.headers, body);
      if (found.length) problems[`${c.name}: ${res.status}`] = found;
      statuses.add(res.status);
      saveFromAnswer(c, { status: res.status, body: body && res.headers.get('content-type')?.includes('json') ? (JSON.parse(body) as Json) : '' }, values);
    }
    expect(problems).toEqual({});
    expect([...statuses]).toEqual(expect.arrayContaining([200, 201, 400, 401, 404, 413, 500]));
  }, 60_000);

  it('every answer to writes over seeded wishlists (transfer, add, remove, rename, share, import, reviews)', async () => {
    const dataset = generateDataset(DATA);
    const { source } = dataset.wishlists;
    const w = [...Array(dataset.wishlists.count).keys()].find((i) => source.itemCount(i) >= 2)!;
    const id = source.wishlist(w, false).id;
    const variant = source.item((w + 1) % dataset.wishlists.count, 0).product_variant.id;
    const product = dataset.reviews.source.productId(0);
    const as = { 'x-publishable-api-key': 'pk_any', authorization: 'Bearer openapi-writer' };
    const other = { 'x-publishable-api-key': 'pk_any', authorization: 'Bearer openapi-importer' };
    let token = '';
    const steps: Array<[string, string, Record<string, string>, unknown?]> = [
      ['POST', `/store/wishlists/${id}/add-item`, as, { product_variant_id: variant }],
      ['POST', `/store/wishlists/${id}/transfer`, as],
      ['POST', `/store/wishlists/${id}/add-item?fields=id`, as, { product_variant_id: variant }],
      ['DELETE', `/store/wishlists/${id}/items/${source.item(w, 0).id}`, as],
      ['PUT', `/store/wishlists/${id}`, as, { name: 'Mine now' }],
      ['GET', `/store/wishlists/${id}`, as],
      ['GET', `/store/wishlists/${id}/items?limit=2`, as],
      ['GET', '/store/wishlists/total-items-count', as],
      ['GET', `/store/wishlists/total-items-count?wishlist_id=${id}`, as],
      ['POST', `/store/wishlists/${id}/share`, as],
      ['POST', '/store/wishlists/import', other, () => ({ share_token: token })],
      ['POST', '/store/wishlists', other, { name: 'Second', sales_channel_id: 'sc_x' }],
      ['DELETE', `/store/wishlists/${id}`, as],
      ['POST', '/store/reviews', as, { product_id: product, rating: 4, content: 'Fine.' }],
      ['GET', `/store/reviews/product/${product}/aggregate-counts`, as],
      ['GET', '/store/wishlists/settings', as],
      ['POST', '/store/reviews/files/images/upload', as],
    ];
    const problems: Record<string, string[]> = {};
    for (const [method, path, headers, body] of steps) {
      const sent = typeof body === 'function' ? (body as () => unknown)() : body;
      const res = await fetch(`${seeded.url}${path}`, { method, headers: sent === undefined ? headers : { ...headers, 'content-type': 'application/json' }, ...(sent === undefined ? {} : { body: JSON.stringify(sent) }) });
      const text = await res.text();
      if (path.endsWith('/share')) token = (JSON.parse(text) as { share_token: string }).share_token;
      const found = check(method, path, res.status, res.headers, text);
      if (found.length) problems[`${method} ${path}: ${res.status}`] = found;
    }
    expect(token).toMatch(/^eyJ/);
    expect(problems).toEqual({});
  });
});

/**
 * The ETag the mock sends is the one its document describes (components.headers.ETag): a weak
 * ETag, `W/"<length>-<hash>"` from the `etag` package Express uses, on the first answer of a page
 * (made by Express) and on the kept one (the fast path), in both dialects. Prism's validating
 * proxy (5.14) checks every answer's ETag against this schema: a strong ETag fails it.
 */
describe("the mock's ETag is the document's", () => {
  const HEADERS = { 'x-publishable-api-key': 'pk_etag', authorization: 'Bearer etag' };
  const TARGETS: Record<DialectName, string[]> = {
    spec: ['/store/products/reviews?limit=3', '/store/reviews/product/prod_x?limit=2', '/store/wishlists?take=2', '/store/wishlists?take=2&skip=1'],
    alphabite: ['/store/products/reviews', '/store/reviews/product/prod_x?limit=2', '/store/wishlists?limit=2', '/store/wishlists?limit=2&offset=1'],
  };

  for (const dialect of ['spec', 'alphabite'] as const) {
    it(`${dialect}: first and kept answers of each listing carry an ETag the document's schema accepts`, async () => {
      const document = mockOpenApiDocument({ dialect });
      const schema = (document.components.headers.ETag as { schema: object }).schema;
      const { Ajv2020 } = await import('ajv/dist/2020.js');
      const valid = new Ajv2020({ strict: false }).compile(schema);
      const mock = await startMockServer({ ...DATA, dialect });
      try {
        const seen: string[] = [];
        for (const target of TARGETS[dialect]) {
          for (const ask of ['first', 'kept']) {
            const res = await fetch(`${mock.url}${target}`, { headers: HEADERS });
            await res.arrayBuffer();
            expect(res.status, `${ask} ${target}`).toBe(200);
            const etag = res.headers.get('etag');
            expect(etag, `${ask} ${target}`).toMatch(/^W\/"[0-9a-f]+-[A-Za-z0-9+/]+"$/);
            expect(valid(etag), `${ask} ${target}: ${etag}`).toBe(true);
            seen.push(etag!);
          }
        }
        // The kept answer is the same bytes, with the same ETag.
        for (let i = 0; i < seen.length; i += 2) expect(seen[i + 1]).toBe(seen[i]);
        // The schema says something: a strong ETag, or none of the etag package's, fails it.
        expect([valid('"471-MEvyNw2r3yNSH6Xx7qUOev+kIZA"'), valid('W/""'), valid('W/471')]).toEqual([false, false, false]);
      } finally {
        await mock.close();
      }
    }, 60_000);
  }
});
