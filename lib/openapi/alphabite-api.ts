/**
 * The alphabite dialect (lib/dialects/alphabite.ts: the published plugins, bugs included) as
 * the OpenAPI document shows it: limit/offset everywhere, Medusa's parameter types, the
 * publishable-key header, the bearer token of 4.3 and 4.4, the envelopes with clamped page
 * numbers and the records as the dialect projects them (lib/dialects/alphabite-schemas.ts).
 * docs/dialects.md explains each difference from the spec.
 */
import { MAX_ANSWER_RECORDS, type EndpointName } from '../api-rules.ts';
import { ALPHABITE_QUERY_FIELDS, PUBLISHABLE_KEY_HEADER } from '../dialects/alphabite.ts';
import { alphabiteEnvelopeSchemas, alphabiteErrorSchemas, alphabiteRecordSchemas } from '../dialects/alphabite-schemas.ts';
import { ALPHABITE_SECURITY_SCHEMES, ERROR, medusaQueryParameters, PUBLISHABLE_KEY, REASON_HEADER_DOC } from './alphabite-common.ts';
import { REASON_HEADER } from '../write-reason.ts';
import { alphabiteWriteRoutes } from './alphabite-write-api.ts';
import type { DialectApi, ExampleRequest, OperationDoc, ParameterDoc, ResponseDoc } from './types.ts';

/** What a parameter does, where its name says more than its type. */
const NOTES: Record<string, string> = {
  limit: 'Page size (echoed as `take`); `0` is an empty page whose page numbers are `null`.',
  offset: 'Records skipped (echoed as `skip`).',
  order: 'A column, `-` prefixed for descending; default `id` ascending. A name that is not a column (`desc`) is a 500.',
  fields: 'Accepted, no effect in the mock.',
  with_deleted: 'Accepted, no effect in the mock.',
  product_ids: 'Only reviews of these products.',
  rating: 'Only reviews with this rating.',
  verified_purchase_only: 'Only verified purchases.',
  my_reviews_only: 'Accepted, no effect in the mock (its reviews belong to no customer).',
  include_product: 'Accepted, no effect in the mock.',
  sort_by: 'Accepted, no effect in the mock.',
  include_aggregated_counts: 'Adds `average`, `total_count` and `counts` after the envelope.',
  items_fields: 'Accepted, no effect (items are not included).',
};

function queryParameters(endpoint: EndpointName): ParameterDoc[] {
  return medusaQueryParameters(ALPHABITE_QUERY_FIELDS[endpoint], NOTES);
}

const PATH_PARAMETERS: Partial<Record<EndpointName, ParameterDoc>> = {
  productReviews: { name: 'product_id', in: 'path', required: true, description: "The product's id; an unknown product is an empty page.", schema: { type: 'string' } },
  wishlistItems: { name: 'id', in: 'path', required: true, description: "The wishlist's id; an unknown wishlist is an empty page (200, `count: 0`).", schema: { type: 'string' } },
};

const KEY = { [PUBLISHABLE_KEY_HEADER]: 'pk_example' };
/** The customer the examples ask as: the wishlists they list are theirs (mock-server/listings/openapi.ts picks one of them). */
export const EXAMPLE_CUSTOMER_AUTHORIZATION = 'Bearer example-customer-token';
const CUSTOMER = { ...KEY, authorization: EXAMPLE_CUSTOMER_AUTHORIZATION };

const refusedBeforeAnything: Record<string, ExampleRequest> = { missingKey: { summary: 'no publishable key', headers: {} } };

function badRequest(examples: Record<string, ExampleRequest>): ResponseDoc {
  return {
    status: 400,
    description: `\`not_allowed\` without the publishable key; \`invalid_data\` from Medusa's strict validation (unknown fields, non-numbers: at most three issues, joined by \`; \`), or, from the mock only, for a page of more than ${MAX_ANSWER_RECORDS} records, which the published plugins would answer (the message says what to ask for instead).`,
    body: ERROR,
    examples: { ...refusedBeforeAnything, ...examples },
  };
}

function operation(endpoint: EndpointName, doc: Omit<OperationDoc, 'parameters'>): OperationDoc {
  const path = PATH_PARAMETERS[endpoint];
  return { ...doc, parameters: [...(path ? [path] : []), PUBLISHABLE_KEY, ...queryParameters(endpoint)] };
}

const databaseError500 = (body: ResponseDoc['body'], examples: Record<string, ExampleRequest>, more = ''): ResponseDoc => ({
  status: 500,
  description: body
    ? 'A negative `limit`/`offset` or an `order` that is not a column reaches the database, which refuses it (`unknown_error`).' + more
    : 'A negative `limit`/`offset` or an `order` that is not a column reaches the database; the route answers 500 with an empty body.' + more + ` The mock says which in \`${REASON_HEADER}\`.`,
  body,
  examples,
  ...(body ? {} : { headers: { [REASON_HEADER]: REASON_HEADER_DOC } }),
});

export function alphabiteApi(): DialectApi {
  return {
    title: 'store-listing-kit: the listing endpoints (alphabite dialect: the published plugins)',
    description:
      'The four listings as @alphabite/medusa-reviews 0.7.2 and @alphabite/medusa-wishlist 0.7.4 answer them on Medusa 2.x, bugs included (docs/dialects.md): limit/offset everywhere, clamped page numbers (never absent; `currentPage` is not floored; `null` for a page size of 0), 4.1 ignoring paging. Generated from the zod schemas and the dialect of store-listing-kit.',
    records: [
      { name: 'Review', schema: alphabiteRecordSchemas.review },
      { name: 'Wishlist', schema: alphabiteRecordSchemas.wishlist },
      { name: 'WishlistItem', schema: alphabiteRecordSchemas.item },
    ],
    securitySchemes: ALPHABITE_SECURITY_SCHEMES,
    routes: alphabiteWriteRoutes(),
    operations: {
      reviews: operation('reviews', {
        summary: 'List reviews (4.1)',
        description: '**Ignores `limit`, `offset` and `order`**: every matching review, by id, with always the same page numbers (`count: 0`). Page product reviews through 4.2.',
        security: [],
        responses: [
          {
            status: 200,
            description: 'Every matching review, and constant page numbers.',
            body: { name: 'ReviewsListPage', schema: alphabiteEnvelopeSchemas.reviews },
            examples: { filtered: { summary: "one product's verified 5-star reviews", headers: KEY, query: [['product_ids', '{productId}'], ['rating', '5'], ['verified_purchase_only', 'true']] } },
          },
          badRequest({ unknownField: { summary: 'an unknown field', headers: KEY, query: [['page', '2']] } }),
        ],
      }),
      productReviews: operation('productReviews', {
        summary: "List a product's reviews (4.2)",
        description: 'Paged with `limit`/`offset` (defaults 20/0), clamped page numbers, records under `data`.',
        security: [],
        responses: [
          {
            status: 200,
            description: "A page of the product's reviews; `include_aggregated_counts` adds the rating aggregate.",
            body: { name: 'ProductReviewsPage', schema: alphabiteEnvelopeSchemas.productReviews },
            examples: {
              unaligned: { summary: 'offset 1 with limit 2: page 1.5', headers: KEY, id: 'known', query: [['limit', '2'], ['offset', '1']] },
              aggregate: { summary: 'with the rating aggregate', headers: KEY, id: 'known', query: [['limit', '1'], ['include_aggregated_counts', 'true']] },
              emptyPageSize: { summary: 'limit=0: page numbers null', headers: KEY, id: 'known', query: [['limit', '0']] },
            },
          },
          badRequest({ notANumber: { summary: 'a limit that is not a number', headers: KEY, id: 'known', query: [['limit', 'abc']] } }),
          databaseError500({ name: 'UnknownError', schema: alphabiteErrorSchemas.unknownError }, { negativeLimit: { summary: 'a negative limit', headers: KEY, id: 'known', query: [['limit', '-1']] } }),
        ],
      }),
      wishlists: operation('wishlists', {
        summary: 'List wishlists (4.3)',
        description: "A customer bearer token is required, before validation. Each wishlist's own columns, no items.",
        security: [{ customerBearer: [] }],
        responses: [
          { status: 200, description: 'A page of wishlists.', body: { name: 'WishlistsPage', schema: alphabiteEnvelopeSchemas.wishlists }, examples: { page: { summary: 'two wishlists', headers: CUSTOMER, query: [['limit', '2']] } } },
          badRequest({ skipTake: { summary: "the spec's skip/take", headers: CUSTOMER, query: [['skip', '0'], ['take', '2']] } }),
          { status: 401, description: 'No bearer token (a session cookie is not enough).', body: { name: 'Unauthorized', schema: alphabiteErrorSchemas.unauthorized }, examples: { noToken: { summary: 'no bearer token', headers: KEY } } },
          databaseError500(null, { negativeLimit: { summary: 'a negative limit', headers: CUSTOMER, query: [['limit', '-1']] } }),
        ],
      }),
      wishlistItems: operation('wishlistItems', {
        summary: "List a wishlist's items (4.4)",
        description: 'A guest (no bearer token, no session) is refused after validation. An unknown wishlist is an empty page.',
        security: [{ customerBearer: [] }, { customerSession: [] }],
        responses: [
          {
            status: 200,
            description: "A page of the wishlist's items, with the plugin's default fields.",
            body: { name: 'WishlistItemsPage', schema: alphabiteEnvelopeSchemas.wishlistItems },
            examples: { page: { summary: 'two items', headers: CUSTOMER, id: 'known', query: [['limit', '2']] }, unknownWishlist: { summary: 'an unknown wishlist', headers: CUSTOMER, id: 'unknown' } },
          },
          badRequest({ idQuery: { summary: '?id= is not a field here', headers: CUSTOMER, id: 'known', query: [['id', 'wl_x']] } }),
          { status: 401, description: 'A guest: `Guest wishlists are now allowed` (sic).', body: ERROR, examples: { guest: { summary: 'no bearer token, no session', headers: KEY, id: 'known' } } },
          databaseError500(
            null,
            { negativeOffset: { summary: 'a negative offset', headers: CUSTOMER, id: 'known', query: [['offset', '-1']] } },
            " Also another customer's wishlist that holds items (the plugin's 401 is thrown inside its `try`; an empty one is an empty page; not emulated), and `fields` that leave out the wishlist on a page with items (the route reads the first item's wishlist).",
          ),
        ],
      }),
    },
  };
}
