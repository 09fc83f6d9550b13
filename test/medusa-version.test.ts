/**
 * The Medusa version the alphabite dialect answers as (issue 37; docs/dialects.md, "Which Medusa
 * version the dialect answers as"): `startMockServer({ medusaVersion })`, the MSW handlers'
 * `medusaVersion` and `serve --medusa-version` answer the requests whose answers changed between
 * Medusa versions as that version does, byte for byte alike. The expected answers are what each
 * version's own code answers (its zod-helpers.js, validators, get-query-config.js and
 * relations-limit.js, run on the plugins' schemas with the zod it pins) and, for 2.13.6 and
 * 2.21.2, what a real Medusa with both plugins answered.
 */
import { request } from 'node:http';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDUSA_CHANGES } from '../lib/dialects/medusa-behaviour.ts';
import { NEWEST_MEDUSA_VERSION, OLDEST_MEDUSA_VERSION } from '../lib/dialects/medusa-versions.ts';
import { alphabiteDialect } from '../lib/dialects/alphabite.ts';
import { REASON_HEADER } from '../lib/write-reason.ts';
import { seenAnswer, type SeenAnswer } from './support/http.ts';
import { startMockServer, type MockServer } from '../mock-server/server.ts';
import { createListingHandlers, createStoreHandlers } from '../msw/index.ts';
import { runCli, startServe, type ServeProcess } from './support/cli-process.ts';

const DATA = { seed: 5, reviews: 40, products: 3, wishlists: 8, maxItems: 6 };
const KEY = { 'x-publishable-api-key': 'pk_test' };
const CUSTOMER = { ...KEY, authorization: 'Bearer medusa-version' };
const BYPASS = { onUnhandledRequest: 'bypass', onUnhandledFrame: 'bypass' } as const;
/** Versions on each side of every change (lib/dialects/medusa-behaviour.ts), and the ends of the range. */
const VERSIONS = [OLDEST_MEDUSA_VERSION, '2.15.0', '2.16.0', '2.17.0', '2.20.0', '2.20.1', NEWEST_MEDUSA_VERSION];
const originOf = (version: string) => `http://v${version.replaceAll('.', '-')}.medusa-version.store-listing-kit.test`;

type Seen = SeenAnswer;
const seen = (url: string, init: RequestInit) => seenAnswer(url, init);

const servers = new Map<string, MockServer>();
const msw = setupServer(...VERSIONS.flatMap((medusaVersion) => createStoreHandlers({ ...DATA, dialect: 'alphabite', medusaVersion, baseUrl: originOf(medusaVersion) })));
let productId: string;
let wishlistId: string;

beforeAll(async () => {
  for (const medusaVersion of VERSIONS) servers.set(medusaVersion, await startMockServer({ ...DATA, dialect: 'alphabite', medusaVersion }));
  msw.listen(BYPASS);
  const any = servers.get(NEWEST_MEDUSA_VERSION)!;
  productId = any.dataset.current.reviews.source.productId(0);
  // a wishlist with items: fields that leave out its wishlist fail on a page with records
  const { data } = (await (await fetch(`${any.url}/store/wishlists?limit=100`, { headers: CUSTOMER })).json()) as { data: Array<{ id: string }> };
  for (const { id } of data) {
    const items = (await (await fetch(`${any.url}/store/wishlists/${id}/items?limit=1`, { headers: CUSTOMER })).json()) as { count: number };
    if (items.count > 0) {
      wishlistId = id;
      break;
    }
  }
  expect(wishlistId).toBeDefined();
});

afterAll(async () => {
  msw.close();
  await Promise.all([...servers.values()].map((s) => s.close()));
});

/** The HTTP mock's and the MSW handlers' answers of one version, which must be the same bytes. */
async function answers(version: string, path: string, init: RequestInit = { headers: CUSTOMER }): Promise<Seen> {
  const [http, mocked] = await Promise.all([seen(`${servers.get(version)!.url}${path}`, init), seen(`${originOf(version)}${path}`, init)]);
  expect(mocked, `MSW against HTTP, Medusa ${version}: ${path}`).toEqual(http);
  return http;
}

const invalid = (message: string) => JSON.stringify({ type: 'invalid_data', message: `Invalid request: ${message}` });
const UNKNOWN_ERROR = '{"code":"unknown_error","type":"unknown_error","message":"An unknown error occurred."}';
const tooDeep = (fields: string) => JSON.stringify({ type: 'invalid_data', message: `The following fields expand more than the maximum of 3 allowed relations: ${fields}` });
const paths = () => ({ reviews: '/store/products/reviews', productReviews: `/store/reviews/product/${productId}`, wishlists: '/store/wishlists', wishlistItems: `/store/wishlists/${wishlistId}/items` });

describe('validation wording: zod 3 before 2.14.0, zod 4 from it (MEDUSA_CHANGES.zod4)', () => {
  // [query, zod 3 (Medusa 2.13.6, seen running), zod 4 (2.14.0 on; 2.21.2 seen running)]
  const cases: Array<[string, string, string]> = [
    ['limit=abc', "Expected type: 'number' for field 'limit', got: 'nan'", "Expected type: 'number' for field 'limit', got: 'abc'"],
    ['offset=abc', "Expected type: 'number' for field 'offset', got: 'nan'", "Expected type: 'number' for field 'offset', got: 'abc'"],
    ['limit=1&limit=2', "Expected type: 'number' for field 'limit', got: 'array'", "Expected type: 'number' for field 'limit', got: '1,2'"],
    ['with_deleted=maybe', "Expected type: 'boolean' for field 'with_deleted', got: 'string'", "Expected type: 'boolean' for field 'with_deleted', got: 'maybe'"],
    ['limit=', "Expected type: 'number' for field 'limit', got: 'string'", "Expected type: 'number' for field 'limit', got: ''"],
    ['limit[a]=1&limit=2', "Expected type: 'number' for field 'limit', got: 'array'", "Expected type: 'number' for field 'limit', got: '[object Object],2'"],
    ['fields.x=1', "Expected type: 'string' for field 'fields', got: 'object'", "Expected type: 'string' for field 'fields', got: '[object Object]'"],
    ['toString=1&limit=abc', "Expected type: 'number' for field 'limit', got: 'nan'", "Expected type: 'number' for field 'limit', got: 'abc'"],
    ['7=1&foo=2', "Unrecognized fields: '7, foo'", "Unrecognized fields: '7, foo'"],
  ];

  it.each(cases)('%s on all four listings', async (query, zod3, zod4) => {
    for (const version of VERSIONS) {
      const zod = version === OLDEST_MEDUSA_VERSION ? zod3 : zod4;
      for (const path of Object.values(paths())) {
        const answer = await answers(version, `${path}?${query}`);
        expect([answer.status, answer.body], `Medusa ${version}: ${path}?${query}`).toEqual([400, invalid(zod)]);
      }
    }
  });

  it("zod 3 reports the preprocessed fields' issues after the unknown fields, and takes an infinite rating for a number", async () => {
    const review = (version: string, query: string) => answers(version, `${paths().reviews}?${query}`);
    expect((await review(OLDEST_MEDUSA_VERSION, 'foo=1&limit=abc&offset=x&rating=9')).body).toBe(
      invalid("Unrecognized fields: 'foo'; Expected type: 'number' for field 'offset', got: 'nan'; Expected type: 'number' for field 'limit', got: 'nan'"),
    );
    expect((await review(NEWEST_MEDUSA_VERSION, 'foo=1&limit=abc&offset=x&rating=9')).body).toBe(
      invalid("Expected type: 'number' for field 'offset', got: 'x'; Expected type: 'number' for field 'limit', got: 'abc'; Value for field 'rating' too big, expected at most: '5'"),
    );
    expect((await review(OLDEST_MEDUSA_VERSION, 'fields[]=a&fields[]=b&limit=abc&foo=1')).body).toBe(
      invalid("Expected type: 'string' for field 'fields', got: 'array'; Unrecognized fields: 'foo'; Expected type: 'number' for field 'limit', got: 'nan'"),
    );
    expect((await review(NEWEST_MEDUSA_VERSION, 'fields[]=a&fields[]=b&limit=abc&foo=1')).body).toBe(
      invalid("Expected type: 'string' for field 'fields', got: 'a,b'; Expected type: 'number' for field 'limit', got: 'abc'; Unrecognized fields: 'foo'"),
    );
    expect((await review(OLDEST_MEDUSA_VERSION, 'rating=Infinity')).body).toBe(invalid("Value for field 'rating' too big, expected at most: '5'"));
    expect((await review('2.15.0', 'rating=Infinity')).body).toBe(invalid("Expected type: 'number' for field 'rating', got: 'Infinity'"));
    expect((await review(OLDEST_MEDUSA_VERSION, 'product_ids[0][a]=1')).body).toBe(invalid("Expected type: 'string' for field 'product_ids, 0', got: 'object'"));
    expect((await review(NEWEST_MEDUSA_VERSION, 'product_ids[0][a]=1')).body).toBe(invalid("Field 'product_ids, 0' is required"));
    expect((await answers(OLDEST_MEDUSA_VERSION, `${paths().wishlists}?items_fields=a&limit=x`)).body).toBe(
      invalid("Expected type: 'array' for field 'items_fields', got: 'string'; Expected type: 'number' for field 'limit', got: 'nan'"),
    );
  });

  it("the write routes' bodies too: a body that is not an object, a value's type, an array's item", async () => {
    const post = (version: string, path: string, type: string, body: string) => answers(version, path, { method: 'POST', headers: { ...CUSTOMER, 'content-type': type }, body });
    for (const [version, notObject, text] of [
      [OLDEST_MEDUSA_VERSION, "Expected type: 'object' for field '', got: 'array'", "Expected type: 'object' for field '', got: 'string'"],
      ['2.15.0', "Field '' is required", "Field '' is required"],
    ] as const) {
      expect((await post(version, '/store/wishlists', 'application/json', '[1]')).body, version).toBe(invalid(notObject));
      expect((await post(version, '/store/wishlists', 'text/plain', 'abc')).body, version).toBe(invalid(text));
    }
    const review = JSON.stringify({ content: 1, rating: 'x', product_id: true, foo: 1 });
    expect((await post(OLDEST_MEDUSA_VERSION, '/store/reviews', 'application/json', review)).body).toBe(
      invalid("Expected type: 'string' for field 'content', got: 'number'; Expected type: 'string' for field 'product_id', got: 'boolean'; Unrecognized fields: 'foo'"),
    );
    expect((await post(NEWEST_MEDUSA_VERSION, '/store/reviews', 'application/json', review)).body).toBe(
      invalid("Expected type: 'string' for field 'content', got: '1'; Expected type: 'number' for field 'rating', got: 'x'; Expected type: 'string' for field 'product_id', got: 'true'"),
    );
    const items = JSON.stringify({ content: 'a', rating: 9, product_id: 'p', image_urls: [1, 'a', null] });
    expect((await post(OLDEST_MEDUSA_VERSION, '/store/reviews', 'application/json', items)).body).toBe(
      invalid("Expected type: 'string' for field 'image_urls, 0', got: 'number'; Expected type: 'string' for field 'image_urls, 2', got: 'null'; Value for field 'rating' too big, expected at most: '5'"),
    );
    expect((await post(NEWEST_MEDUSA_VERSION, '/store/reviews', 'application/json', items)).body).toBe(
      invalid("Value for field 'rating' too big, expected at most: '5'; Field 'image_urls, 0' is required; Field 'image_urls, 2' is required"),
    );
  });
});

describe('fields: through an unknown relation before 2.16.0, the relations limit from 2.20.0, order stripped from 2.20.1', () => {
  it('a field five relations deep: a 500 before 2.16 (empty on 4.1, 4.3, 4.4; unknown_error on 4.2), answered from 2.16, a 400 from 2.20', async () => {
    const p = paths();
    for (const version of VERSIONS) {
      const before216 = version === OLDEST_MEDUSA_VERSION || version === '2.15.0';
      const limited = version.startsWith('2.20') || version === NEWEST_MEDUSA_VERSION;
      for (const [path, fields] of [
        [p.reviews, 'a.b.c.d.e'],
        [p.productReviews, 'a.b.c.d.e'],
        [p.wishlists, 'a.b.c.d.e'],
        // a modifier keeps the defaults (and so the wishlist the route reads)
        [p.wishlistItems, '%2Ba.b.c.d.e'],
      ] as const) {
        const answer = await answers(version, `${path}?fields=${fields}`);
        const what = `Medusa ${version}: ${path}?fields=${fields}`;
        if (limited) expect([answer.status, answer.body], what).toEqual([400, tooDeep('a.b.c.d.e')]);
        else if (!before216) expect(answer.status, what).toBe(200);
        else if (path === p.productReviews) expect([answer.status, answer.body], what).toEqual([500, UNKNOWN_ERROR]);
        else expect([answer.status, answer.body, answer.contentType], what).toEqual([500, '', null]);
      }
    }
  });

  it('before 2.16, 4.1 and 4.2 fail on any dot (the routes pass the characters of fields on) and 4.3, 4.4 on a relation their records lack', async () => {
    const p = paths();
    for (const version of [OLDEST_MEDUSA_VERSION, '2.16.0']) {
      const fails = version === OLDEST_MEDUSA_VERSION;
      const status = async (path: string) => (await answers(version, path)).status;
      expect(await status(`${p.reviews}?fields=customer.first_name`), version).toBe(fails ? 500 : 200);
      expect(await status(`${p.productReviews}?fields=%2Bproduct.title`), version).toBe(fails ? 500 : 200);
      expect(await status(`${p.productReviews}?fields=*foo`), version).toBe(fails ? 500 : 200);
      expect(await status(`${p.wishlists}?fields=%2Bwishlist.id`), version).toBe(fails ? 500 : 200);
      expect(await status(`${p.wishlistItems}?fields=%2Bitems.id`), version).toBe(fails ? 500 : 200);
      // what the records have, or the module links: answered on every version
      expect(await status(`${p.productReviews}?fields=*customer`), version).toBe(200);
      expect(await status(`${p.wishlists}?fields=%2Bitems.wishlist.id`), version).toBe(200);
      expect(await status(`${p.wishlistItems}?fields=%2Bwishlist.items.id`), version).toBe(200);
      expect(await status(`${p.wishlistItems}?fields=%2Bproduct_variant.product.variants.product.id`), version).toBe(200);
      // an unknown wishlist too: the query fails before it finds nothing
      expect(await status(`/store/wishlists/wl_NOT_A_WISHLIST/items?fields=a.b`), version).toBe(fails ? 500 : 200);
    }
    const reason = (await answers(OLDEST_MEDUSA_VERSION, `${p.wishlists}?fields=%2Bwishlist.id`)).reason;
    expect(reason).toMatch(/relation the records lack.*before 2\.16/);
  });

  it('order and orders are taken out of fields before the relations limit from 2.20.1; on 2.20.0 they count', async () => {
    expect(await answers('2.20.0', `${paths().reviews}?fields=order.a.b.c.d`)).toMatchObject({ status: 400, body: tooDeep('order.a.b.c.d') });
    expect((await answers('2.20.1', `${paths().reviews}?fields=order.a.b.c.d`)).status).toBe(200);
    expect((await answers(NEWEST_MEDUSA_VERSION, `${paths().wishlists}?fields=a.b.c.d.e,orders.x.y.z.w`)).body).toBe(tooDeep('a.b.c.d.e'));
  });

  it("a modifier is stripped one character at a time before 2.20.0 (`- wishlist` removes nothing), whole from it (the wishlist is left out: 4.4's empty 500)", async () => {
    const path = `${paths().wishlistItems}?fields=-%20wishlist`;
    expect((await answers('2.17.0', path)).status).toBe(200);
    expect(await answers('2.20.0', path)).toMatchObject({ status: 500, body: '', reason: 'fields leaves out the wishlist, which the route reads from the first item it lists' });
  });
});

describe("body-parser errors: Medusa's 500 before 2.17.0, the parser's status from it", () => {
  it('malformed JSON and a JSON scalar', async () => {
    for (const body of ['{bad', '"x"']) {
      const init = { method: 'POST', headers: { ...CUSTOMER, 'content-type': 'application/json' }, body };
      expect(await answers('2.16.0', '/store/wishlists', init), body).toMatchObject({ status: 500, body: UNKNOWN_ERROR });
      const parsed = await answers('2.17.0', '/store/wishlists', init);
      expect([parsed.status, JSON.parse(parsed.body).type], body).toEqual([400, 'invalid_data']);
    }
  });
});

describe('the option', () => {
  it('defaults to the newest tested version, which the banner, the summary and GET /__admin/config name', async () => {
    expect(alphabiteDialect().medusa?.version).toBe(NEWEST_MEDUSA_VERSION);
    expect(alphabiteDialect({ medusaVersion: '2.15.0' }).summary).toContain('on Medusa 2.15.0');
    const config = (await (await fetch(`${servers.get('2.17.0')!.url}/__admin/config`)).json()) as { server: { medusaVersion?: string } };
    expect(config.server.medusaVersion).toBe('2.17.0');
  });

  const refusals: Array<[unknown, string]> = [
    ['3.0.0', "got '3.0.0'"],
    ['2.13.5', "got '2.13.5'"],
    [bumped(NEWEST_MEDUSA_VERSION), `got '${bumped(NEWEST_MEDUSA_VERSION)}'`],
    ['2.15', "got '2.15'"],
    ['v2.15.0', "got 'v2.15.0'"],
    ['02.15.0', "got '02.15.0'"],
    [2.15, 'got number'],
  ];
  const sentence = `expected a Medusa version x.y.z from ${OLDEST_MEDUSA_VERSION} (the oldest the published plugins accept) to ${NEWEST_MEDUSA_VERSION} (the newest the kit is tested on), such as 2.15.0, `;

  it.each(refusals)('startMockServer and the MSW handlers refuse %s up front, in one sentence naming the range', async (medusaVersion, got) => {
    const message = `medusaVersion: ${sentence}${got}`;
    await expect(startMockServer({ dialect: 'alphabite', medusaVersion: medusaVersion as string })).rejects.toThrow(new RangeError(message));
    expect(() => createStoreHandlers({ dialect: 'alphabite', medusaVersion: medusaVersion as string })).toThrow(new RangeError(message));
    expect(() => createListingHandlers({ dialect: 'alphabite', medusaVersion: medusaVersion as string })).toThrow(new RangeError(message));
  });

  it('the spec dialect has no Medusa: a TypeError', async () => {
    await expect(startMockServer({ medusaVersion: '2.15.0' })).rejects.toThrow(TypeError);
    expect(() => createListingHandlers({ dialect: 'spec', medusaVersion: '2.15.0' })).toThrow(/alphabite dialect only/);
  });

  it('serve refuses a version outside the range with exit 2, in one sentence naming it', async () => {
    const run = await runCli(['serve', '--port', '0', '--dialect', 'alphabite', '--medusa-version', '3.0.0']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${sentence}got '3.0.0'.`);
    expect(run.stdout).toBe('');
    const spec = await runCli(['serve', '--port', '0', '--medusa-version', '2.15.0']);
    expect([spec.code, spec.stderr.trim()]).toEqual([2, 'error: --medusa-version is the Medusa the published plugins run on, read by the alphabite dialect only (the spec dialect has none): add --dialect alphabite']);
  });

  it('serve --help names the option, its range and its default', async () => {
    const help = (await runCli(['serve', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).toContain(`--medusa-version <version> with --dialect alphabite: which Medusa the plugins run on, a Medusa version x.y.z from ${OLDEST_MEDUSA_VERSION}`);
    expect(help).toContain(`(default ${NEWEST_MEDUSA_VERSION})`);
  });
});

describe('serve --medusa-version answers as startMockServer({ medusaVersion }), byte for byte', () => {
  let serve: ServeProcess;
  beforeAll(async () => {
    serve = await startServe(['--dialect', 'alphabite', '--medusa-version', OLDEST_MEDUSA_VERSION, '--seed', String(DATA.seed), '--reviews', String(DATA.reviews), '--products', String(DATA.products), '--wishlists', String(DATA.wishlists), '--max-items', String(DATA.maxItems)]);
  });
  afterAll(async () => {
    serve?.child.kill('SIGTERM');
    await serve?.exited;
  });

  it('the version-dependent requests', async () => {
    expect(serve.stdout()).toContain(`on Medusa ${OLDEST_MEDUSA_VERSION}`);
    const p = paths();
    const targets = [
      `${p.reviews}?limit=abc`,
      `${p.productReviews}?limit=1&limit=2`,
      `${p.wishlists}?with_deleted=maybe`,
      `${p.wishlistItems}?offset=abc`,
      `${p.reviews}?fields=a.b.c.d.e`,
      `${p.productReviews}?fields=a.b.c.d.e`,
      `${p.wishlists}?fields=a.b.c.d.e`,
      `${p.wishlistItems}?fields=a.b.c.d.e`,
      `${p.reviews}?foo=1&limit=abc&offset=x&rating=9`,
    ];
    for (const target of targets) {
      const [cli, api] = await Promise.all([seen(`${serve.url}${target}`, { headers: CUSTOMER }), answers(OLDEST_MEDUSA_VERSION, target)]);
      expect(cli, target).toEqual(api);
    }
    const write = { method: 'POST', headers: { ...CUSTOMER, 'content-type': 'application/json' }, body: '{bad' };
    expect(await seen(`${serve.url}/store/wishlists`, write)).toEqual(await answers(OLDEST_MEDUSA_VERSION, '/store/wishlists', write));
  });
});

describe('with workers, every worker answers as the version', () => {
  it('startMockServer({ workers: 2, medusaVersion }): the same bytes as one process, and a refused value before any worker starts', async () => {
    const cluster = await startMockServer({ ...DATA, dialect: 'alphabite', medusaVersion: OLDEST_MEDUSA_VERSION, workers: 2 });
    try {
      const target = `${paths().reviews}?limit=abc`;
      const one = await answers(OLDEST_MEDUSA_VERSION, target);
      // each request on a connection of its own: consecutive connections go to the workers in turn
      for (let i = 0; i < 4; i++) expect(await onNewConnection(`${cluster.url}${target}`), `request ${i}`).toEqual(one);
      const config = JSON.parse((await onNewConnection(`${cluster.url}/__admin/config`)).body) as { server: { medusaVersion?: string; workers: number } };
      expect(config.server).toMatchObject({ medusaVersion: OLDEST_MEDUSA_VERSION, workers: 2 });
    } finally {
      await cluster.close();
    }
    await expect(startMockServer({ ...DATA, dialect: 'alphabite', medusaVersion: '2.13', workers: 2 })).rejects.toThrow(RangeError);
  }, 60_000);
});

describe('docs/dialects.md', () => {
  it('lists every change with its version and the Medusa files it comes from', async () => {
    const { readFile } = await import('node:fs/promises');
    const text = await readFile(new URL('../docs/dialects.md', import.meta.url), 'utf8');
    const section = text.slice(text.indexOf('## Which Medusa version the dialect answers as'), text.indexOf('## Which dialect a server speaks'));
    for (const [name, change] of Object.entries(MEDUSA_CHANGES)) {
      expect(section, name).toMatch(new RegExp(`^\\| ${change.since.replaceAll('.', '\\.')} \\|`, 'm'));
      const files = change.source.match(/@medusajs\/[a-z-]+@[\d.]+\/[^\s,;)]+/g) ?? [];
      expect(files.length, name).toBeGreaterThan(0);
      for (const file of files) expect(section, `${name}: ${file}`).toContain(file);
    }
  });
});

/** A GET on a connection of its own (no keep-alive pool, so that a cluster gives it to the next worker). */
function onNewConnection(url: string): Promise<Seen> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, headers: CUSTOMER }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType: res.headers['content-type'] ?? null, reason: (res.headers[REASON_HEADER] as string | undefined) ?? null, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The version after `version` (its patch plus one): past the newest the kit is tested on. */
function bumped(version: string): string {
  const [major, minor, patch] = version.split('.').map(Number);
  return `${major}.${minor}.${patch! + 1}`;
}
