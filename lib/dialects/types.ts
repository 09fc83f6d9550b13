/**
 * A dialect is how one implementation of the four listings speaks: which parameters each
 * endpoint accepts (and how it refuses the rest), its defaults, its envelope and page
 * numbers, its error bodies, what it checks before listing (keys, auth), and how it shows
 * a record. The mock server lists records; everything about the protocol comes from here.
 */
import type { EndpointName } from '../api-rules.ts';
import type { QueryPairs } from '../query.ts';
import type { MedusaBehaviour } from './medusa-behaviour.ts';

export type { EndpointName };

/** What a dialect may read of a listing request. */
export interface ListingRequest {
  endpoint: EndpointName;
  /** The path id: the product of 4.2, the wishlist of 4.4. */
  id?: string;
  query: QueryPairs;
  /** Request headers, names in lower case. */
  headers: Readonly<Record<string, string | string[] | undefined>>;
}

/** An answer other than a listing: a status and a JSON body, or `null` for an empty body. */
export interface Refusal {
  refusal: true;
  status: number;
  body: Record<string, unknown> | null;
  /**
   * Why, where the answer itself does not say (the plugins' empty 500s): one short plain-ASCII
   * sentence, sent as the mock's own header REASON_HEADER (lib/write-reason.ts, docs/writes.md).
   */
  reason?: string;
}

export function refusal(status: number, body: Record<string, unknown> | null, reason?: string): Refusal {
  return reason === undefined ? { refusal: true, status, body } : { refusal: true, status, body, reason };
}

export const isRefusal = (x: unknown): x is Refusal => typeof x === 'object' && x !== null && (x as Refusal).refusal === true;

/** A sort: a record field, descending or not; ties always by id ascending. */
export interface ListingOrder {
  field: 'id' | 'created_at' | 'updated_at' | 'rating';
  descending: boolean;
}

/** Filters a dialect accepts beyond paging (the published plugins' review filters). */
export interface ListingFilters {
  productIds?: string[];
  rating?: number;
  verifiedPurchaseOnly?: boolean;
  /**
   * alphabite's `my_reviews_only`: the caller's reviews only. The seeded reviews belong to no customer
   * the mock knows, so it narrows only what a customer wrote (mock-server/writes); without writes it
   * changes nothing.
   */
  myReviewsOnly?: boolean;
}

/** What to list, once a dialect has read the request. */
export interface ListingQuery {
  /**
   * Records `start + 1 … start + size`; `all` lists every matching record (a plugin bug kept on
   * purpose). `listFrom`, when given, is where the records start instead of `start`, which the
   * envelope still echoes (alphabite: an offset beyond 2^53 - 1 lists from the first record).
   */
  window: { start: number; size: number; listFrom?: number } | 'all';
  order: ListingOrder;
  filters: ListingFilters;
  /** 4.2 in the alphabite dialect: add the product's rating aggregate. */
  aggregates: boolean;
  /**
   * Answered instead of a page that holds records (an empty page is still answered): alphabite's
   * 4.4 when `fields` leaves out the wishlist the route reads from the first record.
   */
  refuseRecords?: Refusal;
}

/** A product's rating aggregate (alphabite 4.2 with `include_aggregated_counts`). */
export interface RatingAggregate {
  average: number;
  total_count: number;
  counts: Array<{ rating: number; count: number }>;
}

/** The numbers an envelope is built from. */
export interface EnvelopeInput {
  /** Records matching the request (before paging). */
  count: number;
  query: ListingQuery;
  aggregate?: RatingAggregate;
}

export interface EndpointRules {
  /** Reads the request: what to list, or the refusal. */
  read(request: ListingRequest): ListingQuery | Refusal;
  /** The envelope with an empty records array as its first key, in the dialect's key order. */
  envelope(input: EnvelopeInput): Record<string, unknown>;
  /** The key holding the records: the envelope's first key. */
  recordsKey: 'reviews' | 'data';
  /** The query parameters a client pages this listing with: the page size and the number of records skipped. */
  paging: { size: 'limit' | 'take'; start: 'offset' | 'skip' };
  /** Which rule of lib/paging.ts makes the envelope's page numbers (shown beside an answer in the mock's journal). */
  pageRule: PageRule;
}

/** A rule of the page arithmetic, named: the lib/paging.ts function, and what it computes. */
export interface PageRule {
  name: string;
  formula: string;
}

export interface Dialect {
  name: DialectName;
  /** One line for the banner and the admin API. */
  summary: string;
  /** The largest `limit`/`take` it accepts, when it has a bound (the spec dialect's; the plugins have none). */
  maxPageSize?: number;
  /** Checks made before the endpoint reads anything (publishable key, authentication). */
  guard(request: ListingRequest): Refusal | undefined;
  /**
   * What an answer depends on besides the URL, from the headers ('' when nothing): answers
   * are kept by URL and this, so a kept answer never reaches a request it was not made for.
   */
  variant(headers: ListingRequest['headers']): string;
  endpoints: Record<EndpointName, EndpointRules>;
  /** 4.4 for a wishlist the dataset does not have. */
  unknownWishlist(request: ListingRequest, query: ListingQuery): Refusal | 'empty';
  /** A record as this dialect shows it (the kit's records are the spec dialect's). */
  project: { review(record: object): object; wishlist(record: object): object; item(record: object): object };
  /** True when `project` changes nothing: records are shown as the kit makes them (their JSON may then be made directly). */
  recordsAsIs: boolean;
  /** True when 4.3 shows each wishlist with all its items: each item is then one more record of the answer. */
  embedsWishlistItems: boolean;
  /**
   * True when 4.3 lists the caller's own wishlists only and 4.4 refuses another customer's (the
   * plugin): each customer sees their own seeded wishlists (mock-server/writes/customer-seed.ts), and
   * `refusedToOthers` is 4.4's answer for another customer's wishlist that holds items.
   * False: every wishlist is listed to everyone (the spec, which has no customers).
   */
  wishlistsPerCustomer: { refusedToOthers: Refusal } | false;
  /** The alphabite dialect: the Medusa version it answers as, and what that version does (lib/dialects/medusa-behaviour.ts). */
  medusa?: MedusaBehaviour;
}

export const DIALECT_NAMES = ['spec', 'alphabite'] as const;
export type DialectName = (typeof DIALECT_NAMES)[number];

/**
 * What the page numbers of an answer were made from, kept by reference (no copy, no string per
 * request): the journal makes them into its `page` when it is read (mock-server/journal/journal-entry.ts).
 */
export interface PageFacts {
  /** The dialect's rule that made the envelope's page numbers (lib/paging.ts). */
  rule: PageRule;
  /** Records that matched the request, before paging. */
  matching: number;
  /** The records listed: a window, or all of them. */
  window: ListingQuery['window'];
  /** The envelope as the dialect built it, its records array empty. */
  envelope: Record<string, unknown>;
}
