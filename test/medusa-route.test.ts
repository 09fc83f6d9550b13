/**
 * `store-listing-kit/medusa`'s route handler on an in-memory stand-in of Medusa's container (the
 * module services' list/create/soft-delete/restore/delete): its answers, and that each state
 * leaves exactly what it says and its teardown what was there. The real plugins are run by
 * test/medusa/verdicts.medusa.test.ts (`npm run test:medusa`).
 */
import { describe, expect, it } from 'vitest';
import { stateByName } from '../lib/provider-states.ts';
import { CUSTOMER_ENV, ENABLE_ENV, FILLER_HANDLE, MedusaProviderStates, providerStatesRoute, SALES_CHANNEL_ENV, type RouteRequest } from '../medusa/index.ts';

type Row = Record<string, unknown> & { id: string; deleted_at?: string | null };

/** One table of a module service: what MedusaService generates, as far as the route uses it. */
class Table {
  rows: Row[] = [];
  private next = 0;
  constructor(private readonly prefix: string) {}
  seed(rows: Array<Record<string, unknown>>) {
    for (const r of rows) this.rows.push({ id: `${this.prefix}_seed${this.next++}`, deleted_at: null, ...r });
  }
  visible = () => this.rows.filter((r) => !r.deleted_at);
  list = async (filters: Record<string, unknown> = {}, config: { take?: number; withDeleted?: boolean } = {}) =>
    (config.withDeleted ? this.rows : this.visible())
      .filter((r) => Object.entries(filters).every(([k, v]) => (Array.isArray(v) ? v.includes(r[k]) : r[k] === v)))
      .slice(0, config.take ?? Infinity);
  create = async (data: Array<Record<string, unknown>>) => {
    const made = data.map((d) => ({ id: `${this.prefix}_new${this.next++}`, deleted_at: null, ...d }) as Row);
    for (const m of made) if (this.rows.some((r) => r.id === m.id)) throw new Error(`duplicate ${m.id}`);
    this.rows.push(...made);
    return made;
  };
  softDelete = async (ids: string[]) => {
    for (const r of this.rows) if (ids.includes(r.id)) r.deleted_at = 'now';
  };
  restore = async (ids: string[]) => {
    for (const r of this.rows) if (ids.includes(r.id)) r.deleted_at = null;
  };
  delete = async (ids: string[]) => {
    this.rows = this.rows.filter((r) => !ids.includes(r.id));
  };
}

function fakeMedusa({ variants = 30, empty = false } = {}) {
  const t = {
    reviews: new Table('rev'),
    wishlists: new Table('wl'),
    items: new Table('wli'),
    products: new Table('prod'),
    variants: new Table('variant'),
    customers: new Table('cus'),
    channels: new Table('sc'),
    /** Medusa's product-sales channel link. */
    links: new Table('link'),
  };
  t.customers.seed([{ email: 'first@example.com' }, { email: 'shopper@example.com' }]);
  t.channels.seed([{ name: 'Default' }, { name: 'States' }]);
  if (!empty) {
    t.products.seed([{ title: 'Tee' }, { title: 'Mug' }]);
    const [tee, mug] = t.products.rows;
    t.variants.seed(Array.from({ length: variants }, () => ({ product_id: tee!.id })));
    t.reviews.seed([{ product_id: tee!.id, rating: 5 }, { product_id: tee!.id, rating: 3 }]);
    t.wishlists.seed([{ customer_id: t.customers.rows[1]!.id }]);
    t.items.seed([{ wishlist_id: t.wishlists.rows[0]!.id, product_variant_id: t.variants.rows[0]!.id }]);
    // the 'States' channel sells the mug alone, with its 4 variants
    t.variants.seed(Array.from({ length: 4 }, () => ({ product_id: mug!.id })));
    t.links.seed([{ product_id: tee!.id, sales_channel_id: t.channels.rows[0]!.id }, { product_id: mug!.id, sales_channel_id: t.channels.rows[1]!.id }]);
  }
  // as the product module: a product is made with its options and variants; deleting it deletes them
  const createProducts = async (data: Array<Record<string, unknown>>) => {
    const made = await t.products.create(data.map(({ variants: _, options: __, ...p }) => p));
    for (const [i, p] of made.entries()) {
      const wanted = (data[i]!.variants ?? []) as Array<Record<string, unknown>>;
      if (wanted.some((v) => Object.keys(v.options as object).some((o) => !(data[i]!.options as Array<{ title: string }>).some((d) => d.title === o)))) throw new Error('variant option not on the product');
      await t.variants.create(wanted.map(({ options: _, ...v }) => ({ ...v, product_id: p.id })));
    }
    return made;
  };
  const deleteProducts = async (ids: string[]) => {
    await t.variants.delete(t.variants.rows.filter((v) => ids.includes(v.product_id as string)).map((v) => v.id));
    await t.products.delete(ids);
  };
  const services: Record<string, unknown> = {
    review: { listReviews: t.reviews.list, createReviews: t.reviews.create, softDeleteReviews: t.reviews.softDelete, restoreReviews: t.reviews.restore, deleteReviews: t.reviews.delete },
    wishlist: {
      listWishlists: t.wishlists.list,
      createWishlists: t.wishlists.create,
      // as the plugin's model: a wishlist's soft delete and restore cascade to its items
      softDeleteWishlists: async (ids: string[]) => {
        await t.wishlists.softDelete(ids);
        await t.items.softDelete(t.items.rows.filter((i) => ids.includes(i.wishlist_id as string)).map((i) => i.id));
      },
      restoreWishlists: async (ids: string[]) => {
        await t.wishlists.restore(ids);
        await t.items.restore(t.items.rows.filter((i) => ids.includes(i.wishlist_id as string)).map((i) => i.id));
      },
      deleteWishlists: async (ids: string[]) => {
        if (t.items.rows.some((i) => ids.includes(i.wishlist_id as string))) throw new Error('You tried to set relationship id, but such entity does not exist');
        await t.wishlists.delete(ids);
      },
      listWishlistItems: t.items.list,
      createWishlistItems: async (data: Array<Record<string, unknown>>) => {
        const pairs = new Set(t.items.rows.map((i) => `${i.wishlist_id} ${i.product_variant_id}`));
        for (const d of data) if (pairs.has(`${d.wishlist_id} ${d.product_variant_id}`)) throw new Error('unique (product_variant_id, wishlist_id)');
        return t.items.create(data);
      },
      deleteWishlistItems: t.items.delete,
    },
    product: { listProducts: t.products.list, listProductVariants: t.variants.list, createProducts, deleteProducts, restoreProducts: t.products.restore, softDeleteProducts: t.products.softDelete },
    customer: { listCustomers: t.customers.list },
    sales_channel: { listSalesChannels: t.channels.list },
    query: {
      graph: async ({ entity, filters = {} }: { entity: string; filters?: Record<string, unknown> }) => {
        if (entity !== 'product_sales_channel') throw new Error(`no entity ${entity}`);
        return { data: await t.links.list(filters) };
      },
    },
  };
  const scope = {
    resolve: (name: string) => {
      if (!(name in services)) throw new Error(`Could not resolve '${name}'`);
      return services[name];
    },
  };
  const snapshot = () => JSON.stringify(Object.fromEntries(Object.entries(t).map(([k, v]) => [k, v.rows])));
  return { t, scope, snapshot };
}

const ON = { [ENABLE_ENV]: '1', [CUSTOMER_ENV]: 'shopper@example.com' };

function caller(scope: RouteRequest['scope'], env: Record<string, string | undefined> = ON) {
  const handler = providerStatesRoute({ env });
  return async (body: unknown) => {
    let status = 0;
    let json: unknown;
    await handler({ body, scope }, { status: (code) => ((status = code), { json: (b: unknown) => (json = b) }) });
    return { status, json: json as Record<string, unknown> };
  };
}

describe('the provider-state route of store-listing-kit/medusa', () => {
  it('answers 404 JSON unless the environment switches it on', async () => {
    const { scope, snapshot } = fakeMedusa();
    const before = snapshot();
    for (const value of [undefined, '', '0', 'no']) {
      const answer = await caller(scope, { [ENABLE_ENV]: value })({ state: 'no reviews exist' });
      expect(answer.status).toBe(404);
      expect(answer.json).toEqual({ type: 'not_found', message: expect.stringContaining(`${ENABLE_ENV}=1`) });
    }
    expect(snapshot()).toBe(before);
  });

  it('refuses a bad body, an unknown state and bad params with 400 invalid_data, touching nothing', async () => {
    const { scope, snapshot } = fakeMedusa();
    const before = snapshot();
    const post = caller(scope);
    for (const [body, message] of [
      [{ params: {} }, /^state change body: field 'state': 'state' must be a string/],
      [{ state: 'reviews galore' }, /^unknown provider state 'reviews galore'; known states: 'reviews exist'/],
      [{ state: 'reviews exist', params: { count: -1 } }, /^provider state 'reviews exist': field 'count': .* \(got -1\)$/],
      [{ state: 'product has reviews', params: { product_id: 'nope', count: 1 } }, /field 'product_id': must be an id like 'prod_01.* \(got "nope"\)$/],
      [{ state: 'no reviews exist', action: 'undo' }, /field 'action': 'action' must be 'setup' or 'teardown'/],
    ] as const) {
      const answer = await post(body);
      expect([answer.status, answer.json.type], JSON.stringify(body)).toEqual([400, 'invalid_data']);
      expect(answer.json.message).toMatch(message);
    }
    expect(snapshot()).toBe(before);
  });

  it('reviews exist: exactly count reviews, of real products, by the configured customer; the teardown restores what was there', async () => {
    const { t, scope, snapshot } = fakeMedusa();
    const before = snapshot();
    const post = caller(scope);
    expect(await post({ state: 'reviews exist', params: { count: 7 }, action: 'setup' })).toEqual({ status: 200, json: { state: 'reviews exist', reviews: 7, hidden: 2 } });
    const shown = t.reviews.visible();
    expect(shown).toHaveLength(7);
    expect(new Set(shown.map((r) => r.product_id))).toEqual(new Set(t.products.rows.map((p) => p.id)));
    expect(new Set(shown.map((r) => r.customer_id))).toEqual(new Set([t.customers.rows[1]!.id]));
    expect(shown.every((r) => Number.isInteger(r.rating) && typeof r.content === 'string')).toBe(true);
    expect(await post({ state: 'reviews exist', params: { count: 7 }, action: 'teardown' })).toEqual({ status: 200, json: {} });
    expect(snapshot()).toBe(before);
  });

  it('product has reviews: a product with the contract id and exactly count reviews; the others stay; the teardown removes the product it made', async () => {
    const { t, scope, snapshot } = fakeMedusa();
    const before = snapshot();
    const post = caller(scope);
    const product_id = 'prod_01CONTRACTPRODUCT0000000001';
    expect((await post({ state: 'product has reviews', params: { product_id, count: 12 } })).status).toBe(200);
    expect(t.products.visible().map((p) => p.id)).toContain(product_id);
    expect(t.reviews.visible().filter((r) => r.product_id === product_id)).toHaveLength(12);
    expect(t.reviews.visible()).toHaveLength(14);
    await post({ state: 'product has reviews', action: 'teardown' });
    expect(snapshot()).toBe(before);
  });

  it('wishlists exist and no wishlists exist: exactly count wishlists of the customer, each with a few real variants; torn down by the next setup too', async () => {
    const { t, scope, snapshot } = fakeMedusa();
    const before = snapshot();
    const post = caller(scope);
    expect((await post({ state: 'wishlists exist', params: { count: 12 } })).json).toEqual({ state: 'wishlists exist', wishlists: 12, hidden: 1 });
    expect(t.wishlists.visible()).toHaveLength(12);
    expect(t.wishlists.visible().every((w) => w.customer_id === t.customers.rows[1]!.id && w.sales_channel_id === t.channels.rows[0]!.id)).toBe(true);
    expect(t.items.visible()).toHaveLength(36);
    expect(t.items.visible().every((i) => t.variants.rows.some((v) => v.id === i.product_variant_id && v.product_id === i.product_id))).toBe(true);
    // a setup without a teardown in between: the previous state is undone first
    expect((await post({ state: 'no wishlists exist' })).json).toEqual({ state: 'no wishlists exist', wishlists: 0, hidden: 1 });
    expect(t.wishlists.visible()).toEqual([]);
    await post({ state: 'no wishlists exist', action: 'teardown' });
    expect(snapshot()).toBe(before);
  });

  it('wishlist has items: the contract wishlist with exactly count distinct variants; a leftover of that id is replaced; the teardown deletes it', async () => {
    const { t, scope, snapshot } = fakeMedusa();
    const wishlist_id = 'wl_01CONTRACTWISHLIST000000001';
    const post = caller(scope);
    const before = snapshot();
    expect((await post({ state: 'wishlist has items', params: { wishlist_id, count: 25 } })).json).toEqual({ state: 'wishlist has items', items: 25 });
    const items = t.items.visible().filter((i) => i.wishlist_id === wishlist_id);
    expect(new Set(items.map((i) => i.product_variant_id)).size).toBe(25);
    expect(t.wishlists.visible().find((w) => w.id === wishlist_id)?.customer_id).toBe(t.customers.rows[1]!.id);
    await post({ state: 'wishlist has items', action: 'teardown' });
    expect(snapshot()).toBe(before);
    // an interrupted run left the contract wishlist behind (soft-deleted, with an item)
    t.wishlists.rows.push({ id: wishlist_id, deleted_at: 'earlier' });
    t.items.rows.push({ id: 'wli_leftover', wishlist_id, product_variant_id: t.variants.rows[0]!.id, deleted_at: 'earlier' });
    expect((await post({ state: 'wishlist has items', params: { wishlist_id, count: 0 } })).json).toEqual({ state: 'wishlist has items', items: 0 });
    expect(t.items.rows.filter((i) => i.wishlist_id === wishlist_id)).toEqual([]);
    await post({ state: 'wishlist has items', action: 'teardown' });
    expect(snapshot()).toBe(before);
  });

  it('says what the app lacks (422), and undoes what the state had done: no customer configured, an unknown customer or sales channel', async () => {
    const few = fakeMedusa({ variants: 5 });
    const before = few.snapshot();
    const noCustomer = await caller(few.scope, { [ENABLE_ENV]: 'true' })({ state: 'wishlists exist', params: { count: 2 } });
    expect(noCustomer).toEqual({ status: 422, json: { type: 'invalid_state', message: expect.stringContaining(`set ${CUSTOMER_ENV} to that customer's id or email`) } });
    const unknown = await caller(few.scope, { ...ON, [CUSTOMER_ENV]: 'nobody@example.com' })({ state: 'reviews exist', params: { count: 3 } });
    expect(unknown.status).toBe(422);
    expect(unknown.json.message).toContain("names no customer of the app: 'nobody@example.com'");
    const noChannel = await caller(few.scope, { ...ON, [SALES_CHANNEL_ENV]: 'Nowhere' })({ state: 'wishlists exist', params: { count: 1 } });
    expect(noChannel).toEqual({ status: 422, json: { type: 'invalid_state', message: `Cannot set up 'wishlists exist': ${SALES_CHANNEL_ENV} names no sales channel of the app: 'Nowhere'` } });
    expect(few.snapshot()).toBe(before);
    // without a configured customer the reviews are the first customer's
    const reviews = await caller(few.scope, { [ENABLE_ENV]: '1' })({ state: 'reviews exist', params: { count: 2 } });
    expect(reviews.status).toBe(200);
    expect(few.t.reviews.visible().map((r) => r.customer_id)).toEqual([few.t.customers.rows[0]!.id, few.t.customers.rows[0]!.id]);
  });

  it('a catalogue with fewer variants than a state needs: the rest are one draft product\'s, deleted on teardown', async () => {
    const few = fakeMedusa({ variants: 5 });
    const before = few.snapshot();
    const post = caller(few.scope);
    const wishlist_id = 'wl_01CONTRACTWISHLIST000000001';
    expect((await post({ state: 'wishlist has items', params: { wishlist_id, count: 25 } })).json).toEqual({ state: 'wishlist has items', items: 25, draftVariants: 16 });
    const [filler] = few.t.products.rows.filter((p) => p.handle === FILLER_HANDLE);
    expect(filler).toMatchObject({ status: 'draft' });
    const items = few.t.items.visible().filter((i) => i.wishlist_id === wishlist_id);
    expect(new Set(items.map((i) => i.product_variant_id)).size).toBe(25);
    // the catalogue's 9 variants first, then 16 of the filler
    expect(items.filter((i) => i.product_id === filler!.id)).toHaveLength(16);
    expect(items.every((i) => few.t.variants.rows.some((v) => v.id === i.product_variant_id && v.product_id === i.product_id))).toBe(true);
    await post({ state: 'wishlist has items', action: 'teardown' });
    expect(few.snapshot()).toBe(before);
  });

  it('an empty catalogue: every state is set up on drafts, and the app is empty again after each teardown', async () => {
    const empty = fakeMedusa({ empty: true });
    const before = empty.snapshot();
    const post = caller(empty.scope);
    const cases = [
      [{ state: 'reviews exist', params: { count: 12 } }, { reviews: 12, hidden: 0 }],
      [{ state: 'product has reviews', params: { product_id: 'prod_01CONTRACTPRODUCT0000000001', count: 3 } }, { reviews: 3, hidden: 0 }],
      [{ state: 'wishlists exist', params: { count: 4 } }, { wishlists: 4, hidden: 0, draftVariants: 3 }],
      [{ state: 'wishlist has items', params: { wishlist_id: 'wl_01CONTRACTWISHLIST000000001', count: 25 } }, { items: 25, draftVariants: 25 }],
    ] as const;
    for (const [body, made] of cases) {
      expect((await post(body)).json, body.state).toEqual({ state: body.state, ...made });
      expect(empty.t.products.visible().every((p) => p.status === 'draft'), body.state).toBe(true);
      await post({ state: body.state, action: 'teardown' });
      expect(empty.snapshot(), body.state).toBe(before);
      // one instance, setup after setup: each answer counts its own drafts
      const states = new MedusaProviderStates(empty.scope, { customer: 'shopper@example.com' });
      const key = stateByName(body.state)!.key;
      expect(await states.setup(key, body.params as never), body.state).toEqual(made);
      expect(await states.setup(key, body.params as never), body.state).toEqual(made);
      await states.teardown();
      expect(empty.snapshot(), body.state).toBe(before);
    }
    // the reviews hang on one draft product
    await post(cases[0][0]);
    expect(new Set(empty.t.reviews.visible().map((r) => r.product_id))).toEqual(new Set(empty.t.products.rows.filter((p) => p.handle === FILLER_HANDLE).map((p) => p.id)));
  });

  it('a filler left by a run that never tore down (the app restarted) is gone, with its wishlist items, by the next setup', async () => {
    const few = fakeMedusa({ empty: true });
    await caller(few.scope)({ state: 'wishlists exist', params: { count: 2 } });
    const filler = few.t.products.rows.find((p) => p.handle === FILLER_HANDLE)!;
    expect(filler).toBeDefined();
    // a new route (the restarted app) knows nothing of the first one's undo steps
    const restarted = caller(few.scope);
    expect((await restarted({ state: 'no reviews exist' })).status).toBe(200);
    expect(few.t.products.rows.find((p) => p.id === filler.id)).toBeUndefined();
    expect(few.t.variants.rows.filter((v) => v.product_id === filler.id)).toEqual([]);
    expect(few.t.items.rows.filter((i) => i.product_id === filler.id)).toEqual([]);
    await restarted({ state: 'no reviews exist', action: 'teardown' });
    // the leftover wishlists stay (their ids are not the contracts'), now without items
    expect(few.t.products.rows).toEqual([]);
    expect(few.t.items.rows).toEqual([]);
  });

  it(`${SALES_CHANNEL_ENV}: the wishlists are that channel's, and the states draw on its products alone (by id or name)`, async () => {
    for (const channel of ['States', 'sc_seed1']) {
      const { t, scope, snapshot } = fakeMedusa();
      const before = snapshot();
      const post = caller(scope, { ...ON, [SALES_CHANNEL_ENV]: channel });
      const [, mug] = t.products.rows;
      expect((await post({ state: 'wishlist has items', params: { wishlist_id: 'wl_01CONTRACTWISHLIST000000001', count: 6 } })).json).toEqual({ state: 'wishlist has items', items: 6, draftVariants: 2 });
      expect(t.wishlists.visible().find((w) => w.id === 'wl_01CONTRACTWISHLIST000000001')?.sales_channel_id).toBe(t.channels.rows[1]!.id);
      const filler = t.products.rows.find((p) => p.handle === FILLER_HANDLE)!;
      expect(new Set(t.items.visible().filter((i) => i.wishlist_id === 'wl_01CONTRACTWISHLIST000000001').map((i) => i.product_id))).toEqual(new Set([mug!.id, filler.id]));
      expect((await post({ state: 'reviews exist', params: { count: 3 } })).status).toBe(200);
      expect(new Set(t.reviews.visible().map((r) => r.product_id))).toEqual(new Set([mug!.id]));
      await post({ state: 'reviews exist', action: 'teardown' });
      expect(snapshot()).toBe(before);
    }
  });

  it('a service that fails is a 500 with a JSON body naming the state', async () => {
    const { scope } = fakeMedusa();
    const broken = { resolve: (name: string) => (name === 'review' ? { listReviews: async () => Promise.reject(new Error('connection refused')) } : scope.resolve(name)) };
    const answer = await caller(broken)({ state: 'no reviews exist' });
    expect(answer).toEqual({ status: 500, json: { type: 'unexpected_state', message: "Setting up 'no reviews exist' (setup) failed: connection refused" } });
  });
});
