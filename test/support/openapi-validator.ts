/**
 * Checks an answer against an OpenAPI 3.1 document: the operation its method and path reach,
 * a documented status, the documented headers, and the body against the response's schema
 * with Ajv's JSON Schema 2020-12 validator (OpenAPI 3.1's dialect) and ajv-formats.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { OpenApiDocument } from '../../lib/openapi/index.ts';

// ajv-formats is CommonJS with a default export; under NodeNext its type is the module namespace.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

export interface ObservedAnswer {
  method: string;
  /** The request target (path and query) as sent. */
  target: string;
  status: number;
  /** Response headers, names in lower case. */
  headers: Map<string, string>;
  body: string;
}

interface MediaType {
  schema: { $ref: string };
}
interface ResponseObject {
  headers?: Record<string, { $ref: string }>;
  content?: Record<string, MediaType>;
}
interface Operation {
  operationId: string;
  responses: Record<string, ResponseObject>;
}

export class OpenApiValidator {
  readonly #ajv = new Ajv2020({ strict: false, allErrors: true });
  readonly #compiled = new Map<string, ValidateFunction>();
  readonly #routes: Array<{ pattern: RegExp; operation: Operation }>;

  constructor(readonly document: OpenApiDocument) {
    addFormats(this.#ajv);
    this.#ajv.addSchema({ $id: 'openapi.json', components: document.components }, 'openapi.json');
    // Express routes as the mock does: case-insensitive, an optional trailing slash, one segment per parameter.
    this.#routes = Object.entries(document.paths).map(([path, item]) => ({
      pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}/?$`, 'i'),
      operation: item.get as unknown as Operation,
    }));
  }

  /** The operation a request reaches, or undefined (another method, another path: not the document's business). */
  operationOf(method: string, target: string): Operation | undefined {
    if (method !== 'GET') return undefined;
    const path = target.split('?')[0]!;
    return this.#routes.find((r) => r.pattern.test(path))?.operation;
  }

  /** Why the answer breaks the document (none: it holds), or undefined when no operation is reached. */
  check(answer: ObservedAnswer): string[] | undefined {
    const operation = this.operationOf(answer.method, answer.target);
    if (!operation) return undefined;
    const where = `${operation.operationId} ${answer.status}`;
    const response = operation.responses[String(answer.status)];
    if (!response) return [`${where}: status ${answer.status} is not documented for ${operation.operationId}`];
    const problems: string[] = [];
    for (const [name, header] of Object.entries(response.headers ?? {})) {
      const value = answer.headers.get(name.toLowerCase());
      const definition = this.#resolve(header.$ref) as { required?: boolean; schema: object };
      if (value === undefined) {
        if (definition.required) problems.push(`${where}: header ${name} is missing`);
      } else if (!this.#validator(`${header.$ref}/schema`)(value)) problems.push(`${where}: header ${name}: ${this.#ajv.errorsText(this.#validator(`${header.$ref}/schema`).errors)}`);
    }
    const media = response.content?.['application/json'];
    const type = answer.headers.get('content-type');
    if (!media) {
      if (answer.body !== '') problems.push(`${where}: the document says no body, got ${answer.body.slice(0, 100)}`);
      return problems;
    }
    if (!type || !/^application\/json(;|$)/.test(type)) problems.push(`${where}: Content-Type ${type ?? '(none)'} is not application/json`);
    let body: unknown;
    try {
      body = JSON.parse(answer.body);
    } catch {
      return [...problems, `${where}: the body is not JSON: ${answer.body.slice(0, 100)}`];
    }
    const validate = this.#validator(media.schema.$ref);
    if (!validate(body)) problems.push(`${where}: ${this.#ajv.errorsText(validate.errors, { separator: '; ' })}`);
    return problems;
  }

  #validator(ref: string): ValidateFunction {
    let validate = this.#compiled.get(ref);
    if (!validate) {
      validate = this.#ajv.compile({ $ref: `openapi.json${ref}` });
      this.#compiled.set(ref, validate);
    }
    return validate;
  }

  #resolve(ref: string): unknown {
    return ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], this.document);
  }
}
