import type { AnswerRule, RuleViolation } from '../../lib/answer-rules.ts';
import type { EndpointName } from '../../lib/dialects/types.ts';
import { boundedText, quoteValue, shownValue as boundedValue } from '../../lib/quote.ts';

/**
 * What the validating proxy (`store-listing-kit proxy`) found over a run: how many answers of the
 * four listings it checked, every violation counted, the first MAX_KEPT_VIOLATIONS kept whole, and
 * per listing and rule how often the rule held and was broken (the JUnit report's cases).
 * backend/check.ts records into it; the CLI reads it for its lines and reports.
 */

/** Violations kept whole; beyond, they are counted only (a run of hours must not grow without end). */
export const MAX_KEPT_VIOLATIONS = 10_000;
/** Example lines kept per listing and rule (the JUnit report shows these and the count). */
export const EXAMPLES_PER_RULE = 20;
/** A value from an answer is shown up to this many characters (a broken body can be megabytes). */
const MAX_SHOWN_VALUE = 200;
/** A text that may hold the answer's or the client's words (a request target, a field, a note, a message) up to this many. */
const MAX_SHOWN_TEXT = 2048;

/** The spec's section of each listing, as the kit names them in its output. */
export const LISTING_SECTIONS: Readonly<Record<EndpointName, string>> = { reviews: '4.1', productReviews: '4.2', wishlists: '4.3', wishlistItems: '4.4' };

/** One violation found, with the request whose answer broke the rule. */
export interface FoundViolation {
  method: string;
  /** The request target, path and query (the page arithmetic depends on the query). */
  path: string;
  endpoint: EndpointName;
  rule: AnswerRule;
  field?: string;
  message: string;
  /** JSON values (`shownValue`); `undefined` (an absent key) as '(absent)', long or deep values and numbers JSON cannot hold quoted. */
  expected: unknown;
  actual: unknown;
  note?: string;
}

/** One checked answer: what was asked, the rules the check applied to it, and what it broke. */
export interface CheckedAnswer {
  method: string;
  path: string;
  endpoint: EndpointName;
  /** The rules that were applied to this answer (those it did not break held). */
  applied: readonly AnswerRule[];
  violations: readonly RuleViolation[];
}

/** How one rule fared on one listing. */
export interface RuleTally {
  endpoint: EndpointName;
  rule: AnswerRule;
  /** Answers on which it held. */
  held: number;
  /** Violations of it (an answer may break a rule on several fields). */
  broken: number;
  /** The first EXAMPLES_PER_RULE violation lines. */
  examples: string[];
}

/**
 * A value as a report keeps it (lib/quote.ts `shownValue`, cut past MAX_SHOWN_VALUE characters):
 * `(absent)` for undefined, a JSON value that is small as it is, anything else quoted (a `Quoted`,
 * written to JSON as its text): a number JSON cannot hold named (`1e400`, never `null`), a deep or
 * large value cut, never a stack overflow.
 */
export function shownValue(value: unknown): unknown {
  return value === undefined ? '(absent)' : boundedValue(value, MAX_SHOWN_VALUE);
}

/** An expectation as printed: the rules' own words as they are (`at most 5`, printable), anything else quoted. */
const expectedText = (value: unknown) => (typeof value === 'string' ? boundedText(value, MAX_SHOWN_VALUE) : quoteValue(value, MAX_SHOWN_VALUE));
/** A value of the answer as printed: quoted (a string in quotes, escapes for what cannot be printed), `(absent)` for an absent key. */
const actualText = (value: unknown) => (value === '(absent)' ? value : quoteValue(value, MAX_SHOWN_VALUE));

/**
 * One line per violation, as the proxy prints it, always one line (every part printable: a key
 * name, id or request target holding a line break or an ANSI escape is shown escaped):
 * `violation: GET /store/products/reviews (4.1) echo-size-and-start: take expected 20, got 5 (asked for the default limit 20, the default offset 0)`.
 */
export function violationLine(v: FoundViolation): string {
  const where = boundedText(v.field ?? 'body', MAX_SHOWN_TEXT);
  const note = v.note ? ` (${boundedText(v.note, MAX_SHOWN_TEXT)})` : '';
  return `violation: ${v.method} ${boundedText(v.path, MAX_SHOWN_TEXT)} (${LISTING_SECTIONS[v.endpoint]}) ${v.rule}: ${where} expected ${expectedText(v.expected)}, got ${actualText(v.actual)}${note}`;
}

export class Verdicts {
  /** Answers checked. */
  checked = 0;
  /** Violations found, all of them counted. */
  violationCount = 0;
  /** The first MAX_KEPT_VIOLATIONS violations. */
  readonly violations: FoundViolation[] = [];
  readonly #tallies = new Map<string, RuleTally>();
  readonly #listeners: Array<(violation: FoundViolation) => void> = [];
  readonly #pending = new Set<Promise<unknown>>();

  constructor(private readonly maxKept = MAX_KEPT_VIOLATIONS) {}

  /** Called with each violation as it is found (the CLI prints its line). */
  onViolation(listener: (violation: FoundViolation) => void): void {
    this.#listeners.push(listener);
  }

  record(answer: CheckedAnswer): void {
    this.checked += 1;
    const broken = new Set<AnswerRule>();
    for (const violation of answer.violations) {
      broken.add(violation.rule);
      // Every text printable and bounded here, once: the lines, the JUnit examples, the JSON report and the listeners read these.
      const found: FoundViolation = {
        method: boundedText(answer.method, 32),
        path: boundedText(answer.path, MAX_SHOWN_TEXT),
        endpoint: answer.endpoint,
        rule: violation.rule,
        ...(violation.field === undefined ? {} : { field: boundedText(violation.field, MAX_SHOWN_TEXT) }),
        message: boundedText(violation.message, MAX_SHOWN_TEXT),
        expected: shownValue(violation.expected),
        actual: shownValue(violation.actual),
        ...(violation.note === undefined ? {} : { note: boundedText(violation.note, MAX_SHOWN_TEXT) }),
      };
      this.violationCount += 1;
      if (this.violations.length < this.maxKept) this.violations.push(found);
      const tally = this.#tally(answer.endpoint, violation.rule);
      tally.broken += 1;
      if (tally.examples.length < EXAMPLES_PER_RULE) tally.examples.push(violationLine(found));
      for (const listener of this.#listeners) listener(found);
    }
    for (const rule of answer.applied) if (!broken.has(rule)) this.#tally(answer.endpoint, rule).held += 1;
  }

  /** Keeps `check` (an answer being judged) in view until it settles: see `settled`. */
  track<T>(check: Promise<T>): Promise<T> {
    this.#pending.add(check);
    const forget = () => this.#pending.delete(check);
    check.then(forget, forget);
    return check;
  }

  /** Resolves once every answer being judged has its verdict (the server has stopped: none starts after). */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }

  /** How each rule fared on each listing it was applied to (or broken on). */
  tallies(): RuleTally[] {
    return [...this.#tallies.values()];
  }

  #tally(endpoint: EndpointName, rule: AnswerRule): RuleTally {
    const key = `${endpoint}\u0000${rule}`;
    let tally = this.#tallies.get(key);
    if (!tally) this.#tallies.set(key, (tally = { endpoint, rule, held: 0, broken: 0, examples: [] }));
    return tally;
  }
}
