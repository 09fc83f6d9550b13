/**
 * docs/contracts.md "Who checks what", pinned: for each row of the table that both commands check, a
 * provider broken on that row's rule fails both `check` (its default set, few runs) and `verify`
 * (Pact's replay of the kit's pacts), each on that rule; a row that only one command checks says
 * why in the table, and has no broken provider here. One check run and one verify run per provider.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyProviders, type ProviderResult } from '../contracts/verify.ts';
import { PROVIDER_STATES_PATH } from '../lib/provider-states.ts';
import { runListingProperties, type CheckReport } from '../properties/runner.ts';
import { BREAKAGES, REQUEST_BREAKAGES, startBrokenProvider, type BrokenProvider, type Envelope, type RequestBreakage } from './support/pact-broken-providers.ts';

const SEED = 29;
const RUNS = 5;
const ALPHABITE_HEADERS = { 'x-publishable-api-key': 'pk_test', authorization: 'Bearer token' };

interface Row {
  /** The broken provider (test/support/pact-broken-providers.ts), named in the table's last column. */
  provider: string;
  rewrite?: (body: Envelope) => Envelope;
  request?: RequestBreakage;
  dialect?: 'spec' | 'alphabite';
  /** For a rule that only an edge dataset shows (an empty listing): the check's run, narrowed to the row's properties. */
  varyDataset?: boolean;
  /** The check properties that must fail (`property section`, or `property` on any listing). */
  check: string[];
  /** Failing interactions (description) and a mismatch of theirs that must be reported. */
  verify: Array<{ interaction: RegExp; mismatch: RegExp }>;
}

/** By the table's first column. */
const ROWS: Record<string, Row> = {
  'envelope keys present, named right, with the right JSON types': {
    provider: 'missingPrevPage',
    rewrite: BREAKAGES.missingPrevPage,
    check: ['envelope-shape 4.1', 'envelope-shape 4.2'],
    verify: [{ interaction: /^a request for the first page of reviews/, mismatch: /expected keys including prevPage/ }],
  },
  'listings answer JSON (`Content-Type: application/json`)': {
    provider: 'textPlain',
    request: REQUEST_BREAKAGES.textPlain,
    check: ['envelope-shape'],
    verify: [{ interaction: /^a request for the first page of reviews/, mismatch: /Content-Type/i }],
  },
  "records: the fields and types the pacts' matchers pin (ids with their prefixes, timestamps with ms)": {
    provider: 'idsWithoutPrefix',
    rewrite: BREAKAGES.idsWithoutPrefix,
    check: ['record-shape 4.1', 'record-shape 4.3'],
    verify: [{ interaction: /^a request for the first page of reviews/, mismatch: /\$\.reviews\[\d+\]\.id/ }],
  },
  'records as the published plugins answer them (`--dialect alphabite`)': {
    provider: 'idsWithoutPrefix',
    rewrite: BREAKAGES.idsWithoutPrefix,
    dialect: 'alphabite',
    check: ['record-shape 4.2', 'record-shape 4.3'],
    verify: [{ interaction: /listProductReviews/, mismatch: /\$\.data\[\d+\]\.id/ }],
  },
  'the page holds the records of its window (its length)': {
    provider: 'dropsLastRecord',
    rewrite: BREAKAGES.dropsLastRecord,
    check: ['page-length 4.1', 'page-length 4.3'],
    verify: [{ interaction: /^a request for the first page of reviews/, mismatch: /\$\.reviews: expected have minimum size of 5, got .*\(size 4\)/ }],
  },
  "the reviews' defaults: `limit` 20, `offset` 0": {
    provider: 'reviewsDefaultLimit10',
    request: REQUEST_BREAKAGES.reviewsDefaultLimit10,
    check: ['defaults 4.1', 'defaults 4.2'],
    verify: [{ interaction: /^a request for reviews without paging parameters/, mismatch: /\$\.limit: expected 20, got 10/ }],
  },
  "an empty listing's `totalPages` 0; a page past the end's `prevPage`": {
    provider: 'otherPageNumbers',
    rewrite: BREAKAGES.otherPageNumbers,
    // The seeded listings are none empty: the edge datasets (installed through the provider-state door) are.
    varyDataset: true,
    check: ['total-pages', 'next-and-prev-page'],
    verify: [
      { interaction: /^a request for reviews when there are none/, mismatch: /\$\.totalPages: expected 0, got 1/ },
      { interaction: /^a request for a page past the end of reviews/, mismatch: /\$\.prevPage: expected 4, got null/ },
    ],
  },
  'a bad paging value is a 400 `invalid_data` naming it; an unknown wishlist on 4.4 a 404 `not_found`': {
    provider: 'errorsAsEmptyPages',
    request: REQUEST_BREAKAGES.errorsAsEmptyPages,
    check: ['bad-paging-400 4.1', 'bad-paging-400 4.4', 'unknown-ids 4.4'],
    verify: [
      { interaction: /^a request for reviews with a negative limit/, mismatch: /expected 400, got 200|status/i },
      { interaction: /^a request for the items of a wishlist that does not exist/, mismatch: /expected 404, got 200|status/i },
    ],
  },
};

/** The rows of the table in docs/contracts.md's "Who checks what": first cell, and the last (the broken provider). */
function tableRows(): Array<{ rule: string; provider: string }> {
  const doc = readFileSync(new URL('../docs/contracts.md', import.meta.url), 'utf8');
  const section = doc.slice(doc.indexOf('### Who checks what'));
  const table = section.slice(0, section.indexOf('\n\n', section.indexOf('\n|')));
  return table
    .split('\n')
    .filter((l) => l.startsWith('| ') && !l.startsWith('| rule |'))
    .map((l) => {
      const cells = l.slice(2, -2).split(' | ');
      return { rule: cells[0]!, provider: cells[cells.length - 1]! };
    });
}

const failedOf = (report: CheckReport) => report.results.filter((r) => r.status === 'failed').map((r) => `${r.property} ${r.section}`);
const failingInteractions = (results: ProviderResult[]) => results.flatMap((r) => r.interactions.filter((i) => i.status === 'failed'));

describe('docs/contracts.md "Who checks what": each row both commands check has a broken provider', () => {
  it('the table and the cases here name the same rows and providers; a row without one says which command alone checks it, and why', () => {
    const rows = tableRows();
    expect(rows.length).toBeGreaterThan(Object.keys(ROWS).length);
    for (const { rule, provider } of rows) {
      const row = ROWS[rule];
      if (row) expect(provider, rule).toContain(`\`${row.provider}\``);
      else expect(provider, `${rule}: no broken provider, so the table must say why`).toMatch(/^— \S/);
    }
    expect(Object.keys(ROWS).filter((rule) => !rows.some((r) => r.rule === rule))).toEqual([]);
  });

  for (const [rule, row] of Object.entries(ROWS)) {
    describe(`${rule}: ${row.provider}`, () => {
      let provider: BrokenProvider;
      let checked: CheckReport;
      let verified: ProviderResult[];
      beforeAll(async () => {
        provider = await startBrokenProvider(row.rewrite ?? ((b) => b), { ...(row.dialect ? { dialect: row.dialect } : {}), ...(row.request ? { request: row.request } : {}) });
        const alphabite = row.dialect === 'alphabite';
        checked = await runListingProperties({
          baseUrl: provider.url,
          seed: SEED,
          runs: RUNS,
          ...(alphabite ? { dialect: 'alphabite', headers: ALPHABITE_HEADERS } : {}),
          ...(row.varyDataset ? { varyDataset: true, properties: row.check.map((c) => c.split(' ')[0]!) } : {}),
        });
        verified = await verifyProviders({
          providerBaseUrl: provider.url,
          providerStatesSetupUrl: `${provider.url}${PROVIDER_STATES_PATH}`,
          logLevel: 'error',
          ...(alphabite ? { dialect: 'alphabite', headers: ALPHABITE_HEADERS } : {}),
        });
      }, 240_000);
      afterAll(() => provider?.close());

      it('check (default set) fails on it', () => {
        expect(checked.passed).toBe(false);
        const failed = failedOf(checked);
        for (const want of row.check) expect(failed.some((f) => f === want || f.startsWith(`${want} `)), `${want} among ${failed.join(', ')}`).toBe(true);
      });

      it('verify fails on it', () => {
        expect(verified.every((r) => r.ok)).toBe(false);
        const failing = failingInteractions(verified);
        for (const { interaction, mismatch } of row.verify) {
          const found = failing.filter((i) => interaction.test(i.description));
          expect(found.map((i) => i.description), `${interaction} among ${failing.map((i) => i.description).join('; ')}`).not.toEqual([]);
          expect(found.flatMap((i) => i.mismatches).join('\n')).toMatch(mismatch);
        }
      });
    });
  }
});
