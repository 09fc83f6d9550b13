/** Renders a check run: the console text, the JSON report and the JUnit XML report. */
import { curlLine } from './http.ts';
import type { CheckReport, PropertyResult } from './runner.ts';
import { show } from './violation.ts';
import { junitXml, type JUnitOutcome, type JUnitSuite } from '../lib/junit.ts';
import { boundedText, printable, printableJson, shownValue } from '../lib/quote.ts';

/** A text of a failure that may hold the server's words, printed up to this many characters. */
const MAX_TEXT = 2048;

const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));
const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/**
 * The run's title and settings. The title is no command line (`check http://...` would fail when run:
 * the URL is `--base-url`'s): the command that runs it again is the summary's "replay this run".
 */
export function headerLine(r: Pick<CheckReport, 'baseUrl' | 'seed' | 'strict' | 'runs' | 'maxPageSize' | 'endpoints'> & Partial<Pick<CheckReport, 'dialect'>>): string {
  const rules = r.dialect === 'alphabite' ? "dialect alphabite: the plugins' [dialect] rules and a storefront's [storefront] needs" : r.strict ? 'strict: [spec], [contract] and [kit] rules' : '[spec] rules and the [contract] ones the pacts pin (add --strict for the other [kit] rules)';
  return `store-listing-kit check: ${r.baseUrl}\nseed ${r.seed} · ${r.runs} runs per property · ${rules} · pages of at most ${r.maxPageSize} · endpoints ${r.endpoints.join(', ')}`;
}

/** One line per property and endpoint, as results arrive. */
export function resultLine(r: PropertyResult): string {
  const mark = r.status === 'passed' ? 'PASS' : r.status === 'failed' ? 'FAIL' : 'SKIP';
  const what = `${pad(r.property, 36)} ${pad(`${r.section} ${r.path}`, 42)}${r.dataset ? ` [dataset: ${r.dataset}]` : ''}`;
  if (r.status === 'skipped') return `${mark} ${what} ${r.skipReason}`;
  const runs = `${count(r.runs, 'run')}, ${count(r.requests, 'request')}${r.interrupted ? ' (time limit reached)' : ''}`;
  return `${mark} ${what} ${runs}${r.rule === 'kit' ? ' [kit]' : ''}`;
}

/** The full story of one failure: the rule, the exact request, curl, expected vs actual, the replay command. */
export function failureText(r: PropertyResult): string {
  const v = r.violation;
  const lines = [`FAILED ${r.property} on ${r.section} ${r.path} [${r.rule}]`, `  rule:     ${r.title}`];
  if (r.dataset) lines.push(`  dataset:  provider state ${r.dataset} (installed by the suite through the provider-state door)`);
  if (r.runs > 0 && r.counterexample === undefined) {
    lines.push('  found by the first request to this listing (the check stopped there: see the other properties, skipped)');
  } else if (r.runs > 0) {
    lines.push(`  found after ${r.runs} run${r.runs === 1 ? '' : 's'}, shrunk ${r.shrinks} time${r.shrinks === 1 ? '' : 's'} to ${show(r.counterexample)}`);
  }
  if (v) {
    // The server's words (an id, a key, a body) are printable: a line of the failure stays one line.
    lines.push(`  broken:   ${boundedText(v.message, MAX_TEXT)}`);
    if (v.url) lines.push(`  request:  GET ${boundedText(v.url, MAX_TEXT)}`, `  curl:     ${printable(curlLine(v.url, v.headers))}`);
    if (v.field !== undefined) lines.push(`  field:    ${boundedText(v.field, MAX_TEXT)}`, `  expected: ${show(v.expected)}`, `  actual:   ${show(v.actual)}`);
    if (v.note) lines.push(`  note:     ${v.note.split('\n').map((line) => boundedText(line, MAX_TEXT)).join('\n            ')}`);
  }
  if (r.replay) lines.push(`  replay:   ${r.replay}`);
  return lines.join('\n');
}

/** `OK` when no property failed and at least one held; a run where every property was skipped judged nothing. */
function verdict(report: CheckReport): string {
  if (report.results.some((r) => r.status === 'failed')) return 'FAILED';
  return report.results.some((r) => r.status === 'passed') ? 'OK' : 'NOTHING CHECKED';
}

export function summaryText(report: CheckReport): string {
  const n = (s: PropertyResult['status']) => report.results.filter((r) => r.status === s).length;
  const lines: string[] = [];
  const failures = report.results.filter((r) => r.status === 'failed');
  if (failures.length) lines.push('', ...failures.flatMap((f) => [failureText(f), '']));
  if (report.notes.length) lines.push('notes:', ...report.notes.map((x) => `  - ${boundedText(x, MAX_TEXT)}`));
  if (report.medusa) lines.push(`medusa: ${report.medusa}`);
  lines.push(
    `${verdict(report)}: ${n('passed')} passed, ${n('failed')} failed, ${n('skipped')} skipped · ${count(report.requests, 'request')} in ${(report.durationMs / 1000).toFixed(1)}s · seed ${report.seed}`,
    `replay this run: ${report.replay}`,
  );
  return lines.join('\n');
}

export function fullText(report: CheckReport): string {
  return [headerLine(report), ...report.results.map(resultLine), summaryText(report)].join('\n');
}

/** The JSON report: the whole run, each failure with its request, curl line and replay command. */
export function jsonReport(report: CheckReport): string {
  // What JSON leaves raw that a terminal would act on (bidi, C1) is escaped: the same JSON value.
  return `${printableJson(JSON.stringify(
    {
      ...report,
      results: report.results.map((r) => ({
        ...r,
        // The values as kept (lib/quote.ts shownValue): a deep or long value of the answer quoted and cut, a number JSON cannot hold named.
        ...(r.violation ? { violation: { ...r.violation, expected: shownValue(r.violation.expected), actual: shownValue(r.violation.actual) } } : {}),
        ...(r.violation?.url ? { request: `GET ${r.violation.url}`, curl: curlLine(r.violation.url, r.violation.headers) } : {}),
        // JSON cannot tell an absent value from null: the texts as printed keep the difference.
        ...(r.violation && 'field' in r.violation && r.violation.field !== undefined
          ? { expectedText: show(r.violation.expected), actualText: show(r.violation.actual) }
          : {}),
      })),
    },
    null,
    2,
  ))}\n`;
}

/** JUnit XML (lib/junit.ts writes it): one testsuite per endpoint, one testcase per property. */
export function junitReport(report: CheckReport): string {
  const bySuite = new Map<string, PropertyResult[]>();
  for (const r of report.results) {
    const key = `${r.section} ${r.path}${r.dataset ? ` [dataset: ${r.dataset}]` : ''}`;
    bySuite.set(key, [...(bySuite.get(key) ?? []), r]);
  }
  const outcome = (r: PropertyResult): JUnitOutcome => {
    if (r.status === 'passed') return { kind: 'passed' };
    if (r.status === 'skipped') return { kind: 'skipped', message: r.skipReason ?? '' };
    return { kind: 'failure', message: r.violation?.message ?? 'failed', type: r.rule === 'kit' ? 'KitRuleViolation' : 'SpecRuleViolation', text: failureText(r) };
  };
  const suites: JUnitSuite[] = [...bySuite].map(([name, rs]) => ({
    name,
    durationMs: rs.reduce((t, r) => t + r.durationMs, 0),
    properties: [
      ['baseUrl', report.baseUrl],
      ['seed', String(report.seed)],
      ['strict', String(report.strict)],
    ],
    cases: rs.map((r) => ({ classname: `store-listing-kit.check.${r.endpoint}`, name: `${r.property} [${r.rule}]`, durationMs: r.durationMs, outcome: outcome(r) })),
  }));
  return junitXml({ name: 'store-listing-kit check', durationMs: report.durationMs, suites });
}
