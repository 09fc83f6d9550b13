/**
 * A request's query as a Medusa 2 store route reads it, before its zod schema: `qs.parse(query,
 * { arrayLimit: Infinity })` (@medusajs/medusa 2.x, dist/loaders/api.js; qs 6.17, which every
 * supported Medusa installs: `^6.12.1` before 2.20, `^6.15.2` after), then `normalizeQuery`
 * (@medusajs/framework 2.x, dist/http/utils/validate-query.js, the same in every supported version).
 * The mock gets the query as decoded pairs (URLSearchParams); this is qs's reading of those names.
 * What it does not see (qs's first 1000 parts, a name split at `]=`) is listed in docs/dialects.md.
 */
import qs from 'qs';
import type { QueryPairs } from '../query.ts';

/** What `qs` makes of a nested name (`limit[a]=1`, `a[b][c]=1`): an object, which no field of the listings accepts. */
export const NESTED = Object.freeze({ toString: () => '[object Object]' });
/** A value as the schema gets it: a string, an array (of strings, objects, arrays), or an object (NESTED). */
export type MedusaValue = string | typeof NESTED | readonly MedusaValue[];

type Qs = string | QsArray | QsObject;
type QsArray = Qs[];
type QsObject = { [key: string]: Qs };

/**
 * `qs.parse(query, { arrayLimit: Infinity })`, Medusa's call, of the decoded pairs: qs's `parseValues`
 * (a repeated name's values combined into an array) done here on the pairs, then qs itself (the same
 * 6.17 that both tested Medusa versions install) reads the names: brackets, depth 5, array indexes,
 * names that Object.prototype has dropped, its merge and compaction.
 */
function qsParse(pairs: QueryPairs): QsObject {
  const values = Object.create(null) as Record<string, string | string[]>;
  for (const [name, value] of pairs) {
    const held = values[name];
    values[name] = held === undefined ? value : ([] as string[]).concat(held, value);
  }
  // (qs takes such an object as it takes the values it parsed; its types name string values only.)
  return qs.parse(values as Record<string, string>, { arrayLimit: Infinity }) as QsObject;
}

const asValue = (value: Qs): MedusaValue => (typeof value === 'string' ? value : Array.isArray(value) ? value.map(asValue) : NESTED);

/**
 * The query as the schema gets it, in the order of its keys (an array index first, as in any
 * JavaScript object): qs's reading, then `normalizeQuery`, which splits a one-string array on commas
 * and reads a name `a.b` as the object `a` (a later plain `a` replaces it); `deep` names the first
 * name with two dots or more, which `normalizeQuery` refuses (500 `invalid_argument`) before zod runs.
 */
export function readMedusaQuery(pairs: QueryPairs): { query: Map<string, MedusaValue>; deep?: undefined } | { deep: string } {
  const parsed = qsParse(pairs);
  const out = Object.create(null) as Record<string, MedusaValue>;
  for (const [key, raw] of Object.entries(parsed)) {
    const value: MedusaValue = Array.isArray(raw) && raw.length === 1 && typeof raw[0] === 'string' ? raw[0].split(',') : asValue(raw);
    if (!key.includes('.')) {
      out[key] = value;
      continue;
    }
    if (key.split('.').length > 2) return { deep: key };
    out[key.slice(0, key.indexOf('.'))] = NESTED;
  }
  return { query: new Map(Object.entries(out)) };
}

/** The query as the schema gets it (readMedusaQuery), a name with two dots or more left out. */
export function medusaQuery(pairs: QueryPairs): Map<string, MedusaValue> {
  const read = readMedusaQuery(pairs);
  return read.deep === undefined ? read.query : new Map();
}

/** A value as `${value}` shows it (zod 4's `got: '...'`): an array's items joined by `,`, an object `[object Object]`. */
export const shownValue = (value: MedusaValue): string => (Array.isArray(value) ? value.map((item) => (Array.isArray(item) ? shownValue(item) : String(item))).join(',') : String(value));
