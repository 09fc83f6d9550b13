import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyProviders, type ProviderResult } from '../contracts/verify.ts';
import { pactStateHandlers, PROVIDER_STATES_PATH } from '../mock-server/provider-states.ts';
import { startMockServer, type MockServer } from '../mock-server/server.ts';
import { BREAKAGES, startBrokenProvider, type Envelope } from './support/pact-broken-providers.ts';

// The drift guard: the mock server must honour the committed pacts, and the verifier
// must fail, naming the mismatch, against providers that differ in shape.

const run = promisify(execFile);
const BIN = fileURLToPath(new URL('../bin/store-listing-kit.js', import.meta.url));

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ seed: 1 });
});
afterAll(() => mock.close());

/** The environment of the test run, minus any broker settings a CI might have. */
function withoutBroker(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PACT_DO_NOT_TRACK: 'true' };
  for (const name of Object.keys(env)) if (name.startsWith('PACT_BROKER_')) delete env[name];
  return env;
}

const mismatchText = (results: ProviderResult[]) => results.flatMap((r) => r.mismatches.map((m) => `${m.interaction}: ${m.detail}`)).join('\n');

describe('the mock server honours the pacts', () => {
  it('with in-process state handlers, for both providers', async () => {
    const results = await verifyProviders({ providerBaseUrl: mock.url, stateHandlers: pactStateHandlers(mock.dataset) });
    expect(mismatchText(results)).toBe('');
    expect(results.map((r) => [r.provider, r.ok])).toEqual([
      ['product-reviews', true],
      ['wishlist', true],
    ]);
    // Every state was torn down: the server is back on its own dataset.
    expect(mock.dataset.current).toBe(mock.dataset.initial);
  });

  it('through the HTTP state-change endpoint (providerStatesSetupUrl), as any provider would', async () => {
    const results = await verifyProviders({ providerBaseUrl: mock.url, providerStatesSetupUrl: `${mock.url}${PROVIDER_STATES_PATH}` });
    expect(mismatchText(results)).toBe('');
    expect(results.every((r) => r.ok)).toBe(true);
  });

  it('fails when the states are not set up: the contracts depend on them', async () => {
    const [result] = await verifyProviders({ providerBaseUrl: mock.url, providers: ['wishlist'] });
    expect(result!.ok).toBe(false);
    expect(mismatchText([result!])).toMatch(/\$\.count/);
  });
});

describe('verify fails against providers that differ in shape, and names the mismatch', () => {
  const cases: Array<{ name: string; rewrite: (b: Envelope) => Envelope; provider: 'product-reviews' | 'wishlist'; expected: RegExp[] }> = [
    { name: 'a renamed envelope key (totalPages -> total_pages)', rewrite: BREAKAGES.renamedKey, provider: 'product-reviews', expected: [/missing the following keys: totalPages/] },
    { name: 'a counter sent as a string (count: "12")', rewrite: BREAKAGES.countAsString, provider: 'wishlist', expected: [/\$\.count: Expected '12' \(String\)/] },
    { name: 'a missing prevPage on the reviews envelope', rewrite: BREAKAGES.missingPrevPage, provider: 'product-reviews', expected: [/missing the following keys: prevPage/] },
    { name: 'skip and take not echoed', rewrite: BREAKAGES.skipTakeNotEchoed, provider: 'wishlist', expected: [/missing the following keys: .*skip/, /missing the following keys: .*take/] },
  ];

  for (const c of cases) {
    it(c.name, async () => {
      const broken = await startBrokenProvider(c.rewrite);
      try {
        const [result] = await verifyProviders({ providerBaseUrl: broken.url, providers: [c.provider], stateHandlers: broken.stateHandlers });
        expect(result!.ok).toBe(false);
        const text = mismatchText([result!]);
        for (const pattern of c.expected) expect(text).toMatch(pattern);
        // The mismatch is reported per interaction, with the interaction named.
        expect(result!.mismatches[0]!.interaction).toMatch(/a request for /);
      } finally {
        await broken.close();
      }
    });
  }
});

describe('store-listing-kit verify (the CLI)', () => {
  it('exits 0 against the mock, setting states through <base-url>/__admin/provider-states', async () => {
    const { stdout } = await run(process.execPath, [BIN, 'verify', '--provider-base-url', mock.url], { env: withoutBroker() });
    expect(stdout).toContain('PASS product-reviews');
    expect(stdout).toContain('PASS wishlist');
  });

  it("exits non-zero against a broken provider, with Pact's mismatch report and a summary", async () => {
    const broken = await startBrokenProvider(BREAKAGES.countAsString);
    try {
      const failure = await run(process.execPath, [BIN, 'verify', '--provider-base-url', broken.url, '--provider', 'product-reviews'], {
        env: withoutBroker(),
        maxBuffer: 64 * 1024 * 1024,
      }).then(
        () => undefined,
        (error: { code?: number; stdout?: string }) => error,
      );
      expect(failure?.code).toBe(1);
      expect(failure?.stdout).toContain('Failures:');
      expect(failure?.stdout).toContain('FAIL product-reviews');
      expect(failure?.stdout).toMatch(/\$\.count: Expected '12' \(String\)/);
    } finally {
      await broken.close();
    }
  });

  it('exits 2 with a clear message for options that cannot work', async () => {
    const failure = await run(process.execPath, [BIN, 'verify', '--provider-base-url', mock.url, '--publish'], { env: withoutBroker() }).then(
      () => undefined,
      (error: { code?: number; stderr?: string }) => error,
    );
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toContain('--publish needs a broker');
  });
});
