/**
 * How a property says what went wrong: the request that shows it, the field, what was expected
 * and what came back. The runner prints these for the shrunk counterexample.
 */
import type { RuleViolation } from '../lib/answer-rules.ts';
import { boundedText, quoteValue } from '../lib/quote.ts';
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
  const lines = [boundedText(d.message, MAX_TEXT)];
  if (d.url) lines.push(`request: GET ${boundedText(d.url, MAX_TEXT)}`);
  if (d.field !== undefined) lines.push(`field: ${boundedText(d.field, MAX_TEXT)}`, `expected: ${show(d.expected)}`, `actual: ${show(d.actual)}`);
  if (d.note) lines.push(...d.note.split('\n').map((line) => boundedText(line, MAX_TEXT)));
  return lines.join('\n');
}

/** A text of a violation (which may hold the server's words: an id, a key) is printed up to this many characters, printable. */
const MAX_TEXT = 2048;

/**
 * A value as a failure quotes it (lib/quote.ts): JSON-like, `(absent)` for undefined (an absent key,
 * distinct from `null`), printable, cut past `max` characters, at any depth; a number JSON cannot
 * hold (read as Infinity) is said so, never `null`.
 */
export function show(value: unknown, max = 400): string {
  return quoteValue(value, max);
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
      note: `body: ${boundedText(ex.text, 300)}`,
    });
  }
  if (ex.json === null || typeof ex.json !== 'object' || Array.isArray(ex.json)) {
    fail({
      message: 'the response body must be a JSON object',
      url: ex.url,
      field: 'body',
      expected: 'a JSON object',
      actual: ex.text.length > 300 ? `${ex.text.slice(0, 300)}…` : ex.text,
    });
  }
  return ex.json as Record<string, unknown>;
}
