/**
 * `fixtures --from` and `check --dialect alphabite` say which Medusa versions a backend answers as,
 * when its answers show it (lib/dialects/medusa-version-signs.ts; docs/dialects.md, "Which Medusa
 * version the dialect answers as"): against the mock answering as each version, the line names the
 * versions on each side of the changes the probes see; against a server whose answers show none,
 * `not shown`; answers that fit no version are said so.
 */
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { medusaVersionLine, probeMedusaVersions, type ProbeAnswer } from '../lib/dialects/medusa-version-signs.ts';
import { NEWEST_MEDUSA_VERSION, OLDEST_MEDUSA_VERSION } from '../lib/dialects/medusa-versions.ts';
import type { QueryPairs } from '../lib/query.ts';
import { startMockServer, type MockServer } from '../mock-server/server.ts';
import { runCli } from './support/cli-process.ts';

const HEADERS = { 'x-publishable-api-key': 'pk_test', authorization: 'Bearer signs' };
const DATA = { seed: 2, reviews: 20, products: 2, wishlists: 4, maxItems: 3 };
const ZOD3 = "validation wording of zod 3, got: 'nan'";
const ZOD4 = "validation wording of zod 4, got: 'abc'";
const FAILS = 'a field through an unknown relation is a 500';
const LIMIT = 'a field past the relations limit is a 400';

/** What each version's answers show (the mock answering as it; 2.13.6's was also seen on a real Medusa 2.13.6). */
const EXPECTED: Array<[string, string]> = [
  [OLDEST_MEDUSA_VERSION, `the backend answers as Medusa ${OLDEST_MEDUSA_VERSION} to before 2.14.0 does (${ZOD3}; ${FAILS})`],
  ['2.15.0', `the backend answers as Medusa 2.14.0 to before 2.16.0 does (${ZOD4}; ${FAILS})`],
  ['2.17.0', `the backend answers as Medusa 2.16.0 to before 2.20.0 does (${ZOD4}; no relations limit, unknown relations ignored)`],
  ['2.20.0', `the backend answers as Medusa 2.20.0 to before 2.20.1 does (${ZOD4}; ${LIMIT}; order is kept in fields (a 400))`],
  [NEWEST_MEDUSA_VERSION, `the backend answers as Medusa 2.20.1 or later does (${ZOD4}; ${LIMIT}; order is taken out of fields)`],
];

const servers = new Map<string, MockServer>();
beforeAll(async () => {
  for (const [medusaVersion] of EXPECTED) servers.set(medusaVersion, await startMockServer({ ...DATA, dialect: 'alphabite', medusaVersion }));
});
afterAll(async () => {
  await Promise.all([...servers.values()].map((s) => s.close()));
});

const fetchGet = (base: string) => async (path: string, query: QueryPairs): Promise<ProbeAnswer> => {
  const res = await fetch(`${base}${path}?${new URLSearchParams(query).toString()}`, { headers: HEADERS });
  return { status: res.status, text: await res.text() };
};

describe('probeMedusaVersions', () => {
  it.each(EXPECTED)('tells the mock answering as Medusa %s', async (version, line) => {
    expect(medusaVersionLine(await probeMedusaVersions(fetchGet(servers.get(version)!.url)))).toBe(line);
  });

  it("says 'not shown' when no answer is any version's, and asks at most three requests", async () => {
    const asked: string[] = [];
    const shown = await probeMedusaVersions(async (path, query) => {
      asked.push(`${path}?${new URLSearchParams(query).toString()}`);
      return { status: 200, text: '{}' };
    });
    // a 200 to a deep field is a sign (no relations limit, nothing fails), without the wording's
    expect(asked.length).toBeLessThanOrEqual(3);
    expect(medusaVersionLine({ signs: [] })).toBe('not shown by its answers');
    expect(medusaVersionLine(await probeMedusaVersions(async () => undefined))).toBe('not shown by its answers');
    expect(medusaVersionLine(shown)).toBe('the backend answers as Medusa 2.16.0 to before 2.20.0 does (no relations limit, unknown relations ignored)');
  });

  it('answers that fit no version are said so', async () => {
    const zod3WithLimit = await probeMedusaVersions(async (_path, query) => {
      if (query.some(([name]) => name === 'limit')) return { status: 400, text: "Invalid request: Expected type: 'number' for field 'limit', got: 'nan'" };
      return { status: 400, text: 'The following fields expand more than the maximum of 3 allowed relations: a.b.c.d.e' };
    });
    expect(medusaVersionLine(zod3WithLimit)).toBe(`its answers fit no Medusa version from ${OLDEST_MEDUSA_VERSION} to ${NEWEST_MEDUSA_VERSION} (${ZOD3}; ${LIMIT}; order is kept in fields (a 400))`);
  });
});

describe('fixtures --from --dialect alphabite', () => {
  it('prints the line after the summary, with the option to serve the recording with', async () => {
    const out = join(tmpdir(), `store-listing-kit-signs-${process.pid}.json`);
    try {
      const args = (url: string) => ['fixtures', '--from', url, '--dialect', 'alphabite', '--output', out, ...Object.entries(HEADERS).flatMap(([n, v]) => ['--header', `${n}: ${v}`])];
      const run = await runCli(args(servers.get(OLDEST_MEDUSA_VERSION)!.url));
      expect(run.code, run.stderr).toBe(0);
      const lines = run.stderr.trim().split('\n');
      expect(lines.at(-1)).toBe(`medusa: ${EXPECTED[0]![1]}; serve the recording with --dialect alphabite --medusa-version <its version>`);
      expect(JSON.parse(await readFile(out, 'utf8')).dialect).toBe('alphabite');
    } finally {
      await rm(out, { force: true });
    }
  });
});

describe('check --dialect alphabite', () => {
  it('prints the line in its summary and its JSON report', async () => {
    const json = join(tmpdir(), `store-listing-kit-signs-${process.pid}-check.json`);
    try {
      const run = await runCli(['check', '--base-url', servers.get('2.20.0')!.url, '--dialect', 'alphabite', '--endpoints', '4.1', '--properties', 'data-envelope', '--runs', '1', '--seed', '1', '--json', json, ...Object.entries(HEADERS).flatMap(([n, v]) => ['--header', `${n}: ${v}`])]);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).toContain(`\nmedusa: ${EXPECTED[3]![1]}\n`);
      expect(JSON.parse(await readFile(json, 'utf8')).medusa).toBe(EXPECTED[3]![1]);
    } finally {
      await rm(json, { force: true });
    }
  });

  it('says nothing of Medusa in the spec dialect', async () => {
    const spec = await startMockServer({ ...DATA });
    try {
      const run = await runCli(['check', '--base-url', spec.url, '--endpoints', '4.1', '--properties', 'page-length', '--runs', '1', '--seed', '1']);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).not.toContain('medusa:');
    } finally {
      await spec.close();
    }
  });
});
