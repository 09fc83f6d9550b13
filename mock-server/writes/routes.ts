/**
 * The write routes (and the non-listing reads) of @alphabite/medusa-wishlist 0.7.4 and
 * @alphabite/medusa-reviews 0.7.2, as functions from a request to an answer or to a command that
 * changes a customer's state (applied in order by the store, store.ts). Platform-neutral: the HTTP
 * mock (mock-server/front/writes.ts) and the MSW handlers answer with it. Each step is where the
 * plugins have it (notes/alphabite-writes.md): body parser, publishable key, the route's
 * authentication, its validation, then the handler.
 */
import { customerOf, bearerToken } from '../../lib/customers.ts';
import type { Dataset } from '../../fixtures/dataset.ts';
import type { Dialect, RatingAggregate } from '../../lib/dialects/index.ts';
import { BASE_FIELDS, validate, type FieldType } from '../../lib/dialects/alphabite.ts';
import { NEWEST_MEDUSA_BEHAVIOUR, type MedusaBehaviour } from '../../lib/dialects/medusa-behaviour.ts';
import { DEFAULT_BODY_LIMIT, json, readBody, REVIEW_BODY_LIMIT, validateBody, type FieldRule } from './medusa-body.ts';
import { empty500, REASONS } from './reasons.ts';
import { seedOf, type SeedWishlists } from './seed.ts';
import { signShareToken, verifyShareToken } from './share-token.ts';
export { MOCK_SHARE_TOKEN_SECRET } from './share-token.ts';
import { CustomerWrites, type SeenWishlist, type WriteStore } from './store.ts';
import type { Headers, VariantJson, WishlistSettings, WriteAnswer, WriteCommand, WriteRequest } from './types.ts';

export interface WriteContext {
  dataset: Dataset;
  dialect: Dialect;
  store: WriteStore;
  settings: WishlistSettings;
  /** A product's rating aggregate, as listing 4.2 computes it (mock-server/listings/page-bodies.ts). */
  aggregate(productId: string): RatingAggregate;
  /**
   * The wishlist plugin's option `shareTokenSecret`: share signs with it, import verifies with it. Empty:
   * the option left out (the plugin's default), so share answers 500 and import 401 (docs/writes.md).
   */
  shareTokenSecret: string;
  /** The clock (epoch ms) a share token's `iat` and an import's expiry check read. */
  now(): number;
  /**
   * Asked by add-item for a variant the dataset does not know, before it answers as the plugin does
   * for an unknown variant: a backend's catalogue read again (mock-server/backend/catalogue.ts)
   * finds one created after the dataset was generated. Absent: the dataset's variants only.
   */
  findVariant?(variantId: string): Promise<VariantJson | undefined>;
}


/** What a request comes to: an answer now, or a command to apply in order (the answer is the store's). */
export type Outcome = { answer: WriteAnswer } | { command: WriteCommand };
/** Share and import sign or verify a token first (WebCrypto is asynchronous); every other route answers at once. */
export type MaybeAsync<T> = T | Promise<T>;

/** The plugins' default settings, but for the one the mock takes as an option (docs/writes.md). */
export function wishlistSettings(allowMultipleWishlists = false): WishlistSettings {
  return { allow_guest_wishlist: false, allow_multiple_wishlists: allowMultipleWishlists };
}

/** How many items `GET /store/wishlists/:id` shows (the plugin option includeWishlistItemsTake, default 5). */
export const RETRIEVE_ITEMS_TAKE = 5;

/** The Medusa version the dialect answers as (its validation wording, its body-parser errors): the newest when it names none. */
const medusaOf = (ctx: WriteContext): MedusaBehaviour => ctx.dialect.medusa ?? NEWEST_MEDUSA_BEHAVIOUR;

const UNAUTHORIZED = json(401, { message: 'Unauthorized' });
const GUEST_NOT_ALLOWED = json(401, { type: 'unauthorized', message: 'Guest wishlists are not allowed' });
/** Sic: the plugin's message where it reads its option `allowGuestWishlist`. */
const GUEST_NOW_ALLOWED = json(401, { type: 'unauthorized', message: 'Guest wishlists are now allowed' });
const UPLOAD_NOT_EMULATED = json(400, {
  type: 'not_allowed',
  message:
    'The mock stores no files: POST /store/reviews/files/images/upload is not emulated (docs/dialects.md, "Not emulated"). Send image_urls you host yourself with POST /store/reviews; without files the plugin answers [] and so does the mock.',
});

const RETRIEVE_QUERY: Array<[string, FieldType]> = [...BASE_FIELDS, ['items_fields', 'array'], ['include_inventory_count', 'flag'], ['include_calculated_price', 'flag']];
const TOTAL_QUERY: Array<[string, FieldType]> = [['wishlist_id', 'string']];
const CREATE_WISHLIST: FieldRule[] = [
  { name: 'name', type: 'string', optional: true },
  { name: 'sales_channel_id', type: 'string' },
];
const UPDATE_WISHLIST: FieldRule[] = [{ name: 'name', type: 'string', optional: true }];
const ADD_ITEM: FieldRule[] = [{ name: 'product_variant_id', type: 'string' }];
const IMPORT_WISHLIST: FieldRule[] = [{ name: 'share_token', type: 'string', min: 1 }];
const CREATE_REVIEW: FieldRule[] = [
  { name: 'content', type: 'string' },
  { name: 'rating', type: 'rating' },
  { name: 'product_id', type: 'string' },
  { name: 'image_urls', type: 'string-array' },
  { name: 'title', type: 'string', optional: true },
];

/** The path's segments after `/store`, decoded; undefined for another path or a malformed escape. */
function storeSegments(path: string): string[] | undefined {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  const parts = trimmed.split('/');
  if (parts[0] !== '' || parts[1] !== 'store') return undefined;
  try {
    return parts.slice(2).map((part) => decodeURIComponent(part));
  } catch {
    return undefined;
  }
}

/** The paths of the plugins' routes under /store (the listings' among them): where the spec dialect refuses writes. */
export function isPluginPath(path: string): boolean {
  const segments = storeSegments(path);
  return segments !== undefined && (segments[0] === 'wishlists' || segments[0] === 'reviews' || (segments[0] === 'products' && segments[1] === 'reviews'));
}

/**
 * The spec dialect's answer to a write on the plugins' paths: the spec shows no writes. In the spec's
 * error shape: a 405 `not_allowed` on a listing's path (with `Allow: GET, HEAD`), a 404 `not_found`
 * on the plugins' other paths (the spec has no such resource).
 */
export function specWriteRefusal(method: string, path: string, isListing: boolean): WriteAnswer & { headers: Record<string, string> } {
  const shown = path.length > 200 ? `${path.slice(0, 200)}...` : path;
  return {
    status: isListing ? 405 : 404,
    headers: isListing ? { Allow: 'GET, HEAD' } : {},
    body: JSON.stringify({
      type: isListing ? 'not_allowed' : 'not_found',
      message: `The listing spec shows no writes: ${method.slice(0, 16)} ${shown} is not part of it. Serve with --dialect alphabite (startMockServer({ dialect: 'alphabite' })) to answer the write routes as the published plugins @alphabite/medusa-wishlist 0.7.4 and @alphabite/medusa-reviews 0.7.2 do (docs/writes.md).`,
    }),
  };
}

const answer = (a: WriteAnswer): Outcome => ({ answer: a });
const isAnswer = (x: unknown): x is WriteAnswer => typeof x === 'object' && x !== null && 'status' in x && 'body' in x;

/** The customer the global /store auth finds (bearer or session), or undefined: a guest. */
const optional = (headers: Headers) => customerOf(headers)?.id;
/** `authenticate("customer", ["bearer"])`: the customer of the bearer token, or the 401. */
const strictBearer = (headers: Headers): string | WriteAnswer => (bearerToken(headers.authorization) ? customerOf({ authorization: headers.authorization })!.id : UNAUTHORIZED);

/**
 * The alphabite dialect's answer to a request on a plugin route that is not one of the four listings;
 * undefined when the request is not one of them (a listing, or no route: the caller's 404).
 */
export function routeWrite(ctx: WriteContext, request: WriteRequest): MaybeAsync<Outcome> | undefined {
  const segments = storeSegments(request.path);
  if (!segments) return undefined;
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  const route = matchRoute(method, segments);
  if (!route) return undefined;
  const body = readBody(request.body, route.name === 'createReview' ? REVIEW_BODY_LIMIT : DEFAULT_BODY_LIMIT, medusaOf(ctx));
  if (isAnswer(body)) return answer(body);
  // The publishable key (and nothing else: a product listing's guard checks only the key).
  const refused = ctx.dialect.guard({ endpoint: 'productReviews', query: [], headers: request.headers });
  if (refused) return answer({ status: refused.status, body: refused.body === null ? null : JSON.stringify(refused.body) });
  return route.run(ctx, request, body.value, seedOf(ctx.dataset, ctx.dialect));
}

type Run = (ctx: WriteContext, request: WriteRequest, body: unknown, seed: SeedWishlists) => MaybeAsync<Outcome>;

function matchRoute(method: string, s: string[]): { name: string; run: Run } | undefined {
  const [top, a, b, c, d] = s;
  const n = s.length;
  if (top === 'wishlists') {
    if (n === 1 && method === 'POST') return { name: 'createWishlist', run: createWishlist };
    if (n === 2 && method === 'GET' && a === 'settings') return { name: 'settings', run: (ctx) => answer(json(200, ctx.settings)) };
    if (n === 2 && method === 'GET' && a === 'total-items-count') return { name: 'total', run: totalItemsCount };
    if (n === 2 && method === 'POST' && a === 'import') return { name: 'import', run: importWishlist };
    if (n === 2 && method === 'GET') return { name: 'retrieve', run: (ctx, r, _b, seed) => retrieveWishlist(ctx, r, seed, a!) };
    if (n === 2 && method === 'PUT') return { name: 'update', run: (ctx, r, body) => updateWishlist(ctx, r, body, a!) };
    if (n === 2 && method === 'DELETE') return { name: 'delete', run: (_ctx, r) => withBearer(r, (customer) => ({ command: { op: 'deleteWishlist', customer, id: a! } })) };
    if (n === 3 && method === 'POST' && b === 'add-item') return { name: 'addItem', run: (ctx, r, body, seed) => addItem(ctx, r, body, seed, a!) };
    if (n === 3 && method === 'POST' && b === 'share') return { name: 'share', run: (ctx, r) => shareWishlist(ctx, r, a!) };
    if (n === 3 && method === 'POST' && b === 'transfer')
      return { name: 'transfer', run: (ctx, r) => withBearer(r, (customer) => ({ command: { op: 'transfer', customer, id: a!, multiple: ctx.settings.allow_multiple_wishlists } })) };
    if (n === 4 && method === 'DELETE' && b === 'items') {
      return {
        name: 'removeItem',
        run: (_ctx, r) => {
          const customer = optional(r.headers);
          return customer ? { command: { op: 'removeItem', customer, wishlist: a!, item: c! } } : answer(GUEST_NOW_ALLOWED);
        },
      };
    }
    return undefined;
  }
  if (top === 'reviews') {
    if (n === 1 && method === 'POST') return { name: 'createReview', run: createReview };
    if (n === 2 && method === 'DELETE') return { name: 'deleteReview', run: (_ctx, r) => withBearer(r, (customer) => ({ command: { op: 'deleteReview', customer, id: a! } })) };
    if (n === 4 && method === 'GET' && a === 'product' && c === 'aggregate-counts') {
      return {
        name: 'aggregate',
        run: (ctx) => {
          const { average, total_count, counts } = ctx.aggregate(b!);
          return answer(json(200, { average, total_count, product_id: b, counts }));
        },
      };
    }
    if (n === 4 && method === 'POST' && a === 'files' && b === 'images' && c === 'upload' && d === undefined) {
      return { name: 'upload', run: (_ctx, r) => answer(/^multipart\//i.test(String(r.body?.contentType ?? '')) ? UPLOAD_NOT_EMULATED : json(200, [])) };
    }
  }
  return undefined;
}

function withBearer(request: WriteRequest, then: (customer: string) => Outcome): Outcome {
  const customer = strictBearer(request.headers);
  return typeof customer === 'string' ? then(customer) : answer(customer);
}

function createWishlist(ctx: WriteContext, request: WriteRequest, body: unknown): Outcome {
  const customer = optional(request.headers);
  const checked = validateBody(body, CREATE_WISHLIST, medusaOf(ctx));
  if (isAnswer(checked)) return answer(checked);
  if (!customer) return answer(GUEST_NOT_ALLOWED);
  const { name, sales_channel_id } = checked.values as { name?: string; sales_channel_id: string };
  return { command: { op: 'createWishlist', customer, name: name ?? null, salesChannelId: sales_channel_id, multiple: ctx.settings.allow_multiple_wishlists } };
}

function updateWishlist(ctx: WriteContext, request: WriteRequest, body: unknown, id: string): Outcome {
  return withBearer(request, (customer) => {
    const checked = validateBody(body, UPDATE_WISHLIST, medusaOf(ctx));
    if (isAnswer(checked)) return answer(checked);
    return { command: { op: 'updateWishlist', customer, id, name: checked.values.name as string | undefined } };
  });
}

function addItem(ctx: WriteContext, request: WriteRequest, body: unknown, seed: SeedWishlists, wishlist: string): MaybeAsync<Outcome> {
  const customer = optional(request.headers);
  const checked = validateBody(body, ADD_ITEM, medusaOf(ctx));
  if (isAnswer(checked)) return answer(checked);
  const query = validate(BASE_FIELDS, request.query, medusaOf(ctx));
  if (!(query instanceof Map)) return answer({ status: query.status, body: JSON.stringify(query.body) });
  if (!customer) return answer(GUEST_NOT_ALLOWED);
  const id = checked.values.product_variant_id as string;
  const command = (variant: VariantJson | undefined): Outcome => ({ command: { op: 'addItem', customer, wishlist, variant: variant ?? null } });
  const known = seed.variant(id);
  return known || !ctx.findVariant ? command(known) : ctx.findVariant(id).then(command);
}

/** Any id, any customer's or none (no existence or ownership check, as the plugin): a token for it. */
async function shareWishlist(ctx: WriteContext, request: WriteRequest, id: string): Promise<Outcome> {
  if (!optional(request.headers)) return answer(GUEST_NOW_ALLOWED);
  // jwt.sign throws without a secret (the plugin's default options): inside the handler's try, the 500.
  if (!ctx.shareTokenSecret) return answer(empty500(REASONS.noShareSecret));
  return answer(json(200, { share_token: await signShareToken(id, ctx.shareTokenSecret, ctx.now()) }));
}

async function importWishlist(ctx: WriteContext, request: WriteRequest, body: unknown): Promise<Outcome> {
  const customer = optional(request.headers);
  const checked = validateBody(body, IMPORT_WISHLIST, medusaOf(ctx));
  if (isAnswer(checked)) return answer(checked);
  if (!customer) return answer(GUEST_NOT_ALLOWED);
  const claims = await verifyShareToken(checked.values.share_token as string, ctx.shareTokenSecret, ctx.now());
  if (!claims) return answer(json(401, { type: 'unauthorized', message: 'Invalid share token' }));
  if (!claims.wishlist_id) return answer(json(404, { type: 'not_found', message: 'Wishlist not found for the provided share token' }));
  // A shared wishlist is what the plugins show publicly: the one place where a customer reads another's (docs/writes.md).
  return { command: { op: 'importWishlist', customer, source: claimedId(claims.wishlist_id), multiple: ctx.settings.allow_multiple_wishlists } };
}

/**
 * The wishlist id a verified token names, as the plugin's query reads it: a string as it is, a number
 * or `true` as its text; an object or an array names no wishlist ('' : no wishlist has that id).
 */
function claimedId(claim: unknown): string {
  if (typeof claim === 'string') return claim;
  return typeof claim === 'number' || typeof claim === 'boolean' ? String(claim) : '';
}

function createReview(ctx: WriteContext, request: WriteRequest, body: unknown): Outcome {
  const customer = customerOf(request.headers)?.id;
  if (!customer) return answer(UNAUTHORIZED);
  const checked = validateBody(body, CREATE_REVIEW, medusaOf(ctx));
  if (isAnswer(checked)) return answer(checked);
  const v = checked.values as { content: string; rating: number; product_id: string; image_urls: string[]; title?: string };
  return { command: { op: 'createReview', customer, review: { title: v.title ?? null, content: v.content, rating: v.rating, product_id: v.product_id, image_urls: v.image_urls } } };
}

/** The customer's writes, or an empty record of them (a customer who never wrote sees the seed as it is). */
const writesOf = (ctx: WriteContext, customer: string) => ctx.store.of(customer) ?? new CustomerWrites(customer);

function retrieveWishlist(ctx: WriteContext, request: WriteRequest, seed: SeedWishlists, id: string): Outcome {
  const customer = optional(request.headers);
  const query = validate(RETRIEVE_QUERY, request.query, medusaOf(ctx));
  if (!(query instanceof Map)) return answer({ status: query.status, body: JSON.stringify(query.body) });
  if (!customer) return answer(GUEST_NOW_ALLOWED);
  const writes = writesOf(ctx, customer);
  const view = seed.of(customer);
  const seen = writes.wishlist(id, view);
  // Another customer's (the plugin finds it by id, then refuses it) or unknown: the same 500, told apart by the reason.
  if (!seen) return answer(empty500(ctx.store.foreignWishlist(id, customer, seed) ? REASONS.wishlistOfAnother : REASONS.wishlistUnknown));
  if (seen.row.customer_id && seen.row.customer_id !== customer) return answer(empty500(REASONS.wishlistOfAnother));
  const items = writes.items(seen, view);
  const shown: string[] = [];
  for (let p = 0; p < Math.min(items.count, RETRIEVE_ITEMS_TAKE); p++) shown.push(retrievedItem(items.json(p)));
  const { name, customer_id, sales_channel_id } = seen.row;
  const head = JSON.stringify({ id: seen.row.id, name, customer_id, sales_channel_id, items_count: items.count });
  return answer({ status: 200, body: `${head.slice(0, -1)},"items":[${shown.join(',')}]}` });
}

/**
 * An item as retrieve shows it: as 4.4 lists it, but an item whose variant is gone (4.4 leaves
 * `product_variant` out; a recording of a backend keeps it so) shows `"product_variant":{}`, as the
 * route's query of its default item fields answers it (measured on Medusa 2.21.2).
 */
function retrievedItem(json: string): string {
  return json.includes('"product_variant":') ? json : `${json.slice(0, -1)},"product_variant":{}}`;
}

function totalItemsCount(ctx: WriteContext, request: WriteRequest, _body: unknown, seed: SeedWishlists): Outcome {
  const query = validate(TOTAL_QUERY, request.query, medusaOf(ctx));
  if (!(query instanceof Map)) return answer({ status: query.status, body: JSON.stringify(query.body) });
  const wishlistId = query.get('wishlist_id') as string | undefined;
  const customer = optional(request.headers);
  if (!wishlistId && !customer) return answer(json(200, { total_items_count: 0 }));
  const writes = writesOf(ctx, customer ?? '');
  const view = seed.of(customer ?? '');
  const count = (seen: SeenWishlist | undefined) => (seen ? writes.items(seen, view).count : 0);
  let total = 0;
  if (wishlistId) {
    const seen = writes.wishlist(wishlistId, customer ? view : seed);
    // The customer's wishlist, or (for a guest) a guest wishlist: anything else counts 0.
    if (seen && seen.row.customer_id === (customer ?? null)) total = count(seen);
  } else for (const seen of writes.ownedWishlists(view)) total += count(seen);
  return answer(json(200, { total_items_count: total }));
}
