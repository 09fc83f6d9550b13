/**
 * `check` and `verify` against providers that misbehave (test/support/misbehaving-provider.ts):
 * each must end in time with one clear verdict, never a crash, a hang or a stack trace.
 *
 * The verdict follows docs/exit-codes.md:
 * - 2 (cannot run) when nothing at the URL answers the listings as JSON: an HTML page, a JSON
 *   array, JSON cut in half, a 500 to everything, a redirect loop, a reset connection, a body that
 *   never finishes. There is no listing to judge.
 * - 1 (breaks a rule) when the server answers JSON listings that are wrong: numbers sent as strings,
 *   a page of 200,000 records when one (or 100) was asked for.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckContext } from '../properties/context.ts';
import { ENDPOINTS } from '../properties/endpoints.ts';
import { resolveOptions } from '../properties/options.ts';
import { HUGE_COUNT, MODES, startMisbehavingProvider, type MisbehavingProvider, type Mode } from './support/misbehaving-provider.ts';

const BIN = fileURLToPath(new URL('../bin/store-listing-kit.js', import.meta.url));
/**
 * The commands' --timeout: short for the providers that drip or reset (the timeout may be what
 * ends them: Node's fetch sometimes never settles a request a peer keeps resetting), and
 * generous for the others, whose verdict must not depend on how busy the machine is.
 */
const TIMEOUT_MS = 2000;
const SLOW_MACHINE_TIMEOUT_MS = 15_000;
const timeoutFor = (mode: Mode) => String(mode === 'drip' || mode === 'reset' ? TIMEOUT_MS : SLOW_MACHINE_TIMEOUT_MS);
/**
 * The providers whose answer has no end, or inflates without one, are read with a small cap on a
 * body (--max-body), so that the runs stay quick; the process's peak memory must stay bounded by it.
 */
const BOUNDED: ReadonlySet<Mode> = new Set(['endless', 'huge-length', 'gzip-bomb']);
const CAP = '4MiB';
const CAP_BYTES = 4 * 1024 * 1024;
/** Peak resident memory a bounded run may reach: Node, Pact's core and the cap a few times over. */
const PEAK_RSS_BOUND = 4 * CAP_BYTES + 300 * 1024 * 1024;
const argsFor = (mode: Mode) => ['--timeout', timeoutFor(mode), ...(BOUNDED.has(mode) ? ['--max-body', CAP] : [])];
/**
 * A preload that adds the process's peak resident memory (bytes) to $PEAK_RSS_FILE as it exits, one
 * line per process: `verify` runs Pact in a worker process (which inherits the preload), whose peak counts too.
 */
const PEAK_RSS_ON_EXIT = `data:text/javascript,${encodeURIComponent("import{appendFileSync}from'node:fs';process.on('exit',()=>{appendFileSync(process.env.PEAK_RSS_FILE,String(process.resourceUsage().maxRSS*1024)+'\\n')})")}`;
const peakDir = mkdtempSync(join(tmpdir(), 'misbehaving-peaks-'));
/** Each command must be over well within this. */
const BOUND_MS = 60_000;
const PARALLEL = 3;

interface Run {
  /** Peak resident memory in bytes, or undefined when the process did not get to say. */
  peakRss: number | undefined;
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

let runsStarted = 0;
function cli(args: string[]): Promise<Run> {
  // Vitest sets BASE_URL ('/') for its own use; the CLI would read it as --base-url.
  const { BASE_URL: _vite, ...env } = process.env;
  const peakFile = join(peakDir, `${runsStarted++}.txt`);
  const began = Date.now();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', PEAK_RSS_ON_EXIT, BIN, ...args],
      { env: { ...env, PACT_DO_NOT_TRACK: 'true', PEAK_RSS_FILE: peakFile }, timeout: BOUND_MS, killSignal: 'SIGKILL', maxBuffer: 256 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        let peakRss: number | undefined;
        try {
          // The highest of the processes' peaks (the command's, and its worker's).
          peakRss = Math.max(...readFileSync(peakFile, 'utf8').split('\n').filter(Boolean).map(Number));
        } catch {
          peakRss = undefined;
        }
        resolve({ code, signal: error?.signal ?? null, stdout, stderr, ms: Date.now() - began, peakRss });
      },
    );
  });
}

type Verdict = { code: 1 | 2; check: RegExp[]; verify: RegExp[] };

/** The one sentence each misbehaviour must be named by (on stderr for 2, in the report for 1). */
const EXPECTED: Record<Mode, Verdict> = {
  html: {
    code: 2,
    check: [/nothing at \S+ answers the listings as JSON \(GET \S+ got 200 text\/html; charset=utf-8: "<!doctype html>/],
    verify: [/nothing at \S+ answers the listings as JSON \(GET \S+ got 200 text\/html; charset=utf-8: "<!doctype html>/],
  },
  'truncated-json': {
    code: 2,
    check: [/answers the listings as JSON \(GET \S+ got 200 application\/json; charset=utf-8 whose body is not valid JSON/],
    verify: [/answers the listings as JSON \(GET \S+ got 200 application\/json; charset=utf-8 whose body is not valid JSON/],
  },
  'huge-array': {
    code: 1,
    check: [/^FAILED page-length on 4\.1 /m, /asked for at most 100 records \(limit=100\), the server answered a page of 200000: it ignores the page size/, /^SKIP page-contents +4\.1 .*not run: /m],
    verify: [/FAIL product-reviews: GET \S+limit=1 asked for 1 record and got a page of 200000: the provider ignores the page size/, /FAIL wishlist: GET \S+take=1 asked for 1 record and got a page of 200000/],
  },
  drip: {
    code: 2,
    check: [/: the server did not finish its answer within 2000 ms/],
    verify: [/: the server did not finish its answer within 2000 ms/],
  },
  reset: {
    code: 2,
    check: [/cannot reach \S+: .*(ECONNRESET|closed|hang up|no answer within 2000 ms)/],
    verify: [/cannot reach \S+: .*(ECONNRESET|closed|hang up|no answer within 2000 ms)/],
  },
  'always-500': {
    code: 2,
    check: [/nothing at \S+ answers the listings: GET \S+ answered 500 .*\(3 times in a row\)/],
    verify: [/nothing at \S+ answers the listings: GET \S+ got 500 .*\(3 times in a row\)/],
  },
  'redirect-loop': {
    code: 2,
    check: [/cannot reach \S+: redirect count exceeded/],
    verify: [/cannot reach \S+: redirect count exceeded/],
  },
  'wrong-types': {
    code: 1,
    check: [/^FAILED envelope-shape on 4\.1 /m, /^ {2}actual: +"\d+"$/m],
    verify: [/FAIL product-reviews: \d+ of \d+ interactions failed/, /BodyMismatch \$\.\S+: expected (\d+, got "\d+"|an integer, got '\d+' \(String\))/],
  },
  endless: {
    code: 2,
    check: [/: the answer is over the 4 MiB cap on a body \(--max-body raises it\)$/m],
    verify: [/: the answer is over the 4 MiB cap on a body \(--max-body raises it\)$/m],
  },
  'huge-length': {
    code: 2,
    check: [/: the answer is over the 4 MiB cap on a body \(--max-body raises it\)$/m],
    verify: [/: the answer is over the 4 MiB cap on a body \(--max-body raises it\)$/m],
  },
  'gzip-bomb': {
    code: 2,
    check: [/: the answer is over the 4 MiB cap on a body \(--max-body raises it\)$/m],
    verify: [/: the answer is over the 4 MiB cap on a body \(--max-body raises it\)$/m],
  },
  'json-array': {
    code: 2,
    check: [/answers the listings as JSON \(GET \S+ got 200 application\/json; charset=utf-8 with a JSON array, not an envelope object: "\[1,2\]"\)/],
    verify: [/answers the listings as JSON \(GET \S+ got 200 application\/json; charset=utf-8 with a JSON array, not an envelope object/],
  },
};

const providers = new Map<Mode, MisbehavingProvider>();
const runs = new Map<string, Run>();

beforeAll(async () => {
  for (const provider of await Promise.all(MODES.map(startMisbehavingProvider))) providers.set(provider.mode, provider);
  // Each command waits on its own provider; none changes another's.
  const commands = MODES.flatMap((mode) => {
    const url = providers.get(mode)!.url;
    return [
      [`${mode} check`, ['check', '--base-url', url, ...argsFor(mode)]],
      [`${mode} verify`, ['verify', '--provider-base-url', url, ...argsFor(mode)]],
    ] as const;
  });
  // A few at a time: each command's time bound is its own, not that of a crowded machine.
  const queue = [...commands];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) runs.set(next[0], await cli([...next[1]]));
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
}, 240_000);

afterAll(async () => {
  await Promise.all([...providers.values()].map((p) => p.close()));
  rmSync(peakDir, { recursive: true, force: true });
});

describe.each(MODES)('a provider that misbehaves: %s', (mode) => {
  const expected = EXPECTED[mode];
  for (const command of ['check', 'verify'] as const) {
    it(`${command} ends in time with exit ${expected.code}, one clear cause and no stack trace`, () => {
      const run = runs.get(`${mode} ${command}`)!;
      const output = `${run.stdout}${run.stderr}`;
      expect({ signal: run.signal, within: run.ms < BOUND_MS }).toEqual({ signal: null, within: true });
      expect(run.code, output.slice(-2000)).toBe(expected.code);
      expect(output).not.toMatch(/\n\s+at /);
      if (BOUNDED.has(mode)) {
        // Bounded by the cap: no answer is read, or inflated, past it.
        expect(run.peakRss, 'the peak memory, as the process saw it').toBeGreaterThan(0);
        expect(run.peakRss!).toBeLessThan(PEAK_RSS_BOUND);
      }
      if (expected.code === 2) {
        // Cannot run: exactly one line on stderr, naming the cause.
        expect(run.stderr).toMatch(/^error: [^\n]+\n$/);
        for (const pattern of expected[command]) expect(run.stderr).toMatch(pattern);
      } else {
        expect(run.stderr).toBe('');
        for (const pattern of expected[command]) expect(run.stdout).toMatch(pattern);
        expect(run.stdout).toMatch(command === 'check' ? /^FAILED: \d+ passed, [1-9]\d* failed/m : /^store-listing-kit verify: summary \(dialect spec\)$/m);
      }
    });
  }
});

describe('pages far larger than asked', () => {
  it("the suite's reference set takes a 200,000-record page without overflowing the call stack", async () => {
    const provider = providers.get('huge-array')!;
    const ctx = new CheckContext(resolveOptions({ baseUrl: provider.url, seed: 1, timeoutMs: 10_000 }));
    const reference = await ctx.reference({ endpoint: ENDPOINTS.reviews });
    expect(reference.records.length).toBe(HUGE_COUNT);
    expect(reference.sources.length).toBe(HUGE_COUNT);
    expect(reference.complete).toBe(true);
  });
});

describe('https to a port that speaks plain HTTP', () => {
  it.each([
    ['check', (url: string) => ['check', '--base-url', url]],
    ['verify', (url: string) => ['verify', '--provider-base-url', url]],
    ['fixtures --from', (url: string) => ['fixtures', '--from', url]],
  ])('%s says so in one plain sentence, exit 2', async (_, args) => {
    const plain = providers.get('always-500')!.url;
    const url = plain.replace(/^http:/, 'https:');
    const run = await cli(args(url));
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(new RegExp(`^error: [^\\n]*: the server at ${url.replace(/[.]/g, '\\.')} does not speak TLS \\(is it plain http://\\?\\)\\n$`));
    expect(run.stderr).not.toMatch(/ssl3_get_record|wrong version number/);
  });
});
