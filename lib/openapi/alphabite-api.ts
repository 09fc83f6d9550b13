/**
 * The alphabite dialect (lib/dialects/alphabite.ts: the published plugins, bugs included) as
 * the OpenAPI document shows it: limit/offset everywhere, Medusa's parameter types, the
 * publishable-key header, the bearer token of 4.3 and 4.4, the envelopes with clamped page
 * numbers and the records as the dialect projects them (lib/dialects/alphabite-schemas.ts).
 * docs/dialects.md explains each difference from the spec.
 */
import { MAX_ANSWER_RECORDS, type EndpointName } from '../api-rules.ts';
import { ALPHABITE_DEFAULT_LIMIT, ALPHABITE_DEFAULT_OFFSET, ALPHABITE_QUERY_FIELDS, PUBLISHABLE_KEY_HEADER, type FieldType } from '../dialects/alphabite.ts';
import { alphabiteEnvelopeSchemas, alphabiteErrorSchemas, alphabiteRecordSchemas } from '../dialects/alphabite-schemas.ts';
import { errorBodySchema } from '../envelopes.ts';
import type { DialectApi, ExampleRequest, JsonSchema, OperationDoc, ParameterDoc, ResponseDoc } from './types.ts';

const ERROR = { name: 'Error', schema: errorBodySchema };

/** How Medusa reads each kind of parameter (alphabite.ts `parseField`). */
const FIELD_TYPES: Record<FieldType, { schema: JsonSchema; description: string }> = {
  string: { schema: { type: 'string' }, description: 'A string.' },
  int: { schema: { type: 'integer' }, description: "Read with `parseInt` (`2.7` is 2, `5abc` is 5), no bounds; a non-number is a 400, a negative one a 500." },
  with_deleted: { schema: { type: 'boolean' }, description: '`true` or `false`.' },
  flag: { schema: { type: 'boolean' }, description: '`z.coerce.boolean()`: any non-empty value, `false` included, is true; only an empty value is false.' },
  rating: { schema: { type: 'number', minimum: 1, maximum: 5 }, description: 'Rounded, then 1 to 5.' },
  'csv-list': { schema: { type: 'array', items: { type: 'string' } }, description: 'A list: repeated, `name[0]=`, or comma-separated.' },
  array: { schema: { type: 'array', items: { type: 'string' } }, description: 'A list (`name[]=a`); a single plain value is a 400.' },
};

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

const DEFAULTS: Record<string, number> = { limit: ALPHABITE_DEFAULT_LIMIT, offset: ALPHABITE_DEFAULT_OFFSET };

function queryParameters(endpoint: EndpointName): ParameterDoc[] {
  return ALPHABITE_QUERY_FIELDS[endpoint].map(([name, type]): ParameterDoc => {
    const kind = FIELD_TYPES[type];
    const note = NOTES[name];
    if (note === undefined) throw new Error(`the alphabite dialect accepts '${name}', which the OpenAPI document does not describe`);
    const schema = DEFAULTS[name] === undefined ? kind.schema : { ...kind.schema, default: DEFAULTS[name] };
    return { name, in: 'query', description: `${note} ${kind.description}`, schema, ...(type === 'csv-list' || type === 'array' ? { explode: true } : {}) };
  });
}

const PUBLISHABLE_KEY: ParameterDoc = {
  name: PUBLISHABLE_KEY_HEADER,
  in: 'header',
  required: true,
  description: 'A publishable API key (the mock accepts any non-empty value). Without it: 400 `not_allowed`, before anything else.',
  schema: { type: 'string', minLength: 1 },
};

const PATH_PARAMETERS: Partial<Record<EndpointName, ParameterDoc>> = {
  productReviews: { name: 'product_id', in: 'path', required: true, description: "The product's id; an unknown product is an empty page.", schema: { type: 'string' } },
  wishlistItems: { name: 'id', in: 'path', required: true, description: "The wishlist's id; an unknown wishlist is an empty page (200, `count: 0`).", schema: { type: 'string' } },
};

const KEY = { [PUBLISHABLE_KEY_HEADER]: 'pk_example' };
const CUSTOMER = { ...KEY, authorization: 'Bearer example-customer-token' };

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

const databaseError500 = (body: ResponseDoc['body'], examples: Record<string, ExampleRequest>): ResponseDoc => ({
  status: 500,
  description: body
    ? 'A negative `limit`/`offset` or an `order` that is not a column reaches the database, which refuses it (`unknown_error`).'
    : 'A negative `limit`/`offset` or an `order` that is not a column reaches the database; the route answers 500 with an empty body.',
  body,
  examples,
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
    securitySchemes: {
      customerBearer: { type: 'http', scheme: 'bearer', description: 'A customer token (the mock accepts any).' },
      customerSession: { type: 'apiKey', in: 'cookie', name: 'connect.sid', description: 'A customer session cookie (the mock accepts any cookie).' },
    },
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
          databaseError500(null, { negativeOffset: { summary: 'a negative offset', headers: CUSTOMER, id: 'known', query: [['offset', '-1']] } }),
        ],
      }),
    },
  };
}
