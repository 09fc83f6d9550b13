/**
 * The real backend's answers to the write routes (test/medusa/write-answers.json, recorded from
 * @alphabite/medusa-wishlist 0.7.4 and @alphabite/medusa-reviews 0.7.2 by
 * test/medusa/write-answers.medusa.test.ts) hold against the alphabite OpenAPI document: every
 * status is documented for its route and every body validates, once the golden file's
 * placeholders are given plausible values again (test/support/write-denormaliser.ts). The
 * requests' JSON bodies hold against the documented request schemas when the plugin took them,
 * and break them when it refused them as invalid. And the validator is shown to refuse.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../lib/openapi/index.ts';
import { alphabiteWriteRoutes } from '../lib/openapi/alphabite-write-api.ts';
import { answerValidator, OpenApiValidator } from './support/openapi-validator.ts';
import { WRITE_CASES, WriteNormaliser, type Json, type WriteAnswer, type WriteCase } from './support/write-cases.ts';
import { DENORMAL_WORLD, denormalise, ulidOf } from './support/write-denormaliser.ts';

const golden = JSON.parse(readFileSync(new URL('./medusa/write-answers.json', import.meta.url), 'utf8')) as WriteAnswer[];
const document = openApiDocument({ dialect: 'alphabite' });
const validator = new OpenApiValidator(document);
const check = answerValidator(document);

/** The request target with `{names}` given plausible values (the world's, or a ULID-shaped id). */
function targetOf(c: WriteCase): string {
  const values: Record<string, string> = { sc: DENORMAL_WORLD.salesChannelId, product: DENORMAL_WORLD.productId, v0: DENORMAL_WORLD.variantIds[0], v1: DENORMAL_WORLD.variantIds[1], v2: DENORMAL_WORLD.variantIds[2] };
  const prefix = (name: string) => (name.startsWith('rev') ? 'rev' : name.startsWith('item') || name === 'bitem' ? 'wli' : 'wl');
  return c.path.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? `${prefix(name)}_${ulidOf(900)}`);
}

/** The recorded answers with their requests, placeholders replaced. */
const recorded = golden.map((answer, i) => {
  const c = WRITE_CASES[i]!;
  return {
    answer,
    case: c,
    target: targetOf(c),
    headers: answer.kind === 'json' ? { 'content-type': 'application/json; charset=utf-8' } : answer.kind === 'empty' ? { 'content-length': '0' } : { 'content-type': 'text/html; charset=utf-8' },
    body: answer.kind === 'json' ? JSON.stringify(denormalise(answer.body)) : answer.kind === 'empty' ? '' : String(answer.body),
  };
});

describe('the golden file and the de-normaliser', () => {
  it('the answers are those of the write cases, in order', () => {
    expect(golden.map((a) => a.name)).toEqual(WRITE_CASES.map((c) => c.name));
  });

  it('normalising the de-normalised answers gives the golden file back', () => {
    const normaliser = new WriteNormaliser(DENORMAL_WORLD);
    expect(golden.map((a) => normaliser.normalise(denormalise(a.body)))).toEqual(golden.map((a) => a.body));
  });

  it('gives ids the real backend\'s shape, ISO times and JWTs', () => {
    expect(denormalise(['<wl:1>', '<wli:12>', '<customer:bob>', '<time>', 'Wishlist <wl:1> is gone'])).toEqual([
      expect.stringMatching(/^wl_[0-9A-HJKMNP-TV-Z]{26}$/),
      expect.stringMatching(/^wli_[0-9A-HJKMNP-TV-Z]{26}$/),
      expect.stringMatching(/^cus_[0-9A-HJKMNP-TV-Z]{26}$/),
      expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      expect.stringMatching(/^Wishlist wl_[0-9A-HJKMNP-TV-Z]{26} is gone$/),
    ]);
    const [header, payload] = (denormalise('<jwt>') as string).split('.').slice(0, 2).map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()) as Record<string, unknown>);
    expect(header).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(payload).toMatchObject({ wishlist_id: expect.stringMatching(/^wl_/) });
    expect(() => denormalise('<nope>')).toThrow(/no value for the placeholder <nope>/);
  });
});

describe('the real answers hold against the alphabite document', () => {
  it('every status is documented for its route, every body validates', () => {
    const problems: Record<string, string[]> = {};
    for (const r of recorded) {
      const found = check(r.case.method, r.target, r.answer.status, r.headers, r.body);
      if (found.length) problems[`${r.answer.name}: ${r.answer.status}`] = found;
    }
    expect(problems).toEqual({});
  });

  it('the answers reach every write route and many statuses', () => {
    const reached = new Set(recorded.map((r) => validator.operationOf(r.case.method, r.target)?.operationId));
    expect(alphabiteWriteRoutes().map((route) => route.operationId).filter((id) => !reached.has(id))).toEqual([]);
    expect([...new Set(recorded.map((r) => r.answer.status))]).toEqual(expect.arrayContaining([200, 201, 400, 401, 413, 500]));
  });

  it('the request bodies the plugins took hold against the request schemas; those they refused as invalid do not', () => {
    const taken: string[] = [];
    const refused: string[] = [];
    const problems: Record<string, string[]> = {};
    for (const r of recorded) {
      if (r.case.body === undefined) continue;
      const body = denormalise(resolveWorld(r.case.body));
      const answer = r.answer.body as { type?: string } | string;
      const accepted = [200, 201, 500].includes(r.answer.status) || (r.answer.status === 401 && typeof answer === 'object' && answer.type === 'unauthorized');
      // A 400 for the query (`add-item?foo=1`) says nothing of the body.
      const invalid = r.answer.status === 400 && typeof answer === 'object' && answer.type === 'invalid_data' && !r.case.path.includes('?');
      const found = validator.checkRequestBody(r.case.method, r.target, body);
      if (found === undefined || (!accepted && !invalid)) continue;
      if (accepted) {
        taken.push(r.answer.name);
        if (found.length) problems[`taken: ${r.answer.name}`] = found;
      } else {
        refused.push(r.answer.name);
        if (!found.length) problems[`refused: ${r.answer.name}`] = ['the request schema takes it'];
      }
    }
    expect(problems).toEqual({});
    expect(taken.length).toBeGreaterThan(15);
    expect(refused.length).toBeGreaterThan(15);
  });
});

/** A case body's `{sc}`, `{v0}`, `{product}` as the golden file's placeholders, then de-normalised. */
function resolveWorld(body: Json): Json {
  return JSON.parse(JSON.stringify(body).replace(/\{(sc|product|v\d)\}/g, '<$1>')) as Json;
}

describe('the validator refuses what the document does not allow', () => {
  const answer = (name: string) => {
    const r = recorded.find((x) => x.answer.name === name);
    if (!r) throw new Error(`no recorded answer '${name}'`);
    return r;
  };
  const tampered = (name: string, change: (body: Record<string, unknown>) => void) => {
    const r = answer(name);
    const body = JSON.parse(r.body) as Record<string, unknown>;
    change(body);
    return check(r.case.method, r.target, r.answer.status, r.headers, JSON.stringify(body)).join('\n');
  };

  it('a tampered body, a body where the plugin sends none, an undocumented status, an unknown route', () => {
    expect(tampered('alice writes a review', (b) => (b.status = 'approved'))).toMatch(/status must be equal to constant/);
    expect(tampered('alice creates "Favourites"', (b) => (b.items_count = 2))).toMatch(/items_count must be equal to constant/);
    expect(tampered('a guest renames it', (b) => (b.type = 'unauthorized'))).toMatch(/must NOT have additional properties/);
    expect(tampered('alice counts her items', (b) => (b.total_items_count = -1))).toMatch(/total_items_count must be >= 0/);
    const deleted = answer('alice deletes an unknown review');
    expect(deleted.answer.status).toBe(500);
    expect(check('DELETE', deleted.target, 500, { 'content-type': 'application/json' }, '{"message":"not found"}').join()).toMatch(/the document says no body/);
    expect(check('DELETE', deleted.target, 404, { 'content-type': 'application/json' }, '{"type":"not_found","message":"x"}').join()).toMatch(/status 404 is not documented/);
    expect(check('POST', '/store/wishlists/wl_1/items', 200, {}, '{}')).toEqual(['POST /store/wishlists/wl_1/items: no operation of the document']);
  });

  it('a request body with an unknown field or a rating out of range', () => {
    expect(validator.checkRequestBody('POST', '/store/wishlists', { sales_channel_id: 'sc_1', customer_id: 'cus_1' })?.join()).toMatch(/must NOT have additional properties/);
    expect(validator.checkRequestBody('POST', '/store/reviews', { product_id: 'prod_1', content: 'x', rating: 5.5 })?.join()).toMatch(/rating/);
    expect(validator.checkRequestBody('POST', '/store/reviews', { product_id: 'prod_1', content: 'x', rating: 5.49 })).toEqual([]);
  });

  it("the spec dialect's document has no write route", () => {
    const spec = new OpenApiValidator(openApiDocument({ dialect: 'spec' }));
    expect(recorded.filter((r) => r.case.method !== 'GET' && spec.operationOf(r.case.method, r.target)).map((r) => r.answer.name)).toEqual([]);
  });
});
