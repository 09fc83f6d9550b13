/**
 * The OpenAPI 3.1 document of one dialect: the four listings and, in the alphabite dialect, the
 * plugins' other routes (writes; alphabite-write-api.ts), built from the dialect's description
 * (spec-api.ts, alphabite-api.ts) and lib's zod schemas with zod's own JSON Schema output
 * (`z.toJSONSchema`, JSON Schema 2020-12: OpenAPI 3.1's dialect). Pure: the listings' examples
 * come from an `ExampleSource` the caller gives (a mock over the seed-1 dataset), so lib needs
 * neither the data generator nor the server.
 */
import { z } from 'zod';
import { DEFAULT_MAX_PAGE_SIZE, ENDPOINT_NAMES, PATHS, type EndpointName } from '../api-rules.ts';
import type { DialectName, ListingRequest } from '../dialects/types.ts';
import { errorBodySchema } from '../envelopes.ts';
import { alphabiteApi } from './alphabite-api.ts';
import { specApi } from './spec-api.ts';
import type { DialectApi, ExampleRequest, HttpMethod, JsonSchema, NamedSchema, OperationDoc, ResponseDoc, RouteDoc } from './types.ts';

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
  paths: Record<string, Partial<Record<HttpMethod, Record<string, unknown>>>>;
  components: { schemas: Record<string, JsonSchema>; headers: Record<string, unknown>; securitySchemes: Record<string, JsonSchema> };
};

/** Answers of the mock's HTTP layer on any path (mock-server/front/request-guards.ts), in either dialect. */
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
  // Answers are read as zod outputs; request bodies as inputs (a field with a default is optional).
  const named = new Map<string, z.ZodType>();
  const namedInputs = new Map<string, z.ZodType>();
  const nameIn = (held: Map<string, z.ZodType>, other: Map<string, z.ZodType>) => ({ name: key, schema }: NamedSchema) => {
    if ((held.has(key) && held.get(key) !== schema) || other.has(key)) throw new Error(`two schemas are named '${key}' in the ${dialect} document`);
    held.set(key, schema);
    return key;
  };
  const name = nameIn(named, namedInputs);
  const nameInput = nameIn(namedInputs, named);
  api.records.forEach(name);
  const responsesOf = (op: OperationDoc, examples: (response: ResponseDoc) => Record<string, { summary: string; value: unknown }> | undefined, etag: boolean) => {
    const responses: Record<string, unknown> = {};
    for (const response of [...op.responses, ...HTTP_LAYER_RESPONSES]) {
      if (responses[String(response.status)]) throw new Error(`${op.summary}: status ${response.status} is documented twice`);
      const shown = examples(response);
      responses[String(response.status)] = {
        description: response.description,
        ...(etag && response.status === 200 ? { headers: { ETag: { $ref: '#/components/headers/ETag' } } } : {}),
        ...(response.body ? { content: { 'application/json': { schema: ref(name(response.body)), ...(shown ? { examples: shown } : {}) } } } : {}),
        ...(response.headers ? { headers: headerRefs(response.headers) } : {}),
      };
    }
    return responses;
  };

  // Headers a response documents (ResponseDoc.headers) go to components.headers, referred to by name.
  const headerComponents = new Map<string, unknown>();
  const headerRefs = (headers: NonNullable<ResponseDoc['headers']>) =>
    Object.fromEntries(
      Object.entries(headers).map(([headerName, header]) => {
        headerComponents.set(headerName, header);
        return [headerName, { $ref: `#/components/headers/${headerName}` }];
      }),
    );

  const paths: OpenApiDocument['paths'] = {};
  for (const endpoint of ENDPOINT_NAMES) {
    const op = api.operations[endpoint];
    const responses = responsesOf(op, (response) => examplesOf(endpoint, response, options.examples), true);
    paths[openApiPath(endpoint)] = {
      get: {
        operationId: endpoint,
        summary: op.summary,
        description: op.description,
        parameters: op.parameters.map(parameterObject),
        security: op.security,
        responses,
      },
    };
  }
  for (const route of api.routes) {
    const item = (paths[route.path] ??= {});
    if (item[route.method]) throw new Error(`${route.method.toUpperCase()} ${route.path} is documented twice`);
    item[route.method] = {
      operationId: route.operationId,
      summary: route.summary,
      description: route.notEmulated ? `${route.description}\n\n**Not emulated by the mock**: ${route.notEmulated}.` : route.description,
      parameters: route.parameters.map(parameterObject),
      security: route.security,
      ...(route.requestBody ? { requestBody: requestBodyObject(route, nameInput) } : {}),
      responses: responsesOf(route, (response) => response.fixedExamples, false),
      ...(route.notEmulated ? { 'x-mock-emulated': false } : {}),
    };
  }

  const schemas = { ...jsonSchemas(named, 'output'), ...jsonSchemas(namedInputs, 'input') };

  const document: OpenApiDocument = {
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
  for (const [headerName, header] of headerComponents) document.components.headers[headerName] = header;
  return document;
}

/** Named zod schemas as `components.schemas` (JSON Schema 2020-12), referring to each other by name. */
function jsonSchemas(named: Map<string, z.ZodType>, io: 'input' | 'output'): Record<string, JsonSchema> {
  if (named.size === 0) return {};
  const registry = z.registry<{ id: string }>();
  for (const [key, schema] of named) registry.add(schema, { id: key });
  const generated = z.toJSONSchema(registry, { uri: (id) => `#/components/schemas/${id}`, io, target: 'draft-2020-12' }).schemas;
  return Object.fromEntries(Object.entries(generated).map(([key, { $schema: _s, $id: _i, ...schema }]) => [key, schema as JsonSchema]));
}

function parameterObject({ explode, ...p }: OperationDoc['parameters'][number]): Record<string, unknown> {
  return { ...p, ...(explode !== undefined ? { style: 'form', explode } : {}) };
}

function requestBodyObject(route: RouteDoc, name: (schema: NamedSchema) => string): Record<string, unknown> {
  const body = route.requestBody!;
  const content = 'json' in body ? { 'application/json': { schema: ref(name(body.json)) } } : { 'multipart/form-data': { schema: body.multipart } };
  return { description: body.description, required: 'json' in body, content };
}

/** The examples of one response: the answers of its example requests, checked to have its status. */
function examplesOf(endpoint: EndpointName, response: ResponseDoc, source: ExampleSource | undefined): Record<string, { summary: string; value: unknown }> | undefined {
  const out: Record<string, { summary: string; value: unknown }> = {};
  Object.assign(out, response.fixedExamples);
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
