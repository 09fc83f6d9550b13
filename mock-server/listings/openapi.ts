/**
 * The OpenAPI document of a mock's dialect, with examples answered by a mock over the seeded
 * dataset (seed 1, default sizes): what `store-listing-kit openapi` prints and the mock serves
 * at `GET /openapi.json`. The document itself is lib's (lib/openapi/).
 */
import type { Request, Response } from 'express';
import { DEFAULT_MAX_PAGE_SIZE } from '../../lib/api-rules.ts';
import { createDialect, type DialectName } from '../../lib/dialects/index.ts';
import { EXAMPLE_CUSTOMER_AUTHORIZATION, openApiDocument, type ExampleSource, type OpenApiDocument } from '../../lib/openapi/index.ts';
import { customerOf } from '../../lib/customers.ts';
import { seedOf } from '../writes/seed.ts';
import { generateDataset } from '../../fixtures/dataset.ts';
import { answerListing, PageBodies } from './page-bodies.ts';

/** The examples' dataset: the default one, whatever the served dataset is. */
export const EXAMPLE_SEED = 1;

/** A mock over the seed-1 dataset in this dialect, for the document's examples. */
export function seededExamples(dialect: DialectName, maxPageSize = DEFAULT_MAX_PAGE_SIZE): ExampleSource {
  const dataset = generateDataset({ seed: EXAMPLE_SEED });
  const bodies = new PageBodies(dataset, createDialect(dialect, { maxPageSize }));
  const wishlists = dataset.wishlists;
  let wishlist = 0;
  while (wishlist < wishlists.count - 1 && wishlists.source.itemCount(wishlist) < 4) wishlist++;
  // Where each customer has their own wishlists, the examples' customer's (docs/writes.md).
  const own = bodies.dialect.wishlistsPerCustomer ? seedOf(dataset, bodies.dialect).of(customerOf({ authorization: EXAMPLE_CUSTOMER_AUTHORIZATION })?.id ?? '') : undefined;
  return {
    productId: dataset.reviews.source.review(0).product_id,
    wishlistId: own && own.count > 0 ? own.row(0).id : wishlists.source.wishlist(wishlist).id,
    answer: (request) => answerListing(bodies, request),
  };
}

/** The document with seed-1 examples. */
export function mockOpenApiDocument(options: { dialect: DialectName; maxPageSize?: number; serverUrl?: string }): OpenApiDocument {
  const maxPageSize = options.maxPageSize ?? DEFAULT_MAX_PAGE_SIZE;
  return openApiDocument({ dialect: options.dialect, maxPageSize, examples: seededExamples(options.dialect, maxPageSize), ...(options.serverUrl ? { serverUrl: options.serverUrl } : {}) });
}

/** `GET /openapi.json`: the document of this mock's dialect, naming the server as the request reached it. Made once, on first request. */
export function openApiRoute(options: { dialect: DialectName; maxPageSize?: number }): (req: Request, res: Response) => void {
  let document: OpenApiDocument | undefined;
  return (req, res) => {
    document ??= mockOpenApiDocument(options);
    const url = `${req.protocol}://${req.get('host') ?? 'localhost'}`;
    res.json({ ...document, servers: [{ ...document.servers[0], url }] });
  };
}
