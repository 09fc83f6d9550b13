import { MatchersV3 } from '@pact-foundation/pact';
import { pageLength, reviewsPageMeta, wishlistPageMeta } from '../lib/paging.ts';

/**
 * The response bodies the storefront expects, as Pact templates: matchers pin the
 * shape of each record (field names and types), while the navigation numbers are
 * exact values, computed by lib/paging.ts from the state's `count` and the request.
 *
 * Fields that may be `null` (a review's `title`, a wishlist's `name` and `customer_id`,
 * a product's `thumbnail`) are left out of the templates: Pact has no "string or null"
 * matcher, and a key the template does not name is allowed (Postel's law). Their types
 * are the property suite's to check.
 */

const { regex, like, integer, boolean, eachLike, constrainedArrayLike } = MatchersV3;

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const timestamp = (example: string) => regex(TIMESTAMP, example);
const id = (prefix: string, example: string) => regex(new RegExp(`^${prefix}_\\S+$`), example);

/** JSON answers, with or without a charset. */
export const JSON_HEADERS = { 'Content-Type': regex(/^application\/json(;.*)?$/, 'application/json; charset=utf-8') };

/** A review; `productId` pins `product_id` exactly (4.2), else any `prod_` id. */
export function reviewTemplate(productId?: string): Record<string, unknown> {
  return {
    id: id('rev', 'rev_0000000001K7Q3M8ZP2W4XJD5R'),
    product_id: productId ?? id('prod', 'prod_0000000000A4T9KX2MB7QZ1C'),
    content: like('Soft, warm and true to size. Would buy again.'),
    rating: integer(4),
    image_urls: eachLike(regex(/^https?:\/\/\S+$/, 'https://cdn.example.com/reviews/rev_1/1.jpg'), 0),
    is_verified_purchase: boolean(true),
    customer: { first_name: like('Ada'), last_name: like('Lovelace') },
    created_at: timestamp('2024-03-05T10:20:30.000Z'),
    updated_at: timestamp('2024-03-06T08:00:00.000Z'),
  };
}

/** A wishlist item; `wishlistId` pins `wishlist_id` exactly (4.4), else any `wl_` id. */
export function wishlistItemTemplate(wishlistId?: string): Record<string, unknown> {
  return {
    id: id('wli', 'wli_00000000000078WQ2NFD5KTZ3H'),
    wishlist_id: wishlistId ?? id('wl', 'wl_0000000000R3VJ8Y6N2MK1QTAB'),
    product_variant_id: id('variant', 'variant_0000000001X4K9P2QW7ZBN3M5RTY'),
    product_variant: {
      id: id('variant', 'variant_0000000001X4K9P2QW7ZBN3M5RTY'),
      title: like('M'),
      sku: like('WOOL-SCARF-M'),
      product: { id: id('prod', 'prod_0000000000A4T9KX2MB7QZ1C'), title: like('Wool Scarf'), handle: like('wool-scarf-0') },
    },
    created_at: timestamp('2024-03-01T00:10:00.000Z'),
    updated_at: timestamp('2024-03-01T00:10:00.000Z'),
  };
}

/** A wishlist, its items embedded (any number of them). */
export function wishlistTemplate(): Record<string, unknown> {
  return {
    id: id('wl', 'wl_0000000000R3VJ8Y6N2MK1QTAB'),
    sales_channel_id: id('sc', 'sc_01HV3K9Q2W7ZBN3M5RTYX4P8JD'),
    items: eachLike(wishlistItemTemplate(), 0),
    items_count: integer(1),
    created_at: timestamp('2024-03-01T00:00:00.000Z'),
    updated_at: timestamp('2024-03-02T12:00:00.000Z'),
  };
}

/** Exactly `length` records like `template` (an exact `[]` when none). */
function records(template: Record<string, unknown>, length: number): unknown {
  return length === 0 ? [] : constrainedArrayLike(template, length, length, length);
}

/** A reviews envelope for `count` matching reviews, read at `offset` with `limit`. */
export function reviewsBody(record: Record<string, unknown>, count: number, offset: number, limit: number): Record<string, unknown> {
  return { reviews: records(record, pageLength(count, offset, limit)), ...reviewsPageMeta(count, offset, limit) };
}

/** A wishlist envelope for `count` records, read at `skip` with `take` (no `nextPage`/`prevPage` key when there is none). */
export function wishlistBody(record: Record<string, unknown>, count: number, skip: number, take: number): Record<string, unknown> {
  return { data: records(record, pageLength(count, skip, take)), ...wishlistPageMeta(count, skip, take) };
}

/** The documented error body; `messageNames` is a text the message must contain (the parameter, say). */
export function errorBody(type: 'invalid_data' | 'not_found', messageNames: string, example: string): Record<string, unknown> {
  const escaped = messageNames.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return { type, message: regex(`^[\\s\\S]*${escaped}[\\s\\S]*$`, example) };
}
