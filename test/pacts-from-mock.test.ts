import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MatchersV3 } from '@pact-foundation/pact';
import { afterAll, describe, expect, it } from 'vitest';
import { boolean, constrainedArrayLike, eachLike, integer, like, number, regex } from '../lib/pact-matchers.ts';
import { LEFT_OUT } from '../lib/pact-recording.ts';
import { PROVIDER_STATES_PATH } from '../lib/provider-states.ts';
import { startMockServer, type MockServer } from '../mock-server/server.ts';
import { runCli, startServe } from './support/cli-process.ts';
import { BREAKAGES, startBrokenProvider } from './support/pact-broken-providers.ts';

// Issue 30: a consumer's own pacts, recorded by the mock from the requests it makes under
// provider states (serve --pact-consumer), and verified as the kit's own are.

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'slk-pacts-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const ADMIN = { 'content-type': 'application/json' };

async function setState(mock: MockServer, state: string, params: Record<string, unknown> = {}): Promise<void> {
  const response = await fetch(`${mock.url}${PROVIDER_STATES_PATH}`, { method: 'POST', headers: ADMIN, body: JSON.stringify({ state, params }) });
  expect(response.status, await response.clone().text()).toBe(200);
  await response.text();
}

async function tearDown(mock: MockServer): Promise<void> {
  const response = await fetch(`${mock.url}${PROVIDER_STATES_PATH}`, { method: 'POST', headers: ADMIN, body: JSON.stringify({ state: 'reviews exist', action: 'teardown' }) });
  expect(response.status).toBe(200);
  await response.text();
}

async function get(mock: MockServer, path: string, headers: Record<string, string> = {}): Promise<number> {
  const response = await fetch(`${mock.url}${path}`, { headers });
  await response.arrayBuffer();
  return response.status;
}

async function adminPacts(mock: MockServer, method: 'GET' | 'POST'): Promise<{ status: number; body: any }> {
  const response = await fetch(`${mock.url}/__admin/pacts`, { method, headers: method === 'POST' ? ADMIN : {} });
  return { status: response.status, body: await response.json() };
}

const PRODUCT = 'prod_01MYSHOPPRODUCT00000000001';
const WISHLIST = 'wl_01MYSHOPWISHLIST0000000001';

/** The storefront's test suite: the same requests, in the order given by `order` (states and requests). */
async function storefrontSuite(mock: MockServer, order: 'forwards' | 'backwards' = 'forwards'): Promise<void> {
  const steps: Array<() => Promise<void>> = [
    async () => {
      await setState(mock, 'reviews exist', { count: 12 });
      expect(await get(mock, '/store/products/reviews?limit=5&offset=5')).toBe(200);
      expect(await get(mock, '/store/products/reviews?offset=5&limit=5')).toBe(200); // the same request: one interaction
      expect(await get(mock, '/store/products/reviews?limit=-5')).toBe(400);
      expect(await get(mock, '/store/wishlists?take=5')).toBe(200); // not fixed by "reviews exist"
      await tearDown(mock);
    },
    async () => {
      await setState(mock, 'product has reviews', { product_id: PRODUCT, count: 7 });
      expect(await get(mock, `/store/reviews/product/${PRODUCT}?limit=5&offset=5`)).toBe(200);
      await tearDown(mock);
    },
    async () => {
      await setState(mock, 'wishlist has items', { wishlist_id: WISHLIST, count: 3 });
      expect(await get(mock, `/store/wishlists/${WISHLIST}/items?take=10`)).toBe(200);
      await tearDown(mock);
    },
  ];
  for (const step of order === 'forwards' ? steps : [...steps].reverse()) await step();
  // Under no state: the seeded dataset, which no provider can set up.
  expect(await get(mock, '/store/products/reviews')).toBe(200);
}

describe('serve --pact-consumer: the requests under provider states become interactions', () => {
  it("pins page numbers exactly, records by type with the dialect's id patterns, errors by status and type; one interaction per request and state", async () => {
    const dir = tempDir();
    const mock = await startMockServer({ seed: 1, pactConsumer: 'my-shop', pactDir: dir });
    try {
      await storefrontSuite(mock);
      const report = (await adminPacts(mock, 'GET')).body;
      expect(report.consumer).toBe('my-shop');
      expect(report.interactions).toEqual({ 'product-reviews': 3, wishlist: 1 });
      const reasons = report.leftOut.map((l: { reason: string; count: number; first: string }) => [l.reason, l.count, l.first]);
      expect(reasons).toContainEqual([LEFT_OUT.noState, 1, 'GET /store/products/reviews']);
      expect(reasons).toContainEqual([expect.stringContaining("the state 'reviews exist', which does not fix what /store/wishlists answers"), 1, 'GET /store/wishlists']);
      const written = await adminPacts(mock, 'POST');
      expect(written.status).toBe(200);
      expect(written.body.written).toEqual([join(dir, 'my-shop-product-reviews.json'), join(dir, 'my-shop-wishlist.json')]);
    } finally {
      await mock.close();
    }
    const pact = JSON.parse(readFileSync(join(dir, 'my-shop-product-reviews.json'), 'utf8'));
    expect(pact.consumer).toEqual({ name: 'my-shop' });
    expect(pact.provider).toEqual({ name: 'product-reviews' });
    expect(pact.metadata.pactSpecification.version).toBe('4.0');
    const byDescription = new Map(pact.interactions.map((i: any) => [i.description, i]));
    const middle: any = byDescription.get('GET /store/products/reviews?limit=5&offset=5');
    expect(middle.providerStates).toEqual([{ name: 'reviews exist', params: { count: 12 } }]);
    expect(middle.request).toEqual({ method: 'GET', path: '/store/products/reviews', query: { limit: ['5'], offset: ['5'] } });
    const content = middle.response.body.content;
    expect({ ...content, reviews: content.reviews.length }).toEqual({ reviews: 5, count: 12, offset: 5, limit: 5, currentPage: 2, totalPages: 3, nextPage: 3, prevPage: 1 });
    expect(middle.response.matchingRules.body['$.reviews']).toEqual({ combine: 'AND', matchers: [{ match: 'type', min: 5, max: 5 }] });
    expect(middle.response.matchingRules.body['$.reviews[*].id']).toEqual({ combine: 'AND', matchers: [{ match: 'regex', regex: '^rev_\\S+$' }] });
    expect(middle.response.matchingRules.body['$.count']).toBeUndefined();
    const refused: any = byDescription.get('GET /store/products/reviews?limit=-5');
    expect(refused.response.status).toBe(400);
    expect(refused.response.body.content.type).toBe('invalid_data');
    expect(refused.response.matchingRules.body).toEqual({ '$.message': { combine: 'AND', matchers: [{ match: 'type' }] } });
    // 4.2 pins the product of the state; 12 - 5 = 2 on the second page of 7.
    const product: any = byDescription.get(`GET /store/reviews/product/${PRODUCT}?limit=5&offset=5`);
    expect(product.response.body.content.reviews).toHaveLength(2);
    expect(product.response.body.content.reviews[0].product_id).toBe(PRODUCT);
    expect(product.response.matchingRules.body['$.reviews[*].product_id']).toBeUndefined();
    const wishlists = JSON.parse(readFileSync(join(dir, 'my-shop-wishlist.json'), 'utf8'));
    const items = wishlists.interactions[0];
    expect(items.response.body.content).toMatchObject({ count: 3, take: 10, skip: 0, currentPage: 1, totalPages: 1 });
    expect(items.response.matchingRules.body['$.data[*].id']).toEqual({ combine: 'AND', matchers: [{ match: 'regex', regex: '^wli_\\S+$' }] });
  });

  it('writes the same bytes for the same requests, whatever their order; and merges with the files there', async () => {
    const [first, second] = [tempDir(), tempDir()];
    for (const [dir, order] of [
      [first, 'forwards'],
      [second, 'backwards'],
    ] as const) {
      const mock = await startMockServer({ seed: order === 'forwards' ? 1 : 9, pactConsumer: 'my-shop', pactDir: dir });
      await storefrontSuite(mock, order);
      await mock.close(); // the stop writes them
    }
    for (const name of ['my-shop-product-reviews.json', 'my-shop-wishlist.json']) expect(readFileSync(join(second, name))).toEqual(readFileSync(join(first, name)));
    const before = readFileSync(join(first, 'my-shop-product-reviews.json'), 'utf8');
    // A later run asks for one more page: the file keeps the earlier interactions and gains one.
    const mock = await startMockServer({ seed: 1, pactConsumer: 'my-shop', pactDir: first });
    await setState(mock, 'no reviews exist');
    expect(await get(mock, '/store/products/reviews?limit=5')).toBe(200);
    await mock.close();
    const merged = JSON.parse(readFileSync(join(first, 'my-shop-product-reviews.json'), 'utf8'));
    expect(merged.interactions.map((i: any) => i.description)).toEqual([...JSON.parse(before).interactions.map((i: any) => i.description), 'GET /store/products/reviews?limit=5'].sort());
    expect(readFileSync(join(first, 'my-shop-wishlist.json'), 'utf8')).toBe(readFileSync(join(second, 'my-shop-wishlist.json'), 'utf8'));
  });

  it('refuses to merge into a file that is not a pact of the pair (409, one sentence), and writes nothing when nothing was recorded', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'my-shop-product-reviews.json'), 'not json');
    const mock = await startMockServer({ seed: 1, pactConsumer: 'my-shop', pactDir: dir });
    const unmade = await startMockServer({ seed: 1, pactConsumer: 'my-shop', pactDir: join(dir, 'not-yet') });
    try {
      expect((await adminPacts(mock, 'POST')).body.written).toEqual([]);
      expect((await adminPacts(unmade, 'POST')).body.written).toEqual([]);
      await unmade.close();
      await setState(mock, 'reviews exist', { count: 3 });
      expect(await get(mock, '/store/products/reviews')).toBe(200);
      const refused = await adminPacts(mock, 'POST');
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({ type: 'conflict', message: 'my-shop-product-reviews.json is there but is not JSON: move it away, or choose another pact directory' });
      // A POST without what a web page cannot send is refused, as every admin change.
      expect((await fetch(`${mock.url}/__admin/pacts`, { method: 'POST' })).status).toBe(415);
    } finally {
      await expect(mock.close()).rejects.toThrow(/is not JSON/);
    }
    expect(readdirSync(dir)).toEqual(['my-shop-product-reviews.json']);
  });

  it('after a write under the state, listings are left out and named', async () => {
    const dir = tempDir();
    const mock = await startMockServer({ seed: 1, dialect: 'alphabite', pactConsumer: 'my-shop', pactDir: dir });
    // A customer's JWT (the mock reads its actor_id; docs/writes.md).
    const jwt = ['{"alg":"none"}', '{"actor_id":"cus_01MYSHOP"}'].map((part) => Buffer.from(part).toString('base64url')).join('.') + '.sig';
    const sdk = { 'x-publishable-api-key': 'pk_test', authorization: `Bearer ${jwt}` };
    try {
      await setState(mock, 'wishlists exist', { count: 4 });
      expect(await get(mock, '/store/wishlists?limit=2&offset=0', sdk)).toBe(200);
      expect(await get(mock, '/store/products/reviews?limit=2', {})).toBe(400); // no publishable key: Medusa's refusal
      const created = await fetch(`${mock.url}/store/wishlists`, { method: 'POST', headers: { ...sdk, 'content-type': 'application/json' }, body: JSON.stringify({ sales_channel_id: 'sc_01MYSHOP' }) });
      expect(created.status, await created.text()).toBeLessThan(300);
      expect(await get(mock, '/store/wishlists?limit=2&offset=0', sdk)).toBe(200);
      const report = (await adminPacts(mock, 'GET')).body;
      expect(report.interactions).toEqual({ 'product-reviews': 1, wishlist: 1 });
      expect(report.leftOut.map((l: any) => [l.reason, l.count])).toEqual([
        [LEFT_OUT.write, 1],
        [LEFT_OUT.changed, 1],
      ]);
    } finally {
      await mock.close();
    }
    // The alphabite dialect: the SDK's headers as matchers (any key, any bearer token), its envelope's numbers exact.
    const pact = JSON.parse(readFileSync(join(dir, 'my-shop-wishlist.json'), 'utf8'));
    const [interaction] = pact.interactions;
    expect(interaction.description).toBe('GET /store/wishlists?limit=2&offset=0 with a publishable key and a bearer token');
    expect(interaction.request.headers).toEqual({ 'x-publishable-api-key': ['pk_storefront_example'], authorization: ['Bearer customer-jwt-example'] });
    expect(interaction.request.matchingRules.header).toEqual({
      'x-publishable-api-key': { combine: 'AND', matchers: [{ match: 'regex', regex: '^\\S+$' }] },
      authorization: { combine: 'AND', matchers: [{ match: 'regex', regex: '^Bearer \\S+$' }] },
    });
    expect(interaction.response.body.content).toMatchObject({ count: 4, currentPage: 1, totalPages: 2 });
    const reviews = JSON.parse(readFileSync(join(dir, 'my-shop-product-reviews.json'), 'utf8'));
    expect(reviews.interactions[0].request.headers).toBeUndefined();
    expect(reviews.interactions[0].response).toMatchObject({ status: 400, body: { content: { type: 'not_allowed' } } });
  });

  it('refuses options it cannot honour, with one sentence', async () => {
    await expect(startMockServer({ pactConsumer: '../etc' })).rejects.toThrow(/a pact consumer is named by 1 to 100 letters/);
    await expect(startMockServer({ pactConsumer: 'wishlist' })).rejects.toThrow(/cannot be named like a provider/);
    await expect(startMockServer({ pactDir: '/tmp/x' })).rejects.toThrow(/give pactConsumer too/);
    await expect(startMockServer({ pactConsumer: 'my-shop', workers: 2 })).rejects.toThrow(/leave out workers/);
  });

  it("makes Pact's matchers as Pact's JavaScript does (the kit's pacts come out of Pact unchanged)", () => {
    const template = { a: like('x'), b: regex(/^a\S+$/, 'ab'), c: integer(3), d: number(1.5), e: boolean(true), f: eachLike({ g: 1 }, 0), h: constrainedArrayLike({ i: 2 }, 2, 2, 2) };
    const pacts = {
      a: MatchersV3.like('x'),
      b: MatchersV3.regex(/^a\S+$/, 'ab'),
      c: MatchersV3.integer(3),
      d: MatchersV3.number(1.5),
      e: MatchersV3.boolean(true),
      f: MatchersV3.eachLike({ g: 1 }, 0),
      h: MatchersV3.constrainedArrayLike({ i: 2 }, 2, 2, 2),
    };
    expect(JSON.parse(JSON.stringify(template))).toEqual(JSON.parse(JSON.stringify(pacts)));
  });
});

describe('verify --consumer --pact-dir: the recorded pacts replay like the kit\'s own', () => {
  it('pass against the mock (its provider-state door) and fail against a broken provider', async () => {
    const dir = tempDir();
    const recorder = await startMockServer({ seed: 1, pactConsumer: 'my-shop', pactDir: dir });
    await storefrontSuite(recorder);
    await recorder.close();
    const mock = await startMockServer({ seed: 3 });
    try {
      const run = await runCli(['verify', '--provider-base-url', mock.url, '--consumer', 'my-shop', '--pact-dir', dir]);
      expect(run.stderr).toBe('');
      expect(run.stdout).toMatch(/PASS product-reviews: 3 of 3 interactions passed.*the pacts of my-shop/);
      expect(run.stdout).toMatch(/PASS wishlist: 1 of 1 interaction passed/);
      expect(run.code).toBe(0);
    } finally {
      await mock.close();
    }
    const broken = await startBrokenProvider(BREAKAGES.countAsString);
    try {
      const run = await runCli(['verify', '--provider-base-url', broken.url, '--consumer', 'my-shop', '--pact-dir', dir, '--provider', 'product-reviews']);
      expect(run.stdout).toMatch(/FAIL product-reviews: 2 of 3 interactions failed/);
      expect(run.code).toBe(1);
    } finally {
      await broken.close();
    }
  });

  it('in the alphabite dialect: the headers are matchers, replaced by verify --header', async () => {
    const dir = tempDir();
    const recorder = await startMockServer({ seed: 2, dialect: 'alphabite', pactConsumer: 'sdk-shop', pactDir: dir });
    const sdk = { 'x-publishable-api-key': 'pk_recorded', authorization: 'Bearer recorded-token' };
    await setState(recorder, 'wishlists exist', { count: 7 });
    for (const path of ['/store/wishlists?limit=3&offset=3', '/store/wishlists?limit=3&offset=6']) expect(await get(recorder, path, sdk)).toBe(200);
    await setState(recorder, 'product has reviews', { product_id: PRODUCT, count: 6 });
    expect(await get(recorder, `/store/reviews/product/${PRODUCT}?limit=4&offset=4`, sdk)).toBe(200);
    await recorder.close();
    const mock = await startMockServer({ seed: 8, dialect: 'alphabite', publishableKeys: ['pk_ci'] });
    try {
      const run = await runCli(['verify', '--provider-base-url', mock.url, '--dialect', 'alphabite', '--consumer', 'sdk-shop', '--pact-dir', dir, '--header', 'x-publishable-api-key: pk_ci', '--header', 'authorization: Bearer ci-token']);
      expect(run.stdout).toMatch(/PASS product-reviews: 1 of 1 interaction passed/);
      expect(run.stdout).toMatch(/PASS wishlist: 2 of 2 interactions passed/);
      expect(run.code).toBe(0);
    } finally {
      await mock.close();
    }
  });

  it('serve --pact-consumer writes the pacts at stop and says what it left out; verify names a consumer without pacts', async () => {
    const dir = tempDir();
    const serve = await startServe(['--pact-consumer', 'cli-shop', '--pact-dir', dir]);
    expect(serve.stdout()).toContain(`pacts: the requests of 'cli-shop' under provider states, into ${dir}`);
    const post = await fetch(`${serve.url}${PROVIDER_STATES_PATH}`, { method: 'POST', headers: ADMIN, body: JSON.stringify({ state: 'wishlists exist', params: { count: 2 } }) });
    expect(post.status).toBe(200);
    await post.text();
    for (const path of ['/store/wishlists?take=1', '/store/wishlists?take=1', '/store/products/reviews']) await (await fetch(`${serve.url}${path}`)).text();
    serve.child.kill('SIGTERM');
    expect(await serve.exited).toBe(0);
    expect(serve.stdout()).toContain(`pacts of 'cli-shop': 1 interaction in ${join(dir, 'cli-shop-wishlist.json')}`);
    expect(serve.stdout()).toContain("1 request left out: under the state 'wishlists exist', which does not fix what /store/products/reviews answers");
    const none = await runCli(['verify', '--provider-base-url', serve.url, '--consumer', 'nobody', '--pact-dir', dir]);
    expect(none.code).toBe(2);
    // The consumers there are named: one sentence.
    expect(none.stderr).toBe(`error: no pact of 'nobody' in ${dir}: the consumer with pacts there is 'cli-shop'\n`);
    const noneWith = await runCli(['verify', '--provider-base-url', serve.url, '--consumer', 'nobody', '--pact-dir', dir, '--provider', 'product-reviews']);
    expect([noneWith.code, noneWith.stderr]).toEqual([2, `error: no pact between 'nobody' and 'product-reviews' in ${dir}: there is no pact with 'product-reviews' there; the consumer with pacts there is 'cli-shop'\n`]);
  });

  it("serve --pact-consumer, then verify --pact-dir <dir> alone: every pact in the folder, of any consumer, as Pact's verifier reads a folder", async () => {
    const dir = tempDir();
    for (const [consumer, seed] of [['shop-a', 1], ['shop-b', 2]] as const) {
      const recorder = await startMockServer({ seed, pactConsumer: consumer, pactDir: dir });
      await storefrontSuite(recorder);
      await recorder.close();
    }
    const mock = await startMockServer({ seed: 3 });
    try {
      const run = await runCli(['verify', '--provider-base-url', mock.url, '--pact-dir', dir]);
      expect(run.stderr).toBe('');
      expect(run.stdout).toMatch(/PASS product-reviews: 3 of 3 interactions passed \(the pacts of shop-a\)/);
      expect(run.stdout).toMatch(/PASS product-reviews: 3 of 3 interactions passed \(the pacts of shop-b\)/);
      expect(run.stdout).toMatch(/PASS wishlist: 1 of 1 interaction passed \(the pacts of shop-a\)/);
      expect(run.stdout).toMatch(/PASS wishlist: 1 of 1 interaction passed \(the pacts of shop-b\)/);
      expect(run.code).toBe(0);
      // A folder without a pact: one sentence, exit 2.
      const empty = tempDir();
      const none = await runCli(['verify', '--provider-base-url', mock.url, '--pact-dir', empty]);
      expect([none.code, none.stderr]).toEqual([2, `error: no pact with 'product-reviews' or 'wishlist' in ${empty}: there is no pact there\n`]);
    } finally {
      await mock.close();
    }
  });

  it('one default folder: serve --pact-consumer writes ./pacts, and verify --consumer reads ./pacts (the kit\'s own pacts stay the default without --consumer)', async () => {
    const project = tempDir();
    const serve = await startServe(['--pact-consumer', 'cwd-shop'], 20_000, undefined, project);
    const post = await fetch(`${serve.url}${PROVIDER_STATES_PATH}`, { method: 'POST', headers: ADMIN, body: JSON.stringify({ state: 'wishlists exist', params: { count: 2 } }) });
    expect(post.status).toBe(200);
    await post.text();
    await (await fetch(`${serve.url}/store/wishlists?take=1`)).text();
    serve.child.kill('SIGTERM');
    expect(await serve.exited).toBe(0);
    expect(readdirSync(join(project, 'pacts'))).toEqual(['cwd-shop-wishlist.json']);
    const mock = await startMockServer({ seed: 3 });
    try {
      const own = await runCli(['verify', '--provider-base-url', mock.url, '--consumer', 'cwd-shop'], 120_000, project);
      expect(own.stderr).toBe('');
      expect(own.stdout).toMatch(/PASS wishlist: 1 of 1 interaction passed \(the pacts of cwd-shop\)/);
      expect(own.code).toBe(0);
      const other = await runCli(['verify', '--provider-base-url', mock.url, '--consumer', 'someone-else'], 120_000, project);
      expect([other.code, other.stderr]).toEqual([2, "error: no pact of 'someone-else' in ./pacts: the consumer with pacts there is 'cwd-shop'\n"]);
      const kits = await runCli(['verify', '--provider-base-url', mock.url, '--provider', 'wishlist'], 120_000, project);
      expect(kits.stdout).toMatch(/PASS wishlist: \d+ of \d+ interactions passed \(the pacts of storefront\)/);
      expect(kits.code).toBe(0);
    } finally {
      await mock.close();
    }
  });
});
