/**
 * The vitest integration a team uses in its own suite: describeListingProperties defines one test
 * per property and endpoint. Here it runs in-process against the bug-free reference server (every
 * test passes), and in a child vitest against a broken one (the tests of the property that catches
 * the bug fail, with the check's report as their message; the others pass).
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeListingProperties } from '../properties/vitest.ts';
import { startReferenceServer, type ReferenceServer } from './support/reference-server.ts';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const VITEST = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));

let server: ReferenceServer | undefined;
beforeAll(async () => {
  server = await startReferenceServer();
});
afterAll(async () => {
  await server?.close();
});

describeListingProperties('reference server', {
  baseUrl: () => server!.url,
  seed: 9,
  runs: 5,
  strict: true,
  properties: ['envelope-shape', 'next-and-prev-page', 'bad-parameters-400'],
});

interface JsonReport {
  numFailedTests: number;
  numPassedTests: number;
  testResults: Array<{ assertionResults: Array<{ title: string; status: string; failureMessages: string[] }> }>;
}

/** Runs the consumer's file in a child vitest against `target`; answers vitest's JSON report. */
async function consumerRun(target: string): Promise<JsonReport> {
  const outcome = await run(process.execPath, [VITEST, 'run', '--config', 'test/support/vitest-consumer.config.ts'], {
    cwd: ROOT,
    env: { ...process.env, LISTING_TARGET: target, CI: 'true' },
    maxBuffer: 16 * 1024 * 1024,
  }).catch((error: { stdout: string }) => error);
  return JSON.parse(outcome.stdout.slice(outcome.stdout.indexOf('{'))) as JsonReport;
}

describe('in a team suite (a child vitest)', () => {
  it('a broken server fails exactly the tests of the property that catches it, with the report as the message', async () => {
    const broken = await startReferenceServer({ bug: 'next-page-on-last-page' });
    try {
      const report = await consumerRun(broken.url);
      const tests = report.testResults.flatMap((f) => f.assertionResults);
      expect(tests.map((t) => t.title).sort()).toEqual(
        ['envelope-shape', 'next-and-prev-page', 'page-length'].flatMap((p) => [`${p} on 4.1 /store/products/reviews`, `${p} on 4.3 /store/wishlists`]).sort(),
      );
      const failed = tests.filter((t) => t.status === 'failed');
      expect(failed.map((t) => t.title).sort()).toEqual(['next-and-prev-page on 4.1 /store/products/reviews', 'next-and-prev-page on 4.3 /store/wishlists']);
      const message = failed[0]!.failureMessages.join('\n');
      expect(message).toContain('FAILED next-and-prev-page');
      expect(message).toMatch(/field: +nextPage/);
      expect(message).toMatch(/curl -sS 'http:\/\/127\.0\.0\.1:\d+\/store\//);
      // The library inside a project's test runner: the project runs the kit with npx.
      expect(message).toMatch(/replay: +npx store-listing-kit check .*--properties next-and-prev-page/);
    } finally {
      await broken.close();
    }
  }, 90_000);

  it('without a base URL, every test fails naming the helper\'s own option (baseUrl), not the command line\'s --base-url', async () => {
    // vitest's JSON report leaves a beforeAll's error out: its default reporter shows it.
    const outcome = await run(process.execPath, [VITEST, 'run', '--config', 'test/support/vitest-consumer.config.ts', '--reporter', 'default'], {
      cwd: ROOT,
      env: { ...process.env, LISTING_TARGET: '', CI: 'true', NO_COLOR: '1' },
      maxBuffer: 16 * 1024 * 1024,
    }).then(
      () => ({ code: 0, output: '' }),
      (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, output: `${error.stdout}${error.stderr}` }),
    );
    expect(outcome.code).toBe(1);
    expect(outcome.output).toContain('CannotRunError: describeListingProperties: give baseUrl (a string, or a function returning one); the function returned an empty string');
    expect(outcome.output).not.toContain('--base-url');
  }, 90_000);

  it('the same file passes against a correct server', async () => {
    const report = await consumerRun(server!.url);
    expect(report.numFailedTests).toBe(0);
    expect(report.numPassedTests).toBe(6);
  }, 90_000);
});
