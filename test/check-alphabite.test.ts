/**
 * `check --dialect alphabite`: it passes a server that speaks the plugins' dialect with their paging
 * fixed (the dialect's own choices are no failure), fails each deliberately broken one by the
 * property named for the bug, and, as a user runs it against `serve --dialect alphabite`, exits 1
 * with exactly the plugins' bugs, or 2 with the headers to pass when the backend refuses it.
 */
import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALPHABITE_PROPERTY_IDS } from '../properties/catalog/index.ts';
import { failureText } from '../properties/report.ts';
import { CannotRunError, runListingProperties, type CheckReport } from '../properties/runner.ts';
import { ALPHABITE_BUGS, startAlphabiteReferenceServer, type AlphabiteBugName, type AlphabiteReferenceServer } from './support/alphabite-reference-server.ts';
import { ALPHABITE_CHECK_FAILURES, failuresOf } from './support/alphabite-verdicts.ts';
import { startServe, type ServeProcess } from './support/cli-process.ts';

const SEED = 7;
const RUNS = 15;
const KEY = { 'x-publishable-api-key': 'pk_test' };
const failedIds = (r: CheckReport) => [...new Set(r.results.filter((x) => x.status === 'failed').map((x) => x.property))];

describe('check --dialect alphabite: every property is shown to catch a broken implementation', () => {
  it('each property is the expected catcher of at least one bug', () => {
    const caught = new Set<string>(Object.values(ALPHABITE_BUGS).flatMap((b) => b.caughtBy));
    expect(ALPHABITE_PROPERTY_IDS.filter((id) => !caught.has(id))).toEqual([]);
  });

  it("passes the dialect with the plugins' paging fixed: clamped page numbers, totalPages 1 when empty, fractional currentPage are its rules", async () => {
    const server = await startAlphabiteReferenceServer();
    try {
      const report = await runListingProperties({ baseUrl: server.url, seed: SEED, runs: RUNS, dialect: 'alphabite', headers: KEY });
      expect(report.results.filter((r) => r.status !== 'passed').map((r) => (r.status === 'failed' ? failureText(r) : `${r.property} ${r.section}: ${r.skipReason}`))).toEqual([]);
      expect(report.results.length).toBe(ALPHABITE_PROPERTY_IDS.length * 4);
      // The dataset has an empty wishlist, unaligned offsets are generated: the dialect's own numbers were met.
      expect(report.notes.join('\n')).toMatch(/4\.4 is checked with wishlists .*wl_001/);
    } finally {
      await server.close();
    }
  }, 60_000);

  for (const [name, bug] of Object.entries(ALPHABITE_BUGS) as Array<[AlphabiteBugName, (typeof ALPHABITE_BUGS)[AlphabiteBugName]]>) {
    it(`${name}: ${bug.does} → ${bug.caughtBy.join(', ')}`, async () => {
      const server = await startAlphabiteReferenceServer({ bug: name });
      try {
        const report = await runListingProperties({ baseUrl: server.url, seed: SEED, runs: RUNS, dialect: 'alphabite', headers: KEY });
        for (const id of bug.caughtBy) expect(failedIds(report)).toContain(id);
        const failure = report.results.find((r) => r.property === bug.caughtBy[0] && r.status === 'failed')!;
        expect(failure.violation?.url).toMatch(new RegExp(`^${server.url}/store/`));
        expect(failure.violation?.field).toBeTruthy();
        expect(failure.replay).toContain('--dialect alphabite');
        if (failure.counterexamplePath) {
          const again = await runListingProperties({
            baseUrl: server.url,
            seed: SEED,
            runs: RUNS,
            dialect: 'alphabite',
            headers: KEY,
            endpoints: [failure.endpoint],
            properties: [failure.property],
            replayPath: failure.counterexamplePath,
          });
          expect(again.results[0]!.status).toBe('failed');
          expect(again.results[0]!.violation?.url).toBe(failure.violation?.url);
        }
      } finally {
        await server.close();
      }
    }, 60_000);
  }
});

describe('check --dialect alphabite refuses what it cannot do', () => {
  it('--strict, --vary-dataset and the spec suite\'s property ids', async () => {
    const base = { baseUrl: 'http://127.0.0.1:1', dialect: 'alphabite' as const };
    await expect(runListingProperties({ ...base, strict: true })).rejects.toThrow(CannotRunError);
    await expect(runListingProperties({ ...base, varyDataset: true })).rejects.toThrow(/provider-state door/);
    await expect(runListingProperties({ ...base, properties: ['page-length'] })).rejects.toThrow(/no property 'page-length' in the alphabite dialect's suite/);
  });
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

const BIN = new URL('../bin/store-listing-kit.js', import.meta.url).pathname;

function cli(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    const { BASE_URL: _vite, ...env } = process.env;
    execFile(process.execPath, [BIN, ...args], { env, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

describe('store-listing-kit check --dialect alphabite against serve --dialect alphabite', () => {
  let serve: ServeProcess;
  beforeAll(async () => {
    serve = await startServe(['--dialect', 'alphabite', '--seed', '1']);
  });
  afterAll(async () => {
    serve?.child.kill('SIGTERM');
    await serve?.exited;
  });

  it('exits 1 with exactly the plugin bugs the mock emulates', async () => {
    const run = await cli(['check', '--base-url', serve.url, '--dialect', 'alphabite', '--seed', '3', '--runs', '10', '--header', 'x-publishable-api-key: pk_test', '--header', 'authorization: Bearer token']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    const failed = [...run.stdout.matchAll(/^FAIL (\S+) +(4\.\d) /gm)].map((m) => `${m[1]} ${m[2]}`);
    expect(failed.sort()).toEqual([...ALPHABITE_CHECK_FAILURES].sort());
    expect(run.stdout).not.toMatch(/^SKIP /m);
    expect(run.stdout).toMatch(/dialect alphabite/);
    expect(run.stdout).toContain('--dialect alphabite');
  }, 120_000);

  it('the same verdicts in process (the list the real-Medusa run is held to)', async () => {
    const report = await runListingProperties({ baseUrl: serve.url, dialect: 'alphabite', seed: 11, runs: 10, headers: { ...KEY, authorization: 'Bearer token' } });
    expect(failuresOf(report.results).sort()).toEqual([...ALPHABITE_CHECK_FAILURES].sort());
  }, 120_000);

  it('exits 2 naming the headers to pass when the backend refuses the requests', async () => {
    const noKey = await cli(['check', '--base-url', serve.url, '--dialect', 'alphabite', '--runs', '1']);
    expect(noKey.stderr, serve.stdout().slice(-3000) + serve.stderr()).not.toMatch(/unreachable/);
    expect(noKey.code).toBe(2);
    expect(noKey.stderr.trim().split('\n')).toHaveLength(1);
    expect(noKey.stderr).toMatch(/cannot run the check: .*--header 'x-publishable-api-key: pk_\.\.\.'/);
    const noToken = await cli(['check', '--base-url', serve.url, '--dialect', 'alphabite', '--runs', '1', '--header', 'x-publishable-api-key: pk_test']);
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toMatch(/GET \S+\/store\/wishlists\S* was refused \(401.*--header 'authorization: Bearer \.\.\.'/);
  }, 60_000);
});
