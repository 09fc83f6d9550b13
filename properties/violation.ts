/**
 * How a property says what went wrong: the request that shows it, the field, what was expected
 * and what came back. The runner prints these for the shrunk counterexample.
 */
import type { RuleViolation } from '../lib/answer-rules.ts';
import type { Exchange } from './http.ts';

export interface ViolationDetail {
  /** One sentence: what rule the response breaks. */
  message: string;
  /** The exact URL of the request that shows it. */
  url?: string;
  /** The headers sent with that request (`--header`), credentials' values shown as `<yours>`. */
  headers?: Record<string, string>;
  /** The field that differs, as a path into the body (e.g. `nextPage`, `reviews.length`). */
  field?: string;
  expected?: unknown;
  actual?: unknown;
  /** Extra context (how the expectation was computed, the other request compared with...). */
  note?: string;
}

export class Violation extends Error {
  constructor(readonly detail: ViolationDetail) {
    super(describeViolation(detail));
    this.name = 'Violation';
  }
}

export function describeViolation(d: ViolationDetail): string {
  const lines = [d.message];
  if (d.url) lines.push(`request: GET ${d.url}`);
  if (d.field !== undefined) lines.push(`field: ${d.field}`, `expected: ${show(d.expected)}`, `actual: ${show(d.actual)}`);
  if (d.note) lines.push(d.note);
  return lines.join('\n');
}

/** JSON-ish rendering that keeps `undefined` (an absent key) distinct from `null`. */
export function show(value: unknown, max = 400): string {
  if (value === undefined) return '(absent)';
  const text = JSON.stringify(value);
  if (text === undefined) return String(value);
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
}

export function fail(detail: ViolationDetail): never {
  throw new Violation(detail);
}

/** Fails with a rule's violation (lib/answer-rules.ts) and the URL of the request whose answer broke it; `note` replaces the rule's own. */
export function failWith(url: string, violation: RuleViolation, note?: string): never {
  const { rule: _rule, note: own, ...detail } = violation;
  const shown = note ?? own;
  return fail({ ...detail, url, ...(shown === undefined ? {} : { note: shown }) });
}

/** Fails on a rule's first violation, if any (a property stops at the first thing wrong). */
export function failOnFirst(url: string, violations: readonly RuleViolation[], note?: string): void {
  if (violations[0]) failWith(url, violations[0], note);
}

/** The body as an object, after checking the status is 200 and the body is a JSON object. */
export function okBody(ex: Exchange): Record<string, unknown> {
  if (ex.status !== 200) {
    fail({
      message: `a valid listing request must answer 200`,
      url: ex.url,
      field: 'status',
      expected: 200,
      actual: ex.status,
      note: `body: ${ex.text.slice(0, 300)}`,
    });
  }
  if (ex.json === null || typeof ex.json !== 'object' || Array.isArray(ex.json)) {
    fail({
      message: 'the response body must be a JSON object',
      url: ex.url,
      field: 'body',
      expected: 'a JSON object',
      actual: ex.text.slice(0, 300),
    });
  }
  return ex.json as Record<string, unknown>;
}
