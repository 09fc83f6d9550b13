/**
 * Verdicts that cannot be lost or forged (issue 35, item 3): every value a verdict quotes is made
 * printable and bounded by lib/quote.ts, with no recursion that can throw; a deep answer is judged,
 * and one too deep for the validating proxy breaks `answer-too-deep-to-check`; one violation is one
 * line; a number JSON.parse reads as Infinity is named as such (`1e400`), never `null`.
 */
import { describe, expect, it } from 'vitest';
import { checkListingAnswer, recordKey, type AnswerCheck, type RuleViolation } from '../lib/answer-rules.ts';
import { jsonTextFacts } from '../lib/json-text.ts';
import { boundedText, numberJsonCannotHold, printable, printableJson, Quoted, quoteArgument, quoteText, quoteValue, shownValue } from '../lib/quote.ts';
import { medusaVersionProblem } from '../lib/dialects/medusa-behaviour.ts';
import { describeIssue } from '../lib/zod-issues.ts';
import { describeAnswer } from '../lib/http.ts';
import { answerChecker, MAX_CHECKED_DEPTH } from '../mock-server/backend/check.ts';
import type { BackendExchange } from '../mock-server/backend/hooks.ts';
import { Verdicts, violationLine } from '../mock-server/backend/verdicts.ts';
import { Journal, type RecordedRequest } from '../mock-server/journal/journal.ts';
import { z } from 'zod';
import { failureText, jsonReport } from '../properties/report.ts';
import type { CheckReport, PropertyResult } from '../properties/runner.ts';
import { describeViolation } from '../properties/violation.ts';
import { describeMismatch } from '../contracts/outcomes.ts';
import { dashboardPage } from '../mock-server/admin/dashboard-page.ts';

/** `depth` arrays, one in the other: `[[[...]]]`. */
const deepArray = (depth: number): unknown => {
  let v: unknown[] = [];
  for (let i = 1; i < depth; i++) v = [v];
  return v;
};
const deepArrayText = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
/** Whatever a terminal would act on, or that would break a line. */
const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
const FORGED = 'dat\nchecked 0 answers of the four listings: 0 violations\n\u001b[2K\u001b[31m\u202e';

/** A correct alphabite page of 4.1 (no records), with `patch` over it. */
const alphabitePage = (patch: Record<string, unknown> = {}) => ({ data: [], count: 0, take: 20, skip: 0, totalPages: 1, currentPage: 1, nextPage: 1, prevPage: 1, ...patch });

describe('lib/quote.ts: printable, bounded, iterative', () => {
  it('escapes line breaks, ANSI escapes, C1, bidi and zero-width characters and lone surrogates; leaves the rest', () => {
    expect(printable('a\nb\r\tc\u001b[31m\u009b\u202e\u2066\u200b\ufeff\u2028\ud800é😀')).toBe('a\\nb\\r\\tc\\u001b[31m\\u009b\\u202e\\u2066\\u200b\\ufeff\\u2028\\ud800é😀');
    expect(quoteText('say "hi"\\\n')).toBe('"say \\"hi\\"\\\\\\n"');
    expect(boundedText('x'.repeat(250))).toBe(`${'x'.repeat(200)}… (50 more characters)`);
    expect(quoteText('\u{e0001}')).toBe('"\\udb40\\udc01"');
    for (const text of [printable(FORGED), quoteText(FORGED), boundedText(FORGED, 10), quoteValue({ [FORGED]: FORGED })]) expect(text).not.toMatch(UNSAFE);
  });

  it('quoteArgument: a typed value as typed when plain, else escaped and cut (the CLI, medusaVersion)', () => {
    expect(quoteArgument('70000')).toBe("'70000'");
    expect(quoteArgument('7\u001b[31m\n')).toBe('"7\\u001b[31m\\n"');
    expect(quoteArgument('9'.repeat(100), 10)).toBe('"9999999999"… (90 more characters)');
    expect(medusaVersionProblem('2.99.0')).toMatch(/, got '2\.99\.0'$/);
    expect(medusaVersionProblem(`2.1\n${'x'.repeat(1000)}`)).toMatch(/, got "2\.1\\nx{36}"… \(964 more characters\)$/);
  });

  it('quotes a value of any depth or size, and a cycle, within the bound and without throwing', () => {
    for (const depth of [5000, 100_000]) {
      const text = quoteValue(deepArray(depth));
      expect(text).toBe(`${'['.repeat(200)}…`);
      let object: unknown = {};
      for (let i = 0; i < depth; i++) object = { a: object };
      expect(quoteValue(object, 50)).toHaveLength(51);
    }
    const cycle: Record<string, unknown> = { name: 'loop' };
    cycle.self = cycle;
    expect(quoteValue(cycle, 60)).toBe('{"name":"loop","self":{"name":"loop","self":{"name":"loop","…');
    expect(quoteValue('x'.repeat(1_000_000), 10)).toBe('"xxxxxxxxx…');
    expect(quoteValue({ a: [1, 'b', null, true], c: undefined })).toBe('{"a":[1,"b",null,true],"c":(absent)}');
    expect(quoteValue(undefined)).toBe('(absent)');
  });

  it('shownValue keeps a small JSON value as it is, and quotes a deep, long or non-JSON one (its JSON is its quote)', () => {
    expect(shownValue({ a: [1, 2] })).toEqual({ a: [1, 2] });
    expect(shownValue('short')).toBe('short');
    expect(shownValue('x'.repeat(300))).toBe(`${'x'.repeat(200)}… (100 more characters)`);
    const deep = shownValue(deepArray(5000));
    expect(deep).toBeInstanceOf(Quoted);
    expect(JSON.stringify(deep)).toBe(JSON.stringify(`${'['.repeat(200)}…`));
    expect(JSON.stringify({ v: shownValue(Number.POSITIVE_INFINITY) })).toBe('{"v":"a number, a number JSON cannot hold (read as Infinity)"}');
    expect(JSON.stringify(shownValue({ n: Number.NEGATIVE_INFINITY }))).toBe('"{\\"n\\":a negative number, a number JSON cannot hold (read as -Infinity)}"');
  });

  it('numberJsonCannotHold names the lexeme of the body when it is the only one of its sign', () => {
    expect(numberJsonCannotHold(Number.POSITIVE_INFINITY, ['1e400']).text).toBe('1e400, a number JSON cannot hold (read as Infinity)');
    expect(numberJsonCannotHold(Number.NEGATIVE_INFINITY, ['1e400', '-2E999']).text).toBe('-2E999, a number JSON cannot hold (read as -Infinity)');
    expect(numberJsonCannotHold(Number.POSITIVE_INFINITY, ['1e400', '9e999']).text).toBe('one of 1e400, 9e999, a number JSON cannot hold (read as Infinity)');
  });

  it('printableJson escapes what JSON.stringify leaves raw, and the JSON means the same', () => {
    const value = { key: '\u202e\u0085\u2028\u007f\n' };
    const json = printableJson(JSON.stringify(value, null, 2));
    expect(json).not.toMatch(/[\u007f-\u009f\u202e\u2028]/u);
    expect(JSON.parse(json)).toEqual(value);
  });
});

describe('lib/json-text.ts', () => {
  it('measures the nesting, brackets and quotes inside strings aside, and stops past the bound', () => {
    expect(jsonTextFacts('1').depth).toBe(0);
    expect(jsonTextFacts('{"a":[{}],"b":"[[[\\"[["}').depth).toBe(3);
    expect(jsonTextFacts(deepArrayText(5000)).depth).toBe(5000);
    expect(jsonTextFacts(deepArrayText(5000), 256).depth).toBe(257);
  });

  it('finds the numbers a double cannot hold, in strings not', () => {
    expect(jsonTextFacts('{"count":1e400,"s":"2e999","t":-1E+309,"u":1e308,"v":1.5e-400}').hugeNumbers).toEqual(['1e400', '-1E+309']);
    expect(jsonTextFacts(`[${'9'.repeat(400)}]`).hugeNumbers).toEqual(['9'.repeat(400)]);
  });
});

describe('the rules judge a deep answer (lib/answer-rules.ts)', () => {
  it('a record with a 5000-deep value and no id breaks record-shape, quoted within bounds', () => {
    const body = alphabitePage({ count: 1, data: [{ rating: deepArray(5000) }] });
    const violations = checkListingAnswer('alphabite', { endpoint: 'reviews', query: [], status: 200, body });
    const shape = violations.filter((v) => v.rule === 'record-shape');
    expect(shape).toHaveLength(1);
    expect(shape[0]!.message.length).toBeLessThan(300);
  });

  it('recordKey, the identity the property suite compares records by, does not throw on a deep record without an id', () => {
    expect(recordKey({ rating: deepArray(100_000) })).toMatch(/^\{"rating":\[\[\[/);
    expect(recordKey({ id: 'rev_1', rating: deepArray(100_000) })).toBe('rev_1');
    expect(recordKey({ a: 1 })).toBe('{"a":1}');
  });

  it("a body's key names are quoted in the note, so they cannot break the line", () => {
    const body = { [FORGED]: [], count: 0 };
    const [violation] = checkListingAnswer('alphabite', { endpoint: 'reviews', query: [], status: 200, body });
    expect(violation).toMatchObject({ rule: 'data-envelope', field: 'data' });
    expect(violation!.note).toBe(`keys: ${quoteText(FORGED, 64)}, count; the records seem to be under '${quoteText(FORGED, 64)}'`);
    expect(violation!.note).not.toMatch(UNSAFE);
  });
});

describe('a verdict quotes printable and bounded values (verdicts.ts, zod-issues.ts, http.ts)', () => {
  const found = (patch: Partial<RuleViolation>) => {
    const verdicts = new Verdicts();
    const violation: RuleViolation = { rule: 'data-envelope', message: 'm', field: 'count', expected: 'a number', actual: 1, ...patch };
    verdicts.record({ method: 'GET', path: '/store/products/reviews', endpoint: 'reviews', applied: ['data-envelope'], violations: [violation] });
    return verdicts.violations[0]!;
  };

  it('one violation is one line, whatever its field, message, note, path or values hold', () => {
    const verdicts = new Verdicts();
    verdicts.record({
      method: 'GET',
      path: `/store/products/reviews?x=${FORGED}`,
      endpoint: 'reviews',
      applied: ['data-envelope'],
      violations: [{ rule: 'data-envelope', message: FORGED, field: FORGED, expected: FORGED, actual: { [FORGED]: FORGED }, note: FORGED }],
    });
    const line = violationLine(verdicts.violations[0]!);
    expect(line).not.toMatch(UNSAFE);
    expect(line.split('\n')).toHaveLength(1);
    expect(verdicts.tallies()[0]!.examples[0]).toBe(line);
  });

  it('a deep actual value is recorded, quoted and cut, not lost to a stack overflow', () => {
    const v = found({ actual: deepArray(5000) });
    expect(violationLine(v)).toBe(`violation: GET /store/products/reviews (4.1) data-envelope: count expected a number, got ${'['.repeat(200)}…`);
    expect(JSON.parse(JSON.stringify(v.actual))).toBe(`${'['.repeat(200)}…`);
  });

  it('a number JSON cannot hold is said so, never "got null"', () => {
    const v = found({ actual: Number.POSITIVE_INFINITY });
    expect(violationLine(v)).toBe('violation: GET /store/products/reviews (4.1) data-envelope: count expected a number, got a number, a number JSON cannot hold (read as Infinity)');
    expect(JSON.stringify(v.actual)).not.toBe('null');
  });

  it('zod-issues quotes the offending value and unknown keys printable and bounded, at any depth', () => {
    const deep = { a: deepArray(5000) };
    const issue = z.object({ a: z.string() }).safeParse(deep).error!.issues[0]!;
    expect(describeIssue(issue, deep)).toBe(`field 'a': Invalid input: expected string, received array (got ${'['.repeat(80)}…)`);
    const strict = z.strictObject({}).safeParse({ [FORGED]: 1 }).error!.issues[0]!;
    expect(describeIssue(strict, { [FORGED]: 1 })).not.toMatch(UNSAFE);
    const value = z.object({ a: z.number() }).safeParse({ a: FORGED }).error!.issues[0]!;
    expect(describeIssue(value, { a: FORGED })).not.toMatch(UNSAFE);
  });

  it('describeAnswer quotes the start of a body printable', () => {
    const text = describeAnswer({ url: 'http://x/', status: 200, contentType: `text/plain${FORGED}`, text: FORGED, json: undefined });
    expect(text).not.toMatch(UNSAFE);
  });
});

describe("the validating proxy's checker on hostile bodies (mock-server/backend/check.ts)", () => {
  const exchange = (url: string): BackendExchange => ({ method: 'GET', url, requestHeaders: {}, status: 200, responseHeaders: { 'content-type': 'application/json' }, backendMs: 1 });
  async function judged(body: string): Promise<{ check: AnswerCheck | undefined; verdicts: Verdicts; lines: string[] }> {
    const verdicts = new Verdicts();
    const lines: string[] = [];
    verdicts.onViolation((v) => lines.push(violationLine(v)));
    const sink = answerChecker({ dialect: 'alphabite', verdicts })(exchange('/store/products/reviews'))!;
    sink.write(Buffer.from(body));
    const check = await sink.end();
    return { check, verdicts, lines };
  }
  const page = (patch: Record<string, unknown>) => JSON.stringify(alphabitePage(patch));
  const record = { id: 'rev_1', product_id: 'prod_1', customer_id: 'cus_1', title: 't', content: 'c', rating: 5, created_at: '2024-01-01T00:00:00.000Z', updated_at: '2024-01-01T00:00:00.000Z' };

  it('a 5000-deep array as the whole body breaks answer-too-deep-to-check: counted, never passed', async () => {
    const { check, verdicts, lines } = await judged(deepArrayText(5000));
    expect(check!.violations.map((v) => v.rule)).toEqual(['answer-too-deep-to-check']);
    expect(verdicts).toMatchObject({ checked: 1, violationCount: 1 });
    expect(lines).toEqual([`violation: GET /store/products/reviews (4.1) answer-too-deep-to-check: body expected at most ${MAX_CHECKED_DEPTH} levels of nesting, got "more than ${MAX_CHECKED_DEPTH} levels"`]);
  });

  it('a 5000-deep value in a record breaks answer-too-deep-to-check', async () => {
    const body = page({ count: 1, data: [{ ...record, rating: 0 }] }).replace('"rating":0', `"rating":${deepArrayText(5000)}`);
    const { check, verdicts } = await judged(body);
    expect(check!.violations.map((v) => v.rule)).toEqual(['answer-too-deep-to-check']);
    expect(verdicts.checked).toBe(1);
  });

  it('a deep value within the cap is judged: the record breaks record-shape, its value quoted and cut', async () => {
    const body = page({ count: 1, data: [{ ...record, rating: 0 }] }).replace('"rating":0', `"rating":${deepArrayText(MAX_CHECKED_DEPTH - 3)}`);
    const { check, lines } = await judged(body);
    expect(check!.violations.map((v) => v.rule)).toEqual(['record-shape']);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`got ${'['.repeat(200)}…`);
  });

  it('key names with line breaks and ANSI escapes: one violation, one line, no forged closing line', async () => {
    const { lines } = await judged(JSON.stringify({ ...alphabitePage(), data: undefined, [FORGED]: [] }));
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toMatch(UNSAFE);
    expect(lines[0]).toContain('\\nchecked 0 answers of the four listings: 0 violations\\n\\u001b[2K');
  });

  it('count: 1e400 is named as a number JSON cannot hold, not as null', async () => {
    const { check, lines } = await judged(page({ count: 0 }).replace('"count":0', '"count":1e400'));
    expect(lines).toContain('violation: GET /store/products/reviews (4.1) data-envelope: count expected a number, got 1e400, a number JSON cannot hold (read as Infinity)');
    for (const line of lines) expect(line).not.toContain('got null');
    expect(JSON.stringify(check)).toContain('"actual":"1e400, a number JSON cannot hold (read as Infinity)"');
  });

  it("the journal keeps a deep verdict's values cut, without throwing", () => {
    const journal = new Journal({ capacity: 1 });
    const violations: RuleViolation[] = [{ rule: 'data-envelope', message: FORGED, field: FORGED, expected: 'a JSON object', actual: deepArray(5000), note: FORGED }];
    const entry: RecordedRequest = { method: 'GET', url: '/store/products/reviews', status: 200, arrivedMs: 0, durationMs: 1, requestHeaders: [], answeredBy: 'backend', backend: { ms: 1 }, check: { violations } };
    journal.record(entry);
    const [kept] = journal.entries()[0]!.check!.violations;
    expect(kept!.actual).toBe(`${'['.repeat(1024)}…`);
    expect(JSON.stringify(kept)).not.toMatch(UNSAFE);
  });
});

describe("check's failures quote the answer's values printable and bounded (properties/report.ts, violation.ts)", () => {
  const result = (violation: PropertyResult['violation']): PropertyResult => ({
    property: 'record-shape',
    title: 'records have the shape',
    rule: 'spec',
    endpoint: 'reviews',
    section: '4.1',
    path: '/store/products/reviews',
    status: 'failed',
    runs: 1,
    shrinks: 0,
    seed: 1,
    requests: 1,
    durationMs: 1,
    ...(violation ? { violation } : {}),
  });
  const report = (r: PropertyResult): CheckReport => ({ baseUrl: 'http://x', seed: 1, dialect: 'spec', strict: false, runs: 1, maxPageSize: 50, endpoints: ['reviews'], headers: {}, results: [r], notes: [], requests: 1, durationMs: 1, passed: false, replay: 'x' });

  it('a deep actual value, a forged id and a number JSON cannot hold: each line one line, the report written', () => {
    const hostile = result({ message: `record ${FORGED}: Required`, url: `/store/products/reviews?x=${FORGED}`, field: `reviews[0].${FORGED}`, expected: Number.POSITIVE_INFINITY, actual: deepArray(5000), note: `one\n${FORGED}` });
    const text = failureText(hostile);
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/u);
    expect(text).toContain(`  actual:   ${'['.repeat(400)}…`);
    expect(text).toContain('  expected: a number, a number JSON cannot hold (read as Infinity)');
    expect(text.split('\n').filter((line) => !line.startsWith('  ') && line !== '')).toEqual(['FAILED record-shape on 4.1 /store/products/reviews [spec]']);
    expect(describeViolation(hostile.violation!)).not.toMatch(/[\u001b\u202e]/u);
    const json = jsonReport(report(hostile));
    expect(json).not.toMatch(/[\u007f-\u009f\u202e]/u);
    const written = JSON.parse(json) as { results: Array<{ violation: { actual: unknown; expected: unknown }; actualText: string }> };
    expect(written.results[0]!.violation.actual).toBe(`${'['.repeat(200)}…`);
    expect(written.results[0]!.violation.expected).toBe('a number, a number JSON cannot hold (read as Infinity)');
  });
});

describe("verify's mismatches quote the provider's values printable (contracts/outcomes.ts)", () => {
  it("a provider's value with line breaks and escapes stays on the mismatch's line; a deep one is cut, not thrown", () => {
    const forged = describeMismatch({ type: 'BodyMismatch', path: '$.data[0].title', expected: 'x', actual: FORGED, mismatch: `Expected '${FORGED}' to be equal to 'x'` });
    expect(forged).not.toMatch(UNSAFE);
    expect(forged.startsWith('BodyMismatch $.data[0].title: expected ')).toBe(true);
    const deep = describeMismatch({ type: 'BodyMismatch', path: '$', detail: deepArray(5000) });
    expect(deep).toMatch(/^BodyMismatch \$: \{"type":"BodyMismatch","path":"\$","detail":\[\[\[/);
    expect(deep.length).toBeLessThan(5000);
  });
});

describe("the dashboard shows a verdict's values printable (mock-server/admin/dashboard-page.ts)", () => {
  it('escapes the bidi, zero-width and C1 characters JSON leaves raw; the page script still compiles', () => {
    const { html } = dashboardPage();
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
    expect(() => new Function(script)).not.toThrow();
    const source = /function shownValue\(violation, name\) \{[\s\S]*?\n {2}\}\n/.exec(script)![0];
    const shownValue = new Function(`${source}; return shownValue;`)() as (v: object, name: string) => string;
    expect(shownValue({ actual: 'a\u202eb\u0085\n' }, 'actual')).toBe('"a\\u202eb\\u0085\\n"');
    expect(shownValue({}, 'actual')).toBe('(absent)');
  });
});
