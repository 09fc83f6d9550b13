/**
 * `check --concurrency`: runs in flight at once give the same cases, verdicts, shrunk
 * counterexamples, replay commands, request counts and notes as one request at a time, against the
 * suite's broken implementations and a misbehaving provider; the option is validated; the progress
 * shows as plain lines (no escape codes) in a pipe and with NO_COLOR, and in place on a terminal.
 * No timing is asserted: only what the output says.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ProgressPrinter } from '../cli/progress.ts';
import { drawCases, evaluate } from '../properties/evaluate.ts';
import { resolveOptions } from '../properties/options.ts';
import { runListingProperties, type CheckReport, type PropertyProgress } from '../properties/runner.ts';
import { placeOf, Tally } from '../properties/tally.ts';
import { startServe } from './support/cli-process.ts';
import { startMisbehavingProvider } from './support/misbehaving-provider.ts';
import { BUGS, startReferenceServer, type BugName } from './support/reference-server.ts';

const CLI = join(import.meta.dirname, '..', 'bin', 'store-listing-kit.js');
const SEED = 7;
const RUNS = 15;

/** A report less what may differ between two runs: the durations, and the total (it includes runs sent ahead of a failure). */
const comparable = (r: CheckReport) => ({
  passed: r.passed,
  notes: r.notes,
  replay: r.replay,
  results: r.results.map(({ durationMs: _d, ...rest }) => rest),
});

/** Waits a little, at random: runs in flight end in another order than they started. */
const jitter = () => new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 4)));

describe('the cases of a property, evaluated side by side', () => {
  it('are the cases fast-check runs with that seed, in its order', async () => {
    const seen: unknown[] = [];
    const property = fc.asyncProperty(fc.record({ size: fc.integer({ min: 1, max: 100 }), ids: fc.array(fc.string()) }), fc.nat(), async (c, n) => {
      seen.push([c, n]);
    });
    await fc.check(property, { seed: 42, numRuns: 60 });
    expect(drawCases(property, 42, 60)).toEqual(seen);
  });

  it('find the same first failure, shrunk to the same case by the same path, as fast-check alone', async () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const property = () =>
        fc.asyncProperty(fc.integer({ min: 0, max: 10_000 }), fc.array(fc.nat({ max: 50 })), async (n, xs) => {
          await jitter();
          if (n > 2_000 && xs.length > 1) throw new Error(`too big: ${n}`);
        });
      const alone = await fc.check(property(), { seed, numRuns: 100 });
      const outcomes = [];
      for (const concurrency of [1, 4, 16]) {
        const tally = new Tally(placeOf(0, -1));
        outcomes.push(await evaluate(property(), { seed, numRuns: 100, concurrency, timeLimitMs: 60_000, tally, check: 0 }));
      }
      for (const o of outcomes) {
        expect(o.failed).toBe(alone.failed);
        expect(o.numRuns).toBe(alone.numRuns);
        expect(o.numShrinks).toBe(alone.numShrinks);
        expect(o.counterexample).toEqual(alone.counterexample);
        expect(o.counterexamplePath).toBe(alone.counterexamplePath);
        expect((o.errorInstance as Error).message).toBe((alone.errorInstance as Error).message);
      }
    }
  });
});

describe('--concurrency gives the same report as one request at a time', () => {
  // unstable-order answers each request in an order drawn from the request's arrival number: which
  // answer a case gets depends on what else is in flight (its verdict stays FAILED, not its example).
  const bugs = (Object.keys(BUGS) as BugName[]).filter((b) => b !== 'unstable-order');
  for (const bug of bugs) {
    it(`${bug}${BUGS[bug].strict ? ' (strict)' : ''}`, async () => {
      const server = await startReferenceServer({ bug });
      try {
        const run = (concurrency: number) => runListingProperties({ baseUrl: server.url, seed: SEED, runs: RUNS, strict: BUGS[bug].strict, concurrency });
        const one = await run(1);
        const many = await run(16);
        expect(one.passed).toBe(false);
        expect(comparable(many)).toEqual(comparable(one));
      } finally {
        await server.close();
      }
    }, 120_000);
  }

  it('a provider that sends numbers as strings (misbehaving-provider wrong-types)', async () => {
    const provider = await startMisbehavingProvider('wrong-types');
    try {
      const run = (concurrency: number) => runListingProperties({ baseUrl: provider.url, seed: SEED, runs: RUNS, concurrency });
      const one = await run(1);
      expect(one.passed).toBe(false);
      expect(comparable(await run(16))).toEqual(comparable(one));
    } finally {
      await provider.close();
    }
  }, 120_000);

  it('a correct implementation (reference server, strict)', async () => {
    const server = await startReferenceServer();
    try {
      const run = (concurrency: number) => runListingProperties({ baseUrl: server.url, seed: SEED, runs: RUNS, strict: true, concurrency });
      const one = await run(1);
      expect(one.passed).toBe(true);
      expect(comparable(await run(8))).toEqual(comparable(one));
    } finally {
      await server.close();
    }
  }, 120_000);
});

function cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  // Vitest sets BASE_URL ('/') for its own use; the CLI would read it as --base-url.
  const { BASE_URL: _vite, NO_COLOR: _n, FORCE_COLOR: _f, ...rest } = process.env;
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { env: { ...rest, ...env }, maxBuffer: 64 * 1024 * 1024, timeout: 120_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
    );
  });
}

describe('--concurrency is validated', () => {
  it('refuses anything but a whole number from 1 to 256, in one sentence, exit 2, before sending anything', async () => {
    for (const bad of ['0', '-1', '1.5', 'many', '257']) {
      const run = await cli(['check', '--base-url', 'http://127.0.0.1:9', '--concurrency', bad]);
      expect(run.code, bad).toBe(2);
      expect(run.stderr).toMatch(/option '--concurrency <n>' argument .* is invalid\. expected a whole number from 1 to 256, got '.*'\./);
      expect(run.stdout).toBe('');
    }
    expect(() => resolveOptions({ baseUrl: 'http://127.0.0.1:9', concurrency: 0 })).toThrow(/concurrency must be a whole number from 1 to 256, got 0/);
    expect(resolveOptions({ baseUrl: 'http://127.0.0.1:9' }).concurrency).toBe(16);
  });

  it('is in --help', async () => {
    const run = await cli(['check', '--help']);
    expect(run.stdout).toMatch(/--concurrency <n>\s+runs of a property in flight at once[\s\S]*\(default: 16\)/);
  });
});

describe('progress', () => {
  const progress = (runs: number, shrinking = false): PropertyProgress => ({
    property: 'page-length',
    endpoint: 'reviews',
    section: '4.1',
    path: '/store/products/reviews',
    runs,
    numRuns: 100,
    shrinking,
  });

  it('on a terminal: one line rewritten in place, erased before the result line', () => {
    let clock = 0;
    const written: string[] = [];
    const printer = new ProgressPrinter({ write: (t) => written.push(t), live: true, columns: 200, now: () => clock });
    printer.progress(progress(0));
    clock += 1000;
    printer.progress(progress(40));
    printer.clear();
    expect(written[0]).toBe(`\r\x1b[2K${ProgressPrinter.text(progress(0), 0)}`);
    expect(written[1]).toMatch(/^\r\x1b\[2KRUN {2}page-length +4\.1 \/store\/products\/reviews +40\/100 runs · 0 failed so far$/);
    expect(written[2]).toBe('\r\x1b[2K');
    expect(written.join('')).not.toContain('\n');
  });

  it('elsewhere: plain lines for a property still running after a while, none for a fast one', () => {
    let clock = 0;
    const written: string[] = [];
    const printer = new ProgressPrinter({ write: (t) => written.push(t), live: false, now: () => clock, plainEveryMs: 5000 });
    printer.progress(progress(0));
    clock = 1000;
    printer.progress(progress(50));
    expect(written).toEqual([]);
    clock = 6000;
    printer.progress(progress(60));
    clock = 7000;
    printer.progress(progress(70, true));
    printer.result({ status: 'failed' } as never);
    clock = 20_000;
    printer.progress({ ...progress(0), property: 'total-pages' });
    clock = 26_000;
    printer.progress({ ...progress(10), property: 'total-pages' });
    printer.clear();
    expect(written).toEqual([
      `RUN  ${'page-length'.padEnd(36)} ${'4.1 /store/products/reviews'.padEnd(42)} 60/100 runs · 0 failed so far\n`,
      `RUN  ${'total-pages'.padEnd(36)} ${'4.1 /store/products/reviews'.padEnd(42)} 10/100 runs · 1 failed so far\n`,
    ]);
  });

  it('in a pipe, and with NO_COLOR, `check` prints plain RUN lines for a slow property, without escape codes, and the same results', async () => {
    // 300 ms per request, one at a time: 20 runs take 6 s, more than the 5 s after which a RUN line shows.
    const slow = await startServe(['--latency', '300']);
    try {
      const args = ['check', '--base-url', slow.url, '--seed', '3', '--runs', '20', '--concurrency', '1', '--properties', 'page-length', '--endpoints', 'reviews'];
      const runs = [await cli(args), await cli(args, { NO_COLOR: '1', FORCE_COLOR: '1' })];
      for (const run of runs) {
        expect(run.code).toBe(0);
        expect(run.stdout).not.toContain('\x1b');
        expect(run.stdout).not.toContain('\r');
        expect(run.stdout).toMatch(/^RUN {2}page-length +4\.1 \/store\/products\/reviews +\d+\/20 runs · 0 failed so far$/m);
        expect(run.stdout).toMatch(/^PASS page-length +4\.1 \/store\/products\/reviews +20 runs, \d+ requests$/m);
        expect(run.stdout).toMatch(/^OK: 1 passed, 0 failed, 0 skipped/m);
      }
    } finally {
      slow.child.kill();
      await slow.exited;
    }
  }, 120_000);
});
