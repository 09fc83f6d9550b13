/**
 * What a backend team on the published plugins sees in CI (docs/contracts.md, "Verify your Medusa
 * backend in CI"), run against the real Medusa (`npm run test:medusa`) with its provider states
 * served by `store-listing-kit/medusa` (medusa-app/src/api/kit/provider-states/route.js), and
 * against `serve --dialect alphabite`, side by side: the same verdicts from both, pinned.
 *   - `verify --dialect alphabite` (the SDK storefront's pacts) fails exactly the interactions the
 *     plugins break, each named in its summary;
 *   - `check --dialect alphabite` fails exactly ALPHABITE_CHECK_FAILURES, and the spec's
 *     `check --strict` cannot run, saying the server speaks the alphabite dialect
 *     (SPEC_CHECK_CANNOT_RUN, test/support/alphabite-verdicts.ts);
 *   - `verify` with the spec's pacts cannot run (exit 2): the plugins answer in their own
 *     dialect, which it names (lib/dialects/detect.ts);
 *   - the CI recipe's commands with baselines written on the real backend: green as it is, red
 *     (exit 1, each new failure named NEW) once a proxy in front of it drops each listing's last
 *     record, a breakage the recorded 4.1 failures must not hide.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROVIDERS } from '../../contracts/names.ts';
import { sdkInteractionsOf } from '../../contracts/sdk-interactions.ts';
import { verifyProviders } from '../../contracts/verify.ts';
import { PROVIDER_STATES_PATH } from '../../lib/provider-states.ts';
import { MEDUSA_PROVIDER_STATES_PATH } from '../../medusa/index.ts';
import { startMockServer, type MockServer } from '../../mock-server/server.ts';
import type { CheckOptions } from '../../properties/options.ts';
import { runListingProperties } from '../../properties/runner.ts';
import { ALPHABITE_CHECK_FAILURES, SPEC_CHECK_CANNOT_RUN, failuresOf, verdictsOf } from '../support/alphabite-verdicts.ts';
import { medusaFacts } from '../support/medusa-backend.ts';
import { runCli, type CliRun } from '../support/cli-process.ts';
import { BREAKAGES, startBrokenFront } from '../support/pact-broken-providers.ts';

const facts = medusaFacts();
const shopper = facts.customers[0]!;

interface Target {
  name: string;
  baseUrl: string;
  statesUrl: string;
  headers: Record<string, string>;
}
const medusa: Target = {
  name: 'Medusa with the plugins',
  baseUrl: facts.baseUrl,
  statesUrl: `${facts.baseUrl}${MEDUSA_PROVIDER_STATES_PATH}`,
  headers: { 'x-publishable-api-key': facts.publishableKey, authorization: `Bearer ${shopper.token}` },
};
let mock: MockServer;
let emulation: Target;
beforeAll(async () => {
  mock = await startMockServer({ seed: 1, dialect: 'alphabite' });
  emulation = { name: 'serve --dialect alphabite', baseUrl: mock.url, statesUrl: `${mock.url}${PROVIDER_STATES_PATH}`, headers: { 'x-publishable-api-key': 'pk_test', authorization: 'Bearer token' } };
});
afterAll(async () => {
  await mock?.close();
});

type Run = CliRun;
const cli = (args: string[]) => runCli([...args], 240_000);
const headerArgs = (t: Target) => Object.entries(t.headers).flatMap(([name, value]) => ['--header', `${name}: ${value}`]);
const summaryOf = (run: Run) => run.stdout.slice(run.stdout.indexOf('store-listing-kit verify: summary'));
/** The interactions the summary lists as failing (each mismatch line names its interaction). */
const failingIn = (summary: string) => new Set([...summary.matchAll(/^ {4}- Given .+? - (.+)$/gm)].map((m) => m[1]!));

/** What each state change left behind must be gone: the seeded listings answer as before. */
async function seededCounts(): Promise<number[]> {
  const get = async (path: string) => (await (await fetch(`${facts.baseUrl}${path}`, { headers: medusa.headers })).json()) as { data: unknown[]; count: number };
  const wishlists = facts.wishlists.filter((w) => w.customer_id === shopper.id);
  return [(await get('/store/products/reviews')).data.length, (await get('/store/wishlists?limit=100')).count, (await get(`/store/wishlists/${wishlists[0]!.id}/items?limit=100`)).count];
}
const SEEDED = [facts.reviews.length, facts.wishlists.filter((w) => w.customer_id === shopper.id).length, facts.wishlists.filter((w) => w.customer_id === shopper.id)[0]!.itemIds.length];

describe('verify --dialect alphabite (the SDK storefront\'s pacts), against the real plugins and their emulation', () => {
  it('both pass every interaction the plugins honour and fail exactly those they break, each named in the summary; the states are undone', async () => {
    const broken = PROVIDERS.flatMap((p) => sdkInteractionsOf(p)).filter((i) => i.brokenBy).map((i) => i.description);
    expect(broken.length).toBeGreaterThan(0);
    const failing: Record<string, Set<string>> = {};
    for (const target of [medusa, emulation]) {
      const run = await cli(['verify', '--dialect', 'alphabite', '--provider-base-url', target.baseUrl, '--provider-states-setup-url', target.statesUrl, ...headerArgs(target)]);
      const summary = summaryOf(run);
      expect([run.code, run.stderr], `${target.name}:\n${summary}`).toEqual([1, '']);
      expect(summary, target.name).toMatch(/FAIL product-reviews: 3 of \d+ interactions failed/);
      expect(summary, target.name).not.toMatch(/state change/);
      expect(summary, target.name).toContain('PASS wishlist');
      expect(summary, target.name).toMatch(/reviews\.list\(\{ limit: 5, offset: 5 \}\).*\n\s+BodyMismatch \$\.count: expected 12, got 0/);
      failing[target.name] = failingIn(summary);
    }
    expect(failing[medusa.name]).toEqual(new Set(broken));
    expect(failing[medusa.name]).toEqual(failing[emulation.name]);
    expect(await seededCounts()).toEqual(SEEDED);
  }, 480_000);
});

describe('the quick start of docs/contracts.md ("Verify your Medusa backend in CI"), its commands with baselines as written', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'medusa-baselines-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const baselineFiles = () => [join(dir, 'verify-baseline.json'), join(dir, 'check-baseline.json')] as const;
  /** The baselines written on the real backend, once for both tests (either may run alone: `-t`). */
  let written: Promise<{ writeVerify: Run; writeCheck: Run }> | undefined;
  const writeBaselines = () =>
    (written ??= (async () => {
      const [verifyFile, checkFile] = baselineFiles();
      const writeVerify = await cli([...verifyArgs(medusa), '--write-baseline', verifyFile]);
      return { writeVerify, writeCheck: await cli([...checkArgs(medusa), '--write-baseline', checkFile]) };
    })());
  const verifyArgs = (t: Target) => ['verify', '--dialect', 'alphabite', '--provider-base-url', t.baseUrl, '--provider-states-setup-url', t.statesUrl, ...headerArgs(t)];
  const checkArgs = (t: Target) => ['check', '--dialect', 'alphabite', '--base-url', t.baseUrl, '--runs', '10', '--seed', '1', ...headerArgs(t)];
  const broken = PROVIDERS.flatMap((p) => sdkInteractionsOf(p)).filter((i) => i.brokenBy).map((i) => i.description);

  it('verify and check --dialect alphabite record the known failures with --write-baseline (exit 0), then pass with --baseline (exit 0)', async () => {
    const [verifyFile, checkFile] = baselineFiles();
    const { writeVerify, writeCheck } = await writeBaselines();
    expect([writeVerify.code, writeVerify.stderr], writeVerify.stdout).toEqual([0, '']);
    const recorded = JSON.parse(readFileSync(verifyFile, 'utf8')) as { failures: Array<{ interaction: string; endpoint: string }> };
    expect(new Set(recorded.failures.map((f) => f.interaction))).toEqual(new Set(broken));
    expect(recorded.failures.every((f) => f.endpoint === '4.1 GET /store/products/reviews')).toBe(true);
    const verify = await cli([...verifyArgs(medusa), '--baseline', verifyFile]);
    expect([verify.code, verify.stderr], verify.stdout).toEqual([0, '']);
    expect(summaryOf(verify)).toMatch(/PASS wishlist: (\d+) of \1 interactions passed/);
    expect(verify.stdout).toContain('no new failure (3 of 3 recorded failures still fail)');
    expect([writeCheck.code, writeCheck.stderr], writeCheck.stdout).toEqual([0, '']);
    const checked = JSON.parse(readFileSync(checkFile, 'utf8')) as { failures: Array<{ property: string; endpoint: string }> };
    expect(checked.failures.map((f) => `${f.property} ${f.endpoint.split(' ')[0]}`)).toEqual([...ALPHABITE_CHECK_FAILURES].sort());
    const check = await cli([...checkArgs(medusa), '--baseline', checkFile]);
    expect([check.code, check.stderr], check.stdout).toEqual([0, '']);
    expect(check.stdout).toContain('no new failure (3 of 3 recorded failures still fail)');
    expect(await seededCounts()).toEqual(SEEDED);
  }, 480_000);

  it("the same commands and baselines against the backend behind a middleware that drops each listing's last record: exit 1, naming the new failures, not the recorded 4.1 ones", async () => {
    const [verifyFile, checkFile] = baselineFiles();
    const { writeVerify, writeCheck } = await writeBaselines();
    expect([writeVerify.code, writeCheck.code], `${writeVerify.stdout}${writeCheck.stdout}`).toEqual([0, 0]);
    const front = await startBrokenFront(facts.baseUrl, BREAKAGES.dropsLastRecord);
    try {
      // The states go through the middleware too, as they would in the app: it rewrites listings only.
      const short: Target = { ...medusa, name: 'Medusa behind the middleware', baseUrl: front.url, statesUrl: `${front.url}${MEDUSA_PROVIDER_STATES_PATH}` };
      const verify = await cli([...verifyArgs(short), '--baseline', verifyFile]);
      expect([verify.code, verify.stderr], verify.stdout).toEqual([1, '']);
      expect(verify.stdout).toMatch(/^FAIL against the baseline \S+: \d+ new failures?$/m);
      expect(summaryOf(verify)).not.toMatch(/state change/);
      const newInVerify = [...verify.stdout.matchAll(/^ {2}NEW (\S+): (?:Given .+? - )?(.+) \((4\.[1-4]) GET [^)]*\)( \(recorded, failing in a new way\))?$/gm)].map((m) => ({ provider: m[1]!, interaction: m[2]!, endpoint: m[3]!, recorded: m[4] !== undefined }));
      expect(newInVerify.length, verify.stdout).toBeGreaterThan(0);
      // Every listing the plugins page right loses its last record; 4.1's recorded failures stay as recorded.
      expect(new Set(newInVerify.map((n) => n.endpoint)), verify.stdout).toEqual(new Set(['4.2', '4.3', '4.4']));
      expect(newInVerify.length, verify.stdout).toBe([...verify.stdout.matchAll(/^ {2}NEW /gm)].length);
      expect(newInVerify.filter((n) => n.recorded || broken.includes(n.interaction)), verify.stdout).toEqual([]);
      const check = await cli([...checkArgs(short), '--baseline', checkFile]);
      expect([check.code, check.stderr], check.stdout).toEqual([1, '']);
      expect(check.stdout).toMatch(/^FAIL against the baseline \S+: \d+ new failures?$/m);
      const newInCheck = [...check.stdout.matchAll(/^ {2}NEW (\S+) on (4\.[1-4]) GET /gm)].map((m) => `${m[1]} ${m[2]}`);
      expect(newInCheck.length, check.stdout).toBeGreaterThan(0);
      expect(newInCheck, check.stdout).toEqual(expect.arrayContaining(['count-matches-records 4.2', 'count-matches-records 4.3', 'count-matches-records 4.4']));
      for (const known of ALPHABITE_CHECK_FAILURES) expect(newInCheck, check.stdout).not.toContain(known);
    } finally {
      await front.close();
    }
    expect(await seededCounts()).toEqual(SEEDED);
  }, 480_000);

  it('the documented path is the one the app serves, and the route answers 400 invalid_data to a state outside the vocabulary', async () => {
    const doc = readFileSync(new URL('../../docs/contracts.md', import.meta.url), 'utf8');
    expect(doc).toContain(`$BASE${MEDUSA_PROVIDER_STATES_PATH}`);
    const res = await fetch(medusa.statesUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ state: 'reviews galore', params: {} }) });
    expect([res.status, ((await res.json()) as { type: string }).type]).toEqual([400, 'invalid_data']);
  });
});

describe('check --dialect alphabite and the spec\'s check --strict, against the real plugins and their emulation', () => {
  const check = (target: Target, options: Partial<CheckOptions>) => runListingProperties({ baseUrl: target.baseUrl, headers: target.headers, seed: 1, runs: 10, ...options });

  it('--dialect alphabite: both fail exactly the plugins\' bugs that hurt a storefront (ALPHABITE_CHECK_FAILURES), and nothing is skipped', async () => {
    const [real, emulated] = [await check(medusa, { dialect: 'alphabite' }), await check(emulation, { dialect: 'alphabite' })];
    expect(failuresOf(real.results).sort()).toEqual([...ALPHABITE_CHECK_FAILURES].sort());
    expect(verdictsOf(real.results)).toEqual(verdictsOf(emulated.results));
    expect(real.results.filter((r) => r.status === 'skipped')).toEqual([]);
  }, 240_000);

  it('--strict (the spec\'s rules): neither can be judged by them, and both say they speak the alphabite dialect (SPEC_CHECK_CANNOT_RUN)', async () => {
    for (const target of [medusa, emulation]) {
      await expect(check(target, { strict: true }), target.name).rejects.toThrow(SPEC_CHECK_CANNOT_RUN);
    }
  }, 240_000);
});

describe('verify with the spec\'s pacts, against the real plugins and their emulation', () => {
  it('cannot run on either (exit 2): both answer in the plugins\' dialect, which it names, before any pact is replayed', async () => {
    for (const target of [medusa, emulation]) {
      await expect(verifyProviders({ providerBaseUrl: target.baseUrl, providerStatesSetupUrl: target.statesUrl, headers: target.headers, logLevel: 'error' }), target.name).rejects.toThrow(
        /^\S+ answers in the alphabite dialect, not spec: GET \S+\/store\/products\/reviews\?limit=1 answered the plugins' envelope \{data,count,[^}]*\} \(add --dialect alphabite, or point at a server that speaks the spec\)$/,
      );
    }
    expect(await seededCounts()).toEqual(SEEDED);
  }, 480_000);
});
