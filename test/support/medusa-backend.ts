/**
 * The real backend `npm run test:medusa` sets up (scripts/test-medusa.mjs): what it created, read from
 * the JSON file $MEDUSA_FIXTURE, and the shopper's view of it as a `ListingBackend` for the shared
 * flows (real-client-flows.ts).
 */
import { readFileSync } from 'node:fs';
import type { TestedMedusaVersion } from '../../lib/dialects/medusa-versions.ts';
import { byId, type ListingBackend } from './real-client-flows.ts';
import type { WriteWorld } from './write-cases.ts';

export interface MedusaFacts {
  /** The Medusa version of this backend (one of TESTED_MEDUSA_VERSIONS). */
  medusaVersion: TestedMedusaVersion;
  /** The other versions' backends of the same run, up at the same time: their fixture files, by version. */
  otherVersions: Partial<Record<TestedMedusaVersion, string>>;
  baseUrl: string;
  publishableKey: string;
  /** A key of another sales channel (with no wishlists of its own). */
  otherPublishableKey: string;
  salesChannelId: string;
  products: Array<{ id: string; handle: string; variantIds: string[] }>;
  customers: Array<{ id: string; email: string; token: string }>;
  reviews: Array<{ id: string; product_id: string; rating: number; customer_id: string; status: 'pending' | 'approved' | 'rejected' }>;
  wishlists: Array<{ id: string; customer_id: string; itemIds: string[] }>;
  /** The variant of the only item of the fourth customer's wishlist, deleted after it was added. */
  deletedVariantId: string;
  /** Medusa's output, for a failing test to point at. */
  medusaLog: string;
  /** The admin user (medusa-app/src/scripts/seed.js). */
  admin: { email: string; password: string };
  /**
   * The provider states' storefront (STORE_LISTING_KIT_STATES_SALES_CHANNEL names it): its channel,
   * key and catalogue of 10 variants, fewer than the largest state needs.
   */
  states: { salesChannel: string; salesChannelId: string; publishableKey: string; products: Array<{ id: string; handle: string; variantIds: string[] }> };
}

export function medusaFacts(file = process.env.MEDUSA_FIXTURE): MedusaFacts {
  if (!file) throw new Error('MEDUSA_FIXTURE is not set: run these tests with `npm run test:medusa`, which sets up the backend');
  return JSON.parse(readFileSync(file, 'utf8')) as MedusaFacts;
}

/** The other Medusa versions' backends of this run (none when it was narrowed to one with --medusa-version). */
export function otherMedusaFacts(facts: MedusaFacts): MedusaFacts[] {
  return Object.values(facts.otherVersions ?? {}).map((file) => medusaFacts(file));
}

/** Whether the backend's Medusa is `version` or newer (x.y.z, compared part by part). */
export function medusaAtLeast(facts: Pick<MedusaFacts, 'medusaVersion'>, version: string): boolean {
  const parts = (v: string) => v.split('.').map(Number);
  const [have, want] = [parts(facts.medusaVersion), parts(version)];
  for (let i = 0; i < 3; i++) if (have[i] !== want[i]) return have[i]! > want[i]!;
  return true;
}

/**
 * What makes the mock answer as this backend's Medusa version does (`startMockServer({ medusaVersion })`,
 * `serve --medusa-version`), spread into the mock's options.
 */
export function medusaVersionOption(facts: Pick<MedusaFacts, 'medusaVersion'>): { medusaVersion: TestedMedusaVersion } {
  return { medusaVersion: facts.medusaVersion };
}

/** The first customer (the shopper), the product with the most reviews, the shopper's fullest wishlist. */
export function shopperBackend(facts: MedusaFacts): ListingBackend {
  const shopper = facts.customers[0]!;
  const reviewsOf = (productId: string) => facts.reviews.filter((r) => r.product_id === productId);
  const mostReviewed = [...facts.products].sort((a, b) => reviewsOf(b.id).length - reviewsOf(a.id).length)[0]!;
  const own = facts.wishlists.filter((w) => w.customer_id === shopper.id);
  const fullest = [...own].sort((a, b) => b.itemIds.length - a.itemIds.length)[0]!;
  return {
    baseUrl: facts.baseUrl,
    publishableKey: facts.publishableKey,
    authorization: `Bearer ${shopper.token}`,
    productId: mostReviewed.id,
    wishlistId: fullest.id,
    allReviewIds: async () => byId(facts.reviews.map((r) => r.id)),
    productReviewIds: async (id) => byId(reviewsOf(id).map((r) => r.id)),
    approvedReviewCount: async (id) => reviewsOf(id).filter((r) => r.status === 'approved').length,
    wishlistIds: async () => byId(own.map((w) => w.id)),
    itemIds: async (id) => byId(facts.wishlists.find((w) => w.id === id)?.itemIds ?? []),
  };
}

/** The wishlist plugin's `shareTokenSecret`, as medusa-app/medusa-config.js sets it (share tokens are signed with it). */
export const WISHLIST_SHARE_TOKEN_SECRET = 'store-listing-kit-share-secret';

/** A customer registered for one test run, as a storefront registers one: no wishlists, no reviews yet. */
export interface FreshCustomer {
  id: string;
  email: string;
  token: string;
  first_name: string;
  last_name: string;
}

/**
 * Registers a new customer through Medusa's customer auth and POST /store/customers, and logs them in.
 * The email is made unique per call, so every run starts from customers with nothing of their own.
 */
export async function registerCustomer(facts: Pick<MedusaFacts, 'baseUrl' | 'publishableKey'>, label: string, names: { first_name: string; last_name: string }): Promise<FreshCustomer> {
  const email = `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@writes.store-listing-kit.test`;
  const password = `${label}-password`;
  const call = async (path: string, body: unknown, token?: string) => {
    const headers: Record<string, string> = { 'content-type': 'application/json', 'x-publishable-api-key': facts.publishableKey };
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await fetch(`${facts.baseUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const text = await res.text();
    if (!res.ok) throw new Error(`POST ${path} answered ${res.status}: ${text.slice(0, 300)}`);
    return JSON.parse(text) as Record<string, unknown>;
  };
  const { token: registration } = (await call('/auth/customer/emailpass/register', { email, password })) as { token: string };
  const { customer } = (await call('/store/customers', { email, ...names }, registration)) as { customer: { id: string } };
  const { token } = (await call('/auth/customer/emailpass', { email, password })) as { token: string };
  return { id: customer.id, email, token, ...names };
}

/**
 * Deletes what a fresh customer left behind (after a failed run): their wishlists and reviews, through the
 * store routes, so the seeded listings the other test files read stay as seeded.
 */
export async function removeCustomerWrites(facts: Pick<MedusaFacts, 'baseUrl' | 'publishableKey'>, customer: { token: string }): Promise<void> {
  const headers = { 'x-publishable-api-key': facts.publishableKey, authorization: `Bearer ${customer.token}` };
  const get = async (path: string) => (await (await fetch(`${facts.baseUrl}${path}`, { headers })).json()) as { data?: Array<{ id: string }> };
  const reviews = await get('/store/products/reviews?my_reviews_only=true');
  for (const { id } of reviews.data ?? []) await fetch(`${facts.baseUrl}/store/reviews/${id}`, { method: 'DELETE', headers });
  const wishlists = await get('/store/wishlists?limit=1000');
  for (const { id } of wishlists.data ?? []) {
    // the plugin cannot delete a wishlist that still holds items (its cascade fails): empty it first
    const items = await get(`/store/wishlists/${id}/items?limit=1000`);
    for (const item of items.data ?? []) await fetch(`${facts.baseUrl}/store/wishlists/${id}/items/${item.id}`, { method: 'DELETE', headers });
    await fetch(`${facts.baseUrl}/store/wishlists/${id}`, { method: 'DELETE', headers });
  }
}

/**
 * A product's variant ids in the order of their titles (v01, v02, ...): the facts list them by id, and
 * ids made in the same millisecond fall in no fixed order from one seed to the next.
 */
export async function variantIdsByTitle(facts: Pick<MedusaFacts, 'baseUrl' | 'publishableKey'>, productId: string): Promise<string[]> {
  const res = await fetch(`${facts.baseUrl}/store/products/${productId}?fields=id,variants.id,variants.title`, { headers: { 'x-publishable-api-key': facts.publishableKey } });
  if (!res.ok) throw new Error(`GET /store/products/${productId} answered ${res.status}`);
  const { product } = (await res.json()) as { product: { variants: Array<{ id: string; title: string }> } };
  return [...product.variants].sort((a, b) => a.title.localeCompare(b.title)).map((v) => v.id);
}

/**
 * The world of the write tests (write-cases.ts, storefront-write-flow.ts) on the real backend: two
 * customers registered afresh (`label`-alice, `label`-bob) who own nothing yet, the mug's three
 * variants (none deleted: the seed deletes one of the tee's, a different one each run) in title
 * order, and a product with no reviews.
 */
export async function freshWriteWorld(facts: MedusaFacts, label: string): Promise<WriteWorld & { customers: { alice: FreshCustomer; bob: FreshCustomer } }> {
  const alice = await registerCustomer(facts, `${label}alice`, { first_name: 'Alice', last_name: 'Writer' });
  const bob = await registerCustomer(facts, `${label}bob`, { first_name: 'Bob', last_name: 'Reader' });
  const [, mug] = facts.products;
  const unreviewed = facts.products.find((p) => !facts.reviews.some((r) => r.product_id === p.id));
  if (!mug || mug.variantIds.length < 3 || !unreviewed) throw new Error('the seed should hold a product with three variants and a product without reviews');
  const variants = await variantIdsByTitle(facts, mug.id);
  return {
    baseUrl: facts.baseUrl,
    publishableKey: facts.publishableKey,
    salesChannelId: facts.salesChannelId,
    variantIds: [variants[0]!, variants[1]!, variants[2]!],
    productId: unreviewed.id,
    shareTokenSecret: WISHLIST_SHARE_TOKEN_SECRET,
    customers: { alice, bob },
  };
}
