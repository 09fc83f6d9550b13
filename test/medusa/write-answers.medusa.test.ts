/**
 * The write routes of the running plugins, recorded: test/support/write-cases.ts's table, run in order from
 * two fresh customers, normalised, must equal the golden file of the backend's Medusa version (statuses,
 * bodies, key order), so a change in the plugins' or Medusa's behaviour shows here: on the newest Medusa
 * test/medusa/write-answers.json, which the mock's `alphabite` dialect is compared with in plain `npm test`;
 * on an older one test/medusa/write-answers.<version>.json (Medusa before 2.14 words its validation errors as
 * zod 3 does, and answers malformed or oversized JSON with a 500). To re-record them on purpose:
 * WRITE_GOLDEN=1 npm run test:medusa -- test/medusa/write-answers.medusa.test.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NEWEST_MEDUSA_VERSION } from '../../lib/dialects/medusa-versions.ts';
import { freshWriteWorld, medusaFacts, removeCustomerWrites, type FreshCustomer } from '../support/medusa-backend.ts';
import { runWriteCases, WRITE_CASES, type WriteAnswer, type WriteWorld } from '../support/write-cases.ts';

const facts = medusaFacts();
const GOLDEN = new URL(facts.medusaVersion === NEWEST_MEDUSA_VERSION ? './write-answers.json' : `./write-answers.${facts.medusaVersion}.json`, import.meta.url);
let alice: FreshCustomer;
let bob: FreshCustomer;
let world: WriteWorld;

/** The seeded reviews every listing test reads: the cases must leave them as they were. */
async function allReviewIds(): Promise<string[]> {
  const res = await fetch(`${facts.baseUrl}/store/products/reviews`, { headers: { 'x-publishable-api-key': facts.publishableKey } });
  return ((await res.json()) as { data: Array<{ id: string }> }).data.map((r) => r.id).sort();
}

beforeAll(async () => {
  const fresh = await freshWriteWorld(facts, '');
  world = fresh;
  ({ alice, bob } = fresh.customers);
});

afterAll(async () => {
  // A run cut short leaves writes behind; the sequence itself removes them.
  for (const customer of [alice, bob]) if (customer) await removeCustomerWrites(facts, customer);
});

describe('the write routes of the running plugins', () => {
  it(`answer the table as recorded in ${GOLDEN.pathname.split('/').at(-1)}`, async () => {
    const before = await allReviewIds();
    const answers = await runWriteCases(world);
    expect(answers.map((a) => a.name)).toEqual(WRITE_CASES.map((c) => c.name));
    if (process.env.WRITE_GOLDEN === '1') writeFileSync(GOLDEN, `${JSON.stringify(answers, null, 2)}\n`);
    const golden = JSON.parse(readFileSync(GOLDEN, 'utf8')) as WriteAnswer[];
    expect(answers).toEqual(golden);
    // toEqual ignores key order; the plugins' bytes do not
    expect(JSON.stringify(answers)).toBe(JSON.stringify(golden));
    // the reviews the cases wrote are gone again: the seeded listings are as before
    expect(await allReviewIds()).toEqual(before);
  });
});
