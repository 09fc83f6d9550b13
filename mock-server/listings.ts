import { Router, type Request, type Response } from 'express';
import {
  DEFAULT_REVIEW_ORDER,
  PATHS,
  REVIEWS_DEFAULT_LIMIT,
  REVIEWS_DEFAULT_OFFSET,
  WISHLIST_DEFAULT_SKIP,
  WISHLIST_DEFAULT_TAKE,
} from '../lib/api-rules.ts';
import { reviewsEnvelope, wishlistEnvelope } from '../lib/paging.ts';
import type { RecordPage } from '../fixtures/index.ts';
import type { DatasetHolder } from './dataset-holder.ts';
import { invalidRequest, notFound, quote } from './errors.ts';
import { integerParam, orderParam, readQuery } from './params.ts';

export interface ListingOptions {
  /** The largest `limit` / `take` accepted. */
  maxPageSize: number;
}

const REVIEW_PARAMS = ['limit', 'offset', 'order'] as const;
const WISHLIST_PARAMS = ['skip', 'take'] as const;
const WISHLIST_ITEM_PARAMS = ['skip', 'take', 'id'] as const;

/** The four listing endpoints over whatever dataset the holder has now. */
export function listingsRouter(holder: DatasetHolder, options: ListingOptions): Router {
  const router = Router();
  const { maxPageSize } = options;

  const reviewWindow = (req: Request, accepted: readonly string[]) => {
    const query = readQuery(req.originalUrl, accepted);
    return {
      limit: integerParam(query, 'limit', { min: 1, max: maxPageSize, fallback: Math.min(REVIEWS_DEFAULT_LIMIT, maxPageSize) }),
      offset: integerParam(query, 'offset', { min: 0, max: Number.MAX_SAFE_INTEGER, fallback: REVIEWS_DEFAULT_OFFSET }),
      order: orderParam(query, DEFAULT_REVIEW_ORDER),
      query,
    };
  };

  const wishlistWindow = (req: Request, accepted: readonly string[]) => {
    const query = readQuery(req.originalUrl, accepted);
    return {
      take: integerParam(query, 'take', { min: 1, max: maxPageSize, fallback: Math.min(WISHLIST_DEFAULT_TAKE, maxPageSize) }),
      skip: integerParam(query, 'skip', { min: 0, max: Number.MAX_SAFE_INTEGER, fallback: WISHLIST_DEFAULT_SKIP }),
      query,
    };
  };

  const sendReviews = <T>(res: Response, page: RecordPage<T>, offset: number, limit: number) =>
    res.json(reviewsEnvelope(page.records, page.count, offset, limit));
  const sendWishlists = <T>(res: Response, page: RecordPage<T>, skip: number, take: number) =>
    res.json(wishlistEnvelope(page.records, page.count, skip, take));

  // 4.1
  router.get(PATHS.reviews, (req, res) => {
    const { limit, offset, order } = reviewWindow(req, REVIEW_PARAMS);
    sendReviews(res, holder.current.reviews.page(order, offset, limit), offset, limit);
  });

  // 4.2: an unknown product is an empty listing, not an error.
  router.get(PATHS.productReviews, (req, res) => {
    const { limit, offset, order } = reviewWindow(req, REVIEW_PARAMS);
    const productId = req.params.product_id as string;
    sendReviews(res, holder.current.reviews.productPage(productId, order, offset, limit), offset, limit);
  });

  // 4.3
  router.get(PATHS.wishlists, (req, res) => {
    const { skip, take } = wishlistWindow(req, WISHLIST_PARAMS);
    sendWishlists(res, holder.current.wishlists.page(skip, take), skip, take);
  });

  // 4.4: the id may come again as ?id=, and must then be the path's.
  router.get(PATHS.wishlistItems, (req, res) => {
    const { skip, take, query } = wishlistWindow(req, WISHLIST_ITEM_PARAMS);
    const id = req.params.id as string;
    const queryId = query.get('id');
    if (queryId !== undefined && queryId !== id) {
      throw invalidRequest(`'id' must be the wishlist id of the path ${quote(id)}, got ${quote(queryId)}`);
    }
    const wishlists = holder.current.wishlists;
    const index = wishlists.indexOf(id);
    if (index < 0) throw notFound(`Wishlist with id: ${id.length > 200 ? `${id.slice(0, 200)}...` : id} was not found`);
    sendWishlists(res, wishlists.itemsPage(index, skip, take), skip, take);
  });

  return router;
}
