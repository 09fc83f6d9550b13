/** The property suite against the alphabite dialect: the failures are the table's, and the published summary is current. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkAlphabite, reportMarkdown, REPORT_END, REPORT_START, ROW_OF } from './support/dialect-report.ts';

const DOC = new URL('../docs/dialects.md', import.meta.url);

describe('check --strict against serve --dialect alphabite', () => {
  it('fails, each failure names a row of the table, and docs/dialects.md shows this very run (else: npm run docs:dialects)', async () => {
    const check = await checkAlphabite();
    expect(check.failures.length).toBeGreaterThan(0);
    // Pinned: a new dialect behaviour or a new property that fails shows up here.
    expect(check.failures.map((r) => `${r.property} ${r.section}`).sort()).toEqual(Object.keys(ROW_OF).sort());
    expect(check.passed).toEqual([]);
    const doc = readFileSync(DOC, 'utf8');
    const committed = doc.slice(doc.indexOf(REPORT_START), doc.indexOf(REPORT_END) + REPORT_END.length);
    expect(committed, 'docs/dialects.md is stale: run `npm run docs:dialects` and commit it').toBe(reportMarkdown(check));
  }, 60_000);
});
