/**
 * The spec dialect (lib/dialects/spec.ts) as the OpenAPI document shows it: its accepted
 * parameters with the bounds and defaults `read` enforces, the envelopes and records of
 * lib/envelopes.ts and lib/records.ts, and its refusals. The prose is docs/API.md's.
 */
import { DEFAULT_REVIEW_ORDER, formatReviewOrder, MAX_ANSWER_RECORDS, REVIEW_ORDER_VALUES, type EndpointName } from '../api-rules.ts';
import { SPEC_ACCEPTED, specIntegerBounds } from '../dialects/spec.ts';
import { envelopeSchemas, errorBodySchema } from '../envelopes.ts';
import { recordSchemas } from '../records.ts';
import { faultBody } from '../fault-headers.ts';
import type { DialectApi, OperationDoc, ParameterDoc, ResponseDoc } from './types.ts';

const ERROR = { name: 'Error', schema: errorBodySchema };

const DESCRIPTIONS: Record<string, string> = {
  limit: 'Page size: reviews per page, echoed as `limit`. Plain decimal digits; anything else (sign, decimal point, exponent, spaces, empty, repeated) is a 400.',
  offset: 'Reviews skipped before the page, echoed as `offset`. May point past the end: an empty page. Plain decimal digits.',
  order: 'Sort field, `-` prefixed for descending; ties by `id` ascending. Sorting applies to the whole set before paging.',
  take: 'Page size: records per page, echoed as `take`. Plain decimal digits; anything else is a 400.',
  skip: 'Records skipped before the page, echoed as `skip`. May point past the end: an empty page. Plain decimal digits.',
  id: 'The wishlist id again (the spec allows it); when it differs from the path id, 400.',
};

function queryParameters(endpoint: EndpointName, maxPageSize: number): ParameterDoc[] {
  const bounds = specIntegerBounds(maxPageSize);
  return SPEC_ACCEPTED[endpoint].map((name): ParameterDoc => {
    const description = DESCRIPTIONS[name];
    if (description === undefined) throw new Error(`the spec dialect accepts '${name}', which the OpenAPI document does not describe`);
    if (name === 'order') return { name, in: 'query', description, schema: { type: 'string', enum: [...REVIEW_ORDER_VALUES], default: formatReviewOrder(DEFAULT_REVIEW_ORDER) } };
    if (name === 'id') return { name, in: 'query', description, schema: { type: 'string' } };
    const { min, max, fallback } = bounds[name];
    return { name, in: 'query', description, schema: { type: 'integer', minimum: min, maximum: max, default: fallback } };
  });
}

const PATH_PARAMETERS: Partial<Record<EndpointName, ParameterDoc>> = {
  productReviews: { name: 'product_id', in: 'path', required: true, description: "The product's id. An unknown product is not an error: an empty page with `count: 0`.", schema: { type: 'string' } },
  wishlistItems: { name: 'id', in: 'path', required: true, description: "The wishlist's id; an unknown one is a 404.", schema: { type: 'string' } },
};

const badParameter: ResponseDoc = {
  status: 400,
  description: `\`invalid_data\`: a bad, repeated or unknown parameter (the message names the parameter, the value received and what is accepted), or a page of wishlists that would hold more than ${MAX_ANSWER_RECORDS} records with their embedded items (the message says which \`take\` fits).`,
  body: ERROR,
  examples: {
    outOfRange: { summary: 'a page size out of range', query: [['limit', '0']] },
  },
};

const injectedFault: ResponseDoc = {
  status: 500,
  description: '`unknown_error`: only when a fault is injected on purpose (the admin API, `--error-rate`, or `x-mock-status` with fault headers on).',
  body: ERROR,
  fixedExamples: { fault: { summary: 'an injected fault', value: faultBody(500) } },
};

function operation(endpoint: EndpointName, maxPageSize: number, doc: Pick<OperationDoc, 'summary' | 'description' | 'responses'>): OperationDoc {
  const path = PATH_PARAMETERS[endpoint];
  return { ...doc, parameters: [...(path ? [path] : []), ...queryParameters(endpoint, maxPageSize)], security: [] };
}

export function specApi(maxPageSize: number): DialectApi {
  const wishlistsBadParameter: ResponseDoc = {
    ...badParameter,
    examples: {
      outOfRange: { summary: 'a page size out of range', query: [['take', '0']] },
      limitOffset: { summary: "limit/offset, what @alphabite/medusa-sdk sends: the 400 says to use skip/take or the alphabite dialect", query: [['limit', '10'], ['offset', '0']] },
    },
  };
  return {
    title: 'store-listing-kit: the listing endpoints (spec dialect)',
    description:
      'The four paginated listings of the spec, with the choices of docs/API.md where the spec is silent. Generated from the zod schemas and the dialect of store-listing-kit, so it cannot drift from the mock.',
    records: [
      { name: 'Review', schema: recordSchemas.review },
      { name: 'Wishlist', schema: recordSchemas.wishlist },
      { name: 'WishlistItem', schema: recordSchemas.item },
    ],
    securitySchemes: {},
    // The spec shows no write route: the spec document has none.
    routes: [],
    operations: {
      reviews: operation('reviews', maxPageSize, {
        summary: 'List reviews (4.1)',
        description: 'All reviews, paged with `limit`/`offset` and sorted with `order`.',
        responses: [
          { status: 200, description: 'A page of reviews.', body: { name: 'ReviewsPage', schema: envelopeSchemas.reviews }, examples: { page: { summary: 'two reviews, highest rating first', query: [['limit', '2'], ['order', '-rating']] } } },
          { ...badParameter, examples: { ...badParameter.examples, unknownParameter: { summary: 'an unknown parameter', query: [['page', '2']] } } },
          injectedFault,
        ],
      }),
      productReviews: operation('productReviews', maxPageSize, {
        summary: "List a product's reviews (4.2)",
        description: "The reviews of one product, paged and sorted as 4.1 (the kit accepts `order` here too).",
        responses: [
          {
            status: 200,
            description: "A page of the product's reviews; an unknown product is an empty page with `count: 0`.",
            body: { name: 'ReviewsPage', schema: envelopeSchemas.reviews },
            examples: { page: { summary: 'the second page of two', id: 'known', query: [['limit', '2'], ['offset', '2']] }, unknownProduct: { summary: 'an unknown product', id: 'unknown' } },
          },
          badParameter,
          injectedFault,
        ],
      }),
      wishlists: operation('wishlists', maxPageSize, {
        summary: 'List wishlists (4.3)',
        description: 'Wishlists, each with all its items embedded, paged with `skip`/`take`.',
        responses: [
          { status: 200, description: 'A page of wishlists; `nextPage`/`prevPage` are absent when there is none (never `null`).', body: { name: 'WishlistsPage', schema: envelopeSchemas.wishlists }, examples: { page: { summary: 'two wishlists', query: [['take', '2']] } } },
          wishlistsBadParameter,
          injectedFault,
        ],
      }),
      wishlistItems: operation('wishlistItems', maxPageSize, {
        summary: "List a wishlist's items (4.4)",
        description: "One wishlist's items, paged with `skip`/`take`; concatenated, the pages equal the wishlist's embedded `items`.",
        responses: [
          { status: 200, description: "A page of the wishlist's items.", body: { name: 'WishlistItemsPage', schema: envelopeSchemas.wishlistItems }, examples: { page: { summary: 'the second page of two', id: 'known', query: [['skip', '2'], ['take', '2']] } } },
          { ...wishlistsBadParameter, examples: { ...wishlistsBadParameter.examples, otherId: { summary: '?id= unlike the path id', id: 'known', query: [['id', 'wl_other']] } } },
          { status: 404, description: '`not_found`: the dataset has no wishlist with this id.', body: ERROR, examples: { unknownWishlist: { summary: 'an unknown wishlist', id: 'unknown' } } },
          injectedFault,
        ],
      }),
    },
  };
}
