import { CHECKER_RULES, dialectRules, type AnswerRule } from '../lib/answer-rules.ts';
import { ENDPOINT_NAMES, PATHS } from '../lib/api-rules.ts';
import type { DialectName } from '../lib/dialects/types.ts';
import { printableJson } from '../lib/quote.ts';
import { junitXml, type JUnitCase, type JUnitOutcome } from '../lib/junit.ts';
import { EXAMPLES_PER_RULE, LISTING_SECTIONS, type RuleTally, type Verdicts } from '../mock-server/backend/verdicts.ts';

/**
 * What `store-listing-kit proxy` writes on exit: `--json` (every violation kept, with the request
 * target and what the rule expected) and `--junit` (one case per listing and rule), and the closing
 * line. Pure functions of the run's Verdicts.
 */

export interface ProxyRun {
  backend: string;
  dialect: DialectName;
  strict: boolean;
  verdicts: Verdicts;
  durationMs: number;
}

/** `{ "checked": n, "violationCount": v, "violations": [{ method, path, rule, expected, actual, field, message, note? }] }`. */
export function proxyJsonReport(run: ProxyRun): string {
  const { verdicts } = run;
  const violations = verdicts.violations.map((v) => ({
    method: v.method,
    path: v.path,
    rule: v.rule,
    expected: v.expected,
    actual: v.actual,
    ...(v.field === undefined ? {} : { field: v.field }),
    message: v.message,
    ...(v.note === undefined ? {} : { note: v.note }),
  }));
  // The values are bounded (verdicts.ts shownValue); what JSON leaves raw that a terminal would act on is escaped.
  return `${printableJson(JSON.stringify({ checked: verdicts.checked, violationCount: verdicts.violationCount, violations }, null, 2))}\n`;
}

/**
 * The JUnit report: one suite `proxy --backend <url>`, one case per listing and rule of the dialect
 * (and `answer-too-large-to-check`, `answer-too-deep-to-check` where they happened): failed with its first example lines and the
 * count, passed if it held on at least one answer, skipped if no answer exercised it.
 */
export function proxyJunitReport(run: ProxyRun): string {
  const tallies = new Map<string, RuleTally>(run.verdicts.tallies().map((t) => [`${t.endpoint}\u0000${t.rule}`, t]));
  const cases: JUnitCase[] = [];
  for (const endpoint of ENDPOINT_NAMES) {
    const listing = `${LISTING_SECTIONS[endpoint]} GET ${PATHS[endpoint]}`;
    const rules: AnswerRule[] = [...dialectRules(run.dialect, { strict: run.strict })];
    for (const rule of CHECKER_RULES) if (tallies.has(`${endpoint}\u0000${rule}`)) rules.push(rule);
    for (const rule of rules) {
      const tally = tallies.get(`${endpoint}\u0000${rule}`);
      cases.push({ classname: `store-listing-kit.proxy.${endpoint}`, name: `${rule} (${listing})`, outcome: outcomeOf(tally) });
    }
  }
  return junitXml({
    name: 'store-listing-kit proxy',
    durationMs: run.durationMs,
    suites: [
      {
        name: `proxy --backend ${run.backend}`,
        durationMs: run.durationMs,
        properties: [
          ['backend', run.backend],
          ['dialect', run.dialect],
          ['strict', String(run.strict)],
          ['checked', String(run.verdicts.checked)],
          ['violations', String(run.verdicts.violationCount)],
        ],
        cases,
      },
    ],
  });
}

function outcomeOf(tally: RuleTally | undefined): JUnitOutcome {
  if (tally && tally.broken > 0) {
    const more = tally.broken - tally.examples.length;
    const text = [...tally.examples, ...(more > 0 ? [`... and ${more} more (the first ${EXAMPLES_PER_RULE} are shown)`] : [])].join('\n');
    const heldOn = tally.held > 0 ? `; it held on ${tally.held} other answer${tally.held === 1 ? '' : 's'}` : '';
    return { kind: 'failure', message: `${tally.broken} violation${tally.broken === 1 ? '' : 's'}${heldOn}`, type: 'RuleViolation', text };
  }
  if (tally && tally.held > 0) return { kind: 'passed' };
  return { kind: 'skipped', message: 'no answer checked exercised this rule on this listing' };
}

/** The closing line: `checked N answers of the four listings: V violations`. */
export function closingLine(verdicts: Verdicts): string {
  const n = verdicts.checked;
  const v = verdicts.violationCount;
  return `checked ${n} answer${n === 1 ? '' : 's'} of the four listings: ${v} violation${v === 1 ? '' : 's'}`;
}
