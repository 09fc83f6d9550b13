/**
 * An answer of an implementation under test as the property suite, `verify` and `fixtures --from`
 * read it (through http/, the kit's HTTP client), the error of no whole answer, and how an answer
 * is described in a sentence (its words quoted by quote.ts). Pure: no Node built-ins, no client.
 */
import { boundedText, quoteText } from './quote.ts';

export interface Answer {
  url: string;
  status: number;
  contentType: string | null;
  text: string;
  /** The parsed body, or undefined when it is not JSON. */
  json: unknown;
  /** The answer's headers, by lower-case name. */
  headers?: Record<string, string>;
  /** The URL that answered, when redirects led away from `url`. */
  redirectedTo?: string;
}

/** No whole answer: refused, reset, timed out, redirected forever, over the cap on a body, or cut off mid-body. One sentence. */
export class NoAnswerError extends Error {
  constructor(
    readonly url: string,
    message: string,
  ) {
    super(message);
    this.name = 'NoAnswerError';
  }
}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What came back, in a few words, for a "cannot verify" sentence. */
export function describeAnswer(a: Answer): string {
  const type = a.contentType === null ? 'no Content-Type' : boundedText(a.contentType, 100);
  const start = quoteText(a.text, 60);
  if (a.json === undefined) return `${a.status} ${type}${/json/i.test(type) ? ' whose body is not valid JSON' : ''}: ${a.text.length ? start : '(empty body)'}`;
  if (!isObject(a.json)) return `${a.status} ${type} with ${Array.isArray(a.json) ? 'a JSON array' : `JSON ${a.json === null ? 'null' : typeof a.json}`}, not an envelope object: ${start}`;
  return `${a.status} ${type}: ${start}`;
}

/**
 * `name: value` request headers, as `check --header` and `verify --header` take them;
 * throws an Error naming the malformed one.
 */
export function parseHeaders(lines: readonly string[]): Record<string, string> {
  // No prototype: a header named `__proto__` is a header like any other (names are the user's data).
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const line of lines) {
    const match = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):\s*(.*)$/.exec(line);
    if (!match || match[2]!.trim() === '') throw new Error(`a header is 'name: value', got '${line.slice(0, 80)}'`);
    out[match[1]!.toLowerCase()] = match[2]!.trim();
  }
  return out;
}
