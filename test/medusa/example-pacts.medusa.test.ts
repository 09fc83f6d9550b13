/**
 * Issue 30 item 5, against the real backend: the pacts the example storefront suite writes
 * (examples/storefront-pacts/, recorded against the mock in the plugins' dialect) replayed on Medusa
 * with the published plugins, its provider states set up by the kit's route
 * (medusa-app/src/api/kit/provider-states/route.js), with a publishable key and a customer's token,
 * as a backend team's CI runs them (docs/contracts.md, "Verify your Medusa backend in CI"): all pass but
 * the 4.1 interaction, which pins the page a storefront needs, as the kit's SDK pacts do (the same one fails
 * against the mock: test/example-storefront-pacts.test.ts).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDUSA_PROVIDER_STATES_PATH } from '../../medusa/index.ts';
import { runCli } from '../support/cli-process.ts';
import { EXAMPLE_41_FAILURE, EXAMPLE_CONSUMER, failedRequests, runExampleSuite } from '../support/example-storefront.ts';
import { medusaFacts } from '../support/medusa-backend.ts';

const facts = medusaFacts();
const shopper = facts.customers[0]!;
const headerArgs = ['--header', `x-publishable-api-key: ${facts.publishableKey}`, '--header', `authorization: Bearer ${shopper.token}`];

let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'medusa-example-pacts-'));
  const run = await runExampleSuite(dir);
  expect(run.code, run.output).toBe(0);
}, 180_000);
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the example storefront's own pacts, against the real plugins", () => {
  it('verify --dialect alphabite --consumer example-storefront fails only the 4.1 interaction (exit 1), the same one as against the mock', async () => {
    const run = await runCli(['verify', '--dialect', 'alphabite', '--provider-base-url', facts.baseUrl, '--provider-states-setup-url', `${facts.baseUrl}${MEDUSA_PROVIDER_STATES_PATH}`, '--consumer', EXAMPLE_CONSUMER, '--pact-dir', dir, ...headerArgs], 240_000);
    expect([run.code, run.stderr], run.stdout).toEqual([1, '']);
    expect(run.stdout).toMatch(/FAIL product-reviews: 1 of 3 interactions failed \(the pacts of example-storefront\)/);
    expect(run.stdout).toMatch(/PASS wishlist: 1 of 1 interaction passed \(the pacts of example-storefront\)/);
    // The 4.1 interaction pins the page a storefront needs (5 of the state's 12 reviews, count 12), as the
    // kit's SDK pacts do (verdicts.medusa.test.ts); the plugins' 4.1 answers every review and count 0
    // (docs/dialects.md rows 7, 8): the documented rows, which the team keeps in a baseline.
    expect(failedRequests(run.stdout)).toEqual([EXAMPLE_41_FAILURE]);
    expect(run.stdout).toMatch(/BodyMismatch \$\.count: expected 12, got 0/);
    const reviews = JSON.parse(readFileSync(join(dir, `${EXAMPLE_CONSUMER}-product-reviews.json`), 'utf8'));
    const all = reviews.interactions.find((i: { request: { path: string } }) => i.request.path === '/store/products/reviews');
    expect(all.request.query).toEqual({ limit: ['5'], offset: ['0'] });
    expect({ ...all.response.body.content, data: all.response.body.content.data.length }).toMatchObject({ data: 5, count: 12, take: 5, skip: 0, currentPage: 1, totalPages: 3 });
  }, 300_000);
});
