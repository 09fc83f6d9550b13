/**
 * Request bodies as Medusa 2 reads them for the published plugins' write routes, platform-neutral
 * (the MSW handlers run it in a browser): body-parser's json/text/urlencoded parsers (strict JSON,
 * their size limits and error bodies), then the plugins' zod schemas made strict by
 * `validateAndTransformBody`, worded by Medusa's `formatError` (@medusajs/framework 2.x,
 * dist/zod/zod-helpers.js; notes/alphabite-writes.md §0.3).
 */
import type { RawBody, WriteAnswer } from './types.ts';
import type { MedusaBehaviour } from '../../lib/dialects/medusa-behaviour.ts';
import { arrayItemIssue, expectedType, invalidRequest, tooBig, tooSmall, type ZodIssueText } from '../../lib/dialects/zod-wording.ts';

export type { RawBody };

/** express's default body limit ("100kb"): every write route but `POST /store/reviews`. */
export const DEFAULT_BODY_LIMIT = 100 * 1024;
/** `POST /store/reviews` declares `bodyParser: { sizeLimit: "10mb" }`. */
export const REVIEW_BODY_LIMIT = 10 * 1024 * 1024;

export const json = (status: number, body: unknown): WriteAnswer => ({ status, body: JSON.stringify(body) });

/** body-parser's 413, as Medusa's error handler answers it (`message` first). */
export const TOO_LARGE: WriteAnswer = json(413, { message: 'request entity too large', type: 'unknown_error' });
/** Before 2.17 Medusa's error handler answered any body-parser error with its 500 (MEDUSA_CHANGES.bodyParserErrors). */
const PARSER_ERROR_BEFORE_2_17: WriteAnswer = json(500, { code: 'unknown_error', type: 'unknown_error', message: 'An unknown error occurred.' });

const mimeOf = (contentType: string | undefined) => (contentType ?? '').split(';')[0]!.trim().toLowerCase();

/**
 * What the handler sees as `req.body`: `{}` without a body (body-parser sets it before looking), the
 * parsed JSON (objects and arrays only: body-parser is strict), the text of a `text/plain` body, the
 * fields of a url-encoded one, `{}` for any other type; or the parser's answer (413, malformed JSON).
 */
export function readBody(raw: RawBody | undefined, limit: number, medusa: MedusaBehaviour): { value: unknown } | WriteAnswer {
  const read = parserRead(raw, limit);
  return 'value' in read || medusa.bodyParserErrors ? read : PARSER_ERROR_BEFORE_2_17;
}

function parserRead(raw: RawBody | undefined, limit: number): { value: unknown } | WriteAnswer {
  if (raw === undefined) return { value: {} };
  const mime = mimeOf(raw.contentType);
  const parsed = mime === 'application/json' || mime === 'text/plain' || mime === 'application/x-www-form-urlencoded';
  if (!parsed) return { value: {} };
  if (raw.truncated || raw.bytes > limit) return TOO_LARGE;
  if (mime === 'text/plain') return { value: raw.text };
  if (mime === 'application/x-www-form-urlencoded') return { value: formFields(raw.text) };
  return parseStrictJson(raw.text);
}

/** The fields of a url-encoded body; a name sent twice or more holds an array. Any name is kept as sent (`__proto__` too). */
function formFields(text: string): Record<string, unknown> {
  const fields = new Map<string, string | string[]>();
  try {
    for (const [name, value] of new URLSearchParams(text)) {
      const previous = fields.get(name);
      fields.set(name, previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [previous, value]);
    }
  } catch {
    return {};
  }
  // Object.fromEntries defines own properties: a field named `__proto__` stays a field.
  return Object.fromEntries(fields);
}

const FIRST_CHAR = /^[\x20\x09\x0a\x0d]*([^\x20\x09\x0a\x0d])/;

/** body-parser's `json` with `strict: true`: JSON.parse's own message, or its strict-mode message (`#` placeholders). */
function parseStrictJson(text: string): { value: unknown } | WriteAnswer {
  if (text.length === 0) return { value: {} };
  const first = FIRST_CHAR.exec(text)?.[1];
  try {
    if (first !== '{' && first !== '[') {
      const index = first === undefined ? -1 : text.indexOf(first);
      const partial = index === -1 ? '' : text.slice(0, index) + '#'.repeat(text.length - index);
      try {
        JSON.parse(partial);
      } catch (error) {
        const message = (error as Error).message.replace(/#+/g, (run) => text.substring(index, index + run.length));
        return json(400, { message, type: 'invalid_data' });
      }
      return json(400, { message: 'strict violation', type: 'invalid_data' });
    }
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    return json(400, { message: (error as Error).message, type: 'invalid_data' });
  }
}

/** One field of a plugin's body schema, in the schema's order. */
export interface FieldRule {
  name: string;
  type: 'string' | 'rating' | 'string-array';
  optional?: boolean;
  /** A string's `min(n)`. */
  min?: number;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * What `String(value)` gives for a parsed JSON value, without calling it (so without running
 * anything the value names): `null` is `'null'`, an array its items joined by `,` (a `null` item
 * empty, nested arrays flattened, as `Array.prototype.join`), any object `'[object Object]'`, also
 * one with its own `toString` or `valueOf` key, where `String()` itself throws ("Cannot convert
 * object to primitive value"). Iterative: a deeply nested array cannot exhaust the stack.
 */
export function stringOf(value: unknown): string {
  if (!Array.isArray(value)) return scalarText(value);
  let out = '';
  const frames: Array<{ items: readonly unknown[]; next: number }> = [{ items: value, next: 0 }];
  while (frames.length > 0) {
    const top = frames[frames.length - 1]!;
    if (top.next >= top.items.length) {
      frames.pop();
      continue;
    }
    if (top.next > 0) out += ',';
    const item = top.items[top.next++];
    if (Array.isArray(item)) frames.push({ items: item, next: 0 });
    else if (item !== null && item !== undefined) out += scalarText(item);
  }
  return out;
}

/** A JSON scalar as `String()` shows it (safe: no user code runs on a primitive); any object as every plain object shows. */
function scalarText(value: unknown): string {
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '[object Object]';
}

/**
 * What `Number(value)` gives for a parsed JSON value, its type decided first: a number itself, a
 * string as `Number` reads it, `true` 1, `false` and `null` 0, an array the number of its text
 * (`[]` 0, `["4"]` 4, `[1,2]` NaN), any object NaN (also those `Number()` itself throws on).
 */
export function numberOf(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') return Number(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value === null) return 0;
  if (Array.isArray(value)) return Number(stringOf(value));
  return Number.NaN;
}

/**
 * The body checked against a strict schema: the values (a rating rounded, `image_urls` defaulted) or
 * Medusa's 400 `invalid_data` naming at most three issues, worded and ordered as the zod of the
 * Medusa version does (lib/dialects/zod-wording.ts).
 */
export function validateBody(body: unknown, rules: readonly FieldRule[], medusa: MedusaBehaviour): { values: Record<string, unknown> } | WriteAnswer {
  const zod = medusa.zod;
  const issues: ZodIssueText[] = [];
  const values: Record<string, unknown> = {};
  const wrong = (type: string, path: string, value: unknown, received: unknown = value) => expectedType(zod, type, path, stringOf(value), received);
  let unknown: string[] = [];
  if (!isPlainObject(body)) issues.push({ text: zod === 3 ? wrong('object', '', body) : `Field '' is required`, late: false });
  else {
    for (const rule of rules) {
      const value = Object.hasOwn(body, rule.name) ? body[rule.name] : undefined;
      // z.preprocess (the rating) is parsed asynchronously: zod 3 reports it after the rest
      const issue = (text: string) => issues.push({ text, late: rule.type === 'rating' });
      if (value === undefined) {
        if (rule.type === 'string-array') values[rule.name] = [];
        else if (!rule.optional) issue(`Field '${rule.name}' is required`);
        continue;
      }
      if (rule.type === 'string') {
        if (typeof value !== 'string') issue(wrong('string', rule.name, value));
        else if (rule.min !== undefined && value.length < rule.min) issue(tooSmall(rule.name, rule.min));
        else values[rule.name] = value;
      } else if (rule.type === 'rating') {
        // z.preprocess((v) => Math.round(Number(v)), z.number().min(1).max(5)); zod 4 refuses infinities as not numbers, zod 3 as too big or too small.
        const n = Math.round(numberOf(value));
        if (Number.isNaN(n) || (zod === 4 && !Number.isFinite(n))) issue(wrong('number', rule.name, value, n));
        else if (n < 1) issue(tooSmall(rule.name, 1));
        else if (n > 5) issue(tooBig(rule.name, 5));
        else values[rule.name] = n;
      } else if (!Array.isArray(value)) issue(wrong('array', rule.name, value));
      else {
        const bad = value.map((v, k) => [v, k] as const).filter(([v]) => typeof v !== 'string');
        for (const [v, k] of bad) issue(arrayItemIssue(zod, `${rule.name}, ${k}`, v));
        if (bad.length === 0) values[rule.name] = value;
      }
    }
    unknown = Object.keys(body).filter((key) => !rules.some((rule) => rule.name === key));
  }
  const message = invalidRequest(zod, issues, unknown);
  if (message !== undefined) return json(400, { type: 'invalid_data', message });
  return { values };
}

export const isAnswer = (x: unknown): x is WriteAnswer => typeof x === 'object' && x !== null && 'status' in x && 'body' in x && !('value' in x) && !('values' in x);
