import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { interactionOutcomes, interactionsIn, parseDuration, parseVerification, requestLine } from '../contracts/outcomes.ts';
import { PACT_DIR } from '../contracts/pacts.ts';
import { verifyJunitReport } from '../contracts/verify-report.ts';
import { junitXml } from '../lib/junit.ts';
import { PROVIDER_STATES_PATH } from '../lib/provider-states.ts';
import { startMockServer, type MockServer } from '../mock-server/server.ts';
import { junitProblems, xpathString } from './support/junit-reader.ts';
import { BREAKAGES, startBrokenProvider, type BrokenProvider } from './support/pact-broken-providers.ts';

// `verify --junit <file> --json <file>`: one test case per interaction, read back as a CI server
// reads them (libxml2 against the JUnit shape: test/support/junit-reader.ts).

const BIN = fileURLToPath(new URL('../bin/store-listing-kit.js', import.meta.url));

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

function verifyCli(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, 'verify', ...args], { env: withoutBroker(), maxBuffer: 64 * 1024 * 1024, timeout: 90_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });
}

/** The number of interactions of the committed spec pacts of `provider`, read from the files. */
function interactionCount(provider: string): number {
  return readdirSync(PACT_DIR)
    .filter((n) => n.endsWith('.json'))
    .map((n) => JSON.parse(readFileSync(join(PACT_DIR, n), 'utf8')) as { consumer: { name: string }; provider: { name: string }; interactions: unknown[] })
    .filter((p) => p.consumer.name === 'storefront' && p.provider.name === provider)
    .reduce((n, p) => n + p.interactions.length, 0);
}

interface JsonInteraction {
  description: string;
  status: 'passed' | 'failed' | 'pending';
  states: Array<{ name: string; params?: Record<string, unknown> }>;
  request: { method: string; path: string; query?: Record<string, string[]> } | null;
  durationMs: number | null;
  mismatches: string[];
  stateErrors: string[];
  error?: string;
}
interface JsonReport {
  version: number;
  passed: boolean;
  counts: { interactions: number; passed: number; failed: number; pending: number };
  pacts: Array<{ consumer: string; provider: string; passed: boolean; stateErrors: string[]; interactions: JsonInteraction[] }>;
}

const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as JsonReport;

describe('the JUnit writer (lib/junit.ts)', () => {
  const hostile = 'expected <b>"12"</b> & \'12\' ]]> \u0000\u0001\u001b[31m\u000b\u000c end\r\nnext\tline \ud800 lone, 🙂 pair';
  const xml = junitXml({
    name: `suite ${hostile}`,
    durationMs: 12,
    suites: [
      {
        name: hostile,
        properties: [['p', hostile]],
        cases: [
          { classname: 'c', name: hostile, durationMs: 1.5, outcome: { kind: 'failure', message: hostile, type: 'T<&>', text: hostile }, output: hostile },
          { classname: 'c', name: 'skipped one', outcome: { kind: 'skipped', message: hostile } },
          { classname: 'c', name: 'passed one', outcome: { kind: 'passed' } },
          { classname: 'c', name: 'error one', outcome: { kind: 'error', message: 'm', type: 't', text: 'x' } },
        ],
      },
    ],
  });
  // What survives: every character XML can carry, the others shown as \uXXXX.
  const shown = 'expected <b>"12"</b> & \'12\' ]]> \\u0000\\u0001\\u001b[31m\\u000b\\u000c end\r\nnext\tline \\ud800 lone, 🙂 pair';

  it('writes a document a JUnit reader accepts, whatever the text: <, &, quotes, ]]>, control characters, CR, lone surrogates', async () => {
    expect(await junitProblems(xml)).toEqual([]);
  });

  it('gives a reader back the text, in attributes and in content alike', async () => {
    expect(await xpathString(xml, 'string(//testcase[1]/failure)')).toBe(shown);
    expect(await xpathString(xml, 'string(//testcase[1]/failure/@message)')).toBe(shown);
    expect(await xpathString(xml, 'string(//testcase[1]/@name)')).toBe(shown);
    expect(await xpathString(xml, 'string(//testcase[1]/system-out)')).toBe(shown);
    expect(await xpathString(xml, 'string(//testsuite/properties/property/@value)')).toBe(shown);
    expect(await xpathString(xml, 'string(//testcase[2]/skipped/@message)')).toBe(shown);
    expect(await xpathString(xml, 'string(//testcase[1]/failure/@type)')).toBe('T<&>');
  });

  it('counts per suite and in all', async () => {
    for (const at of ['//testsuites', '//testsuite']) {
      expect(await xpathString(xml, `concat(${at}/@tests, ' ', ${at}/@failures, ' ', ${at}/@errors, ' ', ${at}/@skipped)`)).toBe('4 1 1 1');
    }
    expect(await xpathString(xml, 'string(//testcase[1]/@time)')).toBe('0.002');
  });

  it('the reader is not a rubber stamp: it refuses text that is not XML and a document of another shape', async () => {
    expect(await junitProblems(xml.replace('\\u0001', '\u0001'))).not.toEqual([]);
    expect(await junitProblems(xml.replace('&amp;', '&'))).not.toEqual([]);
    expect(await junitProblems(xml.replace(/ tests="4"/, ' tests="four"'))).not.toEqual([]);
    expect(await junitProblems(xml.replace('<testcase classname="c" name="passed one"/>', '<testcase classname="c"/>'))).not.toEqual([]);
  });
});

describe("the outcomes of a broker's pacts (no pact file read: Pact's results name the interactions)", () => {
  // Pact's JSON verification result, in the shape its core gives (as captured from Pact 16).
  const pactResult = JSON.stringify({
    result: false,
    interactionResults: [
      { description: 'a request for wishlists', duration: '83ms', result: 'Error' },
      { description: 'a request for the last page of wishlists', duration: '1.5s', result: 'OK' },
      { description: 'a request for a pending thing', duration: '2ms', result: 'Error' },
    ],
    errors: [
      {
        interaction: 'Verifying a pact between storefront and wishlist Given wishlists exist - a request for wishlists',
        mismatch: { type: 'mismatches', mismatches: [{ actual: '"12"', expected: '12', mismatch: "Expected '12' (String) to be equal to 12 (Integer)", path: '$.count', type: 'BodyMismatch' }] },
      },
    ],
    pendingErrors: [{ interaction: 'Verifying a pact between storefront and wishlist - a request for a pending thing', mismatch: { type: 'error', message: 'Request to provider failed' } }],
  });

  it('one outcome per result: the mismatch on its interaction, a pending failure pending, times in ms', () => {
    const verification = parseVerification(pactResult)!;
    const failure = { state: 'wishlists exist', params: { count: 12 }, text: "setup of 'wishlists exist' {\"count\":12}: POST x answered 500" };
    const { outcomes, unclaimedStateErrors } = interactionOutcomes({ verification, stateFailures: [failure] });
    expect(outcomes.map((o) => [o.description, o.status, o.mismatches, o.durationMs])).toEqual([
      ['a request for wishlists', 'failed', ['BodyMismatch $.count: expected 12, got "12"'], 83],
      ['a request for the last page of wishlists', 'passed', [], 1500],
      ['a request for a pending thing', 'pending', ['Request to provider failed'], 2],
    ]);
    // The states of a broker's interactions are not known here: the failure stays the provider's.
    expect(unclaimedStateErrors).toEqual([failure.text]);
  });

  it('a failure no interaction carries is one more failing case, so the JUnit report fails as the run does', async () => {
    const { outcomes, unclaimedStateErrors } = interactionOutcomes({ verification: parseVerification(pactResult)!, stateFailures: [{ state: 's', params: {}, text: "setup of 's': POST x answered 500" }] });
    const passedOnly = outcomes.filter((o) => o.status !== 'failed');
    const xml = verifyJunitReport({
      providerBaseUrl: 'http://127.0.0.1:1',
      dialect: 'spec',
      source: { brokerUrl: 'https://user:secret@broker.example/' },
      startedAt: new Date(0).toISOString(),
      durationMs: 5,
      results: [{ provider: 'wishlist', consumer: 'storefront', ok: false, mismatches: [], stateErrors: unclaimedStateErrors, unclaimedStateErrors, interactions: passedOnly, durationMs: 5 }],
    });
    expect(await junitProblems(xml)).toEqual([]);
    expect(await xpathString(xml, 'concat(//testsuites/@tests, " ", //testsuites/@failures, " ", //testsuites/@skipped)')).toBe('3 1 1');
    expect(await xpathString(xml, 'concat(//testcase[failure]/@name, ": ", //testcase/failure/@type, ": ", //testcase/failure)')).toBe("(provider states): StateChangeFailed: state change setup of 's': POST x answered 500");
    expect(xml).not.toContain('secret');
  });

  it("reads a pact's query names as data: __proto__, constructor and toString are kept, in Pact 2's string and Pact 3+'s object", () => {
    const dir = mkdtempSync(join(tmpdir(), 'slk-pact-names-'));
    try {
      const file = join(dir, 'pact.json');
      const v3 = '{"constructor": ["1"], "__proto__": ["2"], "toString": ["3", "4"]}';
      writeFileSync(
        file,
        `{"interactions": [
          {"description": "v2", "request": {"method": "GET", "path": "/store/reviews", "query": "constructor=1&__proto__=2&toString=3&toString=4"}},
          {"description": "v3", "request": {"method": "GET", "path": "/store/reviews", "query": ${v3}}}
        ]}`,
      );
      const lines = interactionsIn([file]).map((i) => requestLine(i.request!));
      expect(lines).toEqual(['GET /store/reviews?constructor=1&__proto__=2&toString=3&toString=4', 'GET /store/reviews?constructor=1&__proto__=2&toString=3&toString=4']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reads Pact's durations", () => {
    expect([parseDuration('83ms'), parseDuration('1.5s'), parseDuration('1s 5ms'), parseDuration('250µs'), parseDuration('soon')]).toEqual([83, 1500, 1005, 0.25, undefined]);
  });
});

/** A state-change door that answers every setup 500 and every teardown 200. */
async function startFailingDoor(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const { action } = JSON.parse(body || '{}') as { action?: string };
      const status = action === 'setup' ? 500 : 200;
      res.writeHead(status, { 'content-type': 'application/json' }).end(status === 200 ? '{}' : '{"type":"unknown_error","message":"state door is broken"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${PROVIDER_STATES_PATH}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('store-listing-kit verify --junit <file> --json <file>', () => {
  let mock: MockServer;
  let broken: BrokenProvider;
  // Its own: two runs against one broken provider would change the states of its mock at once.
  let brokenForPipe: BrokenProvider;
  let door: Awaited<ReturnType<typeof startFailingDoor>>;
  let dir: string;
  const file = (name: string) => join(dir, name);
  let passing: Run;
  let failing: Run;
  let states: Run;
  let piped: { code: number | null; stderr: string };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'slk-verify-reports-'));
    [mock, broken, brokenForPipe, door] = await Promise.all([startMockServer({ seed: 1 }), startBrokenProvider(BREAKAGES.countAsString), startBrokenProvider(BREAKAGES.countAsString), startFailingDoor()]);
    // A reader that leaves at once (`verify ... | head -c 0`): the verdict and the reports stay.
    const closedPipe = new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [BIN, 'verify', '--provider-base-url', brokenForPipe.url, '--provider', 'wishlist', '--junit', file('piped/verify.xml')], { env: withoutBroker(), stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.destroy();
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      child.on('close', (code) => resolve({ code, stderr }));
    });
    // In parallel: each is a child process waiting on its own provider.
    [passing, failing, states, piped] = await Promise.all([
      verifyCli(['--provider-base-url', mock.url, '--provider', 'both', '--junit', file('pass/verify.xml'), '--json', file('pass/verify.json')]),
      verifyCli(['--provider-base-url', broken.url, '--provider', 'wishlist', '--junit', file('fail/verify.xml'), '--json', file('fail/verify.json')]),
      verifyCli(['--provider-base-url', mock.url, '--provider', 'wishlist', '--provider-states-setup-url', door.url, '--junit', file('states/verify.xml'), '--json', file('states/verify.json')]),
      closedPipe,
    ]);
  }, 180_000);
  afterAll(async () => {
    await Promise.all([mock?.close(), broken?.close(), brokenForPipe?.close(), door?.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  describe('against the mock (exit 0)', () => {
    it('writes a JUnit report with a passing test case per interaction, in a suite per pact', async () => {
      expect(passing.stderr).toBe('');
      expect(passing.code).toBe(0);
      const xml = readFileSync(file('pass/verify.xml'), 'utf8');
      expect(await junitProblems(xml)).toEqual([]);
      const total = interactionCount('product-reviews') + interactionCount('wishlist');
      expect(await xpathString(xml, 'concat(//testsuites/@tests, " ", //testsuites/@failures, " ", count(//testcase), " ", count(//failure))')).toBe(`${total} 0 ${total} 0`);
      expect(await xpathString(xml, 'concat(//testsuite[1]/@name, "|", //testsuite[1]/@tests, "|", //testsuite[2]/@name, "|", //testsuite[2]/@tests)')).toBe(
        `storefront -> product-reviews|${interactionCount('product-reviews')}|storefront -> wishlist|${interactionCount('wishlist')}`,
      );
      // Each case carries its provider state and request, and Pact's time.
      expect(await xpathString(xml, 'count(//testcase[not(@time)])')).toBe('0');
      expect(await xpathString(xml, 'string(//testsuite[2]/testcase[1]/system-out)')).toMatch(/^given: {4}wishlist has items \{"count":\d+,"wishlist_id":"wl_\w+"\}\nrequest: {2}GET \/store\/wishlists\/wl_\w+\/items\?skip=\d+&take=\d+$/);
    });

    it('writes the JSON report: every interaction passed, with its state, request and time', () => {
      const report = readJson(file('pass/verify.json'));
      const total = interactionCount('product-reviews') + interactionCount('wishlist');
      expect(report).toMatchObject({ version: 1, passed: true, counts: { interactions: total, passed: total, failed: 0, pending: 0 } });
      expect(report.pacts.map((p) => [p.consumer, p.provider, p.passed, p.interactions.length])).toEqual([
        ['storefront', 'product-reviews', true, interactionCount('product-reviews')],
        ['storefront', 'wishlist', true, interactionCount('wishlist')],
      ]);
      for (const i of report.pacts.flatMap((p) => p.interactions)) {
        expect(i.status).toBe('passed');
        expect(i.mismatches).toEqual([]);
        expect(i.states.length).toBeGreaterThan(0);
        expect(i.request).toMatchObject({ method: 'GET', path: expect.stringMatching(/^\/store\//) });
        expect(i.durationMs).toBeGreaterThanOrEqual(0);
      }
    });
  });

  describe('against a provider that sends count as a string (exit 1)', () => {
    it('fails the test cases of the interactions that failed, with the mismatch text verify prints', async () => {
      expect(failing.stderr).toBe('');
      expect(failing.code).toBe(1);
      const xml = readFileSync(file('fail/verify.xml'), 'utf8');
      expect(await junitProblems(xml)).toEqual([]);
      const report = readJson(file('fail/verify.json'));
      const failed = report.pacts[0]!.interactions.filter((i) => i.status === 'failed');
      expect(await xpathString(xml, 'concat(count(//testcase), " ", //testsuites/@failures, " ", count(//failure))')).toBe(`${interactionCount('wishlist')} ${failed.length} ${failed.length}`);
      expect(failed.length).toBeGreaterThan(0);
      // Each failure's text: the mismatch, as the summary on stdout has it, then the state and request.
      const first = failed[0]!;
      const text = await xpathString(xml, `string(//testcase[@name=${JSON.stringify(first.description)}]/failure)`);
      expect(text).toMatch(/^BodyMismatch \$\.count: expected \d+, got "\d+"\n\ngiven: {4}.+\nrequest: {2}GET \/store\/wishlists/);
      expect(failing.stdout).toContain(text.split('\n')[0]);
      expect(await xpathString(xml, `string(//testcase[@name=${JSON.stringify(first.description)}]/failure/@type)`)).toBe('ContractMismatch');
    });

    it('says the same in JSON: each failed interaction with its mismatches, the rest passed', () => {
      const report = readJson(file('fail/verify.json'));
      expect(report.passed).toBe(false);
      const interactions = report.pacts[0]!.interactions;
      expect(interactions).toHaveLength(interactionCount('wishlist'));
      expect(report.counts.interactions).toBe(interactions.length);
      expect(report.counts.failed + report.counts.passed).toBe(interactions.length);
      // The contract's 404 for an unknown wishlist has no count: it passes.
      expect(report.counts.passed).toBeGreaterThan(0);
      for (const i of interactions) {
        if (i.status === 'passed') {
          expect(i.mismatches).toEqual([]);
          continue;
        }
        expect(i.mismatches.length).toBeGreaterThan(0);
        for (const m of i.mismatches) {
          expect(m).toMatch(/\$\.count: expected \d+, got "\d+"/);
          expect(failing.stdout).toContain(m);
        }
      }
    });
  });

  it('a state change the provider refuses fails the interactions of that state (exit 1), in both reports', async () => {
    expect(states.code).toBe(1);
    const report = readJson(file('states/verify.json'));
    const interactions = report.pacts[0]!.interactions;
    expect(interactions).toHaveLength(interactionCount('wishlist'));
    const withStates = interactions.filter((i) => i.states.length > 0);
    expect(withStates.length).toBeGreaterThan(0);
    for (const i of withStates) {
      expect(i.status).toBe('failed');
      expect(i.stateErrors.some((e) => e.startsWith(`setup of '${i.states[0]!.name}'`) && / answered 500 /.test(e))).toBe(true);
    }
    const xml = readFileSync(file('states/verify.xml'), 'utf8');
    expect(await junitProblems(xml)).toEqual([]);
    expect(await xpathString(xml, 'string(//testsuites/@failures)')).toBe(String(interactions.filter((i) => i.status === 'failed').length));
    expect(await xpathString(xml, 'string((//failure)[1])')).toMatch(/state change setup of '[^']+'.*: POST \S+ answered 500/);
  });

  it('keeps the verdict and writes the report when the reader of its output leaves (exit 1)', async () => {
    expect(piped).toEqual({ code: 1, stderr: '' });
    const xml = readFileSync(file('piped/verify.xml'), 'utf8');
    expect(await junitProblems(xml)).toEqual([]);
    expect(Number(await xpathString(xml, 'string(//testsuites/@failures)'))).toBeGreaterThan(0);
  });

  describe('when it cannot run (exit 2): no report', () => {
    it('a report path it cannot write stops it before Pact runs, with one sentence', async () => {
      const run = await verifyCli(['--provider-base-url', mock.url, '--junit', '/dev/null/verify.xml']);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe('error: cannot write the report /dev/null/verify.xml (--junit): a part of the path is a file, not a directory (ENOTDIR)\n');
      const directory = await verifyCli(['--provider-base-url', mock.url, '--json', dir]);
      expect(directory.code).toBe(2);
      expect(directory.stderr).toBe(`error: cannot write the report ${dir} (--json): it is a directory (EISDIR)\n`);
    });

    it('refuses one file for both reports', async () => {
      const run = await verifyCli(['--provider-base-url', mock.url, '--junit', file('same'), '--json', file('same')]);
      expect(run.code).toBe(2);
      expect(run.stderr).toBe(`error: --junit and --json name the same file ${file('same')}: give each report its own\n`);
    });

    it('a provider that does not answer: no report, and none left over from an earlier run', async () => {
      const dead = await deadUrl();
      writeFileSync(file('stale.xml'), '<testsuites tests="0"/>');
      const run = await verifyCli(['--provider-base-url', dead, '--junit', file('stale.xml'), '--json', file('dead/verify.json')]);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^error: cannot verify product-reviews: cannot reach /);
      expect(existsSync(file('stale.xml'))).toBe(false);
      expect(existsSync(file('dead/verify.json'))).toBe(false);
    });
  });
});

/** A loopback URL with nothing listening: a port bound, then released. */
async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
