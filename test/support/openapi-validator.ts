/**
 * Checks an answer against an OpenAPI 3.1 document: the operation its method and path reach,
 * a documented status, the documented headers, and the body against the response's schema
 * with Ajv's JSON Schema 2020-12 validator (OpenAPI 3.1's dialect) and ajv-formats; and a
 * JSON request body against the operation's request schema. `answerValidator(document)` is
 * the same as one function `(method, path, status, headers, body) => problems`.
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
  requestBody?: { content: Record<string, MediaType | { schema: object }> };
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

export class OpenApiValidator {
  readonly #ajv = new Ajv2020({ strict: false, allErrors: true });
  readonly #compiled = new Map<string, ValidateFunction>();
  readonly #routes: Array<{ method: string; pattern: RegExp; templated: number; operation: Operation }>;

  constructor(readonly document: OpenApiDocument) {
    addFormats(this.#ajv);
    this.#ajv.addSchema({ $id: 'openapi.json', components: document.components }, 'openapi.json');
    // Express routes as the mock does: case-insensitive, an optional trailing slash, one segment per parameter;
    // a concrete path before a templated one (`/store/wishlists/settings` before `/store/wishlists/{id}`), as OpenAPI says.
    this.#routes = Object.entries(document.paths)
      .flatMap(([path, item]) =>
        METHODS.filter((m) => (item as Record<string, unknown>)[m]).map((method) => ({
          method: method.toUpperCase(),
          pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}/?$`, 'i'),
          templated: (path.match(/\{/g) ?? []).length,
          operation: (item as Record<string, unknown>)[method] as Operation,
        })),
      )
      .sort((a, b) => a.templated - b.templated);
  }

  /** The operation a request reaches, or undefined (another method, another path: not the document's business). */
  operationOf(method: string, target: string): Operation | undefined {
    const path = target.split('?')[0]!;
    return this.#routes.find((r) => r.method === method.toUpperCase() && r.pattern.test(path))?.operation;
  }

  /** Why a JSON request body breaks the operation's request schema (none: it holds), or undefined when there is no JSON request schema. */
  checkRequestBody(method: string, target: string, body: unknown): string[] | undefined {
    const operation = this.operationOf(method, target);
    const media = operation?.requestBody?.content['application/json'] as MediaType | undefined;
    if (!operation || !media) return undefined;
    const validate = this.#validator(media.schema.$ref);
    return validate(body) ? [] : [`${operation.operationId} request: ${this.#ajv.errorsText(validate.errors, { separator: '; ' })}`];
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

  /** Every `examples` value of every response, with what it should validate against. */
  examples(): Array<{ where: string; ref: string; value: unknown }> {
    return this.#routes.flatMap(({ operation }) =>
      Object.entries(operation.responses).flatMap(([status, response]) =>
        Object.entries((response.content?.['application/json'] as (MediaType & { examples?: Record<string, { value: unknown }> }) | undefined)?.examples ?? {}).map(([key, { value }]) => ({
          where: `${operation.operationId} ${status} ${key}`,
          ref: response.content!['application/json']!.schema.$ref,
          value,
        })),
      ),
    );
  }

  /** Why `value` breaks the schema `ref` (none: it holds). */
  checkValue(ref: string, value: unknown): string[] {
    const validate = this.#validator(ref);
    return validate(value) ? [] : [this.#ajv.errorsText(validate.errors, { separator: '; ' })];
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

/** Response headers in any usual form: a fetch `Headers`, a `Map` or a plain object (names in any case). */
export type AnswerHeaders = Headers | Map<string, string> | Record<string, string | string[] | undefined>;

function headerMap(headers: AnswerHeaders): Map<string, string> {
  const entries: Array<[string, unknown]> = headers instanceof Headers || headers instanceof Map ? [...headers.entries()] : Object.entries(headers);
  return new Map(entries.filter(([, v]) => v !== undefined).map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v.join(', ') : String(v)]));
}

/**
 * One function for any answer: `(method, path, status, headers, body) => problems`, `[]` when the
 * answer holds, and one problem when no operation of the document is reached. `body` is the text
 * as received (`''`: empty).
 */
export function answerValidator(document: OpenApiDocument): (method: string, path: string, status: number, headers: AnswerHeaders, body: string) => string[] {
  const validator = new OpenApiValidator(document);
  return (method, path, status, headers, body) =>
    validator.check({ method: method.toUpperCase(), target: path, status, headers: headerMap(headers), body }) ?? [`${method.toUpperCase()} ${path.split('?')[0]}: no operation of the document`];
}
