/**
 * The rules that judge ONE listing answer from its own body and the request it answers: no
 * reference set, no second request, no fast-check. Each rule returns what it finds as
 * `RuleViolation[]` (empty when it holds) instead of throwing, so that a caller may stop at the
 * first (the property suite, properties/checks.ts and properties/catalog/alphabite.ts) or collect
 * them all (`checkListingAnswer`, for an answer seen once, as a validating proxy sees it).
 *
 * The rule ids are the property ids of `check` that judge the same thing, plus one rule of a
 * single answer only, `records-within-count`. Every expectation of the page arithmetic comes
 * from lib/paging.ts; the window a request asks for is read with the dialect's own reader.
 */
import { z } from 'zod';
import { askedAlphabiteWindow } from './dialects/alphabite.ts';
import { alphabiteRecordSchemas } from './dialects/alphabite-schemas.ts';
import { specDialect } from './dialects/spec.ts';
import type { DialectName, EndpointName } from './dialects/types.ts';
import { clampedPageNumbers, currentPage, pageLength, pageNumbers, totalPages } from './paging.ts';
import type { QueryPairs } from './query.ts';
import { quoteName, quoteValue } from './quote.ts';
import { recordSchemas } from './records.ts';

export const ANSWER_RULES = [
  // The spec dialect's envelopes.
  'envelope-shape',
  'echo-size-and-start',
  'page-length',
  'total-pages',
  'current-page',
  'next-and-prev-page',
  // The published plugins' envelopes (the alphabite dialect); `echo-size-and-start` is theirs too.
  'data-envelope',
  'clamped-page-numbers',
  // Both dialects.
  'record-shape',
  'records-within-count',
] as const;

/**
 * Rules of a checker that sees answers go by (the validating proxy, mock-server/backend/check.ts),
 * not of an answer's content: `checkListingAnswer` never returns them. `answer-too-large-to-check`:
 * the body (as received, or decompressed) is past the checker's cap, so it was not judged;
 * `answer-too-deep-to-check`: its arrays and objects nest deeper than the checker reads. Each a
 * violation all the same, so that a run whose answers could not be checked does not pass.
 */
export const CHECKER_RULES = ['answer-too-large-to-check', 'answer-too-deep-to-check'] as const;
export type AnswerRule = (typeof ANSWER_RULES)[number] | (typeof CHECKER_RULES)[number];

/** What one rule found wrong with an answer: the field, what the rule expects there and what came. */
export interface RuleViolation {
  rule: AnswerRule;
  /** One sentence: what the answer breaks. */
  message: string;
  /** A path into the body (`nextPage`, `data.length`, `data[3].rating`), or `Content-Type`. */
  field?: string;
  expected: unknown;
  actual: unknown;
  /** How the expectation was computed. */
  note?: string;
}

/** The verdict on one answer: the rules it broke (none: it held every rule checked). */
export interface AnswerCheck {
  violations: readonly RuleViolation[];
}

/** A listing answer and the request it answers. */
export interface ListingAnswer {
  endpoint: EndpointName;
  /** The path id: the product of 4.2, the wishlist of 4.4. */
  id?: string;
  /** The request's query, names and values decoded (lib/query.ts `queryPairs`). */
  query: QueryPairs;
  status: number;
  contentType?: string | null;
  /** The body, parsed from JSON. */
  body: unknown;
}

export interface AnswerCheckOptions {
  /** The spec dialect's other [kit] rules too (API.md; the records' shape is always judged), as `check --strict`. No effect on the alphabite dialect. */
  strict?: boolean;
}

/**
 * How the spec's rules read an envelope: its family (`reviews`: next/previous page `null` when
 * there is none; `wishlist`: absent), the keys that echo the page size and start, and the records'
 * key. The property suite's endpoints (properties/endpoints.ts) have this shape.
 */
export interface SpecEnvelopeKeys {
  dialect: 'reviews' | 'wishlist';
  sizeParam: 'limit' | 'take';
  startParam: 'offset' | 'skip';
  recordsKey: 'reviews' | 'data';
}

/** An envelope as read: the body, and its records array. */
export interface AnswerPage {
  body: Record<string, unknown>;
  records: unknown[];
}

/** The spec dialect's envelope keys of each listing (4.1 and 4.2 are reviews, 4.3 and 4.4 wishlists). */
export function specEnvelopeKeys(endpoint: EndpointName): SpecEnvelopeKeys {
  return endpoint === 'reviews' || endpoint === 'productReviews'
    ? { dialect: 'reviews', sizeParam: 'limit', startParam: 'offset', recordsKey: 'reviews' }
    : { dialect: 'wishlist', sizeParam: 'take', startParam: 'skip', recordsKey: 'data' };
}

const isInt = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

/**
 * The identity of a record: its `id` when it has one, else its whole JSON (its quote, cut far out,
 * when JSON.stringify cannot write it: a record nested deeper than the stack).
 */
export function recordKey(record: unknown): string {
  if (record && typeof record === 'object' && 'id' in record) {
    const id = (record as { id: unknown }).id;
    if (typeof id === 'string' || typeof id === 'number') return String(id);
  }
  try {
    return JSON.stringify(record) ?? quoteValue(record);
  } catch {
    return quoteValue(record, 100_000);
  }
}

// ---------------------------------------------------------------------------------------------
// The body: a JSON object that holds its records in an array.

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** How many of an envelope's keys a note names. */
const MAX_KEYS_NAMED = 20;

/** The records array of an envelope, or why there is none (under `rule`: the dialect's envelope rule). */
export function recordsPresent(rule: AnswerRule, recordsKey: string, body: Record<string, unknown>): unknown[] | RuleViolation {
  const records = body[recordsKey];
  if (Array.isArray(records)) return records;
  const keys = Object.keys(body);
  const array = keys.find((k) => Array.isArray(body[k]));
  // The body's own key names, each quoted when it is not a plain word (a name may hold a line break or an escape).
  const shown = keys.slice(0, MAX_KEYS_NAMED).map((k) => quoteName(k)).join(', ') + (keys.length > MAX_KEYS_NAMED ? `, ... (${keys.length - MAX_KEYS_NAMED} more)` : '');
  return {
    rule,
    message: `the envelope must hold the page in an array '${recordsKey}'`,
    field: recordsKey,
    expected: 'an array',
    actual: records,
    note: `keys: ${shown || '(none)'}${array !== undefined ? `; the records seem to be under '${quoteName(array)}'` : ''}`,
  };
}

/** The body as a page, or why it is none: it must be a JSON object with its records array. */
export function readAnswerPage(rule: AnswerRule, recordsKey: string, body: unknown): AnswerPage | RuleViolation {
  if (!isObject(body)) return { rule, message: 'the response body must be a JSON object', field: 'body', expected: 'a JSON object', actual: body };
  const records = recordsPresent(rule, recordsKey, body);
  return Array.isArray(records) ? { body, records } : records;
}

// ---------------------------------------------------------------------------------------------
// The spec dialect: envelope-shape, echo-size-and-start, page-length, total-pages, current-page,
// next-and-prev-page. Which parts apply without `strict` follows API.md's [spec] / [kit] marks.

/** A field that must be a non-negative integer for the arithmetic to mean anything. */
export function intFieldRule(rule: AnswerRule, field: string, value: unknown): RuleViolation | undefined {
  if (isInt(value)) return undefined;
  return { rule, message: `'${field}' must be a non-negative integer`, field, expected: 'a non-negative integer', actual: value };
}

export interface EchoedWindow {
  count: number;
  size: number;
  start: number;
}

/** count, size and start as echoed (API.md: the arithmetic uses the echoed values), or why they cannot be read. */
export function echoedWindow(rule: AnswerRule, keys: SpecEnvelopeKeys, page: AnswerPage): EchoedWindow | RuleViolation {
  const { body } = page;
  for (const [field, value] of [['count', body.count], [keys.sizeParam, body[keys.sizeParam]], [keys.startParam, body[keys.startParam]]] as const) {
    const broken = intFieldRule(rule, field, value);
    if (broken) return broken;
  }
  if (body[keys.sizeParam] === 0) {
    return { rule, message: `'${keys.sizeParam}' echoes the page size in force, which is at least 1`, field: keys.sizeParam, expected: '>= 1', actual: 0 };
  }
  return { count: body.count as number, size: body[keys.sizeParam] as number, start: body[keys.startParam] as number };
}

const isWindow = (w: EchoedWindow | RuleViolation): w is EchoedWindow => !('rule' in w);

/**
 * Envelope keys and JSON types for the family; null and absent are told apart exactly. `contentType`,
 * when given (null: the answer had none), must be JSON: a [kit] rule the pacts pin.
 */
export function envelopeShapeRule(keys: SpecEnvelopeKeys, page: AnswerPage, contentType?: string | null): RuleViolation[] {
  const rule = 'envelope-shape';
  const { body } = page;
  const out: RuleViolation[] = [];
  for (const key of ['count', keys.sizeParam, keys.startParam, 'totalPages', 'currentPage']) {
    if (!(key in body)) out.push({ rule, message: `the ${keys.dialect} envelope always has '${key}'`, field: key, expected: 'present', actual: undefined });
    else {
      const broken = intFieldRule(rule, key, body[key]);
      if (broken) out.push(broken);
    }
  }
  if (isInt(body.currentPage) && !(body.currentPage >= 1)) {
    out.push({ rule, message: `'currentPage' is 1-based`, field: 'currentPage', expected: '>= 1', actual: body.currentPage });
  }
  for (const key of ['nextPage', 'prevPage']) {
    const value = body[key];
    if (keys.dialect === 'reviews') {
      if (!(key in body)) {
        out.push({ rule, message: `the reviews envelope always has '${key}' (null when there is none)`, field: key, expected: 'an integer or null', actual: undefined });
      } else if (value !== null && !(isInt(value) && value >= 1)) {
        out.push({ rule, message: `'${key}' is a page number or null`, field: key, expected: 'an integer >= 1 or null', actual: value });
      }
    } else if (key in body) {
      if (value === null) {
        out.push({ rule, message: `in the wishlist envelope '${key}' is absent when there is none, never null`, field: key, expected: undefined, actual: null });
      } else if (!(isInt(value) && value >= 1)) {
        out.push({ rule, message: `'${key}' is a page number when present`, field: key, expected: 'an integer >= 1', actual: value });
      }
    }
  }
  if (contentType !== undefined && !/^application\/json\b/i.test(contentType ?? '')) {
    out.push({ rule, message: 'listings answer JSON', field: 'Content-Type', expected: 'application/json; charset=utf-8', actual: contentType ?? undefined });
  }
  return out;
}

/** The page size and start echoed are those in force (`size`, `start`), not the number of records returned. */
export function specEchoRule(keys: SpecEnvelopeKeys, page: AnswerPage, size: number | undefined, start: number | undefined): RuleViolation[] {
  const rule = 'echo-size-and-start';
  const { body } = page;
  const out: RuleViolation[] = [];
  if (size !== undefined && body[keys.sizeParam] !== size) {
    out.push({ rule, message: `'${keys.sizeParam}' echoes the page size in force, not the number of records returned`, field: keys.sizeParam, expected: size, actual: body[keys.sizeParam], note: `${page.records.length} records returned` });
  }
  if (start !== undefined && body[keys.startParam] !== start) {
    out.push({ rule, message: `'${keys.startParam}' echoes the start in force`, field: keys.startParam, expected: start, actual: body[keys.startParam] });
  }
  return out;
}

/** The page holds `pageLength(count, start, size)` records of the echoed window. */
export function pageLengthRule(keys: SpecEnvelopeKeys, page: AnswerPage): RuleViolation[] {
  const rule = 'page-length';
  const window = echoedWindow(rule, keys, page);
  if (!isWindow(window)) return [window];
  const { count, size, start } = window;
  const expected = pageLength(count, start, size);
  if (page.records.length === expected) return [];
  return [
    {
      rule,
      message: `the page holds records ${start + 1}…min(${start + size}, ${count}): its length is max(0, min(size, count - start))`,
      field: `${keys.recordsKey}.length`,
      expected,
      actual: page.records.length,
      note: `count ${count}, ${keys.startParam} ${start}, ${keys.sizeParam} ${size}`,
    },
  ];
}

/** totalPages = ceil(count / size), so 0 for an empty set (a [kit] rule the pacts pin: "when there are none"). */
export function totalPagesRule(keys: SpecEnvelopeKeys, page: AnswerPage): RuleViolation[] {
  const rule = 'total-pages';
  const window = echoedWindow(rule, keys, page);
  if (!isWindow(window)) return [window];
  const { count, size } = window;
  const expected = totalPages(count, size);
  if (page.body.totalPages === expected) return [];
  return [{ rule, message: 'totalPages = ceil(count / size)', field: 'totalPages', expected, actual: page.body.totalPages, note: `count ${count}, ${keys.sizeParam} ${size}` }];
}

/**
 * Whether the current/next/previous page numbers are judged without `strict` for this window: an
 * aligned start (the spec's, and past the end the kit's, which the pacts pin); an unaligned start's
 * page numbers are the kit's choice alone.
 */
const judgedWithoutStrict = (start: number, size: number) => start % size === 0;

export function currentPageRule(keys: SpecEnvelopeKeys, page: AnswerPage, strict: boolean): RuleViolation[] {
  const rule = 'current-page';
  const window = echoedWindow(rule, keys, page);
  if (!isWindow(window)) return [window];
  const { count, size, start } = window;
  if (!strict && !judgedWithoutStrict(start, size)) return [];
  const expected = currentPage(start, size);
  if (page.body.currentPage === expected) return [];
  return [{ rule, message: 'currentPage = floor(start / size) + 1 (1-based: start 0 is page 1)', field: 'currentPage', expected, actual: page.body.currentPage, note: `${keys.startParam} ${start}, ${keys.sizeParam} ${size}` }];
}

export function nextPrevRule(keys: SpecEnvelopeKeys, page: AnswerPage, strict: boolean): RuleViolation[] {
  const rule = 'next-and-prev-page';
  const window = echoedWindow(rule, keys, page);
  if (!isWindow(window)) return [window];
  const { count, size, start } = window;
  const expected = pageNumbers(count, start, size);
  const note = `count ${count}, ${keys.startParam} ${start}, ${keys.sizeParam} ${size}: totalPages ${expected.totalPages}, currentPage ${expected.currentPage}`;
  const out: RuleViolation[] = [];
  for (const key of ['nextPage', 'prevPage'] as const) {
    if (!strict && !judgedWithoutStrict(start, size)) continue;
    const want = expected[key];
    const says = key === 'nextPage' ? 'a next page exists iff currentPage < totalPages' : 'a previous page exists iff currentPage > 1';
    if (keys.dialect === 'reviews') {
      if (page.body[key] !== want) out.push({ rule, message: `${says}; none is null`, field: key, expected: want, actual: page.body[key], note });
    } else {
      const present = key in page.body;
      const actual = present ? page.body[key] : undefined;
      if (want === null ? present : actual !== want) out.push({ rule, message: `${says}; none is an absent key`, field: key, expected: want ?? undefined, actual, note });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The alphabite dialect (the published plugins): data-envelope, clamped-page-numbers, and the echo
// of the limit and offset in force.

/** The numbers of every plugin envelope: always present, never null (for a page size of at least 1). */
const PLUGIN_NUMBER_KEYS = ['count', 'take', 'skip', 'totalPages', 'currentPage', 'nextPage', 'prevPage'] as const;

/** The plugins' envelope: every number there, a number; count, take, skip, totalPages integers; take, totalPages and currentPage at least 1. */
export function dataEnvelopeRule(page: AnswerPage): RuleViolation[] {
  const rule = 'data-envelope';
  const { body } = page;
  const out: RuleViolation[] = [];
  for (const key of PLUGIN_NUMBER_KEYS) {
    const value = body[key];
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      out.push({ rule, message: `the plugins' envelope always has '${key}', a number (never null or absent when the page size is at least 1)`, field: key, expected: 'a number', actual: value });
    }
  }
  for (const key of ['count', 'take', 'skip', 'totalPages']) {
    const broken = intFieldRule(rule, key, body[key]);
    if (broken) out.push(broken);
  }
  const atLeastOne = (key: string) => typeof body[key] === 'number' && (body[key] as number) < 1;
  if (atLeastOne('take')) out.push({ rule, message: `'take' echoes the page size in force, at least 1`, field: 'take', expected: '>= 1', actual: body.take });
  if (atLeastOne('totalPages')) out.push({ rule, message: `'totalPages' is at least 1 (the plugins' rule: 1 for an empty set)`, field: 'totalPages', expected: '>= 1', actual: body.totalPages });
  if (atLeastOne('currentPage')) out.push({ rule, message: `'currentPage' is 1-based`, field: 'currentPage', expected: '>= 1', actual: body.currentPage });
  return out;
}

/** totalPages, currentPage, nextPage and prevPage as the plugins compute them from the echoed count, take and skip. */
export function clampedPagesRule(page: AnswerPage): RuleViolation[] {
  const rule = 'clamped-page-numbers';
  const { body } = page;
  for (const key of ['count', 'take', 'skip']) {
    const broken = intFieldRule(rule, key, body[key]);
    if (broken) return [broken];
  }
  const [count, take, skip] = [body.count as number, body.take as number, body.skip as number];
  if (take < 1) return [{ rule, message: `'take' echoes the page size in force, at least 1`, field: 'take', expected: '>= 1', actual: take }];
  const expected = clampedPageNumbers(count, skip, take);
  const out: RuleViolation[] = [];
  for (const key of ['totalPages', 'currentPage', 'nextPage', 'prevPage'] as const) {
    if (body[key] !== expected[key]) {
      out.push({ rule, message: `${key} as the plugins compute it (lib/paging.ts clampedPageNumbers)`, field: key, expected: expected[key], actual: body[key], note: `count ${count}, skip ${skip}, take ${take}` });
    }
  }
  return out;
}

/** `take` and `skip` echo the limit and offset in force (asked for, or the defaults 20 and 0). */
export function alphabiteEchoRule(page: AnswerPage, asked: { size: number; start: number }, note?: string): RuleViolation[] {
  const rule = 'echo-size-and-start';
  const out: RuleViolation[] = [];
  for (const [key, want] of [['take', asked.size], ['skip', asked.start]] as const) {
    if (page.body[key] !== want) {
      out.push({ rule, message: `'${key}' echoes the ${key === 'take' ? 'limit' : 'offset'} in force`, field: key, expected: want, actual: page.body[key], ...(note === undefined ? {} : { note }) });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Both dialects: record-shape, records-within-count.

/** The schema a record of this listing has in this dialect. */
export function recordSchemaOf(dialect: DialectName, endpoint: EndpointName): z.ZodType {
  const schemas = dialect === 'alphabite' ? alphabiteRecordSchemas : recordSchemas;
  return endpoint === 'reviews' || endpoint === 'productReviews' ? schemas.review : endpoint === 'wishlists' ? schemas.wishlist : schemas.item;
}

/** The first thing wrong with one record, `at` naming where it is (`data[3]`). */
export function recordShapeRule(schema: z.ZodType, record: unknown, at: string): RuleViolation | undefined {
  const parsed = schema.safeParse(record);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0]!;
  const path = issue.path.join('.');
  const actual = issue.path.reduce<unknown>((v, k) => (v as Record<PropertyKey, unknown> | undefined)?.[k as PropertyKey], record);
  return { rule: 'record-shape', message: `record ${recordLabel(record)}: ${issue.message}`, field: `${at}.${path}`, expected: issue.message, actual };
}

/** A record as a message names it: its id (quoted when not a plain word), else its start (never the whole record: it may be megabytes deep). */
function recordLabel(record: unknown): string {
  const id = record && typeof record === 'object' && 'id' in record ? (record as { id: unknown }).id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? quoteName(String(id), 80) : quoteValue(record, 80);
}

/** Every record of the page against the dialect's record schema, one violation per broken record. */
export function recordShapesRule(dialect: DialectName, endpoint: EndpointName, recordsKey: string, page: AnswerPage): RuleViolation[] {
  const schema = recordSchemaOf(dialect, endpoint);
  const out: RuleViolation[] = [];
  page.records.forEach((record, i) => {
    const broken = recordShapeRule(schema, record, `${recordsKey}[${i}]`);
    if (broken) out.push(broken);
  });
  return out;
}

/** The page and start a request asks for, as named by the dialect's parameters. */
export interface AskedWindow {
  size: number;
  start: number;
  /** Whether each was left out (the default is then in force). */
  sizeOmitted: boolean;
  startOmitted: boolean;
  /** The names the dialect pages this listing with. */
  sizeParam: string;
  startParam: string;
}

/** The spec dialect's reader, with no bound on the page size: the checker reads what was asked, a server may allow more. */
const SPEC_READER = specDialect({ maxPageSize: Number.MAX_SAFE_INTEGER });

/**
 * The window a request asks for, read with the dialect's own reader and its defaults (for the
 * plugins: Medusa's validation, `parseInt` semantics, also on 4.1, whose route then ignores it).
 * Undefined when the dialect refuses the request (a 200 to it is not judged by the window).
 */
export function askedWindow(dialect: DialectName, endpoint: EndpointName, query: QueryPairs, id?: string): AskedWindow | undefined {
  let window: { size: number; start: number } | undefined;
  let names: { size: string; start: string };
  if (dialect === 'alphabite') {
    window = askedAlphabiteWindow(endpoint, query);
    names = { size: 'limit', start: 'offset' };
  } else {
    const rules = SPEC_READER.endpoints[endpoint];
    const read = rules.read({ endpoint, ...(id === undefined ? {} : { id }), query, headers: {} });
    window = 'refusal' in read || read.window === 'all' ? undefined : read.window;
    names = rules.paging;
  }
  if (!window) return undefined;
  const given = (name: string) => query.some(([n]) => n === name || n.startsWith(`${name}[`) || n.startsWith(`${name}.`));
  return { size: window.size, start: window.start, sizeOmitted: !given(names.size), startOmitted: !given(names.start), sizeParam: names.size, startParam: names.start };
}

/** At most this many records for a page of `size` from `start` over `count`: lib/paging.ts `pageLength`, for any window. */
function mostRecords(count: number, start: number, size: number): number {
  if (size === 0) return 0; // a page of size 0 asks for none (the plugins take `limit=0`, docs/dialects.md row 6)
  // A start past the end, or a size beyond the set (also past 2^53 - 1), lists what the end of the set does.
  return pageLength(count, Math.min(start, count), Math.min(size, Math.max(count, 1)));
}

/**
 * The page holds at most `max(0, min(size, count - start))` records, by the answer's OWN count and
 * the window asked: one answer's form of `limit-offset-honoured` and `count-matches-records`. A count
 * that is not a non-negative integer is left to the envelope rules.
 */
export function recordsWithinCountRule(recordsKey: string, page: AnswerPage, asked: Pick<AskedWindow, 'size' | 'start' | 'sizeParam' | 'startParam'>): RuleViolation[] {
  const count = page.body.count;
  if (!isInt(count)) return [];
  const most = mostRecords(count, asked.start, asked.size);
  if (page.records.length <= most) return [];
  return [
    {
      rule: 'records-within-count',
      message: `a page holds at most max(0, min(${asked.sizeParam}, count - ${asked.startParam})) records, by the answer's own count and the window asked`,
      field: `${recordsKey}.length`,
      expected: `at most ${most}`,
      actual: page.records.length,
      note: `count ${count} answered; ${asked.sizeParam} ${asked.size}, ${asked.startParam} ${asked.start} in force`,
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// Every rule that applies, collected.

/** Drops a violation of a field already reported with the same message (rules that read the same broken number). */
function once(violations: RuleViolation[]): RuleViolation[] {
  const seen = new Set<string>();
  return violations.filter((v) => {
    const key = `${v.field ?? ''}\u0000${v.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The window a spec answer is held to: what was asked, a default left to the server included (the
 * reviews' limit 20 and offset 0 are [kit] rules the pacts pin). Undefined when the request is refused.
 */
function specHeldWindow(answer: ListingAnswer): { asked: AskedWindow; size: number; start: number } | undefined {
  const asked = askedWindow('spec', answer.endpoint, answer.query, answer.id);
  if (!asked) return undefined;
  return { asked, size: asked.size, start: asked.start };
}

function checkSpecAnswer(answer: ListingAnswer, strict: boolean): RuleViolation[] {
  const keys = specEnvelopeKeys(answer.endpoint);
  const page = readAnswerPage('envelope-shape', keys.recordsKey, answer.body);
  if ('rule' in page) return [page];
  const out = [
    ...envelopeShapeRule(keys, page, answer.contentType),
    ...pageLengthRule(keys, page),
    ...totalPagesRule(keys, page),
    ...currentPageRule(keys, page, strict),
    ...nextPrevRule(keys, page, strict),
  ];
  const held = specHeldWindow(answer);
  if (held) {
    const { asked, size, start } = held;
    out.push(...specEchoRule(keys, page, size, start), ...recordsWithinCountRule(keys.recordsKey, page, asked));
  }
  out.push(...recordShapesRule('spec', answer.endpoint, keys.recordsKey, page));
  return out;
}

function checkAlphabiteAnswer(answer: ListingAnswer): RuleViolation[] {
  const page = readAnswerPage('data-envelope', 'data', answer.body);
  if ('rule' in page) return [page];
  const out = [...dataEnvelopeRule(page), ...clampedPagesRule(page)];
  const asked = askedWindow('alphabite', answer.endpoint, answer.query, answer.id);
  if (asked) {
    const said = (omitted: boolean, name: string, value: number) => (omitted ? `the default ${name} ${value}` : `${name}=${value}`);
    const note = `asked for ${said(asked.sizeOmitted, 'limit', asked.size)}, ${said(asked.startOmitted, 'offset', asked.start)}`;
    out.push(...alphabiteEchoRule(page, asked, note), ...recordsWithinCountRule('data', page, asked));
  }
  out.push(...recordShapesRule('alphabite', answer.endpoint, 'data', page));
  return out;
}

/**
 * Every rule of the dialect that applies to one listing answer, all that it breaks (none when it
 * holds), each broken field once. Only a 200 is a listing page: another status is not judged here.
 * Spec dialect: the envelope, echo, page arithmetic and records-within-count rules ([spec]), the
 * records' shape (a [kit] rule the pacts pin), and with `strict` the other [kit] parts. Alphabite
 * dialect: the plugins' envelope and clamped page numbers, the echo of the limit/offset in force, records-within-count and the records'
 * shape as the plugins show them.
 */
export function checkListingAnswer(dialect: DialectName, answer: ListingAnswer, options: AnswerCheckOptions = {}): RuleViolation[] {
  if (answer.status !== 200) return [];
  return once(dialect === 'alphabite' ? checkAlphabiteAnswer(answer) : checkSpecAnswer(answer, options.strict ?? false));
}

/** Every rule `checkListingAnswer` may apply in a dialect (the records' shape in both: the pacts pin it). */
export function dialectRules(dialect: DialectName, options: AnswerCheckOptions = {}): AnswerRule[] {
  if (dialect === 'alphabite') return ['data-envelope', 'clamped-page-numbers', 'echo-size-and-start', 'records-within-count', 'record-shape'];
  return ['envelope-shape', 'echo-size-and-start', 'page-length', 'total-pages', 'current-page', 'next-and-prev-page', 'records-within-count', 'record-shape'];
}

/**
 * The rules `checkListingAnswer` applies to this answer (those it does not report held on it): none
 * for a status other than 200; only the dialect's envelope rule for a body that is no envelope (not
 * a JSON object with its records array); the echo and records-within-count only when the window
 * asked is known. What a report of many answers counts as "held on an answer".
 */
export function rulesApplied(dialect: DialectName, answer: ListingAnswer, options: AnswerCheckOptions = {}): AnswerRule[] {
  if (answer.status !== 200) return [];
  if (dialect === 'alphabite') {
    if ('rule' in readAnswerPage('data-envelope', 'data', answer.body)) return ['data-envelope'];
    const asked = askedWindow('alphabite', answer.endpoint, answer.query, answer.id) !== undefined;
    return ['data-envelope', 'clamped-page-numbers', ...(asked ? (['echo-size-and-start', 'records-within-count'] as const) : []), 'record-shape'];
  }
  if ('rule' in readAnswerPage('envelope-shape', specEnvelopeKeys(answer.endpoint).recordsKey, answer.body)) return ['envelope-shape'];
  const held = specHeldWindow(answer) !== undefined;
  return [
    'envelope-shape',
    'page-length',
    'total-pages',
    'current-page',
    'next-and-prev-page',
    ...(held ? (['echo-size-and-start', 'records-within-count'] as const) : []),
    'record-shape',
  ];
}
