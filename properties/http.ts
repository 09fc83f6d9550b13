/**
 * The HTTP side of the property suite: GET a listing, keep the exact request so that a failure
 * can print it (and a curl line), and count requests so that runs stay bounded.
 */

import type { Answer } from '../lib/http.ts';
import { exchange } from '../client/exchange.ts';
import { countRequest, currentTally } from './tally.ts';
import { BodyMemo, get } from './transport.ts';

/** Query parameters in order; a name may repeat (the suite sends repeated parameters on purpose). */
export type Query = Array<[string, string]>;

/** One request and its whole answer; `url` is the exact URL requested. */
export type Exchange = Answer;

/** The target cannot be reached, or gives no whole answer in time (as opposed to answering wrongly). */
export { NoAnswerError as UnreachableError } from '../lib/http.ts';

export function buildUrl(baseUrl: string, path: string, query: Query = []): string {
  const base = baseUrl.replace(/\/+$/, '');
  const qs = query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  return qs ? `${base}${path}?${qs}` : `${base}${path}`;
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Headers whose value is a credential: printed commands and reports show `<yours>` instead. */
const CREDENTIAL_HEADERS = /^(authorization|cookie|proxy-authorization)$/i;

/** The headers as printed in commands and reports: every name, credentials' values as `<yours>`. */
export function printableHeaders(headers: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(headers ?? {}).map(([name, value]) => [name, CREDENTIAL_HEADERS.test(name) ? '<yours>' : value]));
}

/** A shell-safe curl line for a GET, with the headers sent with it (as printableHeaders gives them). */
export function curlLine(url: string, headers: Record<string, string> = {}): string {
  const flags = Object.entries(headers).map(([name, value]) => `-H ${shellQuote(`${name}: ${value}`)} `);
  return `curl -sS ${flags.join('')}${shellQuote(url)}`;
}

export interface ClientOptions {
  /** Per-request timeout in milliseconds (default 10 000). */
  timeoutMs?: number;
  /** Sent with every request (e.g. a publishable key, an Authorization header). */
  headers?: Record<string, string>;
  /** A body of more bytes than this is a NoAnswerError (default client/http.ts's DEFAULT_MAX_BODY_BYTES). */
  maxBodyBytes?: number;
  /** Requests in flight at once at most (default 1). */
  concurrency?: number;
}

/**
 * At most `size` requests in flight; the waiting ones go in the order of a one-at-a-time run (their
 * scope's place, tally.ts), so that the check reported next is served first.
 */
class RequestSlots {
  private free: number;
  private readonly waiting: Array<{ place: number; go: () => void }> = [];

  constructor(size: number) {
    this.free = size;
  }

  /** Takes a slot: at once (undefined) when one is free, else a promise of one, in place order. */
  take(place: number): Promise<void> | undefined {
    if (this.free > 0) {
      this.free -= 1;
      return undefined;
    }
    return new Promise<void>((go) => {
      let at = this.waiting.length;
      while (at > 0 && this.waiting[at - 1]!.place > place) at -= 1;
      this.waiting.splice(at, 0, { place, go });
    });
  }

  give(): void {
    const next = this.waiting.shift();
    if (next) next.go();
    else this.free += 1;
  }
}

export class ListingClient {
  /** Number of requests sent so far. */
  requests = 0;
  readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly maxBodyBytes: number | undefined;
  private readonly headers: Record<string, string>;
  private readonly slots: RequestSlots;
  /** Bodies already parsed in this run (transport.ts): an equal answer is not parsed again. */
  private readonly bodies = new BodyMemo();

  constructor(baseUrl: string, options: ClientOptions = {}) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.maxBodyBytes = options.maxBodyBytes;
    this.headers = options.headers ?? {};
    this.slots = new RequestSlots(options.concurrency ?? 1);
  }

  url(path: string, query: Query = []): string {
    return buildUrl(this.baseUrl, path, query);
  }

  /** A GET over kept-alive connections (properties/transport.ts), counted for the property that sends it (tally.ts). */
  get(path: string, query: Query = []): Promise<Exchange> {
    // No promise of our own when a slot is free: a run sends thousands of requests, and every
    // promise costs more while the tallies follow the async context.
    const waiting = this.slots.take(currentTally()?.place ?? Number.NEGATIVE_INFINITY);
    return waiting ? waiting.then(() => this.send(path, query)) : this.send(path, query);
  }

  private send(path: string, query: Query): Promise<Exchange> {
    this.requests += 1;
    countRequest();
    return get(this.url(path, query), this.timeoutMs, this.headers, this.bodies, this.release, this.maxBodyBytes);
  }

  private readonly release = () => this.slots.give();

  /** A JSON POST (only for the provider-state door, when dataset variation is asked for). */
  async post(path: string, body: unknown): Promise<Exchange> {
    this.requests += 1;
    countRequest();
    return exchange(this.url(path), { timeoutMs: this.timeoutMs, ...(this.maxBodyBytes === undefined ? {} : { maxBodyBytes: this.maxBodyBytes }) }, body, this.headers);
  }
}
