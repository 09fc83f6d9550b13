/** The OpenAPI 3.1 documents of the listings, one per dialect, generated from lib's schemas and dialects. */
export { API_VERSION, OPENAPI_PATH, dialectApi, openApiDocument, openApiPath, type ExampleSource, type OpenApiDocument, type OpenApiOptions } from './document.ts';
export type { DialectApi, ExampleRequest, JsonSchema, NamedSchema, OperationDoc, ParameterDoc, ResponseDoc } from './types.ts';
export { EXAMPLE_CUSTOMER_AUTHORIZATION } from './alphabite-api.ts';
