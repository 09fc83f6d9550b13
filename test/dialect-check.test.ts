/**
 * `check` against the alphabite dialect (the published plugins, as `serve --dialect alphabite`
 * emulates them): both verdict lists are pinned (test/support/alphabite-verdicts.ts, which the
 * real-Medusa run reuses), and docs/dialects.md shows this very run.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ALPHABITE_CHECK_FAILURES, SPEC_CHECK_CANNOT_RUN } from './support/alphabite-verdicts.ts';
import { checkAlphabite, reportMarkdown, REPORT_END, REPORT_START, ROW_OF } from './support/dialect-report.ts';

const DOC = new URL('../docs/dialects.md', import.meta.url);

describe('check against serve --dialect alphabite', () => {
  it('--dialect alphabite fails exactly the plugin bugs, each a row of the table; the spec check cannot run, and says the server speaks the alphabite dialect; docs/dialects.md shows this run (else: npm run docs:dialects)', async () => {
    const check = await checkAlphabite();
    const failures = check.alphabite.failures.map((r) => `${r.property} ${r.section}`);
    expect(failures.sort()).toEqual([...ALPHABITE_CHECK_FAILURES].sort());
    expect(Object.keys(ROW_OF).sort()).toEqual([...ALPHABITE_CHECK_FAILURES].sort());
    expect(check.alphabite.skipped).toEqual([]);
    expect(check.alphabite.passed.length).toBeGreaterThan(0);

    // The spec's rules cannot judge a server that speaks the plugins' dialect: exit 2, naming it, not 1.
    expect(check.spec).toMatch(SPEC_CHECK_CANNOT_RUN);

    const doc = readFileSync(DOC, 'utf8');
    const committed = doc.slice(doc.indexOf(REPORT_START), doc.indexOf(REPORT_END) + REPORT_END.length);
    expect(committed, 'docs/dialects.md is stale: run `npm run docs:dialects` and commit it').toBe(reportMarkdown(check));
  }, 120_000);
});
