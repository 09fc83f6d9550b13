/**
 * Reading a request's query strictly (API.md, "Parameters"): only the endpoint's own
 * parameters, each at most once; integers as plain decimal digits, at most
 * Number.MAX_SAFE_INTEGER, within bounds. A broken rule throws a QueryError whose message
 * names the parameter, the value received and what is accepted.
 */

/** Query parameters in order, names and values decoded; a name may repeat. */
export type QueryPairs = Array<[string, string]>;

export class QueryError extends Error {
  override readonly name = 'QueryError';
}

/** A client's value, quoted for a message and cut short so a huge value cannot bloat the answer. */
export function quote(value: string, max = 64): string {
  return `'${value.length > max ? `${value.slice(0, max)}...` : value}'`;
}

/** The decoded query pairs of a request target (`/path?a=1&b=2`). */
export function queryPairs(url: string): QueryPairs {
  const at = url.indexOf('?');
  return at < 0 ? [] : [...new URLSearchParams(url.slice(at + 1))];
}

/**
 * The query as a map, checked for unknown and repeated parameters. `hint` may add a
 * sentence to the refusal of an unknown parameter (why it is not accepted, what to do).
 */
export function strictQuery(pairs: QueryPairs, accepted: readonly string[], hint?: (name: string) => string | undefined): Map<string, string> {
  const query = new Map<string, string>();
  for (const [name, value] of pairs) {
    if (!accepted.includes(name)) {
      const extra = hint?.(name);
      throw new QueryError(`unknown query parameter ${quote(name)}; accepted parameters: ${accepted.join(', ')}${extra ? `. ${extra}` : ''}`);
    }
    if (query.has(name)) throw new QueryError(`${quote(name)} must be given at most once`);
    query.set(name, value);
  }
  return query;
}

const DIGITS = /^[0-9]+$/;

/** An integer parameter in [min, max], or `fallback` when absent. */
export function integerParam(query: Map<string, string>, name: string, bounds: { min: number; max: number; fallback: number }): number {
  const raw = query.get(name);
  if (raw === undefined) return bounds.fallback;
  const value = DIGITS.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < bounds.min || value > bounds.max) {
    throw new QueryError(`${quote(name)} must be an integer from ${bounds.min} to ${bounds.max}, got ${quote(raw)}`);
  }
  return value;
}
