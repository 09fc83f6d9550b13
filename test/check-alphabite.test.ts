/**
 * `check --dialect alphabite`: it passes a server that speaks the plugins' dialect with their paging
 * fixed (the dialect's own choices are no failure), fails each deliberately broken one by the
 * property named for the bug, and, as a user runs it against `serve --dialect alphabite`, exits 1
 * with exactly the plugins' bugs, or 2 with the headers to pass when the backend refuses it.
 */
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALPHABITE_PROPERTY_IDS } from '../properties/catalog/index.ts';
import { failureText } from '../properties/report.ts';
import type { CheckOptions } from '../properties/options.ts';
import { CannotRunError, runListingProperties, type CheckReport } from '../properties/runner.ts';
import { startMockServer, type MockServer } from '../mock-server/server.ts';
import { ALPHABITE_BUGS, startAlphabiteReferenceServer, type AlphabiteBugName, type AlphabiteReferenceServer } from './support/alphabite-reference-server.ts';
import { ALPHABITE_CHECK_FAILURES, failuresOf } from './support/alphabite-verdicts.ts';
import { startServe, type ServeProcess } from './support/cli-process.ts';
import { startReferenceServer } from './support/reference-server.ts';

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

/**
 * A server that speaks the other dialect than the one asked cannot be judged by its rules: exit 2
 * before any property runs, one sentence naming the dialect it speaks (lib/dialects/detect.ts),
 * where every property used to fail (exit 1, "0 passed, N failed"). A server of the asked dialect
 * that breaks its rules still fails (exit 1).
 */
describe('check against a server of the other dialect: cannot run (exit 2), naming the dialect it speaks', () => {
  const TOKEN = { ...KEY, authorization: 'Bearer token' };
  let spec: MockServer;
  let alphabite: MockServer;
  beforeAll(async () => {
    [spec, alphabite] = await Promise.all([startMockServer({ seed: 1 }), startMockServer({ seed: 1, dialect: 'alphabite' })]);
  });
  afterAll(() => Promise.all([spec?.close(), alphabite?.close()]));

  const cannotRun = async (options: CheckOptions) => {
    const error = await runListingProperties({ seed: SEED, runs: 3, ...options }).then(
      (report) => new Error(`it ran: ${report.results.filter((r) => r.status === 'failed').length} failed`),
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CannotRunError);
    return (error as Error).message;
  };

  it('--dialect alphabite against the spec mock: 4.1 answers the spec\'s envelope', async () => {
    expect(await cannotRun({ baseUrl: spec.url, dialect: 'alphabite' })).toBe(
      `${spec.url} answers in the spec dialect, not alphabite: GET ${spec.url}/store/products/reviews?limit=100 answered the spec's envelope {reviews,count,limit,offset,totalPages,currentPage,nextPage,prevPage} (drop --dialect alphabite, or point at a backend with the published plugins)`,
    );
  });

  it('--dialect alphabite against the spec mock, wishlists only: limit refused, take answered in the spec\'s envelope', async () => {
    for (const endpoints of [['wishlists'], ['wishlistItems']] as const) {
      expect(await cannotRun({ baseUrl: spec.url, dialect: 'alphabite', endpoints: [...endpoints] })).toBe(
        `${spec.url} answers in the spec dialect, not alphabite: GET ${spec.url}/store/wishlists?limit=100 answered 400 (Invalid request: unknown query parameter 'limit'; accepted parameters: skip, take...) and GET ${spec.url}/store/wishlists?take=100 answered the spec's envelope {data,count,skip,take,totalPages,currentPage} (drop --dialect alphabite, or point at a backend with the published plugins)`,
      );
    }
  });

  it('the spec\'s rules against the alphabite mock: 4.1 answers the plugins\' envelope; on the wishlists take is refused and limit answered', async () => {
    expect(await cannotRun({ baseUrl: alphabite.url, headers: TOKEN })).toMatch(
      new RegExp(`^${alphabite.url} answers in the alphabite dialect, not spec: GET ${alphabite.url}/store/products/reviews\\?limit=100 answered the plugins' envelope \\{data,count,nextPage,currentPage,prevPage,totalPages,take,skip\\} \\(add --dialect alphabite, or point at a server that speaks the spec\\)$`),
    );
    expect(await cannotRun({ baseUrl: alphabite.url, headers: TOKEN, strict: true, endpoints: ['wishlists', 'wishlistItems'] })).toBe(
      `${alphabite.url} answers in the alphabite dialect, not spec: GET ${alphabite.url}/store/wishlists?take=100 answered 400 (Invalid request: Unrecognized fields: 'take') and GET ${alphabite.url}/store/wishlists?limit=100 answered the plugins' envelope {data,take,skip,count,nextPage,currentPage,prevPage,totalPages} (add --dialect alphabite, or point at a server that speaks the spec)`,
    );
  });

  it('the command: exit 2 with that one sentence, both ways', async () => {
    const alphabiteOnSpec = await cli(['check', '--base-url', spec.url, '--dialect', 'alphabite', '--seed', '1', '--runs', '3']);
    expect([alphabiteOnSpec.code, alphabiteOnSpec.stderr]).toEqual([2, expect.stringMatching(/^error: cannot run the check: \S+ answers in the spec dialect, not alphabite: [^\n]+ \(drop --dialect alphabite, or point at a backend with the published plugins\)\n$/)]);
    expect(alphabiteOnSpec.stdout).not.toMatch(/^FAIL /m);
    const specOnAlphabite = await cli(['check', '--base-url', alphabite.url, '--seed', '1', '--runs', '3', '--header', 'x-publishable-api-key: pk_test', '--header', 'authorization: Bearer token']);
    expect([specOnAlphabite.code, specOnAlphabite.stderr]).toEqual([2, expect.stringMatching(/^error: cannot run the check: \S+ answers in the alphabite dialect, not spec: [^\n]+ \(add --dialect alphabite, or point at a server that speaks the spec\)\n$/)]);
  }, 60_000);

  it('a server of the asked dialect that breaks its rules is judged, and fails: the spec\'s wishlists with null page numbers, the plugins\' ignoring limit/offset', async () => {
    const broken = await startReferenceServer({ bug: 'null-instead-of-absent' });
    const ignoresPaging = await startAlphabiteReferenceServer({ bug: 'wishlists-ignore-paging' });
    try {
      const specReport = await runListingProperties({ baseUrl: broken.url, seed: SEED, runs: 3, endpoints: ['wishlists'], properties: ['envelope-shape'] });
      expect(failedIds(specReport)).toEqual(['envelope-shape']);
      const alphabiteReport = await runListingProperties({ baseUrl: ignoresPaging.url, seed: SEED, runs: RUNS, dialect: 'alphabite', headers: KEY, endpoints: ['wishlists'] });
      expect(failedIds(alphabiteReport)).toContain('limit-offset-honoured');
    } finally {
      await Promise.all([broken.close(), ignoresPaging.close()]);
    }
  }, 60_000);
});

describe('the dialect sentence is one line, whatever the server sends', () => {
  it('a key and a message with line breaks are escaped', async () => {
    const server = createServer((req, res) => {
      const body = req.url!.startsWith('/store/products/reviews')
        ? { data: [], count: 0, nextPage: 1, currentPage: 1, prevPage: 1, totalPages: 1, take: 5, skip: 0, 'evil\nkey': true }
        : { type: 'invalid_data', message: 'no\nway' };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const error = await runListingProperties({ baseUrl: url, seed: 1, runs: 1, endpoints: ['reviews'] }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CannotRunError);
      expect((error as Error).message).toContain("the plugins' envelope {data,count,nextPage,currentPage,prevPage,totalPages,take,skip,evil\\u000akey}");
      expect((error as Error).message).not.toMatch(/\n/);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
