/**
 * The provider-state route of `store-listing-kit/medusa` on a catalogue smaller than its largest
 * state: the app's states storefront (STORE_LISTING_KIT_STATES_SALES_CHANNEL, scripts/test-medusa.mjs)
 * sells 10 variants, and `wishlist has items { count: 25 }` needs 25. The route makes the 15 it
 * lacks as one draft product, which the plugins' listings show and shoppers' /store/products never
 * lists, and deletes it on teardown or at the next setup. (The verify runs of
 * verdicts.medusa.test.ts use the same route and catalogue; an empty catalogue and a filler left by
 * a restarted app are test/medusa-route.test.ts's.)
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { FILLER_HANDLE, MEDUSA_PROVIDER_STATES_PATH } from '../../medusa/index.ts';
import { medusaFacts } from '../support/medusa-backend.ts';

const facts = medusaFacts();
const shopper = facts.customers[0]!;
const WISHLIST_ID = 'wl_01CONTRACTWISHLIST000000001';
const catalogueVariants = facts.states.products.flatMap((p) => p.variantIds);

async function call(path: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}): Promise<{ status: number; json: any }> {
  const res = await fetch(`${facts.baseUrl}${path}`, {
    method: init.method ?? 'GET',
    headers: { 'content-type': 'application/json', ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}
const state = (body: unknown) => call(MEDUSA_PROVIDER_STATES_PATH, { method: 'POST', body });
/** As a shopper of a storefront (its publishable key) asks. */
const asShopper = (path: string, key = facts.states.publishableKey) => call(path, { headers: { 'x-publishable-api-key': key, authorization: `Bearer ${shopper.token}` } });

let adminToken: string;
beforeAll(async () => {
  const login = await call('/auth/user/emailpass', { method: 'POST', body: facts.admin });
  expect(login.status).toBe(200);
  adminToken = login.json.token;
});
/** The fillers as the admin sees them: drafts included, soft-deleted ones too. */
async function fillers(): Promise<Array<{ id: string; status: string; sales_channels: unknown[]; variants: unknown[] }>> {
  const answer = await call(`/admin/products?handle=${FILLER_HANDLE}&with_deleted=true&fields=id,status,*sales_channels,*variants`, { headers: { authorization: `Bearer ${adminToken}` } });
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
  return answer.json.products;
}
/** What a shopper of every storefront is shown of the products, by handle. */
async function shoppersSee(): Promise<string[]> {
  const handles: string[] = [];
  for (const key of [facts.publishableKey, facts.otherPublishableKey, facts.states.publishableKey]) {
    const listed = await asShopper('/store/products?limit=100&fields=handle', key);
    expect(listed.status).toBe(200);
    handles.push(...listed.json.products.map((p: { handle: string }) => p.handle));
  }
  return handles.sort();
}

describe('the provider states on a catalogue of 10 variants (the states storefront)', () => {
  it('the states storefront sells 10 variants, fewer than the largest state needs', () => {
    expect(catalogueVariants).toHaveLength(10);
  });

  it('wishlist has items { count: 25 }: the 10 variants and 15 of a draft filler, which the items listing shows and no shopper\'s /store/products lists; the teardown deletes it', async () => {
    const seen = await shoppersSee();
    expect(seen).not.toContain(FILLER_HANDLE);
    const setup = await state({ state: 'wishlist has items', params: { wishlist_id: WISHLIST_ID, count: 25 }, action: 'setup' });
    expect(setup).toEqual({ status: 200, json: { state: 'wishlist has items', items: 25, draftVariants: 15 } });

    const [filler, ...more] = await fillers();
    expect(more).toEqual([]);
    expect(filler).toMatchObject({ status: 'draft', sales_channels: [] });
    expect(filler!.variants).toHaveLength(15);

    const items = await asShopper(`/store/wishlists/${WISHLIST_ID}/items?limit=100`);
    expect(items.status).toBe(200);
    expect(items.json.count).toBe(25);
    const variants = items.json.data.map((i: { product_variant: { id: string; product: { handle: string } } | null }) => i.product_variant);
    expect(variants.every((v: unknown) => v !== null)).toBe(true);
    expect(variants.filter((v: { product: { handle: string } }) => v.product.handle === FILLER_HANDLE)).toHaveLength(15);
    expect(variants.map((v: { id: string }) => v.id).filter((id: string) => catalogueVariants.includes(id)).sort()).toEqual([...catalogueVariants].sort());

    // shoppers: listed by no storefront, not found by handle nor by id
    expect(await shoppersSee()).toEqual(seen);
    for (const key of [facts.publishableKey, facts.states.publishableKey]) {
      expect((await asShopper(`/store/products?handle=${FILLER_HANDLE}`, key)).json.products).toEqual([]);
      expect((await asShopper(`/store/products/${filler!.id}`, key)).status).toBe(404);
    }

    expect(await state({ state: 'wishlist has items', action: 'teardown' })).toEqual({ status: 200, json: {} });
    expect(await fillers()).toEqual([]);
    expect((await asShopper(`/store/wishlists/${WISHLIST_ID}/items?limit=100`)).json.count).toBe(0);
  });

  it('a setup after a missed teardown deletes the previous state\'s filler first; wishlists exist are the states storefront\'s', async () => {
    await state({ state: 'wishlist has items', params: { wishlist_id: WISHLIST_ID, count: 25 } });
    expect(await fillers()).toHaveLength(1);
    // no teardown: the next state's setup undoes the previous one
    const next = await state({ state: 'wishlists exist', params: { count: 2 } });
    expect(next).toEqual({ status: 200, json: { state: 'wishlists exist', wishlists: 2, hidden: expect.any(Number) } });
    expect(await fillers()).toEqual([]);
    const wishlists = await asShopper('/store/wishlists?limit=100');
    expect(wishlists.json.data.map((w: { sales_channel_id: string }) => w.sales_channel_id)).toEqual([facts.states.salesChannelId, facts.states.salesChannelId]);
    expect(await state({ state: 'wishlists exist', action: 'teardown' })).toEqual({ status: 200, json: {} });
    expect((await asShopper('/store/wishlists?limit=100')).json.count).toBe(facts.wishlists.filter((w) => w.customer_id === shopper.id).length);
  });

  it('the rows a state hides are soft-deleted: 4.3 and 4.4 list them again with with_deleted=true (docs/dialects.md, "Not emulated")', async () => {
    const own = facts.wishlists.filter((w) => w.customer_id === shopper.id);
    const fullest = [...own].sort((a, b) => b.itemIds.length - a.itemIds.length)[0]!;
    expect((await state({ state: 'no wishlists exist' })).status).toBe(200);
    expect((await asShopper('/store/wishlists?limit=100', facts.publishableKey)).json.count).toBe(0);
    const deleted = await asShopper('/store/wishlists?limit=100&with_deleted=true', facts.publishableKey);
    expect(deleted.json.count).toBe(own.length);
    expect(deleted.json.data.every((w: { deleted_at: string | null }) => typeof w.deleted_at === 'string')).toBe(true);
    expect((await asShopper(`/store/wishlists/${fullest.id}/items?limit=100&with_deleted=true`, facts.publishableKey)).json.count).toBe(fullest.itemIds.length);
    expect(await state({ state: 'no wishlists exist', action: 'teardown' })).toEqual({ status: 200, json: {} });
    expect((await asShopper('/store/wishlists?limit=100', facts.publishableKey)).json.count).toBe(own.length);
  });
});
