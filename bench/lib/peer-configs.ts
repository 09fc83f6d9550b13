/**
 * The configuration each peer needs to serve the equivalent page of reviews, written into the
 * benchmark's work folder. Every static peer answers the very bytes our mock serves for the page
 * (`page`); json-server pages through the same reviews itself; Prism's dynamic mode generates
 * the page from a JSON Schema of the reviews envelope.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const REVIEWS_PATH = '/store/products/reviews';

export interface PeerConfigInput {
  /** The serialized page our mock answers for `query`. */
  pageBytes: Buffer;
  /** The query string of that page, without `?`, e.g. `limit=10&offset=0`. */
  query: string;
  /** Page size of the page (`limit`). */
  pageSize: number;
  /** All reviews of the dataset, for json-server's own paging. */
  reviews: unknown[];
}

export interface PeerConfigFiles {
  pageFile: string;
  openapiExample: string;
  openapiSchema: string;
  mockoonEnvironment: string;
  wiremockRoot: string;
  pactFile: string;
  jsonServerDb: string;
}

const timestamp = { type: 'string', format: 'date-time' };

/** JSON Schema of one review, as docs/API.md ("Records") describes it. */
export const reviewSchema = {
  type: 'object',
  required: ['id', 'product_id', 'title', 'content', 'rating', 'image_urls', 'is_verified_purchase', 'customer', 'created_at', 'updated_at'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', pattern: '^rev_[0-9A-Za-z]{8,40}$' },
    product_id: { type: 'string', pattern: '^prod_[0-9A-Za-z]{4,40}$' },
    title: { type: ['string', 'null'] },
    content: { type: 'string' },
    rating: { type: 'integer', minimum: 1, maximum: 5 },
    image_urls: { type: 'array', items: { type: 'string', format: 'uri' }, maxItems: 3 },
    is_verified_purchase: { type: 'boolean' },
    customer: {
      type: 'object',
      required: ['first_name', 'last_name'],
      additionalProperties: false,
      properties: { first_name: { type: 'string' }, last_name: { type: 'string' } },
    },
    created_at: timestamp,
    updated_at: timestamp,
  },
};

export function reviewsEnvelopeSchema(pageSize: number): object {
  const integer = { type: 'integer', minimum: 0 };
  const page = { type: ['integer', 'null'], minimum: 1 };
  return {
    type: 'object',
    required: ['reviews', 'count', 'limit', 'offset', 'totalPages', 'currentPage', 'nextPage', 'prevPage'],
    additionalProperties: false,
    properties: {
      reviews: { type: 'array', items: reviewSchema, minItems: pageSize, maxItems: pageSize },
      count: integer,
      limit: integer,
      offset: integer,
      totalPages: integer,
      currentPage: { type: 'integer', minimum: 1 },
      nextPage: page,
      prevPage: page,
    },
  };
}

function integerParameter(name: string): object {
  return { name, in: 'query', required: false, schema: { type: 'integer', minimum: 0 } };
}

/** An OpenAPI 3.0 document for 4.1: with the page as its example (Prism static) or with only a schema (Prism dynamic). */
export function openapiDocument(input: PeerConfigInput, withExample: boolean): object {
  const schema = JSON.parse(JSON.stringify(reviewsEnvelopeSchema(input.pageSize)).replaceAll('["string","null"]', '"string"').replaceAll('["integer","null"]', '"integer"'));
  // OpenAPI 3.0 has no type arrays: express "or null" with nullable.
  for (const key of ['nextPage', 'prevPage']) schema.properties[key].nullable = true;
  schema.properties.reviews.items.properties.title.nullable = true;
  const media: Record<string, unknown> = { schema };
  if (withExample) media.example = JSON.parse(input.pageBytes.toString('utf8'));
  return {
    openapi: '3.0.3',
    info: { title: 'store-listing-kit benchmark: list reviews', version: '1.0.0' },
    paths: {
      [REVIEWS_PATH]: {
        get: {
          operationId: 'listReviews',
          parameters: [
            integerParameter('limit'),
            integerParameter('offset'),
            { name: 'order', in: 'query', required: false, schema: { type: 'string' } },
          ],
          responses: { '200': { description: 'A page of reviews', content: { 'application/json; charset=utf-8': media } } },
        },
      },
    },
  };
}

/** A Mockoon environment with one route answering the page. `--repair` fills in the fields a newer Mockoon expects. */
export function mockoonEnvironment(input: PeerConfigInput): object {
  return {
    uuid: '6f3f5c3e-0d2b-4a8e-9b1e-1f6c2b7d0a01',
    lastMigration: 33,
    name: 'store-listing-kit benchmark',
    endpointPrefix: '',
    latency: 0,
    port: 3000,
    hostname: '',
    folders: [],
    routes: [
      {
        uuid: '6f3f5c3e-0d2b-4a8e-9b1e-1f6c2b7d0a02',
        type: 'http',
        documentation: 'List reviews',
        method: 'get',
        endpoint: REVIEWS_PATH.slice(1),
        responses: [
          {
            uuid: '6f3f5c3e-0d2b-4a8e-9b1e-1f6c2b7d0a03',
            body: input.pageBytes.toString('utf8'),
            latency: 0,
            statusCode: 200,
            label: 'page',
            headers: [{ key: 'Content-Type', value: 'application/json; charset=utf-8' }],
            bodyType: 'INLINE',
            filePath: '',
            databucketID: '',
            sendFileAsBody: false,
            rules: [],
            rulesOperator: 'OR',
            disableTemplating: true,
            fallbackTo404: false,
            default: true,
            crudKey: 'id',
            callbacks: [],
          },
        ],
        responseMode: null,
        streamingMode: null,
        streamingInterval: 0,
      },
    ],
    rootChildren: [{ type: 'route', uuid: '6f3f5c3e-0d2b-4a8e-9b1e-1f6c2b7d0a02' }],
    proxyMode: false,
    proxyHost: '',
    proxyRemovePrefix: false,
    tlsOptions: { enabled: false, type: 'CERT', pfxPath: '', certPath: '', keyPath: '', caPath: '', passphrase: '' },
    cors: false,
    headers: [],
    proxyReqHeaders: [],
    proxyResHeaders: [],
    data: [],
    callbacks: [],
  };
}

/** A WireMock stub mapping answering the page for GET on the reviews path. */
export function wiremockMapping(input: PeerConfigInput): object {
  return {
    request: { method: 'GET', urlPath: REVIEWS_PATH },
    response: {
      status: 200,
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
      body: input.pageBytes.toString('utf8'),
    },
  };
}

/** A Pact (V3) file whose one interaction answers the page for the page's query. */
export function pactFile(input: PeerConfigInput): object {
  const query: Record<string, string[]> = {};
  for (const [key, value] of new URLSearchParams(input.query)) (query[key] ??= []).push(value);
  return {
    consumer: { name: 'store-listing-kit-bench' },
    provider: { name: 'store-listing-api' },
    interactions: [
      {
        description: 'a page of reviews',
        request: { method: 'GET', path: REVIEWS_PATH, query },
        response: {
          status: 200,
          headers: { 'Content-Type': 'application/json; charset=utf-8' },
          body: JSON.parse(input.pageBytes.toString('utf8')),
        },
      },
    ],
    metadata: { pactSpecification: { version: '3.0.0' } },
  };
}

/** Write every peer's configuration under `dir`; returns where each file went. */
export function writePeerConfigs(dir: string, input: PeerConfigInput): PeerConfigFiles {
  mkdirSync(dir, { recursive: true });
  const files: PeerConfigFiles = {
    pageFile: join(dir, 'page.json'),
    openapiExample: join(dir, 'openapi-example.json'),
    openapiSchema: join(dir, 'openapi-schema.json'),
    mockoonEnvironment: join(dir, 'mockoon-environment.json'),
    wiremockRoot: join(dir, 'wiremock'),
    pactFile: join(dir, 'reviews.pact.json'),
    jsonServerDb: join(dir, 'json-server-db.json'),
  };
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  writeFileSync(files.pageFile, input.pageBytes);
  writeFileSync(files.openapiExample, json(openapiDocument(input, true)));
  writeFileSync(files.openapiSchema, json(openapiDocument(input, false)));
  writeFileSync(files.mockoonEnvironment, json(mockoonEnvironment(input)));
  mkdirSync(join(files.wiremockRoot, 'mappings'), { recursive: true });
  mkdirSync(join(files.wiremockRoot, '__files'), { recursive: true });
  writeFileSync(join(files.wiremockRoot, 'mappings', 'reviews.json'), json(wiremockMapping(input)));
  writeFileSync(files.pactFile, json(pactFile(input)));
  writeFileSync(files.jsonServerDb, JSON.stringify({ reviews: input.reviews }));
  return files;
}
