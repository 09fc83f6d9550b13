/**
 * Which dialect a server speaks, from its answers to a listing: the one place where `check`,
 * `verify` and `fixtures --from` tell a server that speaks the other dialect (it cannot be judged
 * or recorded by the rules asked for: exit 2) from one that speaks the asked dialect and breaks
 * its rules (exit 1, the properties' and the pacts' business).
 *
 * An answer is read against each dialect's own envelope schemas (lib/envelopes.ts for the spec,
 * alphabite-schemas.ts for the plugins), with any records: a record that breaks the dialect is a
 * violation to report, not a sign of the other dialect. The envelopes of the reviews differ
 * (`reviews` or `data`); those of the wishlists may read either way (the plugins always answer
 * `prevPage`, which the spec allows), so there the records (the spec's wishlists hold their items)
 * and the paging parameters decide: a server that refuses the asked dialect's parameters with a 400
 * and answers the other's with the other dialect's envelope alone speaks the other dialect.
 *
 * Not exported by the dialects' barrel (index.ts): it loads zod, which the mock's answers do not need.
 */
import { z } from 'zod';
import { DEFAULT_MAX_PAGE_SIZE, type EndpointName } from '../api-rules.ts';
import { envelopeSchemas } from '../envelopes.ts';
import { clampedPageNumbers, reviewsPageMeta, wishlistPageMeta } from '../paging.ts';
import type { QueryPairs } from '../query.ts';
import { alphabiteEnvelopeSchemas } from './alphabite-schemas.ts';
import { createDialect } from './index.ts';
import type { DialectName } from './types.ts';

/** What the detection reads of an answer to a listing. */
export interface ListingAnswer {
  url: string;
  status: number;
  /** The parsed body, `undefined` when it is not JSON. */
  json: unknown;
}

/** A dialect's envelope with its records unread (any array): the paging keys and numbers only. */
function withAnyRecords(schema: z.ZodObject, recordsKey: string): z.ZodType {
  return schema.extend({ [recordsKey]: z.array(z.unknown()) });
}

const ENVELOPES: Record<DialectName, Record<EndpointName, z.ZodType[]>> = {
  spec: {
    reviews: [withAnyRecords(envelopeSchemas.reviews, 'reviews')],
    productReviews: [withAnyRecords(envelopeSchemas.productReviews, 'reviews')],
    wishlists: [withAnyRecords(envelopeSchemas.wishlists, 'data')],
    wishlistItems: [withAnyRecords(envelopeSchemas.wishlistItems, 'data')],
  },
  alphabite: {
    // 4.1 answers a constant envelope (the plugin ignores paging there); a plugin that pages it answers 4.2's.
    reviews: [withAnyRecords(alphabiteEnvelopeSchemas.reviews, 'data'), withAnyRecords(alphabiteEnvelopeSchemas.productReviews, 'data')],
    productReviews: [withAnyRecords(alphabiteEnvelopeSchemas.productReviews, 'data')],
    wishlists: [withAnyRecords(alphabiteEnvelopeSchemas.wishlists, 'data')],
    wishlistItems: [withAnyRecords(alphabiteEnvelopeSchemas.wishlistItems, 'data')],
  },
};

/** The same with their records, which tell the wishlists' envelopes apart when they hold any (the plugins' wishlists have no items). */
const WITH_RECORDS: Record<DialectName, Record<EndpointName, z.ZodType[]>> = {
  spec: { reviews: [envelopeSchemas.reviews], productReviews: [envelopeSchemas.productReviews], wishlists: [envelopeSchemas.wishlists], wishlistItems: [envelopeSchemas.wishlistItems] },
  alphabite: {
    reviews: [alphabiteEnvelopeSchemas.reviews, alphabiteEnvelopeSchemas.productReviews],
    productReviews: [alphabiteEnvelopeSchemas.productReviews],
    wishlists: [alphabiteEnvelopeSchemas.wishlists],
    wishlistItems: [alphabiteEnvelopeSchemas.wishlistItems],
  },
};

const DIALECTS: readonly DialectName[] = ['spec', 'alphabite'];
const otherThan = (dialect: DialectName): DialectName => (dialect === 'spec' ? 'alphabite' : 'spec');
const isSuccess = (answer: ListingAnswer) => answer.status >= 200 && answer.status < 300;
const accepts = (schemas: z.ZodType[], json: unknown) => schemas.some((schema) => schema.safeParse(json).success);

/** The page numbers the dialect's arithmetic (lib/paging.ts) gives for an envelope's own count, start and size. */
function pageNumbersOf(dialect: DialectName, endpoint: EndpointName, envelope: Record<string, unknown>): Record<string, unknown> | undefined {
  const n = (key: string) => (typeof envelope[key] === 'number' ? (envelope[key] as number) : undefined);
  const [count, start, size] = dialect === 'spec' && (endpoint === 'reviews' || endpoint === 'productReviews') ? [n('count'), n('offset'), n('limit')] : [n('count'), n('skip'), n('take')];
  if (count === undefined || start === undefined || size === undefined) return undefined;
  if (dialect === 'alphabite') return { ...clampedPageNumbers(count, start, size) };
  return endpoint === 'reviews' || endpoint === 'productReviews' ? { ...reviewsPageMeta(count, start, size) } : { ...wishlistPageMeta(count, start, size) };
}

/** The envelope's page numbers are the dialect's (a key the spec leaves out must be absent; JSON writes NaN as null). */
function arithmeticAgrees(dialect: DialectName, endpoint: EndpointName, json: unknown): boolean {
  if (typeof json !== 'object' || json === null) return false;
  const envelope = json as Record<string, unknown>;
  const expected = pageNumbersOf(dialect, endpoint, envelope);
  if (!expected) return false;
  const keys = dialect === 'spec' ? ['count', 'totalPages', 'currentPage', 'nextPage', 'prevPage'] : Object.keys(expected);
  return keys.every((key) => (key in expected) === Object.hasOwn(envelope, key) && JSON.stringify(expected[key]) === JSON.stringify(envelope[key]));
}

/**
 * The dialects whose envelope of this listing the JSON is: none, one, or both. Read by the paging
 * keys (the dialect's schema) and numbers (its page arithmetic, for the envelope's own count, start
 * and size: at the first page the spec leaves `prevPage` out, or null, and the plugins answer 1),
 * so that a server of one dialect that breaks its rules is no server of the other. An envelope
 * both could answer is told apart by its records when they fit exactly one dialect.
 */
export function envelopeDialects(endpoint: EndpointName, json: unknown): DialectName[] {
  const envelopes = DIALECTS.filter((dialect) => accepts(ENVELOPES[dialect][endpoint], json) && arithmeticAgrees(dialect, endpoint, json));
  if (envelopes.length < 2) return envelopes;
  const withRecords = envelopes.filter((dialect) => accepts(WITH_RECORDS[dialect][endpoint], json));
  return withRecords.length === 1 ? withRecords : envelopes;
}

/** The query a client of that dialect pages this listing with, asking for `size` records. */
export function pagingQuery(dialect: DialectName, endpoint: EndpointName, size: number): QueryPairs {
  return [[createDialect(dialect, { maxPageSize: DEFAULT_MAX_PAGE_SIZE }).endpoints[endpoint].paging.size, String(size)]];
}

/** A server answers a listing in the other dialect: what `check`, `verify` and `fixtures --from` cannot get past. */
export interface DialectMismatch {
  asked: DialectName;
  spoken: DialectName;
  /** One sentence naming the server, the dialect it seems to speak, the answer that shows it and what to do. */
  sentence: string;
}

/**
 * Whether `first`, the answer to a listing asked in `asked`'s paging, shows a server speaking the
 * other dialect. A success in the other dialect's envelope (and not the asked one's) shows it at
 * once; a 400 leads to one more request in the other dialect's paging (`askAgain`, given the
 * query), which shows it when it answers the other dialect's envelope. Anything else is left to
 * the caller (a server of the asked dialect that breaks its rules, a refusal, an error).
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
  const { base, asked, endpoint, first, size } = options;
  const spoken = otherThan(asked);
  if (isSuccess(first)) {
    const seen = envelopeDialects(endpoint, first.json);
    return !seen.includes(asked) && seen.includes(spoken) ? mismatch(base, asked, spoken, first) : undefined;
  }
  if (first.status !== 400) return undefined;
  const query = pagingQuery(spoken, endpoint, size);
  if (query[0]![0] === pagingQuery(asked, endpoint, size)[0]![0]) return undefined;
  const second = await options.askAgain(query);
  // Only an answer that is the other dialect's alone shows it: a 400 to the asked paging alone may be a bug.
  const seen = isSuccess(second) ? envelopeDialects(endpoint, second.json) : [];
  return seen.length === 1 && seen[0] === spoken ? mismatch(base, asked, spoken, second, first) : undefined;
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
