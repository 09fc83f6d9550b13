/**
 * A run lets go of the mock's provider state when it ends, on every path, so that a backend team's CI
 * can run verify, check and verify again back to back against one provider: also when that provider
 * is a front of the mock that passes the state changes on but not every header of their answers
 * (test/support/pact-broken-providers.ts `startBrokenFront`), and when the run fails (exit 1) or
 * cannot run (exit 2).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../mock-server/server.ts';
import { BREAKAGES, startBrokenFront, type BrokenFront } from './support/pact-broken-providers.ts';
import { runCli } from './support/cli-process.ts';
import { get } from './support/http.ts';

const STATES = '/__admin/provider-states';
const CLI = join(import.meta.dirname, '..', 'bin', 'store-listing-kit.js');
const cli = (args: string[]) => runCli(args, 150_000);
// Each test starts from no hold, whatever the one before left.
const reset = async (base: string) => expect((await get(base, '/__admin/reset', { method: 'POST', headers: { 'x-requested-by': 'provider-state-release.test' } })).status).toBe(200);
const hold = async (base: string) => (await get(base, STATES)).json.hold as unknown;

describe('back to back against a broken front of the mock', () => {
  let mock: MockServer;
  let front: BrokenFront;
  beforeAll(async () => {
    // A lapse far longer than the test: only a release can end a hold in time.
    mock = await startMockServer({ seed: 1, stateLeaseMs: 600_000 });
    front = await startBrokenFront(mock.url, BREAKAGES.countAsString);
  });
  afterAll(async () => {
    await front.close();
    await mock.close();
  });
  afterEach(() => reset(mock.url));

  const verify = () => cli(['verify', '--provider-base-url', front.url, '--provider', 'wishlist']);

  it('verify --write-baseline, verify, check --vary-dataset, verify --baseline: none is stuck on the one before', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'state-release-'));
    const baseline = join(dir, 'verify-baseline.json');
    try {
      const written = await cli(['verify', '--provider-base-url', front.url, '--provider', 'wishlist', '--write-baseline', baseline]);
      expect(written.code, written.stderr).toBe(0);
      expect(await hold(mock.url)).toBeNull();
      const check = await cli(['check', '--base-url', front.url, '--seed', '1', '--runs', '3', '--endpoints', 'wishlists', '--vary-dataset']);
      expect(check.stderr).not.toMatch(/another run holds/);
      expect(check.code, check.stderr).toBe(1);
      expect(await hold(mock.url)).toBeNull();
      const again = await cli(['verify', '--provider-base-url', front.url, '--provider', 'wishlist', '--baseline', baseline]);
      expect(again.stderr).not.toMatch(/another run holds/);
      expect(again.code, again.stderr).toBe(0);
      expect(await hold(mock.url)).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 600_000);

  it('verify, verify again, then check --vary-dataset: each finds the breakage (exit 1), none is stuck on the one before', async () => {
    const first = await verify();
    expect(first.code, first.stderr).toBe(1);
    expect(await hold(mock.url)).toBeNull();
    const second = await verify();
    expect(second.stderr).not.toMatch(/another run holds/);
    expect(second.code, second.stderr).toBe(1);
    expect(await hold(mock.url)).toBeNull();
    const check = await cli(['check', '--base-url', front.url, '--seed', '1', '--runs', '3', '--endpoints', 'wishlists', '--vary-dataset']);
    expect(check.stderr).not.toMatch(/another run holds/);
    expect(check.code, check.stderr).toBe(1);
    expect(await hold(mock.url)).toBeNull();
    const third = await verify();
    expect(third.stderr).not.toMatch(/another run holds/);
    expect(third.code, third.stderr).toBe(1);
    expect(await hold(mock.url)).toBeNull();
    expect(mock.dataset.current).toBe(mock.dataset.initial);
  }, 600_000);
});

/** Starts `store-listing-kit <args>`; `ended` resolves with its exit code or the signal that ended it. */
function startCli(args: string[]) {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PACT_DO_NOT_TRACK: 'true' } });
  let err = '';
  child.stdout!.resume();
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const ended = new Promise<number | string>((resolve) => child.on('close', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  return { child, ended, stderr: () => err };
}

/** Resolves once `holds()` is true, checking every 20 ms; rejects after `withinMs` or once `ended` settles first. */
async function until(holds: () => Promise<boolean>, ended: Promise<unknown>, withinMs = 60_000): Promise<void> {
  let over = false;
  void ended.then(() => (over = true));
  const deadline = Date.now() + withinMs;
  while (!(await holds())) {
    if (over) throw new Error('the run ended before it held the provider state');
    if (Date.now() > deadline) throw new Error(`no hold within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('stopped by Ctrl-C while it holds the provider state, a run releases it before it ends', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ seed: 1, stateLeaseMs: 600_000 });
  });
  afterAll(() => mock.close());
  afterEach(() => reset(mock.url));

  for (const [name, args] of [
    ['check --vary-dataset', () => ['check', '--base-url', mock.url, '--seed', '1', '--runs', '400', '--endpoints', 'reviews', '--vary-dataset']],
    ['verify', () => ['verify', '--provider-base-url', mock.url]],
  ] as const) {
    it(name, async () => {
      const run = startCli(args());
      await until(async () => (await hold(mock.url)) !== null, run.ended);
      run.child.kill('SIGINT');
      expect(await run.ended, run.stderr()).toBe('SIGINT');
      expect(await hold(mock.url)).toBeNull();
      expect(mock.dataset.current).toBe(mock.dataset.initial);
    }, 180_000);
  }
});
