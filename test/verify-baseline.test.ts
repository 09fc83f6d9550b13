/**
 * `verify`'s own output and its baselines, as a user runs them (the command line, in a child
 * process): a pass is a short summary; a failure names each failing interaction once with its
 * distinct mismatches and counts interactions; Pact's report only with --verbose or --pact-log.
 * `--write-baseline` records the known failures (the same bytes run after run), `--baseline` passes
 * while no new one appears, names a new one (exit 1) and those that now pass; a baseline it cannot
 * use is exit 2 with one sentence.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../mock-server/server.ts';
import { runCli, type CliRun } from './support/cli-process.ts';
import { BREAKAGES, startBrokenProvider, together, type BrokenProvider } from './support/pact-broken-providers.ts';

const HEADERS = ['--header', 'x-publishable-api-key: pk_test', '--header', 'authorization: Bearer token'];

let scratch: string;
let mock: MockServer;
let alphabite: MockServer;
let limit20: BrokenProvider;
let limit20AndShort: BrokenProvider;
let noPrefix: BrokenProvider;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'verify-baseline-'));
  mock = await startMockServer({ seed: 1 });
  alphabite = await startMockServer({ seed: 1, dialect: 'alphabite' });
  limit20 = await startBrokenProvider(BREAKAGES.limitAlways20);
  limit20AndShort = await startBrokenProvider(together(BREAKAGES.limitAlways20, BREAKAGES.dropsLastRecord));
  noPrefix = await startBrokenProvider(BREAKAGES.idsWithoutPrefix);
});
afterAll(async () => {
  await Promise.all([mock.close(), alphabite.close(), limit20.close(), limit20AndShort.close(), noPrefix.close()]);
  rmSync(scratch, { recursive: true, force: true });
});

const verify = (args: string[]): Promise<CliRun> => runCli(['verify', ...args]);
const alphabiteVerify = (args: string[]) => verify(['--dialect', 'alphabite', '--provider-base-url', alphabite.url, ...HEADERS, ...args]);
const file = (name: string) => join(scratch, name);
const linesOf = (text: string) => text.split('\n').filter((l) => l !== '');
/** The interactions the summary lists as failing: `    - Given <states> - <description>`. */
const failingIn = (stdout: string) => [...stdout.matchAll(/^ {4}- (.+)$/gm)].map((m) => m[1]!);

describe("verify's own output", () => {
  it('a pass: a short summary, per provider the interactions passed, no line of Pact', async () => {
    const run = await verify(['--provider-base-url', mock.url]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(linesOf(run.stdout).length).toBeLessThanOrEqual(30);
    expect(run.stdout).toMatch(/^ {2}PASS product-reviews: (\d+) of \1 interactions passed/m);
    expect(run.stdout).toMatch(/^ {2}PASS wishlist: (\d+) of \1 interactions passed/m);
    expect(run.stdout).toMatch(/^OK: \d+ interactions passed$/m);
    expect(run.stdout).not.toContain('Verifying a pact between');
  }, 120_000);

  it('a failure: each failing interaction once, its mismatches once per kind, the count of failing interactions', async () => {
    const run = await verify(['--provider-base-url', noPrefix.url, '--json', file('no-prefix.json')]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    expect(run.stdout).not.toContain('Verifying a pact between');
    const report = JSON.parse(readFileSync(file('no-prefix.json'), 'utf8')) as { counts: { failed: number; interactions: number }; pacts: Array<{ interactions: Array<{ description: string; status: string; mismatches: string[] }> }> };
    const failed = report.pacts.flatMap((p) => p.interactions.filter((i) => i.status === 'failed'));
    // Every record of every page breaks the id rule: many mismatch lines, few kinds.
    expect(failed.length).toBeGreaterThan(5);
    expect(failed.reduce((n, i) => n + i.mismatches.length, 0)).toBeGreaterThan(failed.length * 3);
    const listed = failingIn(run.stdout);
    expect(listed.length).toBe(failed.length);
    expect(new Set(listed).size).toBe(listed.length);
    for (const i of failed) expect(listed.some((l) => l.endsWith(i.description))).toBe(true);
    expect(run.stdout).toContain(`FAILED: ${failed.length} of ${report.counts.interactions} interactions failed`);
    // Each kind once, with how many more lines of it there are.
    expect(run.stdout).toMatch(/BodyMismatch \$\.(reviews|data)\[\d+\]\.id: .* \(and \d+ more like it\)/);
    const blocks = run.stdout.split(/^ {4}- /m).slice(1);
    for (const block of blocks) {
      const details = block.split('\n').slice(1).filter((l) => l.startsWith('        ')).map((l) => l.trim().replace(/\[\d+\]/g, '[*]').split(':')[0]);
      expect(new Set(details).size).toBe(details.length);
    }
    expect(linesOf(run.stdout).length).toBeLessThan(failed.length * 6 + 10);
  }, 120_000);

  it("Pact's own report: with --verbose on the output (no colour codes into a pipe), with --pact-log in a file", async () => {
    const verbose = await verify(['--provider-base-url', limit20.url, '--provider', 'product-reviews', '--verbose']);
    expect(verbose.code).toBe(1);
    expect(verbose.stdout).toContain('Verifying a pact between storefront and product-reviews');
    expect(verbose.stdout).not.toMatch(/\u001b\[/);
    expect(verbose.stdout.indexOf('Verifying a pact between')).toBeLessThan(verbose.stdout.indexOf('store-listing-kit verify: summary'));
    const log = file('pact.log');
    const quiet = await verify(['--provider-base-url', limit20.url, '--provider', 'product-reviews', '--pact-log', log]);
    expect(quiet.code).toBe(1);
    expect(quiet.stdout).not.toContain('Verifying a pact between');
    const written = readFileSync(log, 'utf8');
    expect(written).toContain('Verifying a pact between storefront and product-reviews');
    expect(written).toContain('Failures:');
    expect(written).not.toMatch(/\u001b\[/);
  }, 120_000);
});

describe('verify --write-baseline and --baseline', () => {
  it("the plugins' known 4.1 failures: recorded (exit 0), the same bytes twice, then a run with the baseline passes (0) naming nothing new", async () => {
    const [first, second] = [file('alphabite-1.json'), file('alphabite-2.json')];
    const write = await alphabiteVerify(['--write-baseline', first]);
    expect(write.stderr).toBe('');
    expect(write.code).toBe(0);
    expect(write.stdout).toContain(`wrote the baseline ${first}: 3 failures recorded`);
    expect((await alphabiteVerify(['--write-baseline', second])).code).toBe(0);
    expect(readFileSync(second)).toEqual(readFileSync(first));
    const baseline = JSON.parse(readFileSync(first, 'utf8')) as { version: number; tool: string; dialect: string; failures: Array<{ provider: string; endpoint: string; kinds: string[]; states: string[] }> };
    expect([baseline.version, baseline.tool, baseline.dialect]).toEqual([1, 'store-listing-kit verify', 'alphabite']);
    expect(baseline.failures.map((f) => [f.provider, f.endpoint])).toEqual(Array(3).fill(['product-reviews', '4.1 GET /store/products/reviews']));
    for (const f of baseline.failures) {
      expect(f.kinds).toContain('BodyMismatch $.count');
      // Kinds are types and paths: no value of the answer.
      for (const k of f.kinds) expect(k).toMatch(/^BodyMismatch \$\.[a-zA-Z]+$/);
    }
    const again = await alphabiteVerify(['--baseline', first]);
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`OK against the baseline ${first}: no new failure (3 of 3 recorded failures still fail)`);
    expect(again.stdout).not.toContain('NEW');
  }, 180_000);

  it('a provider that breaks something new: exit 1, naming the interaction and the new kind of mismatch', async () => {
    const recorded = file('limit20.json');
    expect((await verify(['--provider-base-url', limit20.url, '--provider', 'product-reviews', '--write-baseline', recorded])).code).toBe(0);
    const run = await verify(['--provider-base-url', limit20AndShort.url, '--provider', 'product-reviews', '--baseline', recorded]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^FAIL against the baseline .*: \d+ new failures?$/m);
    // The last record dropped: the page holds one record fewer than the contract's.
    expect(run.stdout).toMatch(/^ {2}NEW product-reviews: Given product has reviews .* - a request for a middle page of a product's reviews \(limit 5, offset 5\) \(4\.2 GET \/store\/reviews\/product\/:product_id\) \(recorded, failing in a new way\)\n {8}BodyMismatch \$\.reviews/m);
  }, 180_000);

  it('a baseline entry that now passes: exit 0, naming it so that the file can be tightened', async () => {
    const recorded = file('limit20-for-mock.json');
    expect((await verify(['--provider-base-url', limit20.url, '--provider', 'product-reviews', '--write-baseline', recorded])).code).toBe(0);
    const count = (JSON.parse(readFileSync(recorded, 'utf8')) as { failures: unknown[] }).failures.length;
    expect(count).toBeGreaterThan(0);
    const run = await verify(['--provider-base-url', mock.url, '--provider', 'product-reviews', '--baseline', recorded]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`OK against the baseline ${recorded}: no new failure (0 of ${count} recorded failures still fail)`);
    expect(run.stdout).toContain(`now passing, to remove from the baseline (or write it again with --write-baseline ${recorded}):`);
    expect(run.stdout).toMatch(/^ {4}- product-reviews: Given product has reviews .* - a request for a middle page of a product's reviews \(limit 5, offset 5\) \(4\.2 GET/m);
    // Another provider's recorded failures were not checked: kept, and said so.
    const wishlistOnly = await verify(['--provider-base-url', mock.url, '--provider', 'wishlist', '--baseline', recorded]);
    expect(wishlistOnly.code).toBe(0);
    expect(wishlistOnly.stdout).toContain('not checked in this run (kept in the baseline):');
  }, 180_000);

  describe('a baseline it cannot use: exit 2, one sentence, before anything is replayed', () => {
    const cases: Array<{ name: string; content?: string; args?: (f: string) => string[]; says: RegExp }> = [
      { name: 'missing', says: /^error: cannot read the baseline \S+missing\.json: no such file \(write one with --write-baseline\)\n$/ },
      { name: 'not JSON', content: '{"version": 1,', says: /^error: the baseline \S+ is not JSON \(.+\)\n$/ },
      { name: "another command's", content: JSON.stringify({ version: 1, tool: 'store-listing-kit check', dialect: 'spec', failures: [] }), says: /^error: the baseline \S+ was written by `store-listing-kit check`, not `store-listing-kit verify`; record this run's own in a new file with --write-baseline \S+verify-spec-baseline\.json\n$/ },
      { name: "another dialect's", content: JSON.stringify({ version: 1, tool: 'store-listing-kit verify', dialect: 'alphabite', failures: [] }), says: /^error: the baseline \S+ was written with --dialect alphabite, and this run is --dialect spec; record this run's own in a new file with --write-baseline \S+verify-spec-baseline\.json\n$/ },
      { name: 'of another version', content: JSON.stringify({ version: 2, tool: 'store-listing-kit verify', dialect: 'spec', failures: [] }), says: /has version 2, and this kit reads version 1/ },
      { name: 'with a malformed entry', content: JSON.stringify({ version: 1, tool: 'store-listing-kit verify', dialect: 'spec', failures: [{ consumer: 'storefront' }] }), says: /has a malformed failure 1: "provider" must be a non-empty string/ },
      { name: 'not a baseline', content: '[1, 2, 3]', says: /is not a baseline/ },
      { name: 'too large', content: `{"pad": "${'x'.repeat(4 * 1024 * 1024)}"}`, says: /is larger than 4 MiB, which no baseline is/ },
      { name: 'a directory', args: () => ['--baseline', scratch], says: /^error: cannot read the baseline \S+: it is a directory \(EISDIR\)\n$/ },
      { name: 'an unwritable --write-baseline', args: () => ['--write-baseline', '/dev/null/baseline.json'], says: /^error: cannot write the baseline \/dev\/null\/baseline\.json: a part of the path is a file, not a directory/ },
      { name: 'both options', args: (f) => ['--baseline', f, '--write-baseline', f], says: /^error: give either --baseline .* or --write-baseline .*, not both\n$/ },
    ];
    for (const c of cases) {
      it(c.name, async () => {
        const named = file(`${c.name.replace(/\W+/g, '-')}.json`);
        if (c.content !== undefined) writeFileSync(named, c.content);
        // A provider that does not answer: the baseline is read before the provider is asked anything.
        const run = await verify(['--provider-base-url', 'http://127.0.0.1:9', ...(c.args ? c.args(named) : ['--baseline', named])]);
        expect(run.code).toBe(2);
        expect(run.stdout).toBe('');
        expect(run.stderr).toMatch(c.says);
      }, 60_000);
    }
  });
});
