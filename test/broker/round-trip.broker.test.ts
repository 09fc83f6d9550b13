/**
 * Issue 38: two teams share contracts through the official Pact Broker, every step as
 * docs/contracts.md's two-team workflow runs it. The consumer's job records its pacts with `serve
 * --pact-consumer` and publishes them with Pact's own CLI; the provider's job verifies what the broker
 * selects with `verify --broker-url`, publishes the results, keeps a baseline; `can-i-deploy` gates
 * both. The tests run in order, on one broker (scripts/test-broker.mjs starts it).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROVIDER_STATES_PATH } from '../../lib/provider-states.ts';
import { startServe, type ServeProcess } from '../support/cli-process.ts';
import { BROKER, brokerGet, kit, pactBroker } from './support.ts';

const CONSUMER = 'web-shop';
const work = mkdtempSync(join(tmpdir(), 'slk-broker-'));
const servers: ServeProcess[] = [];

afterAll(async () => {
  for (const s of servers) {
    s.child.kill('SIGTERM');
    await s.exited;
  }
  rmSync(work, { recursive: true, force: true });
});

async function serve(args: string[]): Promise<ServeProcess> {
  const s = await startServe(args, 30_000);
  servers.push(s);
  return s;
}

async function stop(s: ServeProcess): Promise<void> {
  s.child.kill('SIGTERM');
  await s.exited;
}

const post = async (url: string, body: unknown) => {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(response.status, await response.clone().text()).toBe(200);
  await response.text();
};

const get = async (url: string) => {
  const response = await fetch(url);
  await response.arrayBuffer();
  return response.status;
};

/** The storefront's own tests against `serve --pact-consumer`: each listing it reads, under a provider state. */
async function recordPacts(dir: string): Promise<void> {
  const mock = await serve(['--pact-consumer', CONSUMER, '--pact-dir', dir]);
  const states = `${mock.url}${PROVIDER_STATES_PATH}`;
  await post(states, { state: 'reviews exist', params: { count: 12 } });
  expect(await get(`${mock.url}/store/products/reviews?limit=5&offset=5`)).toBe(200);
  await post(states, { state: 'reviews exist', action: 'teardown' });
  await post(states, { state: 'wishlist has items', params: { wishlist_id: 'wl_01MYSHOPWISHLIST0000000001', count: 3 } });
  expect(await get(`${mock.url}/store/wishlists/wl_01MYSHOPWISHLIST0000000001/items?take=10`)).toBe(200);
  await post(states, { state: 'wishlist has items', action: 'teardown' });
  await stop(mock); // the stop writes the pact files
}

/** `pact-broker publish <dir>`: the consumer job's step. */
const publish = (dir: string, version: string, branch: string, ...more: string[]) =>
  pactBroker(['publish', dir, '--consumer-app-version', version, '--branch', branch, '--broker-base-url', BROKER.url, ...more]);

const canIDeploy = (...args: string[]) => pactBroker(['can-i-deploy', '--broker-base-url', BROKER.url, ...args]);

/** `verify --broker-url` as the provider's job runs it (the broker's credentials from the environment). */
const verify = (provider: ServeProcess | { url: string }, ...more: string[]) =>
  kit(['verify', '--provider-base-url', provider.url, '--consumer', CONSUMER, '--broker-url', BROKER.url, '--enable-pending', '--provider-version-branch', 'main', ...more]);

const green: { url?: string } = {};
let pacts: string;

describe('the consumer publishes its pacts', () => {
  beforeAll(async () => {
    pacts = join(work, 'pacts');
    await recordPacts(pacts);
  });

  it('serve --pact-consumer wrote one pact per provider it asked', () => {
    expect(readdirSync(pacts).sort()).toEqual([`${CONSUMER}-product-reviews.json`, `${CONSUMER}-wishlist.json`]);
  });

  it("Pact's own CLI publishes them with the version, branch and tag; publishing the same version again changes nothing", async () => {
    const first = await publish(pacts, '1.0.0', 'main', '--tag', 'v1');
    expect(first.code, first.stdout + first.stderr).toBe(0);
    const again = await publish(pacts, '1.0.0', 'main', '--tag', 'v1');
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.stdout).toContain('republished');
    const versions = await brokerGet(`/pacticipants/${CONSUMER}/versions`);
    const listed = versions._embedded.versions.map((v: { number: string }) => v.number);
    expect(listed).toEqual(['1.0.0']);
    const version = await brokerGet(`/pacticipants/${CONSUMER}/versions/1.0.0`);
    expect(version._embedded.branchVersions.map((b: { name: string }) => b.name)).toEqual(['main']);
    expect(version._embedded.tags.map((t: { name: string }) => t.name)).toEqual(['v1']);
  });
});

describe('the provider verifies from the broker and publishes its results', () => {
  it('a green provider: exit 0, its results in the matrix, can-i-deploy says yes for both sides', async () => {
    const provider = await serve([]);
    green.url = provider.url;
    const run = await verify(provider, '--publish-verification-results', '--provider-app-version', 'p1');
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('PASS product-reviews: 1 of 1 interaction passed (the pacts of web-shop)');
    const matrix = await brokerGet(`/matrix?q[][pacticipant]=${CONSUMER}&q[][version]=1.0.0&latestby=cvp&latest=true`);
    const rows = matrix.matrix.map((r: any) => [r.provider.name, r.provider.version?.number, r.verificationResult?.success]);
    expect(rows.sort()).toEqual([
      ['product-reviews', 'p1', true],
      ['wishlist', 'p1', true],
    ]);
    const created = await pactBroker(['create-environment', '--name', 'production', '--production', '--broker-base-url', BROKER.url]);
    expect(created.code, created.stdout + created.stderr).toBe(0);
    for (const provider of ['product-reviews', 'wishlist']) {
      const yes = await canIDeploy('--pacticipant', provider, '--version', 'p1', '--to-environment', 'production');
      expect(yes.code, yes.stdout + yes.stderr).toBe(0);
      const deployed = await pactBroker(['record-deployment', '--pacticipant', provider, '--version', 'p1', '--environment', 'production', '--broker-base-url', BROKER.url]);
      expect(deployed.code, deployed.stdout + deployed.stderr).toBe(0);
    }
    const consumer = await canIDeploy('--pacticipant', CONSUMER, '--version', '1.0.0', '--to-environment', 'production');
    expect(consumer.code, consumer.stdout + consumer.stderr).toBe(0);
    expect(consumer.stdout).toContain('Computer says yes');
    const shipped = await pactBroker(['record-deployment', '--pacticipant', CONSUMER, '--version', '1.0.0', '--environment', 'production', '--broker-base-url', BROKER.url]);
    expect(shipped.code, shipped.stdout + shipped.stderr).toBe(0);
  });

  it('a new consumer version that breaks, on a branch: pending, reported apart, the build stays green; can-i-deploy says no for it', async () => {
    const broken = join(work, 'pacts-2.0.0');
    mkdirSync(broken);
    const pact = JSON.parse(readFileSync(join(pacts, `${CONSUMER}-product-reviews.json`), 'utf8'));
    pact.interactions[0].response.body.content.count = 13; // the provider answers 12
    writeFileSync(join(broken, `${CONSUMER}-product-reviews.json`), JSON.stringify(pact, null, 2));
    const published = await publish(broken, '2.0.0', 'feat/more-reviews');
    expect(published.code, published.stdout + published.stderr).toBe(0);
    const run = await verify(green as { url: string }, '--consumer-version-selectors', '[{"branch":"feat/more-reviews"}]', '--provider', 'product-reviews', '--publish-verification-results', '--provider-app-version', 'p1');
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('PASS product-reviews: 0 of 1 interaction passed, 1 pending');
    expect(run.stdout).toContain('BodyMismatch $.count: expected 13, got 12');
    expect(run.stdout).toContain('(pending: does not fail the run)');
    const no = await canIDeploy('--pacticipant', CONSUMER, '--version', '2.0.0', '--to-environment', 'production');
    expect(no.code, no.stdout + no.stderr).toBe(1);
    expect(no.stdout).toContain('Computer says no');
  });

  it('work-in-progress pacts are verified and reported apart, and do not fail the build', async () => {
    const run = await verify(green as { url: string }, '--consumer-version-selectors', '[{"mainBranch":true}]', '--include-wip-pacts-since', '2020-01-01');
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('PASS product-reviews: 1 of 1 interaction passed (the pacts of web-shop)');
    expect(run.stdout).toContain('work in progress (pending, never fails the run): 0 of 1 interaction passed');
    expect(run.stdout).toContain('OK: 2 interactions passed (and 1 interaction of work-in-progress pacts)');
  });

  it('once verified green, a later failure fails the build (no longer pending), and can-i-deploy says no for that provider version', async () => {
    // A provider that breaks the contract: it answers `count` as a string.
    const breaking = await startBreakingProvider();
    try {
      const run = await verify(breaking, '--consumer-version-selectors', '[{"mainBranch":true}]', '--publish-verification-results', '--provider-app-version', 'p2');
      expect(run.code, run.stdout + run.stderr).toBe(1);
      expect(run.stdout).toMatch(/FAIL (product-reviews|wishlist)/);
      const no = await canIDeploy('--pacticipant', 'product-reviews', '--version', 'p2', '--to-environment', 'production');
      expect(no.code, no.stdout + no.stderr).toBe(1);
    } finally {
      await breaking.close();
    }
  });

  it('baselines name only new failures when the pacts come from the broker', async () => {
    const breaking = await startBreakingProvider();
    const baseline = join(work, 'verify-baseline.json');
    try {
      const written = await verify(breaking, '--consumer-version-selectors', '[{"mainBranch":true}]', '--write-baseline', baseline);
      expect(written.code, written.stdout + written.stderr).toBe(0);
      const held = await verify(breaking, '--consumer-version-selectors', '[{"mainBranch":true}]', '--baseline', baseline);
      expect(held.code, held.stdout + held.stderr).toBe(0);
      const green2 = await verify(green as { url: string }, '--consumer-version-selectors', '[{"mainBranch":true}]', '--baseline', baseline);
      expect(green2.code, green2.stdout + green2.stderr).toBe(0);
    } finally {
      await breaking.close();
    }
  });
});

describe("docs/contracts.md's provider job, as written", () => {
  it('verify with every option of the recipe, then the deploy gate of each provider', async () => {
    const baseline = join(work, 'recipe-baseline.json');
    const written = await verify(green as { url: string }, '--consumer-version-selectors', '[{"mainBranch":true},{"deployedOrReleased":true}]', '--write-baseline', baseline);
    expect(written.code, written.stdout + written.stderr).toBe(0);
    const run = await kit([
      'verify', '--provider-base-url', green.url!, '--consumer', CONSUMER,
      '--broker-url', BROKER.url,
      '--consumer-version-selectors', '[{"mainBranch":true},{"deployedOrReleased":true}]',
      '--enable-pending', '--include-wip-pacts-since', '2026-01-01',
      '--publish-verification-results', '--provider-app-version', 'p3', '--provider-version-branch', 'main',
      '--baseline', baseline,
    ]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    for (const provider of ['product-reviews', 'wishlist']) {
      const gate = await canIDeploy('--pacticipant', provider, '--version', 'p3', '--to-environment', 'production');
      expect(gate.code, gate.stdout + gate.stderr).toBe(0);
    }
  });
});

describe('a broker that cannot be used is exit 2 with one sentence', () => {
  it('unreachable, refusing the credentials, or not a broker', async () => {
    const gone = await kit(['verify', '--provider-base-url', green.url!, '--consumer', CONSUMER, '--broker-url', 'http://127.0.0.1:1']);
    expect(gone.code).toBe(2);
    expect(gone.stderr.trim()).toMatch(/^error: cannot reach the Pact Broker at http:\/\/127\.0\.0\.1:1: /);
    const refused = await kit(['verify', '--provider-base-url', green.url!, '--consumer', CONSUMER, '--broker-url', BROKER.url], { PACT_BROKER_PASSWORD: 'wrong' });
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim()).toContain(`the Pact Broker at ${BROKER.url} refused the user name and password`);
    const notABroker = await kit(['verify', '--provider-base-url', green.url!, '--consumer', CONSUMER, '--broker-url', green.url!]);
    expect(notABroker.code).toBe(2);
    expect(notABroker.stderr.trim()).toContain(`${green.url} does not answer as a Pact Broker`);
    const noPacts = await kit(['verify', '--provider-base-url', green.url!, '--consumer', 'nobody', '--broker-url', BROKER.url]);
    expect(noPacts.code).toBe(2);
    expect(noPacts.stderr.trim()).toContain("has no pact of 'nobody'");
    for (const run of [gone, refused, notABroker, noPacts]) expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });
});

/** One of the kit's broken providers (test/support/pact-broken-providers.ts): the mock behind a front that answers `count` as a string. */
async function startBreakingProvider(): Promise<{ url: string; close(): Promise<void> }> {
  const { BREAKAGES, startBrokenProvider } = await import('../support/pact-broken-providers.ts');
  return startBrokenProvider(BREAKAGES.countAsString);
}
