/**
 * In front of a backend that has the plugins (`serve --dialect alphabite --backend <url>`), each
 * customer's own data, read from the backend's own plugin routes with the customer's own credentials
 * (issue 36): on a customer's first request to the plugins' routes, their wishlists (4.3) with their
 * items (4.4), and the reviews (4.1), walked as `fixtures --from` walks a backend (fixtures/recorder.ts,
 * the kit's HTTP client, bounded), kept as a recording of that customer. From then on the mock answers
 * that customer from it, byte for byte as the backend answered, with the customer's writes on top, in
 * memory (copy-on-write: nothing is written to the backend). A guest's (no token, no session) is the
 * reviews alone.
 *
 * - A backend whose first plugin route answers 404 has no plugins: the mock falls back to generated
 *   data over its catalogue (as without this module), and says so (`source`).
 * - A customer the backend refuses (401, 403) gets the backend's own answer, and is read again on
 *   their next request; a read that fails otherwise is the 502 that names the backend.
 * - `forget()` (POST /__admin/reset) drops every customer's data: the next request reads it again.
 * - At most MAX_CUSTOMERS customers' data at once: past it, the one asked longest ago whose writes
 *   are none is let go (read again when they come back); with every one of them holding writes, the
 *   502 says to reset.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Dataset } from '../../fixtures/dataset.ts';
import { CustomerIds, namingHeaders } from '../../lib/customers.ts';
import { PUBLISHABLE_KEY_HEADER } from '../../lib/dialects/alphabite.ts';
import { OPENAPI_PATH } from '../../lib/admin-paths.ts';
import type { WriteStore } from '../writes/store.ts';
import type { WishlistSettings } from '../writes/types.ts';
import { ownedNotAdmin, type ReadGate } from './catalogue-gate.ts';

/** Customers whose data is held at once. */
export const MAX_CUSTOMERS = 1000;
/** The most JSON one customer's data may hold (UTF-8 bytes); past it the read fails with the 502. */
export const MAX_CUSTOMER_BYTES = 32 * 1024 * 1024;
/** The most records one customer's read keeps (reviews, wishlists and items together). */
export const MAX_CUSTOMER_RECORDS = 100_000;

/** Where the plugins' data comes from: the backend's (each customer's own), or generated (no plugins there, or asked for). */
export type PluginDataSource = 'backend' | 'generated';

/** Who asks: a customer's id, or '' for a guest. */
const GUEST = '';

/** A customer the backend refused: its answer, passed on as it came. */
export class CustomerRefusedError extends Error {
  override name = 'CustomerRefusedError';
  constructor(
    message: string,
    readonly refusal: { status: number; body: string; contentType: string | null },
  ) {
    super(message);
  }
}

export interface CustomerDataOptions {
  /** The backend's base URL. */
  backend: string;
  /** Per request of a read (default the recorder's). */
  timeoutMs?: number;
  /** The writes of every customer: a customer holding some keeps their data (see MAX_CUSTOMERS). */
  writes: WriteStore;
  /** Where the plugins' data comes from when the backend has them (default `backend`). */
  source?: PluginDataSource;
  /** The wishlist plugin's settings the write routes read: the backend's `allow_multiple_wishlists` is set here once read. */
  settings?: WishlistSettings;
}

export class BackendCustomerData {
  readonly #options: CustomerDataOptions;
  /** Each customer's data, by id, in the order last asked (a Map keeps insertion order). */
  readonly #datasets = new Map<string, Dataset>();
  readonly #reading = new Map<string, Promise<void>>();
  /** Whether the backend has the plugins: undefined until the first read tells. */
  #plugins: boolean | undefined;
  /** Customers read since the start or the last reset. */
  #read = 0;
  #settingsRead = false;
  readonly #customerIds = new CustomerIds();
  /** Settled when a read finds that the backend has no plugins. */
  readonly #noPlugins = deferred();
  /** Customers the backend refused on the wishlist routes, held with the guest's data (`needsRead`). */
  readonly #refused = new Map<string, CustomerRefusedError>();

  constructor(options: CustomerDataOptions) {
    this.#options = options;
  }

  /** Where the plugins' data comes from now: generated until a read found the plugins (and the options ask for the backend's). */
  get source(): PluginDataSource {
    return this.#plugins === true && this.#options.source !== 'generated' ? 'backend' : 'generated';
  }

  /** What the banner, /__admin/config and the dashboard say. */
  describe(): { source: PluginDataSource; plugins: boolean | undefined; customersRead: number; customersHeld: number } {
    return { source: this.source, plugins: this.#plugins, customersRead: this.#read, customersHeld: this.#datasets.size };
  }

  /** Whether requests on the plugins' routes must wait for a read: never once generated data is in use. */
  get active(): boolean {
    return this.#options.source !== 'generated' && this.#plugins !== false;
  }

  /** Whether the backend refused this customer on the wishlist routes (their reviews are the guest's). */
  isRefused(customer: string): boolean {
    return this.#refused.has(customer);
  }

  /** The customer's (or with '' the guest's) data, once read; undefined before (or when generated data is in use). */
  datasetOf(customer: string): Dataset | undefined {
    return this.#datasets.get(customer);
  }

  /** The id under which a request's data is kept: its customer's, or '' for a guest (a JWT decoded once per token). */
  customerOf(headers: Record<string, string | string[] | undefined>): string {
    return this.#customerIds.idOf(headers);
  }

  /**
   * Whether the request's data must be read before it is answered. A customer the backend refused
   * is answered the reviews as a guest is (public routes), and read again on each wishlist route.
   */
  needsRead(customer: string, wishlistRoute = true, write = true): boolean {
    if (!this.active) return false;
    // A read of a refused customer's wishlist route is the backend's to answer (withBackendAnswers); a write reads again.
    if (this.#refused.has(customer) && wishlistRoute && write) return true;
    const held = this.#datasets.get(customer);
    if (held) {
      // Asked again: the last to be let go.
      this.#datasets.delete(customer);
      this.#datasets.set(customer, held);
      return false;
    }
    return true;
  }

  /**
   * Reads the customer's data with the request's own credentials (publishable key, bearer token,
   * session cookie); reads of one customer under way are shared. Rejects with a CustomerRefusedError
   * (the backend's refusal) or an Error whose message is the reason of the 502.
   */
  read(customer: string, headers: Record<string, string | string[] | undefined>): Promise<void> {
    // Shared by the requests of one customer with one key (another key may be refused, or held, where this one is not).
    const key = `${customer}\u0000${String(headers[PUBLISHABLE_KEY_HEADER])}`;
    let reading = this.#reading.get(key);
    if (!reading) {
      reading = this.#readOnce(customer, headers).finally(() => this.#reading.delete(key));
      this.#reading.set(key, reading);
    }
    // Once any read finds no plugins there, every request waiting on another read goes on (to generated data).
    return Promise.race([reading, this.#noPlugins.promise]);
  }

  async #readOnce(customer: string, headers: Record<string, string | string[] | undefined>): Promise<void> {
    // The key, and the one header that names the customer as the mock judged it (lib/customers.ts namingHeaders):
    // sent with both a session and a bearer token, Medusa would read the session's customer into the token's data.
    const sent: Record<string, string> = {};
    const { keep } = namingHeaders(headers);
    for (const name of keep ? [PUBLISHABLE_KEY_HEADER, keep] : [PUBLISHABLE_KEY_HEADER]) {
      const value = headers[name];
      if (typeof value === 'string') sent[name] = value;
    }
    // The HTTP client and the recording's reader are loaded with the first read, not at start (test/package-entry.test.ts).
    const [{ recordBackend, RecordError, RECORD_DEFAULTS }, { datasetOfRecording, RecordingProblem }] = await Promise.all([import('../../fixtures/recorder.ts'), import('../../fixtures/recording.ts')]);
    let dataset: Dataset;
    try {
      const { recording, truncated, mine } = await recordBackend({
        baseUrl: this.#options.backend,
        dialect: 'alphabite',
        headers: sent,
        lists: customer === GUEST ? 'reviews' : 'all',
        mine: customer !== GUEST,
        versionProbes: false,
        maxRecords: MAX_CUSTOMER_RECORDS,
        maxRecordingBytes: MAX_CUSTOMER_BYTES,
        timeoutMs: this.#options.timeoutMs ?? RECORD_DEFAULTS.timeoutMs,
      });
      this.#refused.delete(customer);
      if (truncated) throw new Error(`the backend holds more than the ${MAX_CUSTOMER_RECORDS} records the mock reads for one customer`);
      // All of it the customer's own, as read (mock-server/writes/customer-seed.ts).
      const own = mine && datasetOfRecording({ ...recording, reviews: mine, wishlists: [], wishlist_items: [] });
      dataset = { ...datasetOfRecording(recording), wishlistOwners: 'reader', ...(own ? { mine: own } : {}) };
    } catch (error) {
      if (error instanceof RecordError && error.answer) {
        const { status, text, contentType, url } = error.answer;
        // No plugin routes there (a 404, or an answer that is not the plugins' envelope, before any read
        // found them; reads under way at once all fall back): generated data over the catalogue.
        if ((status === 404 || status === 200) && this.#plugins !== true) {
          this.#plugins = false;
          this.#noPlugins.resolve();
          return;
        }
        // A customer (or key) the backend refuses: its own answer.
        if (status >= 400 && status < 500 && status !== 404) {
          const refused = new CustomerRefusedError(`the backend refused this customer at ${url} (${status})`, { status, body: text, contentType });
          // A refused token (or a session, which the wishlist listing does not take): the reviews as a guest reads them.
          if (customer !== GUEST && error.answer.url.includes('/store/wishlists')) await this.#asGuest(customer, headers, refused);
          throw refused;
        }
      }
      if (error instanceof RecordError || error instanceof RecordingProblem) throw new Error(`reading this customer's wishlists and reviews from the backend failed: ${error.message}`);
      throw error;
    }
    this.#plugins = true;
    if (!this.#settingsRead && this.#options.settings) await this.#readSettings(sent);
    if (!this.#make(customer)) throw new Error(`the mock holds the data of ${MAX_CUSTOMERS} customers read from the backend, each with writes: POST /__admin/reset to start again`);
    this.#datasets.set(customer, dataset);
    this.#read++;
  }

  /** Holds the guest's data (read now if need be, with the key alone) for a customer the backend refused, and their refusal. */
  async #asGuest(customer: string, headers: Record<string, string | string[] | undefined>, refused: CustomerRefusedError): Promise<void> {
    const key = headers[PUBLISHABLE_KEY_HEADER];
    if (this.needsRead(GUEST)) await this.read(GUEST, typeof key === 'string' ? { [PUBLISHABLE_KEY_HEADER]: key } : {});
    const guest = this.#datasets.get(GUEST);
    if (!guest || !this.#make(customer)) return;
    this.#datasets.set(customer, guest);
    this.#refused.set(customer, refused);
  }

  /**
   * The backend's wishlist settings (`GET /store/wishlists/settings`, no customer needed), read once
   * with the first customer's read: the write routes then answer as the backend is set up (one
   * wishlist per customer or several). A read that fails leaves the options' settings, and is tried
   * again with the next customer's read.
   */
  async #readSettings(headers: Record<string, string>): Promise<void> {
    try {
      const key = headers[PUBLISHABLE_KEY_HEADER];
      const [{ exchange }, { RECORD_DEFAULTS }] = await Promise.all([import('../../client/exchange.ts'), import('../../fixtures/recorder.ts')]);
      const answer = await exchange(`${this.#options.backend.replace(/\/+$/, '')}/store/wishlists/settings`, { timeoutMs: this.#options.timeoutMs ?? RECORD_DEFAULTS.timeoutMs, maxBodyBytes: 64 * 1024 }, undefined, key ? { [PUBLISHABLE_KEY_HEADER]: key } : {});
      const multiple = (answer.json as { allow_multiple_wishlists?: unknown } | null)?.allow_multiple_wishlists;
      if (answer.status === 200 && typeof multiple === 'boolean') {
        this.#options.settings!.allow_multiple_wishlists = multiple;
        this.#settingsRead = true;
      }
    } catch {
      // The options' settings stay; the next customer's read tries again.
    }
  }

  /** Room for one more customer's data: the one asked longest ago without writes is let go. False when there is none. */
  #make(customer: string): boolean {
    if (this.#datasets.has(customer) || this.#datasets.size < MAX_CUSTOMERS) return true;
    for (const held of this.#datasets.keys()) {
      if (!this.#options.writes.of(held)) {
        this.#datasets.delete(held);
        return true;
      }
    }
    return false;
  }

  /** Drops every customer's data (a reset): the next request of each reads it again. */
  forget(): void {
    this.#datasets.clear();
    this.#refused.clear();
    this.#read = 0;
  }
}

/**
 * The gate in front of the mock's own requests (backend/catalogue-gate.ts `withReadFirst`): a request
 * to the plugins' routes with a publishable key, of a customer (or guest) whose data is not read yet,
 * waits for the read. Without a key the mock answers its own 400, as always.
 */
export function customerDataGate(data: BackendCustomerData, backendLabel: string): ReadGate {
  return {
    readFor: (req) => {
      // The plugins' routes only (the OpenAPI document, the mock's own too, is no customer's data).
      if (!data.active || typeof req.headers[PUBLISHABLE_KEY_HEADER] !== 'string' || !ownedNotAdmin(req) || (req.url as string).toLowerCase().startsWith(OPENAPI_PATH)) return undefined;
      const customer = data.customerOf(req.headers);
      const wishlistRoute = /^\/store\/wishlists(\/|\?|$)/i.test(req.url as string);
      const write = req.method !== 'GET' && req.method !== 'HEAD';
      if (!data.needsRead(customer, wishlistRoute, write)) return undefined;
      // Refused on the wishlist routes: a review route is answered from the guest's reviews all the same.
      return data.read(customer, req.headers).catch((error: unknown) => {
        if (error instanceof CustomerRefusedError && !wishlistRoute && data.isRefused(customer)) return;
        throw error;
      });
    },
    refusalOf: (error) => (error instanceof CustomerRefusedError ? error.refusal : undefined),
    failureBody: (reason) =>
      JSON.stringify({ type: 'unknown_error', message: `Bad gateway: the backend ${backendLabel} could not be read (${reason.length > 400 ? `${reason.slice(0, 400)}...` : reason.replace(/\.$/, '')}); the mock answers each customer from their own data read there, and the next request reads it again` }),
  };
}

/** A product's rating aggregate: counted by the backend over approved reviews (the mock's own reviews are pending, and never count). */
const AGGREGATE_PATH = /^\/store\/reviews\/product\/[^/?]+\/aggregate-counts\/?(?:\?|$)/i;
/** The review listings (4.1, 4.2). */
const REVIEWS_PATH = /^\/store\/(?:products\/reviews|reviews\/product\/[^/?]+)\/?(?:\?|$)/i;

/**
 * Review reads the backend answers better than the mock's emulation can (docs/dialects.md, "Not
 * emulated": the product `include_product` embeds, the aggregate over approved reviews only), so they
 * are the backend's own answer: the aggregate always, and a listing asking for either while the
 * customer has written no review in the mock (theirs would be missing from the backend's answer).
 */
function reviewsReadOfBackend(url: string, reviewWrites: boolean): boolean {
  if (AGGREGATE_PATH.test(url)) return true;
  if (reviewWrites || !REVIEWS_PATH.test(url)) return false;
  const query = new URLSearchParams(url.includes('?') ? url.slice(url.indexOf('?') + 1) : '');
  return query.has('include_product') || query.has('include_aggregated_counts');
}

/** 4.4's path, its wishlist id (percent-encoded as sent). */
const ITEMS_PATH = /^\/store\/wishlists\/([^/?]+)\/items\/?(?:\?|$)/i;

/**
 * In front of the mock's own listener, once a customer's data is read, the reads the mock cannot answer
 * from it are the backend's, with the customer's own credentials (passed through, nothing written):
 * - a GET of 4.4 for a wishlist the mock does not know for this customer (neither in their data read from
 *   the backend, nor made or taken over by their writes): another customer's wishlist is the plugin's
 *   empty 500 when it holds items, an unknown one an empty page;
 * - a GET on the wishlist routes by a customer the backend refused (a token it does not take, a session
 *   where the listing wants a bearer token): its own answer to them.
 * Everything else goes to `listener`.
 */
export function withBackendAnswers(listener: RequestListener, data: BackendCustomerData, options: { knows(customer: string, wishlistId: string): boolean; hasReviewWrites(customer: string): boolean; passThrough: RequestListener }): RequestListener {
  // Sent as the customer the mock judged the request to be: without the other credential (lib/customers.ts namingHeaders).
  const passThrough = (req: IncomingMessage, res: ServerResponse) => {
    for (const name of namingHeaders(req.headers).drop) delete req.headers[name];
    options.passThrough(req, res);
  };
  return (req: IncomingMessage, res: ServerResponse) => {
    const method = req.method;
    const match = (method === 'GET' || method === 'HEAD') && data.active ? ITEMS_PATH.exec(req.url as string) : null;
    const read = (method === 'GET' || method === 'HEAD') && data.active && typeof req.headers[PUBLISHABLE_KEY_HEADER] === 'string';
    if (read && /^\/store\/wishlists(\/|\?|$)/i.test(req.url as string) && data.isRefused(data.customerOf(req.headers))) return passThrough(req, res);
    if (read && reviewsReadOfBackend(req.url as string, options.hasReviewWrites(data.customerOf(req.headers)))) return passThrough(req, res);
    if (match && typeof req.headers[PUBLISHABLE_KEY_HEADER] === 'string') {
      const customer = data.customerOf(req.headers);
      let id: string | undefined;
      try {
        id = decodeURIComponent(match[1]!);
      } catch {
        id = undefined;
      }
      if (id !== undefined && customer !== GUEST && data.datasetOf(customer) && !data.isRefused(customer) && !options.knows(customer, id)) return passThrough(req, res);
    }
    listener(req, res);
  };
}

/** A promise and its resolve (Promise.withResolvers, which Node 20 lacks). */
function deferred(): { promise: Promise<void>; resolve(): void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}
