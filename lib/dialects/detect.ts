/**
 * Which dialect a server speaks: the one place where `check`, `verify` and `fixtures --from` tell a
 * server that speaks the other dialect (it cannot be judged or recorded by the rules asked for:
 * exit 2) from one that speaks the asked dialect and breaks its rules (exit 1, the properties' and
 * the pacts' business).
 *
 * It is told by what names a dialect, never by what its rules are about: the envelope's keys (the
 * records' key and the echoes of the page's start and size) and the paging parameters the server
 * honours. The page numbers (`count`, `totalPages`, `currentPage`, `nextPage`, `prevPage`), their
 * presence included, and the records' fields are what `check` and `verify` judge, so they decide
 * nothing here: a server that pages with the spec's parameters and answers the spec's keys speaks
 * the spec however wrong its numbers (the plugins' clamped `nextPage`/`prevPage` included).
 *
 * - The reviews (4.1, 4.2) page with `limit`/`offset` in both dialects; their envelopes differ:
 *   `reviews` with `limit`/`offset` (spec), `data` with `take`/`skip` (the plugins).
 * - The wishlists (4.3, 4.4) share their envelope's keys (`data`, `skip`, `take`); their paging
 *   differs: `skip`/`take` (spec), `limit`/`offset` (the plugins). A server that refuses the asked
 *   dialect's parameters (400) and answers the other's, or that ignores the asked page size (a page
 *   of one asked, several answered) and honours the other's (one record), speaks the other.
 *
 * Not exported by the dialects' barrel (index.ts), which it imports.
 */
import { DEFAULT_MAX_PAGE_SIZE, type EndpointName } from '../api-rules.ts';
import { isObject } from '../http.ts';
import type { QueryPairs } from '../query.ts';
import { createDialect } from './index.ts';
import type { DialectName } from './types.ts';

/** What the detection reads of an answer to a listing. */
export interface ListingAnswer {
  url: string;
  status: number;
  /** The parsed body, `undefined` when it is not JSON. */
  json: unknown;
}

const REVIEWS = { spec: ['reviews', 'limit', 'offset'], alphabite: ['data', 'take', 'skip'] } as const;
const WISHLISTS = { spec: ['data', 'skip', 'take'], alphabite: ['data', 'take', 'skip'] } as const;
/**
 * The keys that name a dialect's envelope of a listing: its records' key (an array), then the
 * echoes of the page's size and start (docs/dialects.md rows 9 and 14; the plugins echo `take` and
 * `skip` whatever they page with). No page number is among them.
 */
const ENVELOPE_KEYS: Record<EndpointName, Record<DialectName, readonly [string, string, string]>> = {
  reviews: REVIEWS,
  productReviews: REVIEWS,
  wishlists: WISHLISTS,
  wishlistItems: WISHLISTS,
};

const DIALECTS: readonly DialectName[] = ['spec', 'alphabite'];
const otherThan = (dialect: DialectName): DialectName => (dialect === 'spec' ? 'alphabite' : 'spec');
const isSuccess = (answer: ListingAnswer) => answer.status >= 200 && answer.status < 300;

/** Whether the JSON carries the keys that name the dialect's envelope of this listing (whatever their numbers). */
function hasEnvelopeKeys(dialect: DialectName, endpoint: EndpointName, json: unknown): boolean {
  const [records, ...echoes] = ENVELOPE_KEYS[endpoint][dialect];
  return isObject(json) && Array.isArray(json[records]) && echoes.every((key) => Object.hasOwn(json, key));
}

/** How many records an answer holds under the dialect's records key; undefined when it holds no array there. */
function recordsIn(dialect: DialectName, endpoint: EndpointName, answer: ListingAnswer): number | undefined {
  const records = isObject(answer.json) ? answer.json[ENVELOPE_KEYS[endpoint][dialect][0]] : undefined;
  return isSuccess(answer) && Array.isArray(records) ? records.length : undefined;
}

/**
 * The dialects whose envelope keys of this listing the JSON carries: none, one, or both (the
 * wishlists' envelopes share their keys; the paging parameters tell them apart).
 */
export function envelopeDialects(endpoint: EndpointName, json: unknown): DialectName[] {
  return DIALECTS.filter((dialect) => hasEnvelopeKeys(dialect, endpoint, json));
}

/** The query a client of that dialect pages this listing with, asking for `size` records. */
export function pagingQuery(dialect: DialectName, endpoint: EndpointName, size: number): QueryPairs {
  return [[createDialect(dialect, { maxPageSize: DEFAULT_MAX_PAGE_SIZE }).endpoints[endpoint].paging.size, String(size)]];
}

/** A server answers a listing in the other dialect: what `check`, `verify` and `fixtures --from` cannot get past. */
export interface DialectMismatch {
  asked: DialectName;
  spoken: DialectName;
  /** One sentence naming the server, the dialect it seems to speak, the answers that show it and what to do. */
  sentence: string;
}

/**
 * Whether `first`, the answer to a listing asked in `asked`'s paging (a page of `size`), shows a
 * server speaking the other dialect, asking again (`askAgain`, given the query) where the first
 * answer cannot tell:
 * - a success with the other dialect's envelope keys and not the asked one's shows it at once (the
 *   reviews);
 * - a 400 leads to one more request in the other dialect's paging, which shows it when it answers
 *   the other's envelope keys with no more records than asked (the wishlists);
 * - a success with keys both dialects share (the wishlists) shows it only when the asked page size
 *   is ignored (a page of one asked, several answered) and the other's honoured (one record).
 * Anything else is left to the caller: a server of the asked dialect that breaks its rules, a
 * refusal, an error. Page numbers are never read.
 */
export async function detectOtherDialect(options: {
  /** The server's base URL, as the user gave it. */
  base: string;
  asked: DialectName;
  endpoint: EndpointName;
  first: ListingAnswer;
  /** The page size the first request asked for (the second asks the same). */
  size: number;
  askAgain: (query: QueryPairs) => Promise<ListingAnswer>;
}): Promise<DialectMismatch | undefined> {
  const { base, asked, endpoint, first, size, askAgain } = options;
  const spoken = otherThan(asked);
  const query = pagingQuery(spoken, endpoint, size);
  const samePaging = query[0]![0] === pagingQuery(asked, endpoint, size)[0]![0];
  if (isSuccess(first)) {
    if (!hasEnvelopeKeys(spoken, endpoint, first.json)) return undefined;
    if (!hasEnvelopeKeys(asked, endpoint, first.json)) return mismatch(base, asked, spoken, first);
    return samePaging ? undefined : pagedTheOtherWay({ base, asked, spoken, endpoint, first, size, askAgain });
  }
  if (first.status !== 400 || samePaging) return undefined;
  const second = await askAgain(query);
  // Only an answer in the other dialect's envelope, of the page asked, shows it: a 400 to the asked paging alone may be a bug.
  const records = recordsIn(spoken, endpoint, second);
  return records !== undefined && records <= size && hasEnvelopeKeys(spoken, endpoint, second.json) ? mismatch(base, asked, spoken, second, first) : undefined;
}

/**
 * A page of more records than this is no default page of a server lenient about the other paging
 * (the dialects' defaults are 10 and 20): one that ignores every page size, which the callers report
 * as such, and no page that large is asked for again here.
 */
const LENIENT_PAGE_BOUND = 1000;

/**
 * A success in keys both dialects share: the server ignores the asked page size and honours the
 * other's. A page of at most one record cannot show it; one of more than `size` already shows the
 * asked size ignored, else a page of one is asked for in the asked dialect's paging.
 */
async function pagedTheOtherWay(options: {
  base: string;
  asked: DialectName;
  spoken: DialectName;
  endpoint: EndpointName;
  first: ListingAnswer;
  size: number;
  askAgain: (query: QueryPairs) => Promise<ListingAnswer>;
}): Promise<DialectMismatch | undefined> {
  const { base, asked, spoken, endpoint, first, size, askAgain } = options;
  const records = recordsIn(asked, endpoint, first);
  if (records === undefined || records <= 1 || records > LENIENT_PAGE_BOUND) return undefined;
  const askedOne = records > size ? first : await askAgain(pagingQuery(asked, endpoint, 1));
  const ignored = recordsIn(asked, endpoint, askedOne);
  if (ignored === undefined || ignored <= (askedOne === first ? size : 1) || ignored > LENIENT_PAGE_BOUND) return undefined;
  const spokenOne = await askAgain(pagingQuery(spoken, endpoint, 1));
  if (recordsIn(spoken, endpoint, spokenOne) !== 1 || !hasEnvelopeKeys(spoken, endpoint, spokenOne.json)) return undefined;
  const [askedSize, sizeParam] = [askedOne === first ? size : 1, pagingQuery(asked, endpoint, 1)[0]![0]];
  const sentence =
    `${base} answers in the ${spoken} dialect, not ${asked}: GET ${askedOne.url} answered ${ignored} records where ${askedSize} ${askedSize === 1 ? 'was' : 'were'} asked for ` +
    `and GET ${spokenOne.url} answered 1: it pages with ${NAMED[spoken]} ${pagingQuery(spoken, endpoint, 1)[0]![0]}, not ${sizeParam} (${REMEDY[spoken]})`;
  return { asked, spoken, sentence };
}

/** What to do about it, the same for every command (each takes `--dialect`, default spec). */
const REMEDY: Record<DialectName, string> = {
  alphabite: 'add --dialect alphabite, or point at a server that speaks the spec',
  spec: 'drop --dialect alphabite, or point at a backend with the published plugins',
};
const NAMED: Record<DialectName, string> = { spec: "the spec's", alphabite: "the plugins'" };

/** The sentence of a mismatch. `refused` is the asked dialect's request, when it was refused first. */
export function mismatch(base: string, asked: DialectName, spoken: DialectName, shown: ListingAnswer, refused?: ListingAnswer): DialectMismatch {
  const before = refused ? `GET ${refused.url} answered ${refused.status}${messageOf(refused.json)} and ` : '';
  const sentence = `${base} answers in the ${spoken} dialect, not ${asked}: ${before}GET ${shown.url} answered ${NAMED[spoken]} envelope ${keysOf(shown.json)} (${REMEDY[spoken]})`;
  return { asked, spoken, sentence };
}

/** The keys of an envelope as `{a,b,c}`, bounded (they come from the server). */
function keysOf(json: unknown): string {
  const keys = typeof json === 'object' && json !== null ? Object.keys(json) : [];
  const shown = keys.slice(0, 10).map((k) => oneLine(k.length > 30 ? `${k.slice(0, 30)}...` : k));
  return `{${shown.join(',')}${keys.length > 10 ? ',...' : ''}}`;
}

/** ` (its message)` of an error body, cut short; '' when it has none. */
function messageOf(json: unknown): string {
  const message = typeof json === 'object' && json !== null ? (json as { message?: unknown }).message : undefined;
  if (typeof message !== 'string' || message === '') return '';
  const first = message.split('. ')[0]!;
  return ` (${oneLine(first.length > 120 ? `${first.slice(0, 120)}...` : first)}${first.length < message.length && first.length <= 120 ? '...' : ''})`;
}

/** The server's text on the sentence's one line: control characters and line separators as `\uXXXX`. */
const oneLine = (text: string) => text.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
