import { execFile, spawn } from 'node:child_process';
import { closeSync, cpSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACT_DIR } from '../contracts/pacts.ts';
import { describeMismatch, verifyProviders, type ProviderResult } from '../contracts/verify.ts';
import { PROVIDER_STATES_PATH } from '../lib/provider-states.ts';
import { pactStateHandlers } from '../mock-server/state/provider-states.ts';
import { startMockServer, type MockServer } from '../mock-server/server.ts';
import { BREAKAGES, startBrokenProvider, type BrokenProvider, type Envelope } from './support/pact-broken-providers.ts';

// The drift guard: the mock server must honour the committed pacts, and the verifier
// must fail, naming the mismatch, against providers that differ in shape.
//
// Every verification that is meant to fail runs in a child process (the CLI), with its output
// captured: Pact's native core prints its report straight to this process's stdout, so a failing
// verification in-process would fill a passing test run with FAILED and ERROR lines.

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

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `store-listing-kit verify ...` in a child process; never rejects. */
function verifyCli(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, 'verify', ...args], { env: withoutBroker(), maxBuffer: 64 * 1024 * 1024, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });
}

/** The closing summary the CLI prints (after Pact's report, with --verbose). */
const summaryOf = (run: Run) => run.stdout.slice(run.stdout.indexOf('store-listing-kit verify: summary'));

const mismatchText = (results: ProviderResult[]) => results.flatMap((r) => r.mismatches.map((m) => `${m.interaction}: ${m.detail}`)).join('\n');

/** A state-change door that answers every change with `answer(action)`, and records what it was sent. */
async function startDoor(answer: (action: string) => number): Promise<{ url: string; changes: Array<{ state: string; action: string }>; close(): Promise<void> }> {
  const changes: Array<{ state: string; action: string }> = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const change = JSON.parse(body || '{}') as { state: string; action: string };
      changes.push(change);
      const status = answer(change.action);
      res.writeHead(status, { 'content-type': 'application/json' }).end(status === 200 ? '{}' : '{"type":"unknown_error","message":"state door is broken"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${PROVIDER_STATES_PATH}`,
    changes,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

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
});

describe('verify fails against providers that differ in shape, and names the mismatch the right way round', () => {
  // expected = what the contract wants, got = what the provider sent.
  const cases: Array<{ name: string; rewrite: (b: Envelope) => Envelope; provider: 'product-reviews' | 'wishlist'; expected: RegExp[] }> = [
    { name: 'a renamed envelope key (totalPages -> total_pages)', rewrite: BREAKAGES.renamedKey, provider: 'product-reviews', expected: [/BodyMismatch \$: expected keys including totalPages, got count, currentPage, limit, nextPage, offset, prevPage, reviews, total_pages$/m] },
    { name: 'a counter sent as a string (count: "12")', rewrite: BREAKAGES.countAsString, provider: 'wishlist', expected: [/BodyMismatch \$\.count: expected 12, got "12"/] },
    { name: 'limit echoed as 20 where the contract asks for 5', rewrite: BREAKAGES.limitAlways20, provider: 'product-reviews', expected: [/BodyMismatch \$\.limit: expected 5, got 20/] },
    { name: 'a missing prevPage on the reviews envelope', rewrite: BREAKAGES.missingPrevPage, provider: 'product-reviews', expected: [/BodyMismatch \$: expected keys including prevPage, got count, currentPage, limit, nextPage, offset, reviews, totalPages$/m] },
    { name: 'skip and take not echoed', rewrite: BREAKAGES.skipTakeNotEchoed, provider: 'wishlist', expected: [/BodyMismatch \$: expected keys including skip, take, got count, currentPage, data, nextPage, prevPage, totalPages$/m] },
  ];
  let providers: BrokenProvider[] = [];
  let runs: Run[] = [];
  beforeAll(async () => {
    providers = await Promise.all(cases.map((c) => startBrokenProvider(c.rewrite)));
    // In parallel: each is a child process waiting on its own provider.
    runs = await Promise.all(cases.map((c, i) => verifyCli(['--provider-base-url', providers[i]!.url, '--provider', c.provider])));
  }, 120_000);
  afterAll(() => Promise.all(providers.map((p) => p.close())));

  cases.forEach((c, i) => {
    it(c.name, () => {
      const run = runs[i]!;
      expect(run.stderr).toBe('');
      expect(run.code).toBe(1);
      // No line of Pact's own report (--verbose asks for it): the summary, each mismatch under its interaction.
      expect(run.stdout).not.toContain('Failures:');
      const summary = summaryOf(run);
      expect(summary).toMatch(new RegExp(`FAIL ${c.provider}: \\d+ of \\d+ interactions failed`));
      expect(summary).toMatch(/^ {4}- Given .+ - a request for /m);
      for (const pattern of c.expected) expect(summary).toMatch(pattern);
    });
  });

  it("reads Pact's structured mismatch fields: expected is the contract's value, actual the provider's", () => {
    const pact = { actual: '20', expected: '5', mismatch: 'Expected 20 (Integer) to be equal to 5 (Integer)', path: '$.limit', type: 'BodyMismatch' };
    expect(describeMismatch(pact)).toBe('BodyMismatch $.limit: expected 5, got 20');
    const typed = { mismatch: "Expected '12' (String) to be the same type as 12 (Integer)", path: '$.count', type: 'BodyMismatch' };
    expect(describeMismatch(typed)).toBe("BodyMismatch $.count: expected the same type as 12 (Integer), got '12' (String)");
    // As Pact 16 reports a missing key: `expected` and `actual` are the key lists.
    const missing = { actual: '["count","total_pages"]', expected: '["count","totalPages"]', mismatch: 'Actual map is missing the following keys: totalPages', path: '$', type: 'BodyMismatch' };
    expect(describeMismatch(missing)).toBe('BodyMismatch $: expected keys including totalPages, got count, total_pages');
    expect(describeMismatch({ ...missing, actual: '[]' })).toBe('BodyMismatch $: expected keys including totalPages, got no keys');
    const list = { mismatch: 'Expected a List with 5 elements but received 3 elements', path: '$.reviews', type: 'BodyMismatch' };
    expect(describeMismatch(list)).toBe('BodyMismatch $.reviews: expected a List with 5 elements, got 3 elements');
  });
});

describe('store-listing-kit verify (the CLI)', () => {
  it('exits 0 against the mock, setting states through <base-url>/__admin/provider-states, without deprecation warnings', async () => {
    const run = await verifyCli(['--provider-base-url', mock.url]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('PASS product-reviews');
    expect(run.stdout).toContain('PASS wishlist');
    expect(`${run.stdout}${run.stderr}`).not.toMatch(/deprecated|WARN/);
  });

  it('fails (1) when the states are not set up: the contracts depend on them', async () => {
    const door = await startDoor(() => 200);
    try {
      const run = await verifyCli(['--provider-base-url', mock.url, '--provider', 'wishlist', '--provider-states-setup-url', door.url]);
      expect(run.code).toBe(1);
      expect(summaryOf(run)).toMatch(/\$\.count: expected \d+, got \d+/);
      // The door was called for each interaction, setup and teardown, with the pact's state names.
      expect(door.changes.some((c) => c.state === 'wishlist has items' && c.action === 'setup')).toBe(true);
      expect(door.changes.some((c) => c.action === 'teardown')).toBe(true);
    } finally {
      await door.close();
    }
  });

  it('names the state changes the provider refused (1)', async () => {
    const door = await startDoor((action) => (action === 'setup' ? 500 : 200));
    try {
      const run = await verifyCli(['--provider-base-url', mock.url, '--provider', 'wishlist', '--provider-states-setup-url', door.url]);
      expect(run.code).toBe(1);
      expect(summaryOf(run)).toMatch(/FAIL wishlist: \d+ of \d+ interactions failed/);
      expect(summaryOf(run)).toMatch(/^ {8}state change setup of 'wishlists exist' \{"count":\d+\}: POST \S+ answered 500/m);
    } finally {
      await door.close();
    }
  });

  it("writes no colour into a pipe or a file, though Pact's core colours its report (--verbose)", async () => {
    const broken = await startBrokenProvider(BREAKAGES.countAsString);
    const dir = mkdtempSync(join(tmpdir(), 'slk-verify-out-'));
    try {
      const file = join(dir, 'out.txt');
      const fd = openSync(file, 'w');
      const args = [BIN, 'verify', '--provider-base-url', broken.url, '--provider', 'wishlist', '--verbose'];
      const toFile = await new Promise<number | null>((resolve) => {
        const child = spawn(process.execPath, args, { env: withoutBroker(), stdio: ['ignore', fd, 'pipe'] });
        child.on('close', (code) => resolve(code));
      });
      closeSync(fd);
      const [piped, noColor] = await Promise.all([
        verifyCli(['--provider-base-url', broken.url, '--provider', 'wishlist', '--verbose']),
        new Promise<Run>((resolve) =>
          execFile(process.execPath, args, { env: { ...withoutBroker(), NO_COLOR: '1' } }, (error, stdout, stderr) => resolve({ code: error ? (error.code as number) : 0, stdout, stderr })),
        ),
      ]);
      const written = readFileSync(file, 'utf8');
      for (const [code, out] of [[toFile, written], [piped.code, piped.stdout + piped.stderr], [noColor.code, noColor.stdout + noColor.stderr]] as const) {
        expect(code).toBe(1);
        expect(out).toContain('Verifying a pact between storefront and wishlist');
        expect(out).toMatch(/has a matching body \(FAILED\)/);
        expect(out).toContain('store-listing-kit verify: summary');
        expect(out).not.toMatch(/\u001b\[/);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await broken.close();
    }
  }, 120_000);

  it('exits 2 with a clear message for options that cannot work', async () => {
    const run = await verifyCli(['--provider-base-url', mock.url, '--publish']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--publish-verification-results needs a broker');
  });

  describe('--no-provider-states', () => {
    let dir: string;
    beforeAll(() => {
      // The committed pacts with every provider state removed: what a broker may hold.
      dir = mkdtempSync(join(tmpdir(), 'slk-pacts-'));
      cpSync(PACT_DIR, dir, { recursive: true });
      for (const name of readdirSync(dir).filter((n) => n.endsWith('.json'))) {
        const pact = JSON.parse(readFileSync(join(dir, name), 'utf8')) as { interactions: Array<Record<string, unknown>> };
        for (const interaction of pact.interactions) delete interaction.providerStates;
        writeFileSync(join(dir, name), JSON.stringify(pact));
      }
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('is refused (2) for pacts whose interactions need provider states: no fixed data passes them all', async () => {
      const run = await verifyCli(['--provider-base-url', mock.url, '--no-provider-states']);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/^error: --no-provider-states cannot pass: the pacts in \S+ need provider states \('product has reviews'/);
    });

    it('is accepted for pacts without states', async () => {
      const run = await verifyCli(['--provider-base-url', mock.url, '--provider', 'wishlist', '--pact-dir', dir, '--consumer', 'storefront', '--no-provider-states']);
      // It runs: the mock's own data does not have the contract's counts, so it fails on them (1, not 2).
      expect(run.stderr).toBe('');
      expect(run.code).toBe(1);
      expect(summaryOf(run)).toMatch(/FAIL wishlist: \d+ of \d+ interactions failed/);
    });
  });
});
