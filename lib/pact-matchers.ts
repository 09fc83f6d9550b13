/**
 * Pact's matchers, as the plain data Pact's JavaScript makes them (`MatchersV3`: the same objects,
 * key for key, so that the kit's own pacts come out of Pact unchanged), and the one conversion of a
 * template of them into a Pact V4 body and its matching rules. Pure: no Pact, no Node built-ins,
 * so that the mock server and the MSW handlers can write pacts without loading Pact's native core.
 */

export interface Matcher {
  'pact:matcher:type': 'type' | 'regex' | 'integer' | 'number';
  value: unknown;
  regex?: string;
  min?: number;
  max?: number;
}

/** Any value of the example's type. */
export const like = (value: unknown): Matcher => ({ 'pact:matcher:type': 'type', value });

/** A string that matches `pattern`; `example` is the value written. */
export function regex(pattern: RegExp | string, example: string): Matcher {
  return { 'pact:matcher:type': 'regex', regex: pattern instanceof RegExp ? pattern.source : pattern, value: example };
}

/** Any integer. */
export const integer = (value: number): Matcher => ({ 'pact:matcher:type': 'integer', value });

/** Any number. */
export const number = (value: number): Matcher => ({ 'pact:matcher:type': 'number', value });

/** Any boolean. */
export const boolean = (value: boolean): Matcher => ({ 'pact:matcher:type': 'type', value });

/** An array of at least `min` elements like `template` (written with `min` of them, as Pact does). */
export const eachLike = (template: unknown, min = 1): Matcher => ({ min, 'pact:matcher:type': 'type', value: Array.from({ length: min }, () => template) });

/** An array of `min` to `max` elements like `template`, written with `count` of them. */
export function constrainedArrayLike(template: unknown, min: number, max: number, count: number = min): Matcher {
  if (count < min || count > max) throw new RangeError(`an array of ${min} to ${max} elements cannot be written with ${count}`);
  return { min, max, 'pact:matcher:type': 'type', value: Array.from({ length: count }, () => template) };
}

export function isMatcher(value: unknown): value is Matcher {
  return typeof value === 'object' && value !== null && (value as Partial<Matcher>)['pact:matcher:type'] !== undefined && (value as Partial<Matcher>).value !== undefined;
}

/** The example a template stands for: every matcher replaced by its value. */
export function reify(template: unknown): unknown {
  if (isMatcher(template)) return reify(template.value);
  if (Array.isArray(template)) return template.map(reify);
  if (typeof template === 'object' && template !== null) {
    // Object.fromEntries defines each key, so a field named `__proto__` stays a field.
    return Object.fromEntries(Object.entries(template).map(([key, value]) => [key, reify(value)]));
  }
  return template;
}

/** One matcher of a V4 matching rule. */
export interface V4Matcher {
  match: 'type' | 'regex' | 'integer' | 'number';
  regex?: string;
  min?: number;
  max?: number;
}

/** V4 matching rules of one category (`body`, `header`), by path or header name. */
export type V4Rules = Record<string, { combine: 'AND'; matchers: V4Matcher[] }>;

function v4Matcher(m: Matcher): V4Matcher {
  return { match: m['pact:matcher:type'], ...(m.regex !== undefined ? { regex: m.regex } : {}), ...(m.min !== undefined ? { min: m.min } : {}), ...(m.max !== undefined ? { max: m.max } : {}) };
}

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;
const childPath = (path: string, key: string) => (PLAIN_KEY.test(key) ? `${path}.${key}` : `${path}['${key.replace(/'/g, "\\'")}']`);

function collectRules(template: unknown, path: string, rules: V4Rules): void {
  if (isMatcher(template)) {
    rules[path] = { combine: 'AND', matchers: [v4Matcher(template)] };
    const value = template.value;
    // An array matcher: its elements' rules apply to every element, from the first one written.
    if (Array.isArray(value)) {
      if (value.length > 0) collectRules(value[0], `${path}[*]`, rules);
    } else collectChildren(value, path, rules);
    return;
  }
  collectChildren(template, path, rules);
}

function collectChildren(template: unknown, path: string, rules: V4Rules): void {
  if (Array.isArray(template)) template.forEach((element, i) => collectRules(element, `${path}[${i}]`, rules));
  else if (typeof template === 'object' && template !== null) for (const [key, value] of Object.entries(template)) collectRules(value, childPath(path, key), rules);
}

/** A JSON body template as Pact V4 writes it: the example (`content`) and its body matching rules (by JSON path). */
export function v4Body(template: unknown): { content: unknown; rules: V4Rules } {
  const rules: V4Rules = {};
  collectRules(template, '$', rules);
  return { content: reify(template), rules };
}

/** Headers (each a value or a matcher) as Pact V4 writes them: the values (as lists) and the header matching rules. */
export function v4Headers(template: Readonly<Record<string, unknown>>): { headers: Record<string, string[]>; rules: V4Rules } {
  const headers: Record<string, string[]> = {};
  const rules: V4Rules = {};
  for (const [name, value] of Object.entries(template)) {
    headers[name] = [String(reify(value))];
    if (isMatcher(value)) rules[name] = { combine: 'AND', matchers: [v4Matcher(value)] };
  }
  return { headers, rules };
}
