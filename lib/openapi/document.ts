/**
 * The OpenAPI 3.1 document of the four listings in one dialect, built from the dialect's
 * description (spec-api.ts, alphabite-api.ts) and lib's zod schemas with zod's own JSON
 * Schema output (`z.toJSONSchema`, JSON Schema 2020-12: OpenAPI 3.1's dialect). Pure: the
 * examples come from an `ExampleSource` the caller gives (a mock over the seed-1 dataset),
 * so lib needs neither the data generator nor the server.
 */
import { z } from 'zod';
import { DEFAULT_MAX_PAGE_SIZE, ENDPOINT_NAMES, PATHS, type EndpointName } from '../api-rules.ts';
import type { DialectName, ListingRequest } from '../dialects/types.ts';
import { errorBodySchema } from '../envelopes.ts';
import { alphabiteApi } from './alphabite-api.ts';
import { specApi } from './spec-api.ts';
import type { DialectApi, ExampleRequest, JsonSchema, NamedSchema, ResponseDoc } from './types.ts';

/** The version of the listing API the document describes (not the kit's version). */
export const API_VERSION = '1.0.0';
export { OPENAPI_PATH } from '../admin-paths.ts';

/** Answers example requests: a mock over some dataset, its known product and wishlist. */
export interface ExampleSource {
  /** A product with reviews. */
  productId: string;
  /** A wishlist with items. */
  wishlistId: string;
  /** The answer to a listing request: its status and body (`null`: empty). */
  answer(request: ListingRequest): { status: number; body: string | null };
}

export interface OpenApiOptions {
  dialect?: DialectName;
  /** The spec dialect's largest `limit`/`take` (default 1000). */
  maxPageSize?: number;
  /** Where the examples come from; without it the document has none. */
  examples?: ExampleSource;
  /** The server the document names (default http://localhost:9000, the CLI's default). */
  serverUrl?: string;
}

export type OpenApiDocument = {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string; license: { name: string; identifier: string } };
  servers: Array<{ url: string; description: string }>;
  paths: Record<string, { get: Record<string, unknown> }>;
  components: { schemas: Record<string, JsonSchema>; headers: Record<string, unknown>; securitySchemes: Record<string, JsonSchema> };
};

/** Answers of the mock's HTTP layer on any path (mock-server/http/request-guards.ts), in either dialect. */
const HTTP_LAYER_RESPONSES: ResponseDoc[] = [
  { status: 414, description: '`invalid_data`: the URL is longer than the mock accepts.', body: { name: 'Error', schema: errorBodySchema } },
  { status: 417, description: '`invalid_data`: an `Expect` header other than `100-continue`.', body: { name: 'Error', schema: errorBodySchema } },
  { status: 431, description: '`invalid_data`: the request line and headers are larger than the mock accepts.', body: { name: 'Error', schema: errorBodySchema } },
];

export function dialectApi(dialect: DialectName, maxPageSize: number): DialectApi {
  return dialect === 'alphabite' ? alphabiteApi() : specApi(maxPageSize);
}

/** `/store/reviews/product/:product_id` as OpenAPI writes it: `/store/reviews/product/{product_id}`. */
export function openApiPath(endpoint: EndpointName): string {
  return PATHS[endpoint].replace(/:([a-z_]+)/g, '{$1}');
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

export function openApiDocument(options: OpenApiOptions = {}): OpenApiDocument {
  const dialect = options.dialect ?? 'spec';
  const api = dialectApi(dialect, options.maxPageSize ?? DEFAULT_MAX_PAGE_SIZE);
  const named = new Map<string, z.ZodType>();
  const name = ({ name: key, schema }: NamedSchema) => {
    const held = named.get(key);
    if (held && held !== schema) throw new Error(`two schemas are named '${key}' in the ${dialect} document`);
    named.set(key, schema);
    return key;
  };
  api.records.forEach(name);

  const paths: OpenApiDocument['paths'] = {};
  for (const endpoint of ENDPOINT_NAMES) {
    const op = api.operations[endpoint];
    const responses: Record<string, unknown> = {};
    for (const response of [...op.responses, ...HTTP_LAYER_RESPONSES]) {
      const examples = examplesOf(endpoint, response, options.examples);
      responses[String(response.status)] = {
        description: response.description,
        ...(response.status === 200 ? { headers: { ETag: { $ref: '#/components/headers/ETag' } } } : {}),
        ...(response.body ? { content: { 'application/json': { schema: ref(name(response.body)), ...(examples ? { examples } : {}) } } } : {}),
      };
    }
    paths[openApiPath(endpoint)] = {
      get: {
        operationId: endpoint,
        summary: op.summary,
        description: op.description,
        parameters: op.parameters.map(({ explode, ...p }) => ({ ...p, ...(explode !== undefined ? { style: 'form', explode } : {}) })),
        security: op.security,
        responses,
      },
    };
  }

  const registry = z.registry<{ id: string }>();
  for (const [key, schema] of named) registry.add(schema, { id: key });
  const generated = z.toJSONSchema(registry, { uri: (id) => `#/components/schemas/${id}`, io: 'output', target: 'draft-2020-12' }).schemas;
  const schemas = Object.fromEntries(Object.entries(generated).map(([key, { $schema: _s, $id: _i, ...schema }]) => [key, schema as JsonSchema]));

  return {
    openapi: '3.1.0',
    info: { title: api.title, version: API_VERSION, description: api.description, license: { name: 'MIT', identifier: 'MIT' } },
    servers: [{ url: options.serverUrl ?? 'http://localhost:9000', description: `store-listing-kit serve --dialect ${dialect}` }],
    paths,
    components: {
      schemas,
      headers: { ETag: { description: 'The weak ETag of the body (the HTTP mock sends it; the MSW handlers do not).', schema: { type: 'string', pattern: '^W/".+"$' } } },
      securitySchemes: api.securitySchemes,
    },
  };
}

/** The examples of one response: the answers of its example requests, checked to have its status. */
function examplesOf(endpoint: EndpointName, response: ResponseDoc, source: ExampleSource | undefined): Record<string, { summary: string; value: unknown }> | undefined {
  const out: Record<string, { summary: string; value: unknown }> = {};
  if (response.fixedExample) out.fault = response.fixedExample;
  if (source) {
    for (const [key, example] of Object.entries(response.examples ?? {})) {
      const request = exampleRequest(endpoint, example, source);
      const answer = source.answer(request);
      if (answer.status !== response.status) {
        throw new Error(`the example '${key}' of ${endpoint}'s ${response.status} answers ${answer.status}: ${answer.body?.slice(0, 200) ?? '(empty)'}`);
      }
      if (answer.body !== null) out[key] = { summary: example.summary, value: JSON.parse(answer.body) };
    }
  }
  return Object.keys(out).length ? out : undefined;
}

function exampleRequest(endpoint: EndpointName, example: ExampleRequest, source: ExampleSource): ListingRequest {
  const fill = (value: string) => value.replace('{productId}', source.productId).replace('{wishlistId}', source.wishlistId);
  const known = endpoint === 'productReviews' ? source.productId : source.wishlistId;
  const unknown = endpoint === 'productReviews' ? 'prod_unknown' : 'wl_unknown';
  const hasId = endpoint === 'productReviews' || endpoint === 'wishlistItems';
  return {
    endpoint,
    ...(hasId ? { id: example.id === 'unknown' ? unknown : known } : {}),
    query: (example.query ?? []).map(([k, v]) => [k, fill(v)]),
    headers: Object.fromEntries(Object.entries(example.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
  };
}
