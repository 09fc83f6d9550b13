/**
 * Issue 36, item 1: each customer sees their own wishlists in the alphabite dialect, as the published plugin
 * answers (docs/writes.md, "Whose wishlists: each customer sees their own").
 *
 * - Two customers' tokens against startMockServer never see each other's wishlists: 4.3 lists only their
 *   own; 4.4, `GET /store/wishlists/:id`, add-item and remove-item of the other's are the plugin's empty 500s
 *   with the documented reasons (4.4's empty page of it, a 200 with the owner's count); a transfer gives the
 *   caller a copy, listed by its id among theirs, while the owner keeps theirs byte for byte.
 * - The same seed and the same customer give the same bytes, across two server starts and the MSW store
 *   handlers (a property over any bearer token and page window).
 * - A customer the dataset names (a JWT whose actor_id is a seeded wishlist's customer_id) sees exactly those,
 *   as the dataset has them; any other customer starts with SEEDED_WISHLISTS_PER_CUSTOMER (so it holds while
 *   allow_multiple_wishlists is off, and a create answers it); in a dataset without wishlists, none.
 * - The fast path keeps a wishlist page per customer: kept for one, never answered to another.
 * - Under a provider state, any customer sees all the state's wishlists with their own customer_id, in the
 *   HTTP mock and in the MSW handlers' pact recording alike.
 */
import fc from 'fast-check';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDataset } from '../fixtures/dataset.ts';
import { ALPHABITE_LISTING_REASONS } from '../lib/dialects/alphabite.ts';
import { customerOf } from '../lib/customers.ts';
import { PROVIDER_STATES_PATH } from '../lib/provider-states.ts';
import { REASON_HEADER } from '../lib/write-reason.ts';
import { startMockServer, type MockServer } from '../mock-server/server.ts';
import { get } from './support/http.ts';
import { SEEDED_WISHLISTS_PER_CUSTOMER } from '../mock-server/writes/customer-seed.ts';
import { REASONS } from '../mock-server/writes/reasons.ts';
import { createPactRecording, createStoreHandlers } from '../msw/index.ts';
import { customerToken, namedCustomer } from './support/customer-token.ts';

const DATA = { seed: 7, reviews: 40, products: 5, wishlists: 30, maxItems: 15 };
const KEY = { 'x-publishable-api-key': 'pk_customers' };
const BYPASS = { onUnhandledRequest: 'bypass', onUnhandledFrame: 'bypass' } as const;

type Headers = Record<string, string>;
const bearer = (token: string): Headers => ({ ...KEY, authorization: `Bearer ${token}` });
/** Who the mock takes the asker for (lib/customers.ts). */
const idOf = (headers: Headers) => customerOf(headers)!.id;

interface Seen {
  status: number;
  contentType: string | null;
  reason: string | null;
  body: string;
}

/** One request: what the client sees of the answer, and its JSON when it is some. */
async function send(url: string, headers: Headers, method = 'GET', body?: unknown): Promise<Seen & { json: any }> {
  const res = await get(url, '', { method, headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: res.status, contentType: res.contentType, reason: res.headers.get(REASON_HEADER), body: res.text, json: res.json };
}

const seenOf = ({ status, contentType, reason, body }: Seen): Seen => ({ status, contentType, reason, body });
/** The plugins' 500 with an empty body, and the mock's reason for it. */
const empty500 = (reason: string): Seen => ({ status: 500, contentType: null, reason, body: '' });

type Row = { id: string; customer_id: string | null };
const wishlistsOf = async (base: string, headers: Headers): Promise<Row[]> => (await send(`${base}/store/wishlists?limit=1000`, headers)).json.data as Row[];
const itemsOf = async (base: string, headers: Headers, wishlist: string): Promise<Array<{ id: string; product_variant_id: string }>> =>
  (await send(`${base}/store/wishlists/${wishlist}/items?limit=1000`, headers)).json.data;

const dataset = generateDataset(DATA);
const { source } = dataset.wishlists;
/** Every variant the dataset's items show (the catalogue add-item knows). */
const VARIANTS = [...new Set(Array.from({ length: source.count }, (_, w) => Array.from({ length: source.itemCount(w) }, (_, k) => source.item(w, k).product_variant.id)).flat())];
/** How many wishlists name each customer. */
const NAMED = new Map<string, number>();
for (let w = 0; w < source.count; w++) {
  const owner = source.wishlist(w, false).customer_id;
  if (owner !== null) NAMED.set(owner, (NAMED.get(owner) ?? 0) + 1);
}

describe("two customers' tokens never see each other's wishlists", () => {
  let mock: MockServer;
  // Alice: a customer the dataset does not name (a token of her own); Bob: one it names, whose wishlist holds 3 items or more.
  const alice = bearer('alice-own-token');
  const named = namedCustomer(dataset, (w) => source.itemCount(w) >= 3);
  const bob = { ...KEY, authorization: named.authorization };
  beforeAll(async () => {
    // Multiple wishlists allowed: a transfer then makes the wishlist the caller's, rather than merging it into their first.
    mock = await startMockServer({ ...DATA, dialect: 'alphabite', allowMultipleWishlists: true });
  });
  afterAll(() => mock?.close());

  it('4.3 lists only the caller\'s own: disjoint ids, their customer_id on every one', async () => {
    const [mine, his] = [await wishlistsOf(mock.url, alice), await wishlistsOf(mock.url, bob)];
    expect(mine).toHaveLength(SEEDED_WISHLISTS_PER_CUSTOMER);
    expect(mine.map((w) => w.customer_id)).toEqual(mine.map(() => idOf(alice)));
    expect(his.map((w) => w.id)).toEqual(named.wishlistIds);
    expect(his.map((w) => w.customer_id)).toEqual(his.map(() => named.id));
    expect(mine.filter((w) => his.some((h) => h.id === w.id))).toEqual([]);
  });

  it("4.4, GET /store/wishlists/:id, add-item and remove-item of the other's wishlist: the plugin's empty 500s, with their reasons; 4.4's empty page: a 200 with the owner's count", async () => {
    for (const [owner, other] of [
      [alice, bob],
      [bob, alice],
    ] as const) {
      const wishlist = (await wishlistsOf(mock.url, owner))[0]!.id;
      const items = await itemsOf(mock.url, owner, wishlist);
      expect(items.length, 'the owner\'s wishlist holds items').toBeGreaterThan(0);
      const ownerView = async () => [(await send(`${mock.url}/store/wishlists/${wishlist}/items?limit=1000`, owner)).body, (await send(`${mock.url}/store/wishlists/${wishlist}`, owner)).body];
      const before = await ownerView();
      const at = (path: string, method = 'GET', body?: unknown) => send(`${mock.url}/store/wishlists/${wishlist}${path}`, other, method, body).then(seenOf);
      expect(await at('/items')).toEqual(empty500(ALPHABITE_LISTING_REASONS.wishlistOfAnother));
      expect(await at('/items?limit=2&offset=1')).toEqual(empty500(ALPHABITE_LISTING_REASONS.wishlistOfAnother));
      for (const query of ['limit=0', `offset=${items.length}`]) {
        const page = await send(`${mock.url}/store/wishlists/${wishlist}/items?${query}`, other);
        expect([page.status, page.reason, page.json.data, page.json.count], query).toEqual([200, null, [], items.length]);
      }
      expect(await at('')).toEqual(empty500(REASONS.wishlistOfAnother));
      const variant = VARIANTS.find((v) => !items.some((i) => i.product_variant_id === v))!;
      expect(await at('/add-item', 'POST', { product_variant_id: variant })).toEqual(empty500(REASONS.wishlistOfAnother));
      expect(await at(`/items/${items[0]!.id}`, 'DELETE')).toEqual(empty500(REASONS.wishlistOfAnother));
      // nothing of the owner's changed
      expect(await ownerView()).toEqual(before);
    }
  });

  it("a transfer gives the caller a copy, listed by its id among theirs; the owner keeps theirs, byte for byte", async () => {
    const wishlist = (await wishlistsOf(mock.url, alice))[0]!.id;
    const paths = ['/store/wishlists?limit=1000', `/store/wishlists/${wishlist}/items?limit=1000`, `/store/wishlists/${wishlist}`];
    const aliceView = async () => Promise.all(paths.map(async (path) => (await send(`${mock.url}${path}`, alice)).body));
    const before = await aliceView();
    const items = (await itemsOf(mock.url, alice, wishlist)).map((i) => i.id);
    const hisBefore = await wishlistsOf(mock.url, bob);
    // Bob makes one first: the copy, whose id is older, must still be listed in id order.
    expect((await send(`${mock.url}/store/wishlists`, bob, 'POST', { name: 'Made', sales_channel_id: 'sc_1' })).status).toBe(201);
    expect(await send(`${mock.url}/store/wishlists/${wishlist}/transfer`, bob, 'POST')).toMatchObject({ status: 200, json: { id: wishlist } });
    const his = await wishlistsOf(mock.url, bob);
    expect(his).toHaveLength(hisBefore.length + 2);
    expect(his.find((w) => w.id === wishlist)?.customer_id).toBe(named.id);
    expect(his.map((w) => w.id)).toEqual(his.map((w) => w.id).sort());
    expect((await send(`${mock.url}/store/wishlists?limit=1000&order=-id`, bob)).json.data.map((w: Row) => w.id)).toEqual(his.map((w) => w.id).reverse());
    expect((await itemsOf(mock.url, bob, wishlist)).map((i) => i.id)).toEqual(items);
    expect((await send(`${mock.url}/store/wishlists/${wishlist}`, bob)).json).toMatchObject({ id: wishlist, customer_id: named.id, items_count: items.length });
    expect(await aliceView()).toEqual(before);
    expect(JSON.parse(before[2]!)).toMatchObject({ id: wishlist, customer_id: idOf(alice) });
  });
});

describe('the seeded wishlists a customer sees', () => {
  const ORIGIN = 'http://customer-wishlists.store-listing-kit.test';
  let one: MockServer;
  let two: MockServer;
  const msw = setupServer(...createStoreHandlers({ ...DATA, dialect: 'alphabite', baseUrl: ORIGIN }));
  beforeAll(async () => {
    [one, two] = await Promise.all([startMockServer({ ...DATA, dialect: 'alphabite' }), startMockServer({ ...DATA, dialect: 'alphabite' })]);
    msw.listen(BYPASS);
  });
  afterAll(async () => {
    msw.close();
    await Promise.all([one?.close(), two?.close()]);
  });

  const token = fc.oneof(
    // any bearer token: a customer of its own
    fc.stringMatching(/^[!-~]{1,40}$/),
    // a JWT naming any customer, or one the dataset names
    fc.stringMatching(/^[\w-]{1,30}$/).map(customerToken),
    fc.constantFrom(...NAMED.keys()).map(customerToken),
  );
  const window = fc
    .record({ limit: fc.option(fc.nat(25), { nil: undefined }), offset: fc.option(fc.nat(25), { nil: undefined }), order: fc.option(fc.constantFrom('id', '-id', 'created_at', '-created_at'), { nil: undefined }) })
    .map(({ limit, offset, order }) => [limit === undefined ? '' : `limit=${limit}`, offset === undefined ? '' : `offset=${offset}`, order === undefined ? '' : `order=${order}`].filter(Boolean).join('&'));

  it('the same seed and customer give the same bytes across two server starts and the MSW store handlers, for any token and page window', async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(token, window, async (tok, query) => {
        const headers = bearer(tok);
        const customer = idOf(headers);
        const own = await wishlistsOf(one.url, headers);
        // theirs only: those the dataset names them in, else the one they start with
        expect(own.map((w) => w.customer_id)).toEqual(own.map(() => customer));
        expect(own).toHaveLength(NAMED.get(customer) ?? SEEDED_WISHLISTS_PER_CUSTOMER);
        const others = source.wishlist(0, false).customer_id === customer ? source.wishlist(1, false).id : source.wishlist(0, false).id;
        for (const path of ['/store/wishlists', ...own.map((w) => `/store/wishlists/${w.id}/items`), `/store/wishlists/${others}/items`, ...own.map((w) => `/store/wishlists/${w.id}`)]) {
          const target = query ? `${path}?${query}` : path;
          const [a, b, c] = await Promise.all([send(`${one.url}${target}`, headers), send(`${two.url}${target}`, headers), send(`${ORIGIN}${target}`, headers)]);
          expect(seenOf(b), `second start: ${target}`).toEqual(seenOf(a));
          expect(seenOf(c), `MSW: ${target}`).toEqual(seenOf(a));
        }
        runs++;
      }),
      { numRuns: 40, seed: 20261128 },
    );
    expect(runs).toBe(40);
  }, 120_000);

  it('a customer the dataset names sees exactly the wishlists naming them, with their items, as the dataset has them', async () => {
    expect(NAMED.size).toBeGreaterThan(1);
    for (const id of NAMED.keys()) {
      const them = namedCustomer(dataset, (w) => source.wishlist(w, false).customer_id === id);
      const headers = { ...KEY, authorization: them.authorization };
      const listed = await wishlistsOf(one.url, headers);
      expect(listed.map((w) => [w.id, w.customer_id])).toEqual(them.wishlistIds.map((w) => [w, id]));
      const w = them.wishlists[0]!;
      expect((await itemsOf(one.url, headers, them.wishlistIds[0]!)).map((i) => i.id)).toEqual(Array.from({ length: source.itemCount(w) }, (_, k) => source.item(w, k).id));
    }
  });

  it('with allow_multiple_wishlists off, a customer starts with at most one seeded wishlist, which a create answers (200)', async () => {
    expect(SEEDED_WISHLISTS_PER_CUSTOMER).toBeLessThanOrEqual(1);
    for (const headers of [bearer('solo'), bearer('solo-2'), { ...KEY, authorization: namedCustomer(dataset).authorization }]) {
      const [first] = await wishlistsOf(one.url, headers);
      const created = await send(`${one.url}/store/wishlists`, headers, 'POST', { name: 'Another', sales_channel_id: 'sc_1' });
      expect([created.status, created.reason, created.json.id]).toEqual([200, REASONS.existingWishlistAnswered, first!.id]);
      expect(await wishlistsOf(one.url, headers)).toHaveLength(1);
    }
  });
});

describe('a dataset without wishlists', () => {
  it('gives every customer none: their first create makes one (201)', async () => {
    const mock = await startMockServer({ ...DATA, wishlists: 0, dialect: 'alphabite' });
    try {
      for (const headers of [bearer('fresh'), bearer(customerToken('cus_01FRESHCUSTOMER'))]) {
        expect((await send(`${mock.url}/store/wishlists`, headers)).json).toMatchObject({ data: [], count: 0 });
        const created = await send(`${mock.url}/store/wishlists`, headers, 'POST', { sales_channel_id: 'sc_1' });
        expect([created.status, created.reason]).toEqual([201, null]);
        expect((await wishlistsOf(mock.url, headers)).map((w) => w.id)).toEqual([created.json.id]);
      }
    } finally {
      await mock.close();
    }
  });
});

describe('the fast path keeps a wishlist page per customer', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ ...DATA, dialect: 'alphabite' });
  });
  afterAll(() => mock?.close());

  const fastAnswers = async () => (await send(`${mock.url}/__admin/health`, {})).json.fastPathAnswers as number;

  /** Asks `target` as `headers` until the fast path answers it (a page is kept the second time it is asked); the bodies, all the same. */
  async function keep(target: string, headers: Headers): Promise<string> {
    const bodies: string[] = [];
    for (let k = 0; k < 3; k++) {
      const before = await fastAnswers();
      bodies.push((await send(`${mock.url}${target}`, headers)).body);
      if ((await fastAnswers()) > before) {
        expect(new Set(bodies).size, target).toBe(1);
        return bodies[0]!;
      }
    }
    throw new Error(`the fast path never answered ${target}`);
  }

  it("one customer's kept page is never another's: each gets their own bytes, each kept for them", async () => {
    const [a, b] = [bearer('fast-a'), bearer('fast-b')];
    const target = '/store/wishlists?limit=5';
    const mine = await keep(target, a);
    const before = await fastAnswers();
    const theirs = await send(`${mock.url}${target}`, b);
    expect(await fastAnswers()).toBe(before);
    expect(theirs.body).not.toBe(mine);
    expect(theirs.json.data.map((w: Row) => w.customer_id)).toEqual([idOf(b)]);
    expect(await keep(target, b)).toBe(theirs.body);
    // and again for the first: still theirs
    expect((await send(`${mock.url}${target}`, a)).body).toBe(mine);

    // 4.4 of A's wishlist, kept for A: to B it is another customer's (the plugin's 500), not A's kept page
    const items = `/store/wishlists/${JSON.parse(mine).data[0].id}/items?limit=3`;
    expect(JSON.parse(await keep(items, a)).data.length).toBeGreaterThan(0);
    const other = await send(`${mock.url}${items}`, b);
    expect(seenOf(other)).toEqual(empty500(ALPHABITE_LISTING_REASONS.wishlistOfAnother));
  });
});

describe('under a provider state, any customer sees all the state\'s wishlists as theirs', () => {
  const ORIGIN = 'http://customer-wishlists-pact.store-listing-kit.test';
  const pact = createPactRecording({ consumer: 'customer-wishlists' });
  const msw = setupServer(...createStoreHandlers({ dialect: 'alphabite', baseUrl: ORIGIN, pact }));
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ dialect: 'alphabite' });
    msw.listen(BYPASS);
  });
  afterAll(async () => {
    msw.close();
    await mock?.close();
  });

  async function given(state: string, params: Record<string, unknown>): Promise<void> {
    const res = await fetch(`${mock.url}${PROVIDER_STATES_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ state, params }) });
    expect(res.status, await res.text()).toBe(200);
    pact.given(state, params);
  }

  /** The same request to the HTTP mock and to MSW under the same state: the same answer. */
  async function both(path: string, headers: Headers) {
    const [http, mocked] = await Promise.all([send(`${mock.url}${path}`, headers), send(`${ORIGIN}${path}`, headers)]);
    expect(seenOf(mocked), path).toEqual(seenOf(http));
    return http;
  }

  it("'wishlists exist' and 'wishlist has items', in the HTTP mock and MSW's pact recording alike", async () => {
    const askers = [bearer('state-asker'), bearer(customerToken('cus_01STATECUSTOMER'))];
    await given('wishlists exist', { count: 4 });
    const seenBy: string[][] = [];
    for (const headers of askers) {
      const page = await both('/store/wishlists?limit=10', headers);
      expect(page.json.count).toBe(4);
      expect(page.json.data.map((w: Row) => w.customer_id)).toEqual([0, 1, 2, 3].map(() => idOf(headers)));
      seenBy.push(page.json.data.map((w: Row) => w.id));
    }
    // the same wishlists, the state's, to each of them
    expect(seenBy[1]).toEqual(seenBy[0]);

    const wishlist = 'wl_01STATEWISHLIST';
    await given('wishlist has items', { wishlist_id: wishlist, count: 3 });
    for (const headers of askers) {
      expect((await both('/store/wishlists?limit=100', headers)).json.data).toContainEqual(expect.objectContaining({ id: wishlist, customer_id: idOf(headers) }));
      expect((await both(`/store/wishlists/${wishlist}/items`, headers)).json).toMatchObject({ count: 3 });
    }
    expect(pact.report().interactions.wishlist).toBeGreaterThanOrEqual(2);
  });
});
