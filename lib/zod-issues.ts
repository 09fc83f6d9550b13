import type { z } from 'zod';

/**
 * How every part of the kit words a zod validation failure, in one line: an admin payload,
 * a provider state's parameters, a fixtures file. `input` is what was validated: when given,
 * the offending value is quoted after the message (`(got 7)`).
 */

type Issue = z.core.$ZodIssue;

/** `field 'a.b': <message> (got <value>)`, `unknown field(s) 'x', 'y'`, or the bare message at the top level. */
export function describeIssue(issue: Issue, input?: unknown): string {
  const where = issue.path.length ? `field '${issue.path.map(String).join('.')}'` : '';
  if (issue.code === 'unrecognized_keys') {
    const keys = `unknown field(s) ${issue.keys.map((k) => `'${k}'`).join(', ')}`;
    return where ? `${where}: ${keys}` : keys;
  }
  const value = input === undefined ? undefined : valueAt(input, issue.path);
  const got = value === undefined ? '' : ` (got ${truncate(JSON.stringify(value) ?? String(value))})`;
  return where ? `${where}: ${issue.message}${got}` : `${issue.message}${got}`;
}

/** Every issue of a failed parse, joined with `; `. */
export function describeIssues(error: z.ZodError, input?: unknown): string {
  return error.issues.map((issue) => describeIssue(issue, input)).join('; ');
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  return path.reduce<unknown>((v, key) => (v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[key] : undefined), input);
}

function truncate(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
