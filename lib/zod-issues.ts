import type { z } from 'zod';
import { boundedText, quoteName, quoteValue } from './quote.ts';

/**
 * How every part of the kit words a zod validation failure, in one line: an admin payload,
 * a provider state's parameters, a fixtures file. `input` is what was validated: when given,
 * the offending value is quoted after the message (`(got 7)`), printable and cut (lib/quote.ts),
 * as are the field's path and unknown keys (a client's names).
 */

type Issue = z.core.$ZodIssue;

/** `field 'a.b': <message> (got <value>)`, `unknown field(s) 'x', 'y'`, or the bare message at the top level. */
export function describeIssue(issue: Issue, input?: unknown): string {
  const where = issue.path.length ? `field '${boundedText(issue.path.map(String).join('.'), 200)}'` : '';
  if (issue.code === 'unrecognized_keys') {
    const keys = `unknown field(s) ${issue.keys.slice(0, 20).map((k) => `'${quoteName(k)}'`).join(', ')}${issue.keys.length > 20 ? `, ... (${issue.keys.length - 20} more)` : ''}`;
    return where ? `${where}: ${keys}` : keys;
  }
  const value = input === undefined ? undefined : valueAt(input, issue.path);
  const got = value === undefined ? '' : ` (got ${quoteValue(value, 80)})`;
  const message = boundedText(issue.message, 400);
  return where ? `${where}: ${message}${got}` : `${message}${got}`;
}

/** Every issue of a failed parse, joined with `; `. */
export function describeIssues(error: z.ZodError, input?: unknown): string {
  return error.issues.map((issue) => describeIssue(issue, input)).join('; ');
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  return path.reduce<unknown>((v, key) => (v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[key] : undefined), input);
}
