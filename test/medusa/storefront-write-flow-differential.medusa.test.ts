/**
 * The storefront write flow (test/support/storefront-write-flow.ts, through @alphabite/medusa-sdk) live,
 * against the running plugins and against `serve --dialect alphabite --fixtures <a recording of them>
 * --publishable-key <their key> --allow-multiple-wishlists --share-token-secret <their secret>`, with
 * the same customers (the backend's own tokens: the mock takes a JWT's `actor_id` for the customer) and
 * the same catalogue (the recording's items carry the variants). The two transcripts must be the same
 * but for the one difference docs/dialects.md lists ("A review's author is `Mock Customer`"); the
 * recorded one is compared in plain `npm test` (test/writes-vs-plugins.test.ts).
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLISHABLE_KEY_HEADER } from '../../lib/dialects/index.ts';
import { recordBackend } from '../../fixtures/recorder.ts';
import { writeRecording } from '../../fixtures/recording-file.ts';
import { startMockServer, type MockServer } from '../../mock-server/server.ts';
import { MOCK_CUSTOMER_NAME } from '../../mock-server/writes/store.ts';
import { freshWriteWorld, medusaFacts, removeCustomerWrites, WISHLIST_SHARE_TOKEN_SECRET, type FreshCustomer } from '../support/medusa-backend.ts';
import { runStorefrontWriteFlow, type FlowStep } from '../support/storefront-write-flow.ts';
import type { WriteWorld } from '../support/write-cases.ts';

const facts = medusaFacts();
const shopper = facts.customers[0]!;
let alice: FreshCustomer;
let bob: FreshCustomer;
let world: WriteWorld;
let work: string;
let mock: MockServer;

beforeAll(async () => {
  const fresh = await freshWriteWorld(facts, 'live-flow-');
  world = fresh;
  ({ alice, bob } = fresh.customers);
  // the shopper's view, recorded: their wishlists hold the mug's variants, which add-item then finds in the mock
  const recorded = await recordBackend({ baseUrl: facts.baseUrl, dialect: 'alphabite', headers: { [PUBLISHABLE_KEY_HEADER]: facts.publishableKey, authorization: `Bearer ${shopper.token}` } });
  work = await mkdtemp(join(tmpdir(), 'store-listing-kit-flow-differential-'));
  const file = join(work, 'recording.json');
  const out = createWriteStream(file);
  await writeRecording(recorded.recording, out);
  out.end();
  await finished(out);
  mock = await startMockServer({ dialect: 'alphabite', fixtures: file, publishableKeys: [facts.publishableKey], allowMultipleWishlists: true, shareTokenSecret: WISHLIST_SHARE_TOKEN_SECRET });
}, 120_000);

afterAll(async () => {
  for (const customer of [alice, bob]) if (customer) await removeCustomerWrites(facts, customer);
  await mock?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

/** The mock's review author as the real answers show alice (her names, normalised). */
const withRealAuthor = (step: FlowStep) =>
  JSON.parse(JSON.stringify(step).replaceAll(JSON.stringify(MOCK_CUSTOMER_NAME), JSON.stringify({ first_name: '<alice.first_name>', last_name: '<alice.last_name>' }))) as FlowStep;

describe('the storefront write flow, live: the running plugins and the mock serving a recording of them', () => {
  it('give the same transcript, but for the review author\'s name (docs/dialects.md, "Not emulated")', async () => {
    const real = (await runStorefrontWriteFlow(world)).transcript;
    const mocked = (await runStorefrontWriteFlow({ ...world, baseUrl: mock.url })).transcript;
    expect(mocked.map((s) => s.step)).toEqual(real.map((s) => s.step));
    // nothing failed on either side: every step has a result
    expect(real.filter((s) => s.error)).toEqual([]);
    expect(mocked.filter((s) => s.error)).toEqual([]);
    const differing = mocked.filter((step, i) => JSON.stringify(step) !== JSON.stringify(real[i])).map((s) => s.step);
    expect(differing).toEqual(['alice writes a review', 'alice lists her reviews']);
    mocked.forEach((step, i) => expect(JSON.stringify(withRealAuthor(step)), step.step).toBe(JSON.stringify(real[i])));
  }, 120_000);
});
