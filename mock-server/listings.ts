import { Router, type Request, type Response } from 'express';
import {
  assertMaxPageSize,
  DEFAULT_REVIEW_ORDER,
  PATHS,
  REVIEWS_DEFAULT_LIMIT,
  REVIEWS_DEFAULT_OFFSET,
  WISHLIST_DEFAULT_SKIP,
  WISHLIST_DEFAULT_TAKE,
} from '../lib/api-rules.ts';
import type { DatasetHolder } from './dataset-holder.ts';
import { boundedMemo } from './memo.ts';
import { PageBodies, toBody, type Body } from './page-bodies.ts';
import { invalidRequest, notFound, quote } from './errors.ts';
import { integerParam, orderParam, readQuery } from './params.ts';

export interface ListingOptions {
  /** The largest `limit` / `take` accepted. */
  maxPageSize: number;
}

const REVIEW_PARAMS = ['limit', 'offset', 'order'] as const;
const WISHLIST_PARAMS = ['skip', 'take'] as const;
const WISHLIST_ITEM_PARAMS = ['skip', 'take', 'id'] as const;

/** Memory kept for whole answers (by request URL), per dataset version, in bytes. */
export const ANSWER_MEMO_BYTES = 64 * 1024 * 1024;

/**
 * The serialized answers for the dataset the holder has now. Everything here is made from
 * one dataset version: when the holder's version changes, it is all dropped and made anew.
 */
class Answers {
  #version = -1;
  #bodies: PageBodies | undefined;
  #byUrl = boundedMemo<string, Body>(ANSWER_MEMO_BYTES, (body) => body.bytes.length);

  constructor(readonly holder: DatasetHolder) {}

  /** The page bodies of the current dataset version (and forget any older version's answers). */
  bodies(): PageBodies {
    if (this.#version !== this.holder.version || !this.#bodies) this.#reset();
    return this.#bodies as PageBodies;
  }

  /**
   * The answer already made for this exact URL from the current dataset version, if any.
   * An answer depends only on the URL (path and query) and the dataset: the same URL asks
   * the same page of the same records.
   */
  cached(url: string): Body | undefined {
    if (this.#version !== this.holder.version) return undefined;
    return this.#byUrl.get(url);
  }

  /** Keep (and return) the answer made for `url`; `bodies()` has already checked the version. */
  keep(url: string, json: string): Body {
    const body = toBody(json);
    this.#byUrl.set(url, body);
    return body;
  }

  #reset(): void {
    this.#version = this.holder.version;
    this.#bodies = new PageBodies(this.holder.current);
    this.#byUrl = boundedMemo<string, Body>(ANSWER_MEMO_BYTES, (body) => body.bytes.length);
  }
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * What `res.json` would send (same status, Content-Type and ETag), from bytes made once:
 * with the ETag set here, `res.send` neither re-serializes nor re-hashes; it still answers
 * HEAD and a fresh conditional request (304) as Express does.
 *
 * (Writing the bytes with `res.end` directly saved a few more microseconds, but then
 * test/shutdown.test.ts often saw the request's log line after 'stopped': a timing race
 * between a response's 'finish' and the server's close. Not worth it.)
 */
function sendBody(req: Request, res: Response, body: Body): void {
  res.setHeader('Content-Type', JSON_TYPE);
  if (req.app.get('etag fn')) res.setHeader('ETag', body.etag);
  res.send(body.bytes);
}

/** The four listing endpoints over whatever dataset the holder has now. */
export function listingsRouter(holder: DatasetHolder, options: ListingOptions): Router {
  const { maxPageSize } = options;
  assertMaxPageSize(maxPageSize);
  const router = Router();
  const answers = new Answers(holder);

  // An answer already made for this exact URL (same dataset version) goes out at once,
  // before any route is matched; the routes below make (and check) everything else.
  router.use((req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const hit = answers.cached(req.originalUrl);
    if (hit) sendBody(req, res, hit);
    else next();
  });

  const reviewWindow = (req: Request, accepted: readonly string[]) => {
    const query = readQuery(req.originalUrl, accepted);
    return {
      limit: integerParam(query, 'limit', { min: 1, max: maxPageSize, fallback: REVIEWS_DEFAULT_LIMIT }),
      offset: integerParam(query, 'offset', { min: 0, max: Number.MAX_SAFE_INTEGER, fallback: REVIEWS_DEFAULT_OFFSET }),
      order: orderParam(query, DEFAULT_REVIEW_ORDER),
      query,
    };
  };

  const wishlistWindow = (req: Request, accepted: readonly string[]) => {
    const query = readQuery(req.originalUrl, accepted);
    return {
      take: integerParam(query, 'take', { min: 1, max: maxPageSize, fallback: WISHLIST_DEFAULT_TAKE }),
      skip: integerParam(query, 'skip', { min: 0, max: Number.MAX_SAFE_INTEGER, fallback: WISHLIST_DEFAULT_SKIP }),
      query,
    };
  };

  // Only a 200 answer is kept: an invalid request throws before anything is kept.
  // 4.1
  router.get(PATHS.reviews, (req, res) => {
    const url = req.originalUrl;
    const { limit, offset, order } = reviewWindow(req, REVIEW_PARAMS);
    sendBody(req, res, answers.keep(url, answers.bodies().reviews(order, offset, limit)));
  });

  // 4.2: an unknown product is an empty listing, not an error.
  router.get(PATHS.productReviews, (req, res) => {
    const url = req.originalUrl;
    const { limit, offset, order } = reviewWindow(req, REVIEW_PARAMS);
    const productId = req.params.product_id as string;
    sendBody(req, res, answers.keep(url, answers.bodies().productReviews(productId, order, offset, limit)));
  });

  // 4.3
  router.get(PATHS.wishlists, (req, res) => {
    const url = req.originalUrl;
    const { skip, take } = wishlistWindow(req, WISHLIST_PARAMS);
    sendBody(req, res, answers.keep(url, answers.bodies().wishlists(skip, take)));
  });

  // 4.4: the id may come again as ?id=, and must then be the path's.
  router.get(PATHS.wishlistItems, (req, res) => {
    const url = req.originalUrl;
    const { skip, take, query } = wishlistWindow(req, WISHLIST_ITEM_PARAMS);
    const id = req.params.id as string;
    const queryId = query.get('id');
    if (queryId !== undefined && queryId !== id) {
      throw invalidRequest(`'id' must be the wishlist id of the path ${quote(id)}, got ${quote(queryId)}`);
    }
    const bodies = answers.bodies();
    const index = bodies.dataset.wishlists.indexOf(id);
    if (index < 0) throw notFound(`Wishlist with id: ${id.length > 200 ? `${id.slice(0, 200)}...` : id} was not found`);
    sendBody(req, res, answers.keep(url, bodies.wishlistItems(index, skip, take)));
  });

  return router;
}
