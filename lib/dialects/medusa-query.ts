/**
 * A request's query as a Medusa 2 store route reads it, before its zod schema: `qs.parse(query,
 * { arrayLimit: Infinity })` (@medusajs/medusa 2.x, dist/loaders/api.js; qs 6.17, which every
 * supported Medusa installs: `^6.12.1` before 2.20, `^6.15.2` after), then `normalizeQuery`
 * (@medusajs/framework 2.x, dist/http/utils/validate-query.js, the same in every supported version).
 * The mock gets the query as decoded pairs (URLSearchParams); this is qs's reading of those names.
 * What it does not see (qs's first 1000 parts, a name split at `]=`) is listed in docs/dialects.md.
 */
import type { QueryPairs } from '../query.ts';

/** What `qs` makes of a nested name (`limit[a]=1`, `a[b][c]=1`): an object, which no field of the listings accepts. */
export const NESTED = Object.freeze({ toString: () => '[object Object]' });
/** A value as the schema gets it: a string, an array (of strings, objects, arrays), or an object (NESTED). */
export type MedusaValue = string | typeof NESTED | readonly MedusaValue[];

type Qs = string | QsArray | QsObject;
type QsArray = Qs[];
type QsObject = { [key: string]: Qs };

const hasOwn = (object: object, key: PropertyKey) => Object.prototype.hasOwnProperty.call(object, key);
/** qs drops a name (or any bracket's content) that Object.prototype has: `toString`, `constructor`, `__proto__`... */
const onPrototype = (name: string) => hasOwn(Object.prototype, name);
const isObject = (value: Qs | undefined): value is QsArray | QsObject => typeof value === 'object' && value !== null;
const newObject = (): QsObject => Object.create(null) as QsObject;

/** qs's `strictMerge`: an array it made of an object and a string (`a[b]=1&a=2`); a string merged into it is appended. */
const conflicts = new WeakSet<object>();

/** qs's `splitKeyIntoSegments` (depth 5, no dots): the parent, then each balanced bracket group; undefined when qs drops the name. */
function segmentsOf(key: string): string[] | undefined {
  const segments: string[] = [];
  const first = key.indexOf('[');
  const parent = first >= 0 ? key.slice(0, first) : key;
  if (parent) {
    if (onPrototype(parent)) return undefined;
    segments.push(parent);
  }
  let open = first;
  let collected = 0;
  while (open >= 0 && collected < 5) {
    let level = 1;
    let close = -1;
    for (let i = open + 1; i < key.length && close < 0; i++) {
      if (key[i] === '[') level++;
      else if (key[i] === ']' && --level === 0) close = i;
    }
    if (close < 0) {
      segments.push(`[${key.slice(open)}]`);
      return segments;
    }
    const segment = key.slice(open, close + 1);
    if (onPrototype(segment.slice(1, -1))) return undefined;
    segments.push(segment);
    collected++;
    open = key.indexOf('[', close + 1);
  }
  if (open >= 0) segments.push(`[${key.slice(open)}]`);
  return segments;
}

/** qs's `parseObject`: the value under its chain of segments (`[]` an array, `[3]` an array index, any other an object key). */
function objectOf(chain: string[], value: Qs): Qs {
  let leaf = value;
  for (let i = chain.length - 1; i >= 0; i--) {
    const root = chain[i]!;
    if (root === '[]') {
      leaf = ([] as Qs[]).concat(leaf);
      continue;
    }
    const clean = root.startsWith('[') && root.endsWith(']') ? root.slice(1, -1) : root;
    const index = parseInt(clean, 10);
    if (!Number.isNaN(index) && root !== clean && String(index) === clean && index >= 0) {
      const array: Qs[] = [];
      array[index] = leaf;
      leaf = array;
    } else {
      const object = newObject();
      if (clean !== '__proto__') object[clean] = leaf;
      leaf = object;
    }
  }
  return leaf;
}

const arrayToObject = (array: QsArray): QsObject => {
  const object = newObject();
  array.forEach((item, i) => {
    if (item !== undefined) object[i] = item;
  });
  return object;
};

/** qs's `utils.merge` with `strictMerge` and no array limit. */
function merge(target: Qs | undefined, source: Qs | undefined): Qs | undefined {
  if (!source) return target;
  if (typeof source === 'string') {
    if (Array.isArray(target)) target.push(source);
    else if (isObject(target)) {
      if (conflicts.has(target)) (target as QsObject)[String(Object.keys(target).length)] = source;
      else {
        const pair: QsArray = [target, source];
        conflicts.add(pair);
        return pair;
      }
    } else return [target as Qs, source];
    return target;
  }
  if (!isObject(target)) return ([target] as Qs[]).concat(source as Qs);
  if (Array.isArray(target) && Array.isArray(source)) {
    source.forEach((item, i) => {
      if (hasOwn(target, i)) {
        const existing = target[i];
        if (isObject(existing) && isObject(item)) target[i] = merge(existing, item)!;
        else target.push(item);
      } else target[i] = item;
    });
    return target;
  }
  const into = Array.isArray(target) ? arrayToObject(target) : target;
  if (Array.isArray(target) && conflicts.has(target)) conflicts.add(into);
  for (const key of Object.keys(source)) {
    const value = (source as QsObject)[key]!;
    into[key] = hasOwn(into, key) ? merge(into[key], value)! : value;
  }
  return into;
}

/** qs's `compact`: arrays lose their holes. */
function compact(value: Qs): Qs {
  if (Array.isArray(value)) return value.filter((item) => item !== undefined).map(compact);
  if (isObject(value)) for (const key of Object.keys(value)) (value as QsObject)[key] = compact((value as QsObject)[key]!);
  return value;
}

/** `qs.parse(query, { arrayLimit: Infinity })` of decoded pairs, as an object without a prototype. */
function qsParse(pairs: QueryPairs): QsObject {
  // parseValues: each distinct name (in object-key order) with its value, or the values of a repeated name
  const values = newObject();
  for (const [name, value] of pairs) values[name] = hasOwn(values, name) ? ([] as Qs[]).concat(values[name]!, value) : value;
  let result: Qs = newObject();
  for (const name of Object.keys(values)) {
    if (!name) continue;
    const chain = segmentsOf(name);
    if (chain) result = merge(result, objectOf(chain, values[name]!))!;
  }
  return compact(result) as QsObject;
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
  const out = newObject() as Record<string, MedusaValue>;
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
