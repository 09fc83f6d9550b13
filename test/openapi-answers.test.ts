/**
 * Every answer the mock gives is one its OpenAPI document allows (status, headers, body, with
 * Ajv's JSON Schema 2020-12 validator): what the property suite receives (through a recording
 * proxy), what the hostile-input generator's GET requests to the four paths receive, and, in
 * both dialects, the answers to generated listing requests and refusals. And the validator
 * is shown to refuse: a tampered answer, another dialect's answers, an undocumented status.
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
import { OpenApiValidator, type ObservedAnswer } from './support/openapi-validator.ts';
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
