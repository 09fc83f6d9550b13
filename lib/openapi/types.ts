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
  /** A fixed example, where no plain request makes one (an injected fault). */
  fixedExample?: { summary: string; value: unknown };
}

export interface OperationDoc {
  summary: string;
  description: string;
  parameters: ParameterDoc[];
  responses: ResponseDoc[];
  /** OpenAPI security requirements (alternatives); none: `[]`. */
  security: Array<Record<string, string[]>>;
}

export interface DialectApi {
  title: string;
  description: string;
  operations: Record<EndpointName, OperationDoc>;
  /** The records, as named components (the envelopes refer to them). */
  records: NamedSchema[];
  securitySchemes: Record<string, JsonSchema>;
}
