/**
 * The routes of @alphabite/medusa-wishlist 0.7.4 and @alphabite/medusa-reviews 0.7.2 besides
 * the four listings (the writes, and the reads around them), as the OpenAPI document of the
 * alphabite dialect shows them: per route its credentials, parameters, request body and every
 * status with its body, as notes/alphabite-writes.md records the real backend (default plugin
 * options, `allow_multiple_wishlists` on), quirks included: most failures inside a handler
 * are a 500 with an empty body. The schemas are lib/dialects/alphabite-write-schemas.ts.
 */
import { ALPHABITE_QUERY_FIELDS, type FieldType } from '../dialects/alphabite.ts';
import { alphabiteErrorSchemas, alphabiteRecordSchemas } from '../dialects/alphabite-schemas.ts';
import { alphabiteWriteAnswerSchemas as A, alphabiteWriteBodySchemas as B, alphabiteWriteErrorSchemas as E } from '../dialects/alphabite-write-schemas.ts';
import { REASON_HEADER } from '../write-reason.ts';
import { medusaQueryParameters, PUBLISHABLE_KEY, REASON_HEADER_DOC as REASON } from './alphabite-common.ts';
import type { NamedSchema, ParameterDoc, RequestBodyDoc, ResponseDoc, RouteDoc } from './types.ts';

const W = '/store/wishlists';
const R = '/store/reviews';

// ---- credentials (notes/alphabite-writes.md 0.2) ----

/** `authenticate("customer", ["bearer"])`: a bearer token only; a session cookie is not enough. */
const STRICT_BEARER: RouteDoc['security'] = [{ customerBearer: [] }];
/** `authenticate("customer", ["session", "bearer"])`. */
const SESSION_OR_BEARER: RouteDoc['security'] = [{ customerBearer: [] }, { customerSession: [] }];
/** `allowUnauthenticated`: a guest passes, and the handler serves or refuses them. */
const OPTIONAL: RouteDoc['security'] = [{ customerBearer: [] }, { customerSession: [] }, {}];
const NONE: RouteDoc['security'] = [];

// ---- parameters ----

const path = (name: string, description: string): ParameterDoc => ({ name, in: 'path', required: true, description, schema: { type: 'string' } });
const WISHLIST_ID = path('id', 'The wishlist id.');
const ITEM_ID = path('item_id', 'The wishlist item id.');
const REVIEW_ID = path('id', 'The review id.');
const PRODUCT_ID = path('product_id', 'The product id (any: an unknown product has an empty aggregate).');

/** `createFindParams()` alone, what 4.4 accepts. */
const FIND_PARAMS: ReadonlyArray<readonly [string, FieldType]> = ALPHABITE_QUERY_FIELDS.wishlistItems;
const FIND_NOTES = {
  fields: 'The fields of the answer (replacing the defaults: `?fields=id` answers the id only).',
  limit: 'Accepted, no effect here.',
  offset: 'Accepted, no effect here.',
  order: 'Accepted, no effect here.',
  with_deleted: 'Accepted, no effect here.',
};
const RETRIEVE_QUERY: ReadonlyArray<readonly [string, FieldType]> = [...FIND_PARAMS, ['items_fields', 'array'], ['include_inventory_count', 'flag'], ['include_calculated_price', 'flag']];
const RETRIEVE_NOTES = {
  ...FIND_NOTES,
  fields: 'Accepted; the answer keeps its shape.',
  items_fields: "More fields of the items' variants.",
  include_inventory_count: "Adds each variant's `availability` (stock) where known.",
  include_calculated_price: "Adds each variant's `calculated_price` where the request has a pricing context.",
};
const TOTAL_ITEMS_QUERY: ParameterDoc = {
  name: 'wishlist_id',
  in: 'query',
  description: "Count this wishlist's items only: the caller's own wishlist (a guest: a guest wishlist), else 0. Without it: all the caller's wishlists (a guest: 0).",
  schema: { type: 'string' },
};

const params = (...list: ParameterDoc[][]): ParameterDoc[] => list.flat();
const WITH_KEY = [PUBLISHABLE_KEY];

// ---- bodies ----

const json = (name: string, schema: NamedSchema['schema'], description: string): RequestBodyDoc => ({ description, json: { name, schema } });
const named = (name: string, schema: NamedSchema['schema']): NamedSchema => ({ name, schema });

const INVALID = named('InvalidRequest', E.invalidRequest);
const UNAUTHORIZED = named('Unauthorized', alphabiteErrorSchemas.unauthorized);
const REFUSED = named('RefusedByHandler', E.refusedByHandler);
const TOO_LARGE = named('PayloadTooLarge', E.payloadTooLarge);
const ID = named('Id', A.id);

// ---- responses shared by many routes ----

const KEY_400 = '`not_allowed`: no publishable key, or one the store does not have (checked before anything else).';
const BODY_400 =
  "`invalid_data`: the body breaks the schema (Medusa's strict zod: an unknown field, a missing or mistyped field; at most three issues, joined by `; `), is not a JSON object (another content type, or an array: `Field '' is required`), or is malformed JSON (then `message` comes before `type`).";
const QUERY_400 = '`invalid_data`: a query parameter that is not one of the route\'s (`Unrecognized fields`), or of the wrong type.';

const keyExample = {
  missingKey: {
    summary: 'no publishable key',
    value: { type: 'not_allowed', message: 'Publishable API key required in the request header: x-publishable-api-key. You can manage your keys in settings in the dashboard.' },
  },
};

function badRequest(...reasons: string[]): ResponseDoc {
  return { status: 400, description: [KEY_400, ...reasons].join(' '), body: INVALID, fixedExamples: keyExample };
}

const bodyRefused = (example: { summary: string; message: string }): ResponseDoc => ({
  ...badRequest(BODY_400),
  fixedExamples: { ...keyExample, invalidBody: { summary: example.summary, value: { type: 'invalid_data', message: example.message } } },
});

/** Strict bearer (or session-or-bearer): Medusa's `authenticate` answers before the body is read. */
const unauthorized = (what: string): ResponseDoc => ({
  status: 401,
  description: `${what} (Medusa's \`authenticate\`, before the body is validated): \`{"message":"Unauthorized"}\`, with no \`type\`.`,
  body: UNAUTHORIZED,
  fixedExamples: { noToken: { summary: 'no token', value: { message: 'Unauthorized' } } },
});
const NO_BEARER = unauthorized('No bearer token, or one that does not verify; a session cookie is not enough');

/** The plugin's own refusal of a guest (no token, a token that does not verify), after validation. */
function guestRefused(message: 'Guest wishlists are not allowed' | 'Guest wishlists are now allowed', more = ''): ResponseDoc {
  const source = message.endsWith('not allowed') ? 'the setting `allow_guest_wishlist` (off by default)' : 'the option `allowGuestWishlist` (off by default; "now" is the plugin\'s typo)';
  return {
    status: 401,
    description: `A guest: \`${message}\`, from ${source}.${more}`,
    body: REFUSED,
    fixedExamples: { guest: { summary: 'no bearer token, no session', value: { type: 'unauthorized', message } } },
  };
}

const tooLarge = (limit: string): ResponseDoc => ({
  status: 413,
  description: `A body over ${limit} (express's body parser; \`message\` comes before \`type\`).`,
  body: TOO_LARGE,
  fixedExamples: { tooLarge: { summary: 'a 150 kB body', value: { message: 'request entity too large', type: 'unknown_error' } } },
});
const TOO_LARGE_100KB = tooLarge('100 kB');

/**
 * The plugins wrap each handler in `try { ... } catch { res.status(500).end() }`: whatever fails
 * inside, their own "not found" and "not authorized" included, is a 500 with **no body** (no
 * `Content-Type`, `Content-Length: 0`). A client sees no JSON, and @medusajs/js-sdk a
 * `FetchError` "Internal Server Error".
 */
function emptyServerError(causes: string): ResponseDoc {
  return {
    status: 500,
    description: `**Empty body** (the plugin's \`catch { res.status(500).end() }\`, a quirk): ${causes} The mock says which in \`${REASON_HEADER}\`.`,
    body: null,
    headers: { [REASON_HEADER]: REASON },
  };
}


// ---- examples (observed on the real backend, notes/alphabite-writes.md) ----

const EX = {
  wishlist: 'wl_01M84XT8XABQDJ5Y355HX4D57Y',
  item: 'wli_01M84XTHV7VDHMKP2M6HG6YQ7A',
  customer: 'cus_01M84XT2GF7B3KEDDQSVYBSVHJ',
  salesChannel: 'sc_01M84XRSN8ZAN8SKX9Z8KGA57G',
  variant: 'variant_01M84XRSY4ENYH58FG1YBQMZYN',
  product: 'prod_01M84XRSQCE7GKJRP7Y7H1AKGS',
  review: 'rev_01M84XW18FHET60SHZVS27Y2TQ',
  time: '2026-11-23T19:23:37.258Z',
};
const exampleItem = {
  id: EX.item,
  wishlist_id: EX.wishlist,
  product_variant_id: EX.variant,
  product_variant: { id: EX.variant, title: 'Kit Cap v01', product_id: EX.product, product: { id: EX.product, handle: 'kit-cap', thumbnail: null } },
};
const exampleRow = { id: EX.wishlist, name: 'First', customer_id: EX.customer, sales_channel_id: EX.salesChannel, created_at: EX.time, updated_at: EX.time, deleted_at: null };
const example = (summary: string, value: unknown) => ({ example: { summary, value } });

// ---- the routes ----

export function alphabiteWriteRoutes(): RouteDoc[] {
  return [
    {
      method: 'get',
      path: `${W}/settings`,
      operationId: 'wishlistSettings',
      summary: 'The wishlist settings',
      description: 'The admin settings the store routes follow. No customer needed.',
      security: NONE,
      parameters: WITH_KEY,
      responses: [
        { status: 200, description: 'The settings.', body: named('WishlistSettings', A.settings), fixedExamples: example('this backend', { allow_guest_wishlist: false, allow_multiple_wishlists: true }) },
        badRequest(),
        { status: 500, description: 'The settings cannot be read (not seen in practice).', body: named('SettingsError', E.settingsError), fixedExamples: example('the plugin\'s body', { error: 'Failed to load wishlist settings' }) },
      ],
    },
    {
      method: 'post',
      path: W,
      operationId: 'createWishlist',
      summary: 'Create a wishlist',
      description:
        "With `allow_multiple_wishlists` on, always a new wishlist (201). Off (a fresh install's default), a customer who has one gets their first wishlist back (200, shown with no items) and nothing is created. The body is validated before the guest is refused.",
      security: OPTIONAL,
      parameters: WITH_KEY,
      requestBody: json('CreateWishlistBody', B.createWishlist, 'The new wishlist.'),
      responses: [
        { status: 201, description: 'The new wishlist (`items: []`, `items_count: 0`).', body: named('CreatedWishlist', A.createdWishlist), fixedExamples: example('a new wishlist', { ...exampleRow, items: [], items_count: 0 }) },
        { status: 200, description: 'One wishlist per customer, who has one: their first wishlist, always shown with `items_count: 0` and `items: []`; the body is ignored.', headers: { [REASON_HEADER]: REASON }, body: named('CreatedWishlist', A.createdWishlist) },
        bodyRefused({ summary: 'no sales_channel_id', message: "Invalid request: Field 'sales_channel_id' is required" }),
        guestRefused('Guest wishlists are not allowed'),
        TOO_LARGE_100KB,
        emptyServerError('the wishlist cannot be stored.'),
      ],
    },
    {
      method: 'get',
      path: `${W}/{id}`,
      operationId: 'retrieveWishlist',
      summary: 'A wishlist with its first items',
      description: "The caller's wishlist (or a guest wishlist), with no timestamps, its first 5 items (not paged) and the real `items_count`.",
      security: OPTIONAL,
      parameters: params([WISHLIST_ID], WITH_KEY, medusaQueryParameters(RETRIEVE_QUERY, RETRIEVE_NOTES)),
      responses: [
        { status: 200, description: 'The wishlist.', body: named('WishlistWithItems', A.wishlistWithItems), fixedExamples: example('one of three items shown', { id: EX.wishlist, name: 'First', customer_id: EX.customer, sales_channel_id: EX.salesChannel, items_count: 3, items: [exampleItem] }) },
        badRequest(QUERY_400),
        guestRefused('Guest wishlists are now allowed'),
        emptyServerError("another customer's wishlist, or an unknown one (the plugin's 401 and 404 are thrown inside its `try`)."),
      ],
    },
    {
      method: 'put',
      path: `${W}/{id}`,
      operationId: 'updateWishlist',
      summary: 'Rename a wishlist',
      description: '**No ownership check**: any customer renames any wishlist. `{}` changes nothing.',
      security: STRICT_BEARER,
      parameters: params([WISHLIST_ID], WITH_KEY),
      requestBody: json('UpdateWishlistBody', B.updateWishlist, 'The new name.'),
      responses: [
        { status: 200, description: 'The wishlist row (no items keys).', body: named('UpdatedWishlist', A.updatedWishlist), fixedExamples: example('renamed', { ...exampleRow, name: 'Renamed' }) },
        bodyRefused({ summary: 'a field that cannot change', message: "Invalid request: Unrecognized fields: 'sales_channel_id'" }),
        NO_BEARER,
        TOO_LARGE_100KB,
        emptyServerError('an unknown wishlist.'),
      ],
    },
    {
      method: 'delete',
      path: `${W}/{id}`,
      operationId: 'deleteWishlist',
      summary: 'Delete a wishlist',
      description:
        "**No ownership or existence check**: 200 with the path's id for any wishlist, another customer's, a deleted or an unknown one. A wishlist that still holds items is not deleted (500): remove its items first.",
      security: STRICT_BEARER,
      parameters: params([WISHLIST_ID], WITH_KEY),
      responses: [
        { status: 200, description: "The id from the path (a soft delete; nothing is checked).", headers: { [REASON_HEADER]: REASON }, body: ID, fixedExamples: example('deleted', { id: EX.wishlist }) },
        badRequest(),
        NO_BEARER,
        emptyServerError('the wishlist still holds items (the cascade to its items fails; nothing changes).'),
      ],
    },
    {
      method: 'post',
      path: `${W}/{id}/add-item`,
      operationId: 'addWishlistItem',
      summary: 'Add a variant to a wishlist',
      description: "The caller's wishlist only. The body is validated before the guest is refused.",
      security: OPTIONAL,
      parameters: params([WISHLIST_ID], WITH_KEY, medusaQueryParameters(FIND_PARAMS, FIND_NOTES)),
      requestBody: json('AddItemBody', B.addItem, 'The variant to add.'),
      responses: [
        { status: 201, description: 'The new item, with the default fields (or those of `fields`).', body: named('AddedItem', A.addedItem), fixedExamples: example('an item', exampleItem) },
        bodyRefused({ summary: 'a number for the variant', message: "Invalid request: Expected type: 'string' for field 'product_variant_id', got: '7'" }),
        guestRefused('Guest wishlists are not allowed'),
        TOO_LARGE_100KB,
        emptyServerError("the variant is already in the wishlist, the variant or the wishlist is unknown, or the wishlist is another customer's. No item is created."),
      ],
    },
    {
      method: 'delete',
      path: `${W}/{id}/items/{item_id}`,
      operationId: 'removeWishlistItem',
      summary: 'Remove an item',
      description:
        "The path's wishlist is only checked to be the caller's (or unknown); the item is then deleted **by its id alone**, whatever wishlist holds it. An unknown or already deleted item is a 200 too.",
      security: OPTIONAL,
      parameters: params([WISHLIST_ID, ITEM_ID], WITH_KEY),
      responses: [
        { status: 200, description: "The item id from the path (a soft delete).", headers: { [REASON_HEADER]: REASON }, body: ID, fixedExamples: example('removed', { id: EX.item }) },
        badRequest(),
        guestRefused('Guest wishlists are now allowed'),
        emptyServerError("the path's wishlist is another customer's."),
      ],
    },
    {
      method: 'post',
      path: `${W}/{id}/share`,
      operationId: 'shareWishlist',
      summary: 'A share token for a wishlist',
      description:
        "Needs the plugin option `shareTokenSecret` (a deployment that shares sets it): without it every call is a 500. With it, a token for **any** id, another customer's, an unknown or a deleted wishlist alike (no existence or ownership check). Any body is ignored.",
      security: OPTIONAL,
      parameters: params([WISHLIST_ID], WITH_KEY),
      responses: [
        {
          status: 200,
          description: 'With `shareTokenSecret` set: an HS256 JWT valid for 7 days whose payload is `{ wishlist_id, iat, exp }` (nothing else: two shares of one wishlist within a second give the same token).',
          body: named('ShareToken', A.shareToken),
          fixedExamples: example('a token', {
            share_token: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ3aXNobGlzdF9pZCI6IndsXzAxTTg0Wk5FUDFDWkVQR1k4UkdSNzlFTlAzIiwiaWF0IjoxNzk1NDYzNzU2LCJleHAiOjE3OTYwNjg1NTZ9.4M4S1qsQr3CIB9i_CHRdiXqx3EWxePgQjHKgkDa2Mb0',
          }),
        },
        badRequest('`invalid_data`: malformed JSON (any body is parsed, then ignored).'),
        guestRefused('Guest wishlists are now allowed'),
        TOO_LARGE_100KB,
        emptyServerError('without the option `shareTokenSecret` (the default), always: the token cannot be signed.'),
      ],
    },
    {
      method: 'post',
      path: `${W}/import`,
      operationId: 'importWishlist',
      summary: 'Import a shared wishlist',
      description:
        "Every call makes a **new copy** of the shared wishlist (same name and sales channel, a new item per live item, in no fixed order) owned by the caller, also from the caller's own token; with one wishlist per customer, a caller who has a list gets its items replaced instead. Without `shareTokenSecret` no token verifies: always 401 `Invalid share token`. The body is validated first, then the guest is refused, then the token is verified.",
      security: OPTIONAL,
      parameters: WITH_KEY,
      requestBody: json('ImportWishlistBody', B.importWishlist, 'The token `share` answered.'),
      responses: [
        { status: 200, description: 'The new wishlist (or the replaced one) with all its items (not capped), default fields; 200, not 201.', headers: { [REASON_HEADER]: REASON }, body: named('ImportedWishlist', A.importedWishlist), fixedExamples: example('a copy', { ...exampleRow, items: [exampleItem], items_count: 1 }) },
        bodyRefused({ summary: 'an empty token', message: "Invalid request: Value for field 'share_token' too small, expected at least: '1'" }),
        {
          ...guestRefused('Guest wishlists are not allowed', ' Also `Invalid share token`: a token that does not verify (malformed, expired, signed with another secret, `alg: none`; any token without `shareTokenSecret`).'),
          fixedExamples: {
            guest: { summary: 'no bearer token, no session', value: { type: 'unauthorized', message: 'Guest wishlists are not allowed' } },
            invalidToken: { summary: 'a token that does not verify', value: { type: 'unauthorized', message: 'Invalid share token' } },
          },
        },
        { status: 404, description: 'A token that verifies but names no wishlist: `Wishlist not found for the provided share token`.', body: named('NotFound', E.notFound) },
        TOO_LARGE_100KB,
        emptyServerError('the token names a wishlist that does not exist or is deleted.'),
      ],
    },
    {
      method: 'post',
      path: `${W}/{id}/transfer`,
      operationId: 'transferWishlist',
      summary: 'Take a wishlist over',
      description:
        "**No ownership check**: the wishlist becomes the caller's, whoever owned it. With one wishlist per customer, a caller who has another list gets the new variants copied into it and this one deleted; the answer is then that list's id. Any body is ignored.",
      security: STRICT_BEARER,
      parameters: params([WISHLIST_ID], WITH_KEY),
      responses: [
        { status: 200, description: "The id of the wishlist the caller now owns.", headers: { [REASON_HEADER]: REASON }, body: ID, fixedExamples: example('transferred', { id: EX.wishlist }) },
        badRequest('`invalid_data`: malformed JSON (any body is parsed, then ignored).'),
        NO_BEARER,
        TOO_LARGE_100KB,
        emptyServerError('an unknown wishlist.'),
      ],
    },
    {
      method: 'get',
      path: `${W}/total-items-count`,
      operationId: 'wishlistTotalItemsCount',
      summary: "The number of items in the caller's wishlists",
      description: 'The query is validated before the caller is identified; a guest gets 0 (or the count of a guest wishlist).',
      security: OPTIONAL,
      parameters: params(WITH_KEY, [TOTAL_ITEMS_QUERY]),
      responses: [
        { status: 200, description: 'The count.', body: named('TotalItemsCount', A.totalItemsCount), fixedExamples: example('two items', { total_items_count: 2 }) },
        badRequest(QUERY_400),
        emptyServerError('the count cannot be read (not seen in practice).'),
      ],
    },
    {
      method: 'get',
      path: `${R}/product/{product_id}/aggregate-counts`,
      operationId: 'productReviewAggregateCounts',
      summary: "A product's rating aggregate",
      description: 'Approved reviews only (a new review is pending, so it does not count). Any product id, known or not. No query validation: unknown parameters are ignored.',
      security: NONE,
      parameters: params([PRODUCT_ID], WITH_KEY),
      responses: [
        {
          status: 200,
          description: 'The aggregate, `counts` from 5 down to 1.',
          body: named('RatingAggregate', A.ratingAggregate),
          fixedExamples: example('no approved review', { average: 0, total_count: 0, product_id: EX.product, counts: [5, 4, 3, 2, 1].map((rating) => ({ rating, count: 0 })) }),
        },
        badRequest(),
      ],
    },
    {
      method: 'post',
      path: R,
      operationId: 'createReview',
      summary: 'Write a review',
      description:
        "Always created `pending` (pending reviews are listed at once: the listings do not filter on status). A customer may write several reviews of a product while none of them is approved. `product_id` is not checked. The token is checked before the body.",
      security: SESSION_OR_BEARER,
      parameters: WITH_KEY,
      requestBody: json('CreateReviewBody', B.createReview, 'The review (bodies up to 10 MB).'),
      responses: [
        {
          status: 201,
          description: 'The new review.',
          body: named('CreatedReview', A.createdReview),
          fixedExamples: example('a new review', {
            id: EX.review, title: 'Nice', content: 'Good cap', rating: 4, status: 'pending', product_id: EX.product, customer_id: EX.customer, image_urls: [], is_verified_purchase: false, created_at: EX.time, updated_at: EX.time, deleted_at: null, customer: { first_name: 'W', last_name: 'R' },
          }),
        },
        bodyRefused({ summary: 'an empty object', message: "Invalid request: Field 'content' is required; Field 'rating' is required; Field 'product_id' is required" }),
        unauthorized('No bearer token or session cookie, or one that does not verify'),
        tooLarge('10 MB'),
        emptyServerError('the customer has an approved review of the product already, or (with `allow_only_verified_purchases`) has not bought it.'),
      ],
    },
    {
      method: 'delete',
      path: `${R}/{id}`,
      operationId: 'deleteReview',
      summary: 'Delete a review',
      description: "The caller's own review only (a soft delete: it leaves every listing).",
      security: STRICT_BEARER,
      parameters: params([REVIEW_ID], WITH_KEY),
      responses: [
        { status: 200, description: 'The id from the path.', body: ID, fixedExamples: example('deleted', { id: EX.review }) },
        badRequest(),
        NO_BEARER,
        emptyServerError("another customer's review, or an unknown or already deleted one."),
      ],
    },
    {
      method: 'post',
      path: `${R}/files/images/upload`,
      operationId: 'uploadReviewImages',
      summary: 'Upload review images',
      description:
        'A multipart form (multer, not JSON): up to 5 files in `files`, 5 MB each, JPEG, PNG, WebP or GIF, stored by Medusa\'s file module; rate-limited to 10 requests per 15 minutes per IP and process. Without files: `[]`.',
      notEmulated: 'file storage and the rate limiter are outside a mock; only the publishable-key check is the plugin\'s',
      security: OPTIONAL,
      parameters: WITH_KEY,
      requestBody: {
        description: 'The images.',
        multipart: {
          type: 'object',
          properties: { files: { type: 'array', maxItems: 5, items: { type: 'string', contentMediaType: 'application/octet-stream' }, description: 'JPEG, PNG, WebP or GIF, 5 MB each.' } },
        },
      },
      responses: [
        { status: 200, description: "The stored files (`[]` without files).", body: named('UploadedFiles', A.uploadedFiles), fixedExamples: example('no files', []) },
        badRequest(),
        { status: 429, description: 'The 11th upload from one IP within 15 minutes.', body: named('TooManyUploads', E.tooManyUploads), fixedExamples: example('rate limited', { message: 'Too many upload requests. Please try again later.' }) },
        {
          status: 500,
          description: "A file of another type (multer's error, through Medusa's error handler). A failure while storing is a 500 with an empty body (the plugin's `catch`).",
          body: named('UnknownError', alphabiteErrorSchemas.unknownError),
          fixedExamples: example('a text file', { code: 'unknown_error', type: 'unknown_error', message: 'An unknown error occurred.' }),
        },
      ],
    },
  ];
}

