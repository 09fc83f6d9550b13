import { Router, type Request, type Response } from 'express';
import { ENDPOINT_NAMES, PATHS, type EndpointName } from '../../lib/api-rules.ts';
import { isRefusal, type Dialect, type ListingRequest, type Refusal } from '../../lib/dialects/index.ts';
import type { Steps } from '../../fixtures/steps.ts';
import type { Dataset } from '../../fixtures/dataset.ts';
import { queryPairs } from '../../lib/query.ts';
import type { DatasetHolder } from '../dataset/holder.ts';
import { boundedMemo } from './memo.ts';
import { buildBetweenRequests } from '../dataset/builder.ts';
import { answerListing, answerRead, PageBodies, readListing, refusalAnswer, type ListingAnswer, type PageFacts } from './page-bodies.ts';
import { notePage } from '../journal/observe.ts';
import { toBody, type Body } from './response-body.ts';
import { CustomerIds } from '../../lib/customers.ts';
import { REASON_HEADER } from '../../lib/write-reason.ts';
import type { CustomerWrites } from '../writes/store.ts';

export interface ListingOptions {
  /** The kept answers (shared with the fast path in front of Express, fast-path.ts). */
  answers: ListingAnswers;
}

/** Memory kept for whole answers (by request URL), per dataset version, in bytes. */
export const ANSWER_MEMO_BYTES = 64 * 1024 * 1024;

/** Slots of the doorkeeper (keys asked once); a key's slot holds its 32-bit hash. */
const DOORKEEPER_SLOTS = 1 << 16;

/** FNV-1a over the UTF-16 code units: the doorkeeper's hash of a key (never 0, the empty slot). */
function keyHash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 0 || 1;
}

/** A kept answer, with the listing it answers (the dialect's guard still runs before it goes out). */
export interface KeptAnswer extends Body {
  endpoint: EndpointName;
  id: string | undefined;
  /** What its page numbers were made from, for the journal. */
  page: PageFacts | undefined;
}

/**
 * The serialized answers for the dataset the holder has now. Everything here is made from
 * one dataset version: when the holder's version changes, it is all dropped and made anew.
 */
export class ListingAnswers {
  #version = -1;
  #bodies: PageBodies | undefined;
  #kept = boundedMemo<string, KeptAnswer>(ANSWER_MEMO_BYTES, (body) => body.bytes.length);
  readonly #askedOnce = new Uint32Array(DOORKEEPER_SLOTS);
  readonly #customers = new CustomerIds();
  /** The bodies of customers' own data read from a backend, by dataset (let go with it). */
  readonly #customerBodies = new WeakMap<Dataset, PageBodies>();

  constructor(
    readonly holder: DatasetHolder,
    readonly dialect: Dialect,
  ) {}

  /**
   * The page bodies of the current dataset version (and forget any older version's answers); for a
   * customer whose own data was read from a backend (`holder.datasetOf`), the bodies of that data.
   */
  bodies(customer?: string): PageBodies {
    if (this.#version !== this.holder.version || !this.#bodies) this.#reset();
    const own = customer === undefined ? undefined : this.holder.datasetOf(customer);
    if (!own || own === this.holder.current) return this.#bodies as PageBodies;
    let bodies = this.#customerBodies.get(own);
    if (!bodies) this.#customerBodies.set(own, (bodies = new PageBodies(own, this.dialect)));
    return bodies;
  }

  /** The customer ('' for a guest) a request's answers are made for. */
  customerOf(headers: ListingRequest['headers']): string {
    return this.#customers.idOf(headers);
  }

  /**
   * What an answer is kept under: the request target as received, and the dialect's variant of
   * the headers when it has one. An answer depends only on that and the dataset: the same key
   * asks the same page of the same records.
   */
  keyOf(url: string, headers: ListingRequest['headers'], writes = this.writesOf(headers)): string {
    // A customer with writes sees their own listings (docs/writes.md): never kept, so never a kept key.
    if (writes) return `${url}\u0001${writes.id}`;
    const variant = this.dialect.variant(headers);
    // Where each customer has their own wishlists, a wishlist listing is kept per customer.
    // ...and every listing, when customers' own data is read from a backend.
    const perCustomer = this.holder.customerData?.active || (this.dialect.wishlistsPerCustomer && url.startsWith('/store/wishlists'));
    const owner = perCustomer ? `\u0002${this.#customers.idOf(headers)}` : '';
    return variant || owner ? `${url}\u0000${variant}${owner}` : url;
  }

  /** The writes of the customer asking, when they have any (undefined at once while nobody has). */
  writesOf(headers: ListingRequest['headers']): CustomerWrites | undefined {
    const store = this.holder.writes;
    if (store.empty) return undefined;
    const customer = this.#customers.idOf(headers);
    return customer ? store.of(customer) : undefined;
  }

  /** The answer already made for this key from the current dataset version, if any. */
  kept(key: string): KeptAnswer | undefined {
    if (this.#version !== this.holder.version) return undefined;
    return this.#kept.get(key);
  }

  /**
   * The answer made for `key`, as sent; kept when the key has been asked before (in this dataset
   * version; `bodies()` has already checked it). A doorkeeper, as caches in front of a long
   * tail have: a page asked once, as most are when a client pages at random through a large
   * dataset, is never kept, so it costs no memory and no collector work; a page asked twice is
   * kept, and from then on answered by the fast path. The doorkeeper is a table of key hashes
   * with no allocation per request; two keys that share a slot may keep each other out of it.
   */
  answer(key: string, request: ListingRequest, json: string, page?: PageFacts): KeptAnswer {
    const { bytes, etag } = toBody(json);
    const answer: KeptAnswer = { bytes, etag, endpoint: request.endpoint, id: request.id, page };
    const hash = keyHash(key);
    const slot = hash & (DOORKEEPER_SLOTS - 1);
    if (this.#askedOnce[slot] === hash) this.#kept.set(key, answer);
    else this.#askedOnce[slot] = hash;
    return answer;
  }

  /** Builds in flight or queued, by what they build (see `build`). */
  #building = new Map<string, Promise<void>>();
  /** The end of the last build queued: builds run one after another. */
  #lastBuild: Promise<unknown> = Promise.resolve();

  /**
   * Runs `pending` (what `PageBodies.preparing` says an answer needs) between requests, in slices
   * (dataset-builder.ts), so that the other clients are answered meanwhile; requests that need the
   * same build while it runs wait for that one. Builds run one at a time, in the order asked: a
   * client paging at random right after start asks for every order at once, and six builds
   * interleaved held all their intermediate arrays (about 100 MB at a million reviews) at once,
   * leaving the process's memory larger and every later request dearer (docs/benchmarks.md).
   * A queued build's steps start only when it runs, so an order built meanwhile is not built again.
   */
  build(pending: { key: string; steps: Steps<void> }): Promise<void> {
    const key = `${this.#version}:${pending.key}`;
    let built = this.#building.get(key);
    if (!built) {
      built = this.#lastBuild
        .then(() => buildBetweenRequests(pending.steps))
        .then(
          () => void this.#building.delete(key),
          (error: unknown) => {
            this.#building.delete(key);
            throw error;
          },
        );
      this.#lastBuild = built.catch(() => undefined);
      this.#building.set(key, built);
    }
    return built;
  }

  #reset(): void {
    this.#version = this.holder.version;
    this.#bodies = new PageBodies(this.holder.current, this.dialect);
    this.#kept = boundedMemo<string, KeptAnswer>(ANSWER_MEMO_BYTES, (body) => body.bytes.length);
    this.#askedOnce.fill(0);
  }
}

export const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * What `res.json` would send (same status, Content-Type and ETag), from bytes made once:
 * with the ETag set here, `res.send` neither re-serializes nor re-hashes; it still answers
 * HEAD and a fresh conditional request (304) as Express does.
 *
 * (Writing the bytes with `res.end` directly saved a few more microseconds, but then
 * test/shutdown.test.ts often saw the request's log line after 'stopped': a timing race
 * between a response's 'finish' and the server's close. Not worth it.)
 */
function sendBody(req: Request, res: Response, body: KeptAnswer): void {
  notePage(res, body.page);
  res.setHeader('Content-Type', JSON_TYPE);
  if (req.app.get('etag fn')) res.setHeader('ETag', body.etag);
  res.send(body.bytes);
}

/** A dialect's refusal: its status and JSON body, or an empty body (as some plugin routes answer) with its reason. */
function sendRefusal(res: Response, refusal: Refusal): void {
  sendAnswer(res, refusalAnswer(refusal));
}

function sendAnswer(res: Response, answer: ListingAnswer): void {
  notePage(res, answer.page);
  res.status(answer.status);
  // Set before the answer goes out: the journal records the headers as sent (journal/observe.ts).
  if (answer.reason !== undefined) res.setHeader(REASON_HEADER, answer.reason);
  if (answer.body === null) res.end();
  else res.type(JSON_TYPE).send(answer.body);
}

function listingRequest(endpoint: EndpointName, id: string | undefined, req: Request): ListingRequest {
  return { endpoint, ...(id === undefined ? {} : { id }), query: queryPairs(req.originalUrl), headers: req.headers };
}

/**
 * The four listing endpoints over whatever dataset the holder has now, in the answers' dialect,
 * as routes of `app` itself (a nested router would cost every uncached page one more dispatch).
 */
export function mountListings(app: Pick<Router, 'get'>, options: ListingOptions): void {
  const { answers } = options;
  const { dialect } = answers;

  // Only a 200 answer is kept (when asked a second time): a refusal never is.
  for (const endpoint of ENDPOINT_NAMES) {
    // Not an async function: a page whose order is built already (nearly every request) is answered
    // in the same tick, without a promise for the router to watch; only a first request for an
    // order waits for its build, and then returns the promise of it (Express 5 routes its rejection).
    app.get(PATHS[endpoint], (req, res) => {
      const params = req.params as { product_id?: string; id?: string };
      const request = listingRequest(endpoint, params.product_id ?? params.id, req);
      // A customer with writes: their own view, made for each request and never kept.
      const writes = answers.writesOf(req.headers);
      const key = answers.keyOf(req.originalUrl, req.headers, writes);
      // An answer already made for this exact URL (same dataset version; the fast path in front
      // answers most of them) goes out once the dialect's guard lets the request through.
      const hit = writes ? undefined : answers.kept(key);
      if (hit) {
        const blocked = dialect.guard(request);
        return blocked ? sendRefusal(res, blocked) : sendBody(req, res, hit);
      }
      // The rules in their one order (guard, read, list), as the MSW handlers apply them too; what
      // the listing needs built first (a first request for an order) is built between requests.
      const customer = answers.customerOf(req.headers);
      const bodies = answers.bodies(customer);
      const read = readListing(bodies, request);
      const pending = isRefusal(read) ? undefined : bodies.preparing(request, read);
      if (!pending) return send(req, res, key, request, answerRead(bodies, request, read, writes, answers.holder.writes), writes);
      // A dataset swapped in meanwhile is answered from (in one go, should it need another build).
      return answers.build(pending).then(() => {
        const now = answers.bodies(customer);
        send(req, res, key, request, now === bodies ? answerRead(bodies, request, read, writes, answers.holder.writes) : answerListing(now, request, writes, answers.holder.writes), writes);
      });
    });
  }

  function send(req: Request, res: Response, key: string, request: ListingRequest, answer: ListingAnswer, writes: CustomerWrites | undefined): void {
    if (answer.status !== 200 || answer.body === null || writes) return sendAnswer(res, answer);
    sendBody(req, res, answers.answer(key, request, answer.body, answer.page));
  }
}
