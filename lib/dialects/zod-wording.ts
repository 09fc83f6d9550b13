/**
 * How Medusa's `zodValidator` words the issues of a query or body its zod schema refuses
 * (@medusajs/framework, dist/zod/zod-helpers.js), on each zod major Medusa has shipped: zod 3 up
 * to 2.13.x, zod 4 from 2.14.0 (lib/dialects/medusa-behaviour.ts, MEDUSA_CHANGES.zod4). The
 * query (medusa-validation.ts) and the write routes' bodies (mock-server/writes/medusa-body.ts) are
 * worded here, so each rule is written once.
 */

/** One issue: its text, and whether zod 3 reports it late (a field behind `z.preprocess`, parsed asynchronously). */
export interface ZodIssueText {
  text: string;
  late: boolean;
}

/**
 * zod 3's name of a value's type (`getParsedType`), which its issues give as `received`: `nan`
 * for NaN, `array`, `null`, `object`, and typeof for the rest.
 */
export function zod3TypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isNaN(value) ? 'nan' : 'number';
  return typeof value === 'object' ? 'object' : typeof value;
}

/**
 * `Expected type: '<type>' for field '<path>', got: '<...>'`: on zod 4 the value as sent (`shown`,
 * read back from the request), on zod 3 the name of the type zod received (`received`: after any
 * preprocessing, so `limit=abc` is `nan`).
 */
export function expectedType(zod: 3 | 4, type: string, path: string, shown: string, received: unknown): string {
  return `Expected type: '${type}' for field '${path}', got: '${zod === 3 ? zod3TypeOf(received) : shown}'`;
}

/** An item of an array field that is not a string: zod 3 names its type; zod 4 finds no value at that path (the helper does not look into arrays). */
export function arrayItemIssue(zod: 3 | 4, path: string, item: unknown): string {
  return zod === 3 ? `Expected type: 'string' for field '${path}', got: '${zod3TypeOf(item)}'` : `Field '${path}' is required`;
}

export const tooSmall = (path: string, minimum: number) => `Value for field '${path}' too small, expected at least: '${minimum}'`;
export const tooBig = (path: string, maximum: number) => `Value for field '${path}' too big, expected at most: '${maximum}'`;
export const unrecognized = (keys: readonly string[]) => `Unrecognized fields: '${keys.join(', ')}'`;

/**
 * The 400's message: at most three issues, joined by `; `, in the order zod reports them: on
 * zod 4 the schema's order, unknown fields last; on zod 3, which parses asynchronously, the issues
 * of fields without preprocessing, then the unknown fields, then the preprocessed fields' (`late`).
 */
export function invalidRequest(zod: 3 | 4, issues: readonly ZodIssueText[], unknownKeys: readonly string[]): string | undefined {
  const unknown = unknownKeys.length ? [unrecognized(unknownKeys)] : [];
  const texts = zod === 4
    ? [...issues.map((i) => i.text), ...unknown]
    : [...issues.filter((i) => !i.late).map((i) => i.text), ...unknown, ...issues.filter((i) => i.late).map((i) => i.text)];
  return texts.length ? `Invalid request: ${texts.slice(0, 3).join('; ')}` : undefined;
}
