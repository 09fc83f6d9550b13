import type { OutgoingHttpHeaders } from 'node:http';
import { customerOf } from '../../lib/customers.ts';
import { queryPairs, type QueryPairs } from '../../lib/query.ts';
import type { PageFacts } from '../../lib/dialects/types.ts';
import type { AnswerCheck, RuleViolation } from '../../lib/answer-rules.ts';
import { boundedText, Quoted, quoteValue, shownValue as boundedValue } from '../../lib/quote.ts';

/**
 * One request of the journal (journal.ts): what is kept when it is answered, and what the admin
 * API shows of it. Recording keeps references to what the server already made (the raw headers
 * Node parsed, the answer's bytes, the page facts of the listing code) and copies only what is
 * too large to keep whole; strings, redaction, the query and the customer are made when the
 * journal is read, so a request pays for none of it.
 */

/** The URL as journaled: longer ones are cut (and end in `...`). */
export const MAX_JOURNAL_URL = 2048;
/**
 * Request headers kept per entry, in bytes (each name and value counts its characters and
 * HEADER_OVERHEAD): beyond, the rest is cut (`headersCut`).
 */
export const MAX_JOURNAL_HEAD = 4096;
/** An answer's headers kept per entry, counted the same way (the mock's own are a few hundred bytes). */
export const MAX_JOURNAL_ANSWER_HEAD = 2048;
/** What a header string costs besides its characters (V8's string and array slot), roughly. */
const HEADER_OVERHEAD = 24;
/** What replaces the value of a header that carries a secret. */
export const REDACTED = '[redacted]';
/** Headers whose values are never shown (with the admin token's, when the server has one). */
export const REDACTED_HEADERS: ReadonlySet<string> = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

/** What is recorded per request (references, see above). */
export interface RecordedRequest {
  /** When the request arrived (epoch milliseconds). */
  arrivedMs: number;
  method: string;
  /** The request target as received (cut to MAX_JOURNAL_URL). */
  url: string;
  status: number;
  /** From arrival to the end of the answer, in milliseconds (0.1 ms precision). */
  durationMs: number;
  /** Names and values alternating, as Node parsed them (`req.rawHeaders`), cut to MAX_JOURNAL_HEAD. */
  requestHeaders?: readonly string[];
  headersCut?: boolean;
  /** The customer, decided when recorded only when the headers were cut (else when read, from them). */
  customer?: string | null;
  /** The request's parsed body (non-GET requests with a JSON body), as text, bounded like the answer's. */
  requestBody?: KeptBody;
  /** The answer's headers: names and values alternating, or as `res.getHeaders()` gave them. */
  responseHeaders?: readonly unknown[] | OutgoingHttpHeaders;
  responseBody?: KeptBody;
  /** A listing answer's: what its page numbers were made from (listings/page-bodies.ts). */
  page?: PageFacts | undefined;
  /** Set when the backend answered (`serve --backend`, `proxy`): absent, the mock did. */
  answeredBy?: 'backend';
  /** The backend's part: from the request sent to its answer's head (ms), or why it failed. */
  backend?: { ms: number; error?: string };
  /** The validating proxy's verdict on a listing answer it checked (backend/check.ts). */
  check?: AnswerCheck;
}

/** A body as kept: its first bytes (at most the journal's cap) and its whole length. */
export interface KeptBody {
  bytes: Buffer | string;
  length: number;
}

/** A body as the journal shows it. */
export interface BodyView {
  /** The kept bytes as UTF-8 text. */
  text: string;
  /** The whole body's length in bytes. */
  bytes: number;
  /** True when `text` is only the first part of the body (the journal's body cap). */
  truncated: boolean;
}

/** The page arithmetic of a listing answer, as the dialect's rule made it (lib/paging.ts). */
export interface PageView {
  /** The lib/paging.ts rule the dialect used, and what it computes. */
  rule: string;
  formula: string;
  /** Records that matched the request (before paging). */
  matching: number;
  /** The page size and start the records were listed with; null when the listing ignores paging (all records). */
  size: number | null;
  start: number | null;
  /** As the answer's envelope carries them (null: absent, or not a finite number). */
  count: number | null;
  totalPages: number | null;
  currentPage: number | null;
  nextPage: number | null;
  prevPage: number | null;
}

/**
 * Headers by lower-case name. An object without a prototype: names are the client's, and one
 * such as `__proto__`, `constructor` or `toString` is an own key like any other (a plain `{}`
 * would lose it, or read Object.prototype's). JSON.stringify writes it, and JSON.parse gives it
 * back as an own property.
 */
export type HeaderView = Record<string, string | string[]>;

/** Who answered a request: the mock itself, or the backend it passed the request to (`serve --backend`, `proxy`). */
export type AnsweredBy = 'mock' | 'backend';

/** A passed-through request's backend part, as the journal shows it. */
export interface BackendView {
  /** From the request sent to the backend to its answer's head, in milliseconds (0.1 ms precision). */
  ms: number;
  /** Why the backend gave no answer (unreachable, timed out, cut off), or null. */
  error: string | null;
}

/**
 * A text of a broken rule (message, field, note), or the quote of its expected or actual value,
 * longer than this many characters is kept as its first ones, printable (lib/quote.ts), ending in
 * `… (N more characters)` (a text) or `…` (a value's quote).
 */
export const MAX_VIOLATION_VALUE = 1024;
/** What a kept violation costs besides its texts and values (its object, the strings' headers), roughly. */
const VIOLATION_OVERHEAD = 128;

/** One rule a checked answer broke (lib/answer-rules.ts `RuleViolation`), as the journal shows it. */
export interface ViolationView {
  rule: string;
  message: string;
  /** Where in the answer (`nextPage`, `data[3].rating`, `Content-Type`), or null. */
  field: string | null;
  /**
   * What the rule expects there and what the answer holds, as JSON values. A key left out means
   * absent: `expected` missing, the field must be absent; `actual` missing, it was.
   */
  expected?: unknown;
  actual?: unknown;
  /** How the expectation was computed, or null. */
  note: string | null;
}

/** The validating proxy's verdict on an answer it checked: `violations` empty when it held every rule. */
export interface CheckView {
  checked: true;
  /** How many rules the answer broke (one per broken record for `record-shape`). */
  found: number;
  /** The first of them, as many as the journal keeps (see `keptCheck`): all, but for a very broken answer. */
  violations: ViolationView[];
}

/** A check as the journal keeps it (`keptCheck`): its first violations, cut, and how many there were. */
export interface KeptCheck extends AnswerCheck {
  found: number;
}

/** One request as `GET /__admin/journal` shows it. */
export interface JournalEntry {
  /** Its number in the journal of the process that answered it (from 1; never reused, not even after a clear). */
  seq: number;
  /** The worker's pid, with --workers. */
  worker?: number;
  /** When the request arrived (ISO-8601). */
  time: string;
  method: string;
  url: string;
  status: number;
  durationMs: number;
  path: string;
  query: QueryPairs;
  /** Who sent it (lib/customers.ts: bearer token or session cookie), by id; null when nobody. */
  customer: string | null;
  request: { headers: HeaderView; headersCut: boolean; body: BodyView | null };
  response: { headers: HeaderView; body: BodyView | null };
  page: PageView | null;
  /** Who answered: the mock, or the backend (then `backend` says how long it took, or why it failed). */
  answeredBy: AnsweredBy;
  backend: BackendView | null;
  /** For an answer the validating proxy checked, what it found; null when unchecked. */
  check: CheckView | null;
}

/** `url` as journaled. */
export function journalUrl(url: string): string {
  return url.length > MAX_JOURNAL_URL ? `${url.slice(0, MAX_JOURNAL_URL)}...` : url;
}

/**
 * The raw headers to keep: the array itself when within `cap` (MAX_JOURNAL_HEAD for a request's; the
 * common case: no copy), else a cut copy.
 */
export function keptHead(raw: string[], cap: number = MAX_JOURNAL_HEAD): string[] {
  let size = 0;
  for (let i = 0; i < raw.length; i++) size += (raw[i] as string).length + HEADER_OVERHEAD;
  if (size <= cap) return raw;
  const kept: string[] = [];
  size = 0;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const pair = (raw[i] as string).length + (raw[i + 1] as string).length + 2 * HEADER_OVERHEAD;
    if (size + pair > cap) break;
    kept.push(raw[i] as string, raw[i + 1] as string);
    size += pair;
  }
  return kept;
}

/**
 * An answer's headers set through Express (`res.getHeaders()`, an object made for this call): kept
 * as they are when they fit MAX_JOURNAL_ANSWER_HEAD (the mock's own always do), else their first
 * names and values alternating, cut there. Flattening them for every answer cost an array per request.
 */
export function keptAnswerHead(headers: OutgoingHttpHeaders): OutgoingHttpHeaders | unknown[] {
  let size = 0;
  for (const name in headers) {
    size += name.length + String(headers[name]).length + 2 * HEADER_OVERHEAD;
    if (size > MAX_JOURNAL_ANSWER_HEAD) return flatHeaders(headers);
  }
  return headers;
}

/** An answer's headers set through Express, names and values alternating, cut to MAX_JOURNAL_ANSWER_HEAD. */
export function flatHeaders(headers: OutgoingHttpHeaders): unknown[] {
  const flat: unknown[] = [];
  let size = 0;
  for (const name in headers) {
    const value = headers[name];
    size += name.length + String(value).length + 2 * HEADER_OVERHEAD;
    if (size > MAX_JOURNAL_ANSWER_HEAD) break;
    flat.push(name, value);
  }
  return flat;
}

/** The first `cap` bytes of a body (the bytes themselves when they fit: a reference, no copy). */
export function keptBody(chunk: Buffer | string, cap: number): KeptBody {
  if (typeof chunk === 'string') {
    const length = Buffer.byteLength(chunk);
    if (length <= cap) return { bytes: chunk, length };
    const cut = Buffer.from(chunk.slice(0, cap));
    return { bytes: cut.length <= cap ? cut : Buffer.from(cut.subarray(0, cap)), length };
  }
  // A view of a larger buffer would keep all of it alive: what is cut is copied.
  return { bytes: chunk.length <= cap ? chunk : Buffer.from(chunk.subarray(0, cap)), length: chunk.length };
}

/** A header's values in raw headers (names in any case). */
function rawValue(raw: readonly string[], name: string): string | undefined {
  for (let i = 0; i + 1 < raw.length; i += 2) if ((raw[i] as string).toLowerCase() === name) return raw[i + 1];
  return undefined;
}

/** The customer of a recorded request (lib/customers.ts), by id. */
export function customerOfEntry(entry: RecordedRequest): string | null {
  if (entry.customer !== undefined) return entry.customer;
  const raw = entry.requestHeaders;
  if (!raw) return null;
  return customerOf({ authorization: rawValue(raw, 'authorization'), cookie: rawValue(raw, 'cookie') })?.id ?? null;
}

/** The path of a request target (before `?`). */
export const pathOf = (url: string): string => {
  const at = url.indexOf('?');
  return at < 0 ? url : url.slice(0, at);
};

/** What may identify a secret in a header value: the redacted names, and the admin token wherever it appears. */
export interface Secrets {
  token?: string | undefined;
}

function headerView(flat: readonly unknown[] | OutgoingHttpHeaders | undefined, secrets: Secrets): HeaderView {
  const view: HeaderView = Object.create(null) as HeaderView;
  if (!flat) return view;
  const pairs: Array<[string, unknown]> = Array.isArray(flat)
    ? Array.from({ length: Math.floor(flat.length / 2) }, (_, i) => [String(flat[2 * i]), flat[2 * i + 1]])
    : Object.entries(flat);
  for (const [rawName, rawValue] of pairs) {
    const name = rawName.toLowerCase();
    const values = Array.isArray(rawValue) ? rawValue.map(String) : [String(rawValue)];
    const shown = values.map((value) => (REDACTED_HEADERS.has(name) || (secrets.token && value.includes(secrets.token)) ? REDACTED : value));
    const before = view[name];
    if (before === undefined) view[name] = shown.length === 1 ? (shown[0] as string) : shown;
    else view[name] = [...(Array.isArray(before) ? before : [before]), ...shown];
  }
  return view;
}

function bodyView(body: KeptBody | undefined): BodyView | null {
  if (!body || body.length === 0) return null;
  if (typeof body.bytes === 'string') return { text: body.bytes, bytes: body.length, truncated: false };
  return { text: body.bytes.toString('utf8'), bytes: body.length, truncated: body.bytes.length < body.length };
}

const finite = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

function pageView(page: PageFacts | undefined): PageView | null {
  if (!page) return null;
  const { envelope, window } = page;
  return {
    rule: page.rule.name,
    formula: page.rule.formula,
    matching: page.matching,
    size: window === 'all' ? null : window.size,
    start: window === 'all' ? null : window.start,
    count: finite(envelope.count),
    totalPages: finite(envelope.totalPages),
    currentPage: finite(envelope.currentPage),
    nextPage: finite(envelope.nextPage),
    prevPage: finite(envelope.prevPage),
  };
}

/** A text of a violation, printable and cut (lib/quote.ts); a recorder's missing or odd one is made a string (the journal never fails on what it is given). */
function cutText(value: unknown): string {
  const text = typeof value === 'string' ? value : value === undefined || value === null ? '' : quoteValue(value, MAX_VIOLATION_VALUE);
  return boundedText(text, MAX_VIOLATION_VALUE);
}

/**
 * A value to keep (lib/quote.ts `shownValue`): itself (by reference) when it is a JSON value whose
 * quote is short, else its quote cut at MAX_VIOLATION_VALUE characters (a `Quoted`, JSON's string);
 * and what it costs. Never a JSON.stringify of the value as given: it may be a whole body, deep.
 */
function keptValue(value: unknown): { value: unknown; size: number } {
  if (value === undefined) return { value, size: 0 };
  const kept = boundedValue(value, MAX_VIOLATION_VALUE);
  const size = typeof kept === 'string' ? kept.length : kept instanceof Quoted ? kept.text.length : kept !== null && typeof kept === 'object' ? quoteValue(kept, MAX_VIOLATION_VALUE).length : 8;
  return { value: kept, size };
}

/**
 * What the journal keeps of a check (Journal.record): the violations in order, each with its texts
 * and values cut at MAX_VIOLATION_VALUE characters, as many as fit in `budget` bytes, and how many
 * were found. A broken answer's `actual` may be a large part of its body (the whole body, when it
 * is not an envelope), and a page of broken records breaks `record-shape` once per record: what the
 * journal holds stays within its memory bound (the budget is the request body's share: a checked
 * request is a GET, which has none). The run's whole report is the proxy's (`--json`, `--junit`).
 */
export function keptCheck(check: AnswerCheck, budget: number): KeptCheck {
  const violations: RuleViolation[] = [];
  let used = 0;
  for (const violation of check.violations) {
    const expected = keptValue(violation.expected);
    const actual = keptValue(violation.actual);
    const kept: RuleViolation = {
      rule: cutText(violation.rule) as RuleViolation['rule'],
      message: cutText(violation.message),
      ...(violation.field === undefined ? {} : { field: cutText(violation.field) }),
      expected: expected.value,
      actual: actual.value,
      ...(violation.note === undefined ? {} : { note: cutText(violation.note) }),
    };
    used += VIOLATION_OVERHEAD + kept.rule.length + kept.message.length + (kept.field?.length ?? 0) + (kept.note?.length ?? 0) + expected.size + actual.size;
    if (used > budget) break;
    violations.push(kept);
  }
  return { violations, found: check.violations.length };
}

/**
 * A kept value as its JSON gives it back, so that the view is the same after JSON (the admin API's
 * answer, a worker's IPC message): bounded first (`keptValue` did it for what the journal keeps),
 * so the JSON is small and shallow.
 */
function shownValue(value: unknown): unknown {
  if (value === undefined) return undefined;
  const kept = boundedValue(value, MAX_VIOLATION_VALUE);
  try {
    return JSON.parse(JSON.stringify(kept) ?? 'null') as unknown;
  } catch {
    return quoteValue(kept, MAX_VIOLATION_VALUE);
  }
}

function violationView(violation: RuleViolation): ViolationView {
  const expected = shownValue(violation.expected);
  const actual = shownValue(violation.actual);
  return {
    rule: violation.rule,
    message: violation.message,
    field: violation.field ?? null,
    // Left out when absent (undefined), as JSON would leave them out.
    ...(expected === undefined ? {} : { expected }),
    ...(actual === undefined ? {} : { actual }),
    note: violation.note ?? null,
  };
}

/** How many rules a checked answer broke: all that were found, kept or not. */
export const violationsFound = (check: AnswerCheck): number => (check as Partial<KeptCheck>).found ?? check.violations.length;

function checkView(check: AnswerCheck | undefined): CheckView | null {
  return check ? { checked: true, found: violationsFound(check), violations: check.violations.map(violationView) } : null;
}

/** A recorded request as the admin API shows it: headers redacted, bodies as text, query, customer and page arithmetic made now. */
export function entryView(entry: RecordedRequest, seq: number, options: { secrets: Secrets; worker?: number | undefined }): JournalEntry {
  const { secrets } = options;
  const redactUrl = (url: string) => (secrets.token && url.includes(secrets.token) ? url.split(secrets.token).join(REDACTED) : url);
  const url = redactUrl(entry.url);
  return {
    seq,
    ...(options.worker !== undefined ? { worker: options.worker } : {}),
    time: new Date(entry.arrivedMs).toISOString(),
    method: entry.method,
    url,
    status: entry.status,
    durationMs: entry.durationMs,
    path: pathOf(url),
    query: queryPairs(url),
    customer: customerOfEntry(entry),
    request: { headers: headerView(entry.requestHeaders, secrets), headersCut: entry.headersCut ?? false, body: bodyView(entry.requestBody) },
    response: { headers: headerView(entry.responseHeaders, secrets), body: bodyView(entry.responseBody) },
    page: pageView(entry.page),
    answeredBy: entry.answeredBy ?? 'mock',
    backend: entry.backend ? { ms: entry.backend.ms, error: entry.backend.error ?? null } : null,
    check: checkView(entry.check),
  };
}
