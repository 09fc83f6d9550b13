/**
 * A storefront's wishlist and review flow through @alphabite/medusa-sdk (test/support/storefront-write-flow.ts)
 * against the running plugins, from two fresh customers: each step's result is asserted, and the normalised
 * transcript must equal test/medusa/storefront-write-flow.json, which the mock's transcript is compared with
 * in plain `npm test`. To re-record it on purpose:
 * WRITE_GOLDEN=1 npm run test:medusa -- test/medusa/storefront-write-flow.medusa.test.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshWriteWorld, medusaFacts, removeCustomerWrites, type FreshCustomer } from '../support/medusa-backend.ts';
import { runStorefrontWriteFlow, type FlowStep } from '../support/storefront-write-flow.ts';
import type { WriteWorld } from '../support/write-cases.ts';

const GOLDEN = new URL('./storefront-write-flow.json', import.meta.url);
const facts = medusaFacts();
let alice: FreshCustomer;
let bob: FreshCustomer;
let world: WriteWorld;

beforeAll(async () => {
  const fresh = await freshWriteWorld(facts, 'flow-');
  world = fresh;
  ({ alice, bob } = fresh.customers);
});

afterAll(async () => {
  for (const customer of [alice, bob]) if (customer) await removeCustomerWrites(facts, customer);
});

const stepNamed = (transcript: FlowStep[], name: string) => {
  const found = transcript.find((s) => s.step === name);
  if (!found) throw new Error(`no step "${name}" in the transcript`);
  return found;
};
const dataIds = (step: FlowStep) => ((step.result as { data: Array<{ id: string }> }).data ?? []).map((r) => r.id);

describe('the storefront write flow through @alphabite/medusa-sdk against the running plugins', () => {
  it('creates, fills, trims and shares a wishlist, which another customer imports; writes, shows only to its author, and deletes a review', async () => {
    const { transcript } = await runStorefrontWriteFlow(world);
    const at = (name: string) => stepNamed(transcript, name);

    expect(at('alice creates a wishlist').result).toMatchObject({ id: '<wl:1>', name: 'Summer', customer_id: '<customer:alice>', sales_channel_id: '<sc>', items: [], items_count: 0 });
    for (const i of [0, 1, 2]) expect(at(`alice adds variant ${i}`).result).toMatchObject({ id: `<wli:${i + 1}>`, wishlist_id: '<wl:1>', product_variant_id: `<v${i}>` });
    // id order, which is creation order
    expect(dataIds(at('alice lists the items'))).toEqual(['<wli:1>', '<wli:2>', '<wli:3>']);
    expect(at('alice lists the items').result).toMatchObject({ count: 3, skip: 0, take: 10 });
    expect(at('alice removes the second item').result).toEqual({ id: '<wli:2>' });
    expect(dataIds(at('alice lists the items again'))).toEqual(['<wli:1>', '<wli:3>']);
    expect(at('alice lists the items again').result).toMatchObject({ count: 2 });
    // a token (signed with the plugin's `shareTokenSecret`, which this backend sets), normalised to <jwt>
    expect(at('alice shares the wishlist').result).toEqual({ share_token: '<jwt>' });
    // bob's copy: a new wishlist of his, same name and channel, the two live items (new ids), sorted by variant
    expect(at('bob imports the shared wishlist').result).toMatchObject({ id: '<wl:2>', name: 'Summer', customer_id: '<customer:bob>', sales_channel_id: '<sc>', items_count: 2 });
    const copied = (at('bob imports the shared wishlist').result as { items: Array<{ id: string; wishlist_id: string; product_variant_id: string }> }).items;
    expect(copied.map((i) => [i.wishlist_id, i.product_variant_id])).toEqual([['<wl:2>', '<v0>'], ['<wl:2>', '<v2>']]);
    expect(copied.map((i) => i.id)).toEqual(['<wli:4>', '<wli:5>']);
    expect(dataIds(at('bob lists the items of the imported wishlist'))).toEqual(['<wli:4>', '<wli:5>']);
    expect(at('bob lists the items of the imported wishlist').result).toMatchObject({ count: 2 });

    expect(at('alice writes a review').result).toMatchObject({ id: '<rev:1>', status: 'pending', product_id: '<product>', customer_id: '<customer:alice>', rating: 5, customer: { first_name: '<alice.first_name>', last_name: '<alice.last_name>' } });
    expect(dataIds(at('alice lists her reviews'))).toEqual(['<rev:1>']);
    expect(dataIds(at('bob lists his reviews'))).toEqual([]);
    expect(at('alice deletes the review').result).toEqual({ id: '<rev:1>' });
    expect(dataIds(at('alice lists her reviews again'))).toEqual([]);

    if (process.env.WRITE_GOLDEN === '1') writeFileSync(GOLDEN, `${JSON.stringify(transcript, null, 2)}\n`);
    const golden = JSON.parse(readFileSync(GOLDEN, 'utf8')) as FlowStep[];
    expect(transcript).toEqual(golden);
    expect(JSON.stringify(transcript)).toBe(JSON.stringify(golden));
  });
});
