/**
 * What the OpenAPI document says about one dialect, as data the builder (document.ts) turns
 * into OpenAPI 3.1: per endpoint its parameters and its answers. Every number in it comes
 * from the dialect's own tables (lib/dialects/) and every body schema is a zod schema of
 * lib/, so the document cannot drift from what the mock answers.
 */
import type { z } from 'zod';
import type { EndpointName } from '../api-rules.ts';
import type { QueryPairs } from '../query.ts';

/** A JSON Schema (2020-12, as OpenAPI 3.1 uses it). */
export type JsonSchema = Record<string, unknown>;

export interface ParameterDoc {
  name: string;
  in: 'query' | 'header' | 'path';
  required?: boolean;
  description: string;
  schema: JsonSchema;
  /** For arrays: `form` with `explode` (`a=1&a=2`) is OpenAPI's default. */
  explode?: boolean;
}

/**
 * A request whose answer becomes a response's example: the builder sends it to the example
 * source (a mock over the seed-1 dataset) and refuses to build when the answer's status is
 * not the response's, so a documented status is one the dialect really gives.
 */
export interface ExampleRequest {
  summary: string;
  /** `{productId}` / `{wishlistId}` in a value stand for the known product / wishlist. */
  query?: QueryPairs;
  headers?: Record<string, string>;
  /** The path id (4.2, 4.4): a product / wishlist of the dataset, or one it does not have. */
  id?: 'known' | 'unknown';
}

/** A named body schema: it becomes `components.schemas[name]`. */
export interface NamedSchema {
  name: string;
  schema: z.ZodType;
}

export interface ResponseDoc {
  status: number;
  description: string;
  /** The JSON body, or `null` for an empty body. */
  body: NamedSchema | null;
  /** Requests that get this answer; their answers are the examples. */
  examples?: Record<string, ExampleRequest>;
  /** Fixed examples, where no plain request to the example source makes one (an injected fault, a write). */
  fixedExamples?: Record<string, { summary: string; value: unknown }>;
  /** Headers of this answer worth documenting (OpenAPI header objects, by name). */
  headers?: Record<string, { description: string; schema: JsonSchema }>;
}

export interface OperationDoc {
  summary: string;
  description: string;
  parameters: ParameterDoc[];
  responses: ResponseDoc[];
  /** OpenAPI security requirements (alternatives); none: `[]`. */
  security: Array<Record<string, string[]>>;
}

export type HttpMethod = 'get' | 'post' | 'put' | 'delete';

/** A request body: JSON with a zod schema (read as input: defaults are optional), or a multipart form. */
export type RequestBodyDoc =
  | { description: string; json: NamedSchema }
  | { description: string; multipart: JsonSchema };

/** A route beyond the four listings (the alphabite dialect's writes and the reads around them). */
export interface RouteDoc extends OperationDoc {
  method: HttpMethod;
  /** As OpenAPI writes it: `/store/wishlists/{id}`. */
  path: string;
  operationId: string;
  requestBody?: RequestBodyDoc;
  /** Why the mock does not answer this route as the plugin does; it becomes `x-mock-emulated: false`. */
  notEmulated?: string;
}

export interface DialectApi {
  title: string;
  description: string;
  operations: Record<EndpointName, OperationDoc>;
  /** Routes besides the listings (none in the spec dialect: the spec shows no writes). */
  routes: RouteDoc[];
  /** The records, as named components (the envelopes refer to them). */
  records: NamedSchema[];
  securitySchemes: Record<string, JsonSchema>;
}
