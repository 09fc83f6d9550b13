/**
 * Medusa's strict query validation of the plugins' routes (`validateAndTransformQuery` with
 * `createFindParams().extend(...)`, @medusajs/framework and @medusajs/medusa 2.x), as the Medusa
 * version the dialect answers as words it: the query read as Medusa reads it (medusa-query.ts), each
 * field checked by its type, the issues worded by zod-wording.ts.
 */
import type { QueryPairs } from '../query.ts';
import { refusal, type Refusal } from './types.ts';
import type { MedusaBehaviour } from './medusa-behaviour.ts';
import { NESTED, readMedusaQuery, shownValue, type MedusaValue } from './medusa-query.ts';
import { arrayItemIssue, expectedType, invalidRequest, tooBig, tooSmall, type ZodIssueText } from './zod-wording.ts';

/** How Medusa's query validation types a parameter (createFindParams plus each plugin's schema). */
export type FieldType =
  | 'string'
  /** `z.preprocess`: `parseInt` of a non-empty string; no bounds. */
  | 'int'
  /** `z.preprocess`: `"true"`/`"false"` to a boolean. */
  | 'with_deleted'
  /** `z.coerce.boolean()`: any non-empty value is true, `"false"` and `"0"` included. */
  | 'flag'
  /** `z.preprocess`: `Math.round(Number(v))`, 1 to 5. */
  | 'rating'
  /** `z.preprocess`: a string split on commas, or an array of strings. */
  | 'csv-list'
  /** An array of strings: must arrive as an array (`name[]=a` or `name[0]=a`). */
  | 'array';

/** The field types behind `z.preprocess`, whose issues zod 3 reports after the others. */
const PREPROCESSED: ReadonlySet<FieldType> = new Set(['int', 'with_deleted', 'rating', 'csv-list']);

/** One field checked: its value, or its issues. */
function checkField(zod: 3 | 4, name: string, type: FieldType, value: MedusaValue): { value: unknown } | { issues: string[] } {
  const wrong = (expected: string, received: unknown) => ({ issues: [expectedType(zod, expected, name, shownValue(value), received)] });
  const items = (list: readonly MedusaValue[]) => {
    const bad = list.flatMap((item, i) => (typeof item === 'string' ? [] : [arrayItemIssue(zod, `${name}, ${i}`, item)]));
    return bad.length ? { issues: bad } : { value: list };
  };
  switch (type) {
    case 'string':
      return typeof value === 'string' ? { value } : wrong('string', value);
    case 'int': {
      const n = typeof value === 'string' && value !== '' ? parseInt(value) : value;
      return typeof n === 'number' && !Number.isNaN(n) ? { value: n } : wrong('number', n);
    }
    case 'with_deleted': {
      const b = value === 'true' ? true : value === 'false' ? false : value;
      return typeof b === 'boolean' ? { value: b } : wrong('boolean', b);
    }
    case 'flag':
      return { value: Array.isArray(value) ? true : Boolean(value) };
    case 'rating': {
      // Number() of an array reads its text; of an object, NaN
      const n = Math.round(Number(value === NESTED ? Number.NaN : shownValue(value)));
      // zod 3 takes an infinity for a number (then too big or too small); zod 4 does not
      if (Number.isNaN(n) || (zod === 4 && !Number.isFinite(n))) return wrong('number', n);
      if (n < 1) return { issues: [tooSmall(name, 1)] };
      if (n > 5) return { issues: [tooBig(name, 5)] };
      return { value: n };
    }
    case 'csv-list':
      if (typeof value === 'string') return { value: value.split(',') };
      return Array.isArray(value) ? items(value) : wrong('array', value);
    case 'array':
      return Array.isArray(value) ? items(value) : wrong('array', value);
  }
}

/**
 * Medusa's strict `validateAndTransformQuery`: the values, or 400 `invalid_data` naming at most three
 * issues. Before it, `normalizeQuery` refuses a name with two dots or more (`a.b.c`) with a 500
 * `invalid_argument`. What follows validation (the fields the query will ask for) is medusa-fields.ts's.
 */
export function validateQuery(schema: ReadonlyArray<readonly [string, FieldType]>, pairs: QueryPairs, medusa: MedusaBehaviour): Map<string, unknown> | Refusal {
  const read = readMedusaQuery(pairs);
  if (read.deep !== undefined) return refusal(500, { type: 'invalid_argument', message: `Key accessor more than 2 levels deep: ${read.deep}` });
  const values = new Map<string, unknown>();
  const issues: ZodIssueText[] = [];
  for (const [name, type] of schema) {
    const value = read.query.get(name);
    if (value === undefined) continue;
    const checked = checkField(medusa.zod, name, type, value);
    if ('value' in checked) values.set(name, checked.value);
    else issues.push(...checked.issues.map((text) => ({ text, late: PREPROCESSED.has(type) })));
  }
  const unknown = [...read.query.keys()].filter((name) => !schema.some(([known]) => known === name));
  const message = invalidRequest(medusa.zod, issues, unknown);
  return message === undefined ? values : refusal(400, { type: 'invalid_data', message });
}
