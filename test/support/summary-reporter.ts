import type { Reporter, SerializedError, TestModule, TestSuite } from 'vitest/node';

/**
 * Prints one plain closing line, "Tests: N passed, N failed[, N skipped]", that any CI
 * reading the output can count, whatever it knows of vitest's own summary.
 *
 * Every way a run fails counts as a failure, so the line never says "0 failed" while vitest
 * exits 1: a failed test; a file or suite that failed with none of its tests failed (an error
 * while collecting, or in a `beforeAll`/`afterAll` hook, after which vitest marks the tests
 * skipped); and an unhandled error.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError> = []): void {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      for (const suite of [module, ...module.children.allSuites()]) if (failedOnItsOwn(suite)) failed++;
    }
    process.stdout.write(`\nTests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
  }
}

/** A file or suite that failed (its own errors, or a hook) while no test inside it failed. */
function failedOnItsOwn(suite: TestModule | TestSuite): boolean {
  if (suite.errors().length > 0) return true;
  if (suite.state() !== 'failed') return false;
  for (const test of suite.children.allTests()) if (test.result().state === 'failed') return false;
  return true;
}
