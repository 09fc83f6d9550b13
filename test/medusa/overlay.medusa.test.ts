/**
 * One base URL for the whole storefront (issue 28, item 6), against the real Medusa 2 backend with
 * the published plugins (`npm run test:medusa`):
 * - a storefront built on @alphabite/medusa-sdk, pointed at `serve --dialect alphabite --backend
 *   <Medusa>`, registers and logs in a customer and lists products (Medusa's answers, passed through
 *   byte for byte), reads a real product's reviews and fills a wishlist with a real variant (the
 *   mock's answers, over Medusa's catalogue), and Medusa's own data is untouched afterwards;
 * - the SDK's list calls through `proxy --backend <Medusa>` are checked against the dialect's rules:
 *   the violations are exactly those of 4.1 (docs/dialects.md rows 7 and 8), and the proxy exits 1.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AlphabiteMedusaSdk, reviewsPlugin, wishlistPlugin } from '@alphabite/medusa-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLISHABLE_KEY_HEADER } from '../../lib/dialects/index.ts';
import { ALPHABITE_ANSWER_RULE_ROWS } from '../support/alphabite-verdicts.ts';
import { startCommand, startServe, type ServeProcess } from '../support/cli-process.ts';
import { medusaFacts, removeCustomerWrites, shopperBackend, variantIdsByTitle } from '../support/medusa-backend.ts';
import { sdkFor } from '../support/real-client-flows.ts';

const facts = medusaFacts();

/** An entry of `GET /__admin/journal`, as far as these tests read it. */
interface JournalEntry {
  method: string;
  path: string;
  status: number;
  customer: string | null;
  answeredBy: 'mock' | 'backend';
  backend: { ms: number; error: string | null } | null;
}

async function journal(kit: ServeProcess): Promise<JournalEntry[]> {
  const res = await fetch(`${kit.url}/__admin/journal`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { entries: JournalEntry[] }).entries;
}

/** `GET <url>` with the publishable key (and a customer's token): status, content type and the body's bytes. */
async function rawGet(url: string, token?: string): Promise<{ status: number; contentType: string | null; bytes: Buffer }> {
  const headers: Record<string, string> = { [PUBLISHABLE_KEY_HEADER]: facts.publishableKey };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(url, { headers });
  return { status: res.status, contentType: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
}

function stop(process: ServeProcess | undefined): Promise<unknown> {
  if (!process || process.child.exitCode !== null || process.child.signalCode !== null) return Promise.resolve();
  process.child.kill('SIGTERM');
  return process.exited;
}

describe('a storefront with one base URL: `serve --dialect alphabite --backend <Medusa>`', () => {
  let kit: ServeProcess;
  let sdk: AlphabiteMedusaSdk<readonly [typeof reviewsPlugin, typeof wishlistPlugin]>;
  const email = `overlay-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@overlay.store-listing-kit.test`;
  const password = 'overlay-password';
  /** The fresh customer, once Medusa made them: their id and token (for the checks at Medusa and the clean-up). */
  let customer: { id: string; token: string } | undefined;

  beforeAll(async () => {
    kit = await startServe(['--dialect', 'alphabite', '--backend', facts.baseUrl, '--publishable-key', facts.publishableKey], 60_000);
    sdk = new AlphabiteMedusaSdk({ baseUrl: kit.url, publishableKey: facts.publishableKey, auth: { type: 'jwt', jwtTokenStorageMethod: 'memory' } }, [reviewsPlugin, wishlistPlugin] as const);
  });

  afterAll(async () => {
    await stop(kit);
    // the mock kept the writes; should any have reached Medusa, they go
    if (customer) await removeCustomerWrites(facts, customer);
  });

  it('registers, creates and logs in a customer: passed through to Medusa, with no /auth bodies kept', async () => {
    const registration = await sdk.auth.register('customer', 'emailpass', { email, password });
    const { customer: created } = await sdk.store.customer.create({ email, first_name: 'Olive', last_name: 'Overlay' });
    const login = await sdk.auth.login('customer', 'emailpass', { email, password });
    expect(typeof login).toBe('string');
    const token = login as string;
    expect(created.id).toMatch(/^cus_/);
    customer = { id: created.id, token };

    const entries = await journal(kit);
    const auth = entries.filter((e) => e.path.startsWith('/auth/'));
    expect(auth.map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual([
      'POST /auth/customer/emailpass/register 200',
      'POST /auth/customer/emailpass 200',
    ]);
    const createCustomer = entries.filter((e) => e.path === '/store/customers');
    expect(createCustomer.map((e) => `${e.method} ${e.status}`)).toEqual(['POST 200']);
    for (const entry of [...auth, ...createCustomer]) {
      expect(entry.answeredBy, entry.path).toBe('backend');
      expect(entry.backend?.ms, entry.path).toBeGreaterThanOrEqual(0);
      expect(entry.backend?.error, entry.path).toBeNull();
    }
    // neither the password nor the tokens Medusa answered are kept
    const kept = JSON.stringify(auth);
    expect(kept).not.toContain(password);
    expect(kept).not.toContain(registration);
    expect(kept).not.toContain(token);
  });

  it("lists products as Medusa does, byte for byte (passed through)", async () => {
    const listed = await sdk.store.product.list({ fields: 'id,handle' });
    expect(listed.products.map((p) => p.handle).sort()).toEqual(facts.products.map((p) => p.handle).sort());
    const path = '/store/products?fields=id%2Chandle';
    const [viaKit, direct] = [await rawGet(`${kit.url}${path}`), await rawGet(`${facts.baseUrl}${path}`)];
    expect(viaKit.status).toBe(200);
    expect({ status: viaKit.status, contentType: viaKit.contentType }).toEqual({ status: direct.status, contentType: direct.contentType });
    expect(viaKit.bytes.equals(direct.bytes), `${viaKit.bytes.toString('utf8').slice(0, 300)} vs ${direct.bytes.toString('utf8').slice(0, 300)}`).toBe(true);
  });

  it("answers reviews of Medusa's real products (read from Medusa, answered by the mock)", async () => {
    const realIds = new Set(facts.products.map((p) => p.id));
    const all = await sdk.alphabite.reviews.list({});
    expect(all.data.length).toBeGreaterThan(0);
    for (const review of all.data) expect(realIds, review.id).toContain(review.product_id);

    // A product Medusa holds reviews of (the product ids, and so their order, are new on every install).
    const product = facts.products.find((p) => facts.reviews.some((r) => r.product_id === p.id));
    const page = await sdk.alphabite.reviews.listProductReviews({ product_id: product!.id, limit: 5 });
    expect(page.count).toBeGreaterThan(0);
    expect(page.data.length).toBeGreaterThan(0);
    for (const review of page.data) expect(review.product_id).toBe(product!.id);
    const answered = (await journal(kit)).filter((e) => e.path === `/store/reviews/product/${product!.id}`);
    expect(answered.map((e) => e.answeredBy)).toEqual(['mock']);
  });

  it("creates a wishlist and adds a real variant: the mock's, the item showing the real product", async () => {
    const mug = facts.products.find((p) => p.handle === 'kit-mug');
    if (!mug) throw new Error('the seed should hold the product kit-mug');
    const [variantId] = await variantIdsByTitle(facts, mug.id);
    const medusaProduct = (await rawGet(`${facts.baseUrl}/store/products/${mug.id}?fields=id,handle,thumbnail`)).bytes.toString('utf8');
    const { product: real } = JSON.parse(medusaProduct) as { product: { id: string; handle: string; thumbnail: string | null } };

    const wishlist = await sdk.alphabite.wishlist.create({ name: 'One base URL', sales_channel_id: facts.salesChannelId });
    const item = await sdk.alphabite.wishlist.addItem({ id: wishlist.id, product_variant_id: variantId! });
    expect(item.product_variant_id).toBe(variantId);
    expect(item.product_variant?.id).toBe(variantId);
    expect(item.product_variant?.product).toMatchObject({ id: real.id, handle: 'kit-mug', thumbnail: real.thumbnail });
    const items = await sdk.alphabite.wishlist.listItems({ id: wishlist.id });
    expect(items.data.map((i) => i.id)).toEqual([item.id]);

    const writes = (await journal(kit)).filter((e) => e.path.startsWith('/store/wishlists'));
    const added = writes.find((e) => e.method === 'POST' && e.path.endsWith('/add-item'));
    expect(added).toMatchObject({ status: 201, answeredBy: 'mock', backend: null, customer: customer!.id });
    for (const entry of writes) expect(entry.answeredBy, `${entry.method} ${entry.path}`).toBe('mock');
  });

  it("leaves Medusa's own data alone: no wishlist and no review of the customer there", async () => {
    const wishlists = JSON.parse((await rawGet(`${facts.baseUrl}/store/wishlists?limit=100`, customer!.token)).bytes.toString('utf8')) as { count: number; data: unknown[] };
    expect({ count: wishlists.count, listed: wishlists.data.length }).toEqual({ count: 0, listed: 0 });
    const reviews = await rawGet(`${facts.baseUrl}/store/products/reviews?my_reviews_only=true`, customer!.token);
    expect(reviews.status).toBe(200);
    expect((JSON.parse(reviews.bytes.toString('utf8')) as { data: unknown[] }).data).toEqual([]);
  });
});

describe('`proxy --backend <Medusa>`: the SDK\'s list calls checked against the dialect\'s rules', () => {
  const dir = mkdtempSync(join(tmpdir(), 'store-listing-kit-proxy-'));
  const report = join(dir, 'proxy.json');
  let proxy: ServeProcess | undefined;

  afterAll(async () => {
    await stop(proxy);
    rmSync(dir, { recursive: true, force: true });
  });

  it('reports violations on 4.1 only, each a rule of rows 7 and 8, and exits 1 on SIGTERM', async () => {
    proxy = await startCommand('proxy', ['--dialect', 'alphabite', '--backend', facts.baseUrl, '--json', report], 60_000);
    const shopper = shopperBackend(facts);
    const sdk = sdkFor({ ...shopper, baseUrl: proxy.url }).alphabite;
    const calls = [
      () => sdk.reviews.list({}),
      () => sdk.reviews.list({ limit: 5, offset: 0 }),
      () => sdk.reviews.listProductReviews({ product_id: shopper.productId }),
      () => sdk.wishlist.list({}),
      () => sdk.wishlist.listItems({ id: shopper.wishlistId }),
    ];
    // every call is answered (passed through, unchanged), whatever the verdict
    for (const call of calls) await expect(call()).resolves.toHaveProperty('data');

    proxy.child.kill('SIGTERM');
    expect(await proxy.exited).toBe(1);
    const { checked, violations } = JSON.parse(readFileSync(report, 'utf8')) as {
      checked: number;
      violations: Array<{ method: string; path: string; rule: string; expected: unknown; actual: unknown }>;
    };
    expect(checked).toBe(calls.length);
    expect(violations.length).toBeGreaterThan(0);
    const rows78 = Object.keys(ALPHABITE_ANSWER_RULE_ROWS);
    for (const v of violations) {
      expect(v.method).toBe('GET');
      expect(v.path, JSON.stringify(v)).toMatch(/^\/store\/products\/reviews(\?|$)/);
      expect(rows78, JSON.stringify(v)).toContain(v.rule);
    }
    // both calls of 4.1 break a rule: without a limit (the echo and the count), and with limit 5 (the count)
    expect(new Set(violations.map((v) => v.path)).size).toBe(2);
    expect([...new Set(violations.map((v) => v.rule))].sort()).toEqual([...rows78].sort());
  });
});
