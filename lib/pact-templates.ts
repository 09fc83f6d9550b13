import { z } from 'zod';
import { boolean, constrainedArrayLike, eachLike, integer, like, regex } from './pact-matchers.ts';
import { pageLength, reviewsPageMeta, wishlistPageMeta } from './paging.ts';
import { EXAMPLE_RECORDS, recordSchemas, TIMESTAMP_PATTERN } from './records.ts';

/**
 * The response bodies the storefront expects, as Pact templates: matchers pin the
 * shape of each record (field names and types, derived from the record schemas of
 * lib/records.ts), while the navigation numbers are exact values, computed by
 * lib/paging.ts from the state's `count` and the request.
 *
 * Pure (lib/pact-matchers.ts makes the matchers as Pact's JavaScript does): the kit's pacts
 * (contracts/) and the pacts a mock writes from a consumer's requests (lib/pact-recording.ts) share it.
 *
 * Fields that may be `null` (a review's `title`, a wishlist's `name` and `customer_id`,
 * a product's `thumbnail`) are left out of the templates: Pact has no "string or null"
 * matcher, and a key the template does not name is allowed (Postel's law). Their types
 * are the property suite's to check.
 */

const URL_PATTERN = /^https?:\/\/\S+$/;

/** JSON answers, with or without a charset. */
export const JSON_HEADERS = { 'Content-Type': regex(/^application\/json(;.*)?$/, 'application/json; charset=utf-8') };

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  pattern?: string;
  format?: string;
  anyOf?: JsonSchema[];
}

/** What a field becomes when Pact cannot say it: left out of the template (a key the template does not name is allowed). */
const LEFT_OUT = Symbol('left out');

/**
 * The Pact template of a value from its JSON Schema (made from lib/records.ts by zod) and an
 * example: a matcher per field with the example's value. A field that may be `null` is left
 * out: Pact has no "string or null" matcher.
 */
function template(schema: JsonSchema, example: unknown, where: string): unknown {
  const nullable = Array.isArray(schema.type) ? schema.type.includes('null') : schema.type === 'null' || (schema.anyOf ?? []).some((s) => s.type === 'null');
  if (nullable) return LEFT_OUT;
  switch (schema.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, field] of Object.entries(schema.properties ?? {})) {
        const value = template(field, (example as Record<string, unknown>)[key], `${where}.${key}`);
        if (value !== LEFT_OUT) out[key] = value;
      }
      return out;
    }
    case 'array': {
      const first = (example as unknown[])[0];
      if (first === undefined) throw new Error(`the example of ${where} must hold one element, to show its shape`);
      return eachLike(template(schema.items ?? {}, first, `${where}[]`), 0);
    }
    case 'string':
      if (schema.format === 'date-time') return regex(TIMESTAMP_PATTERN, example as string);
      if (schema.format === 'uri') return regex(URL_PATTERN, example as string);
      return schema.pattern ? regex(schema.pattern, example as string) : like(example as string);
    case 'integer':
      return integer(example as number);
    case 'boolean':
      return boolean(example as boolean);
    default:
      throw new Error(`no Pact matcher for ${where} (${JSON.stringify(schema.type)})`);
  }
}

/** The Pact template of a record of `schema` (a zod object), matchers with the values of `example`; `pinned` fields are exact. */
export function recordTemplateOf(schema: z.ZodType, example: object, kind: string, pinned: Record<string, string> = {}): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as JsonSchema;
  return { ...(template(json, example, kind) as Record<string, unknown>), ...pinned };
}

function recordTemplate(kind: 'review' | 'item' | 'wishlist', pinned: Record<string, string> = {}): Record<string, unknown> {
  return recordTemplateOf(recordSchemas[kind], EXAMPLE_RECORDS[kind], kind, pinned);
}

/** A review; `productId` pins `product_id` exactly (4.2), else any `prod_` id. */
export function reviewTemplate(productId?: string): Record<string, unknown> {
  return recordTemplate('review', productId === undefined ? {} : { product_id: productId });
}

/** A wishlist item; `wishlistId` pins `wishlist_id` exactly (4.4), else any `wl_` id. */
export function wishlistItemTemplate(wishlistId?: string): Record<string, unknown> {
  return recordTemplate('item', wishlistId === undefined ? {} : { wishlist_id: wishlistId });
}

/** A wishlist, its items embedded (any number of them). */
export function wishlistTemplate(): Record<string, unknown> {
  return recordTemplate('wishlist');
}

/** Exactly `length` records like `template` (an exact `[]` when none). */
export function records(template: Record<string, unknown>, length: number): unknown {
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
