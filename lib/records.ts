import { z } from 'zod';
import { ID_PREFIXES, idPattern, idPatternMessage } from './id-prefixes.ts';

export { ID_PREFIXES };

/**
 * The records the four listings return (API.md, "Records"), as zod schemas: the one
 * definition that fixtures validation, the contract templates, the property suite's
 * record-shape check and the types all derive from.
 *
 * Two variants of the same definition: `recordSchemas` accepts extra fields (a client, or
 * the property suite, reading some provider's answers); `strictRecordSchemas` refuses them
 * (a fixtures file holds exactly what the mock will serve).
 */

/** ISO-8601 UTC with milliseconds, as `Date.prototype.toISOString` writes it. */
export const TIMESTAMP_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const timestamp = () =>
  z.iso.datetime({ precision: 3, message: 'must be an ISO-8601 UTC timestamp with milliseconds, like 2024-01-31T12:00:00.000Z' });
const prefixedId = (prefix: string) => z.string().regex(idPattern(prefix), { message: idPatternMessage(prefix) });

function updatedNotBeforeCreated(record: { created_at: string; updated_at: string }, ctx: z.RefinementCtx): void {
  if (Date.parse(record.updated_at) < Date.parse(record.created_at)) {
    ctx.addIssue({ code: 'custom', path: ['updated_at'], message: `must not be before created_at (${record.created_at})` });
  }
}

function buildSchemas(strict: boolean) {
  const object = strict ? z.strictObject : z.object;
  const review = object({
    id: prefixedId(ID_PREFIXES.review),
    product_id: prefixedId(ID_PREFIXES.product),
    title: z.string().nullable(),
    content: z.string(),
    rating: z.int().min(1).max(5),
    image_urls: z.array(z.url()),
    is_verified_purchase: z.boolean(),
    customer: object({ first_name: z.string(), last_name: z.string() }),
    created_at: timestamp(),
    updated_at: timestamp(),
  }).superRefine(updatedNotBeforeCreated);

  const product = object({
    id: prefixedId(ID_PREFIXES.product),
    title: z.string(),
    handle: z.string(),
    thumbnail: z.string().nullable(),
  });

  const item = object({
    id: prefixedId(ID_PREFIXES.item),
    wishlist_id: prefixedId(ID_PREFIXES.wishlist),
    product_variant_id: prefixedId(ID_PREFIXES.variant),
    product_variant: object({ id: prefixedId(ID_PREFIXES.variant), title: z.string(), sku: z.string(), product }),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
    .superRefine(updatedNotBeforeCreated)
    .superRefine((record, ctx) => {
      if (record.product_variant_id !== record.product_variant.id) {
        ctx.addIssue({ code: 'custom', path: ['product_variant_id'], message: `must equal product_variant.id (${record.product_variant.id})` });
      }
    });

  const wishlist = object({
    id: prefixedId(ID_PREFIXES.wishlist),
    name: z.string().nullable(),
    customer_id: prefixedId(ID_PREFIXES.customer).nullable(),
    sales_channel_id: prefixedId(ID_PREFIXES.salesChannel),
    items: z.array(item),
    items_count: z.int().min(0),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
    .superRefine(updatedNotBeforeCreated)
    .superRefine((record, ctx) => {
      if (record.items_count !== record.items.length) {
        ctx.addIssue({ code: 'custom', path: ['items_count'], message: `must equal the number of items (${record.items.length})` });
      }
      record.items.forEach((it, k) => {
        if (it.wishlist_id !== record.id) {
          ctx.addIssue({ code: 'custom', path: ['items', k, 'wishlist_id'], message: `must be the id of the wishlist that holds it (${record.id})` });
        }
      });
    });

  return { review, product, item, wishlist };
}

/** The records as a client reads them: these fields with these types; extra fields pass. */
export const recordSchemas = buildSchemas(false);
/** Exactly these fields (a fixtures file). */
export const strictRecordSchemas = buildSchemas(true);

export type Review = z.infer<typeof recordSchemas.review>;
export type ProductSummary = z.infer<typeof recordSchemas.product>;
export type ProductVariant = WishlistItem['product_variant'];
export type WishlistItem = z.infer<typeof recordSchemas.item>;
export type Wishlist = z.infer<typeof recordSchemas.wishlist>;

/**
 * One example of each record, as the documentation and the contracts show them (the
 * contract templates take their example values from here). test/protocol.test.ts checks
 * that each one passes its strict schema.
 */
export const EXAMPLE_RECORDS: { review: Review; item: WishlistItem; wishlist: Wishlist } = (() => {
  const item: WishlistItem = {
    id: 'wli_00000000000078WQ2NFD5KTZ3H',
    wishlist_id: 'wl_0000000000R3VJ8Y6N2MK1QTAB',
    product_variant_id: 'variant_0000000001X4K9P2QW7ZBN3M5RTY',
    product_variant: {
      id: 'variant_0000000001X4K9P2QW7ZBN3M5RTY',
      title: 'M',
      sku: 'WOOL-SCARF-M',
      product: { id: 'prod_0000000000A4T9KX2MB7QZ1C', title: 'Wool Scarf', handle: 'wool-scarf-0', thumbnail: 'https://cdn.example.com/products/wool-scarf-0.jpg' },
    },
    created_at: '2024-03-01T00:10:00.000Z',
    updated_at: '2024-03-01T00:10:00.000Z',
  };
  return {
    review: {
      id: 'rev_0000000001K7Q3M8ZP2W4XJD5R',
      product_id: 'prod_0000000000A4T9KX2MB7QZ1C',
      title: 'Warm and soft',
      content: 'Soft, warm and true to size. Would buy again.',
      rating: 4,
      image_urls: ['https://cdn.example.com/reviews/rev_1/1.jpg'],
      is_verified_purchase: true,
      customer: { first_name: 'Ada', last_name: 'Lovelace' },
      created_at: '2024-03-05T10:20:30.000Z',
      updated_at: '2024-03-06T08:00:00.000Z',
    },
    item,
    wishlist: {
      id: 'wl_0000000000R3VJ8Y6N2MK1QTAB',
      name: 'Winter',
      customer_id: 'cus_01HV3K9Q2W7ZBN3M5RTYX4P8JD',
      sales_channel_id: 'sc_01HV3K9Q2W7ZBN3M5RTYX4P8JD',
      items: [item],
      items_count: 1,
      created_at: '2024-03-01T00:00:00.000Z',
      updated_at: '2024-03-02T12:00:00.000Z',
    },
  };
})();
