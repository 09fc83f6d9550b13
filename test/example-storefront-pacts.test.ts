/**
 * Issue 30 item 5: the example storefront suite (examples/storefront-pacts/: vitest, the published SDK
 * against the mock in the plugins' dialect, three provider states) writes its own pacts; they verify
 * against the mock (only the 4.1 interaction fails: it pins the page a storefront needs, which the mock's
 * emulation of the plugins' 4.1 breaks; a baseline of it passes) and fail against a broken provider (exit 1,
 * more than the baseline); two runs write the same bytes.
 * test/medusa/example-pacts.medusa.test.ts verifies the same files against the real Medusa.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer } from '../mock-server/server.ts';
import { runCli } from './support/cli-process.ts';
import { EXAMPLE_41_FAILURE, EXAMPLE_CONSUMER, EXAMPLE_PACT_FILES, failedRequests, runExampleSuite } from './support/example-storefront.ts';
import { BREAKAGES, startBrokenProvider } from './support/pact-broken-providers.ts';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'slk-example-pacts-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const SDK_HEADERS = ['--header', 'x-publishable-api-key: pk_ci', '--header', 'authorization: Bearer ci-token'];
const verifyArgs = (url: string, dir: string) => ['verify', '--provider-base-url', url, '--dialect', 'alphabite', '--consumer', EXAMPLE_CONSUMER, '--pact-dir', dir, ...SDK_HEADERS];

let first: string;
let second: string;
/** The baseline written from the mock's run: the example's 4.1 interaction (the documented rows 7, 8). */
let baseline: string;
beforeAll(async () => {
  [first, second] = [tempDir(), tempDir()];
  for (const dir of [first, second]) {
    const run = await runExampleSuite(dir);
    expect(run.code, run.output).toBe(0);
  }
}, 300_000);

describe('examples/storefront-pacts: a storefront suite that writes its own pacts', () => {
  it('writes one pact per provider, each interaction given the state its test set up; two runs give the same bytes', () => {
    expect(readdirSync(first).sort()).toEqual([...EXAMPLE_PACT_FILES]);
    for (const name of EXAMPLE_PACT_FILES) expect(readFileSync(join(second, name)), name).toEqual(readFileSync(join(first, name)));
    const [reviews, wishlist] = EXAMPLE_PACT_FILES.map((name) => JSON.parse(readFileSync(join(first, name), 'utf8')));
    const states = (pact: any) => pact.interactions.map((i: any) => [i.providerStates.map((s: any) => s.name).join(), i.request.path, i.request.query]);
    expect(reviews.consumer).toEqual({ name: EXAMPLE_CONSUMER });
    expect(states(reviews)).toEqual([
      ['reviews exist', '/store/products/reviews', { limit: ['5'], offset: ['0'] }],
      ['product has reviews', '/store/reviews/product/prod_01EXAMPLESTOREFRONT0000001', { limit: ['5'], offset: ['0'] }],
      ['product has reviews', '/store/reviews/product/prod_01EXAMPLESTOREFRONT0000001', { limit: ['5'], offset: ['5'] }],
    ]);
    expect(states(wishlist)).toEqual([['wishlist has items', '/store/wishlists/wl_01EXAMPLESTOREFRONT00000001/items', { limit: ['10'], offset: ['0'] }]]);
    // the SDK's headers, as matchers: any publishable key, any bearer token
    for (const pact of [reviews, wishlist]) for (const i of pact.interactions) expect(Object.keys(i.request.matchingRules.header).sort()).toEqual(['authorization', 'x-publishable-api-key']);
  });

  it("verify against the mock fails exactly the 4.1 interaction (exit 1), on its count and records, as the kit's SDK pacts do; a baseline of it passes (exit 0)", async () => {
    const mock = await startMockServer({ seed: 5, dialect: 'alphabite', publishableKeys: ['pk_ci'] });
    try {
      const run = await runCli(verifyArgs(mock.url, first));
      expect(run.stderr).toBe('');
      // The recorder pins the page a storefront needs (the state's 12 reviews, limit 5, offset 0: 5 of
      // them, count 12), not the mock's emulation of the plugins' 4.1 (every review, count 0).
      expect(run.stdout).toMatch(/FAIL product-reviews: 1 of 3 interactions failed/);
      expect(run.stdout).toMatch(/PASS wishlist: 1 of 1 interaction passed/);
      expect(failedRequests(run.stdout)).toEqual([EXAMPLE_41_FAILURE]);
      expect(run.stdout).toMatch(/BodyMismatch \$\.count: expected 12, got 0/);
      expect(run.stdout).toMatch(/\$\.data/);
      expect(run.code, run.stdout).toBe(1);

      // What the team does about the documented 4.1 rows (examples/storefront-pacts/README.md): a baseline.
      baseline = join(tempDir(), 'verify-baseline.json');
      const write = await runCli([...verifyArgs(mock.url, first), '--write-baseline', baseline]);
      expect(write.code, write.stdout + write.stderr).toBe(0);
      const entries = JSON.parse(readFileSync(baseline, 'utf8')).failures.map((e: { interaction: string }) => e.interaction);
      expect(entries).toEqual([EXAMPLE_41_FAILURE]);
      const held = await runCli([...verifyArgs(mock.url, first), '--baseline', baseline]);
      expect([held.code, held.stderr], held.stdout).toEqual([0, '']);
      expect(held.stdout).toMatch(/no new failure/);
    } finally {
      await mock.close();
    }
  }, 180_000);

  it('and fails against a provider that breaks the contract (exit 1), naming the interactions; more than the baseline knows', async () => {
    const broken = await startBrokenProvider(BREAKAGES.countAsString, { dialect: 'alphabite' });
    try {
      // One run (a second one at once would meet the first's hold on the provider's state): the summary, then the baseline's verdict.
      const run = await runCli([...verifyArgs(broken.url, first), '--baseline', baseline]);
      expect(run.stdout, run.stderr).toMatch(/FAIL against the baseline .*: 3 new failures/);
      expect(run.stdout).toMatch(/FAIL product-reviews: 3 of 3 interactions failed/);
      expect(run.stdout).toMatch(/FAIL wishlist: 1 of 1 interaction failed/);
      expect(run.stdout).toMatch(/BodyMismatch \$\.count/);
      expect(run.code).toBe(1);
    } finally {
      await broken.close();
    }
  }, 180_000);
});
