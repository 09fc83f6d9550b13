/**
 * How the kit quotes a value that came from a server or a client (a body, a key, an id, a header,
 * a request target) in a verdict or a sentence: the one place for it. Every quote is
 * - printable: control characters (line breaks and ESC, so ANSI escapes, included), DEL and C1,
 *   format characters (bidi overrides and isolates, zero-width, BOM), line and paragraph
 *   separators and lone surrogates are written as escapes (`\n`, `\u001b`, `\u202e`), so one
 *   line stays one line and a terminal shows what was sent, never what it says to do;
 * - bounded: cut past a number of characters, with an ellipsis and how much more there was;
 * - safe: an iterative walk with an explicit stack, no recursion, no `JSON.stringify` or
 *   `String()` of a value of unknown size or depth, no method of the value called. It never throws,
 *   and ends on a cycle (the bound stops it).
 *
 * Pure: no Node built-ins.
 */

/** Characters shown as escapes (see above). With the `u` flag a lone surrogate is a code point of its own. */
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;
/** What a quoted string escapes besides: its quote and the escape character, as JSON does. */
const UNPRINTABLE_OR_QUOTE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}"\\]/gu;
/** Unprintable characters JSON.stringify leaves raw (it escapes C0 and lone surrogates itself). */
const RAW_IN_JSON = /[\u007f-\u009f\p{Cf}\p{Zl}\p{Zp}]/gu;

/** The default bound of a quoted value, in characters. */
export const MAX_QUOTED_CHARS = 200;

const SHORT_ESCAPES: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f', '"': '\\"', '\\': '\\\\' };

function escape(ch: string): string {
  const short = SHORT_ESCAPES[ch];
  if (short) return short;
  // Per UTF-16 unit, as JSON escapes: `\udb40\udc01` for an astral format character.
  let out = '';
  for (let i = 0; i < ch.length; i++) out += `\\u${ch.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}

const more = (n: number) => `… (${n} more character${n === 1 ? '' : 's'})`;

/** `text` with every unprintable character escaped (a backslash is left as it is: the text is not quoted). Not bounded. */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, escape);
}

/** `text` printable and cut past `max` characters (`… (N more characters)`): a text of the kit's own words that holds a value of the server's or the client's. */
export function boundedText(text: string, max = MAX_QUOTED_CHARS): string {
  return text.length > max ? `${printable(text.slice(0, max))}${more(text.length - max)}` : printable(text);
}

/** `text` as a quoted string, `"..."`, escaped as JSON escapes it and printable; cut past `max` characters. */
export function quoteText(text: string, max = MAX_QUOTED_CHARS): string {
  const cut = text.length > max;
  return `"${(cut ? text.slice(0, max) : text).replace(UNPRINTABLE_OR_QUOTE, escape)}"${cut ? more(text.length - max) : ''}`;
}

/**
 * A value someone typed (an option's argument): in single quotes as typed when it is printable and at
 * most `max` characters (`'70000'`, as commander quotes it), else as `quoteText` quotes it.
 */
export function quoteArgument(value: string, max = 80): string {
  return value.length <= max && printable(value) === value ? `'${value}'` : quoteText(value, max);
}

/** A key or name: bare when it is a plain word (`count`, `data`, `x-total`), else quoted; cut past `max` characters. */
export function quoteName(name: string, max = 64): string {
  return /^[\w$.-]+$/.test(name) && name.length <= max ? name : quoteText(name, max);
}

/**
 * A value already quoted (by `quoteValue`, or a number JSON cannot hold): shown as its text, as is,
 * and written to JSON as that text. What `shownValue` gives for what a report cannot hold as it is.
 */
export class Quoted {
  constructor(readonly text: string) {}
  toJSON(): string {
    return this.text;
  }
}

/**
 * A number of the answer that JSON.parse read as ±Infinity (`1e400`: past a double's range), as a
 * verdict shows it: its lexeme when known (`lexemes`: those of the body's text, `jsonTextFacts`),
 * so that the verdict never says `null`, as JSON.stringify would.
 */
export function numberJsonCannotHold(value: number, lexemes: readonly string[] = []): Quoted {
  const negative = value < 0;
  const candidates = [...new Set(lexemes.filter((l) => l.startsWith('-') === negative))];
  const said = candidates.length === 1 ? boundedText(candidates[0]!, 40) : candidates.length > 1 ? `one of ${candidates.slice(0, 3).map((l) => boundedText(l, 40)).join(', ')}${candidates.length > 3 ? ', ...' : ''}` : `a ${negative ? 'negative ' : ''}number`;
  return new Quoted(`${said}, a number JSON cannot hold (read as ${negative ? '-' : ''}Infinity)`);
}

type Frame = { array: readonly unknown[]; at: number } | { object: object; keys: string[]; at: number };

/** A text built up to a bound: what is written past it is dropped, and `full` says so. */
class BoundedWriter {
  readonly #parts: string[] = [];
  #length = 0;
  full = false;
  constructor(readonly max: number) {}
  get room(): number {
    return this.max - this.#length;
  }
  write(text: string): void {
    if (this.full) return;
    if (text.length > this.room) {
      this.#parts.push(text.slice(0, this.room));
      this.#length = this.max;
      this.full = true;
      return;
    }
    this.#parts.push(text);
    this.#length += text.length;
  }
  text(): string {
    return this.#parts.join('');
  }
}

/** A scalar's text (a string quoted, a number JSON cannot hold named), or undefined for a container. */
function scalarText(value: unknown, room: number): string | undefined {
  switch (typeof value) {
    case 'string':
      return quoteText(value, Math.max(room, 0));
    case 'number':
      return Number.isFinite(value) ? String(value) : numberJsonCannotHold(value).text;
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return `${value.toString()}n`;
    case 'undefined':
      return '(absent)';
    case 'symbol':
      return '(a symbol)';
    case 'function':
      return '(a function)';
    default:
      if (value === null) return 'null';
      if (value instanceof Quoted) return value.text;
      return undefined;
  }
}

/** An object's own enumerable string keys, or none when it cannot tell them (never throws). */
function keysOf(object: object): string[] {
  try {
    return Object.keys(object);
  } catch {
    return [];
  }
}

function read(object: object, key: string): unknown {
  try {
    return (object as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

/**
 * A value as JSON-like text (`{"a":[1,"x"]}`; `undefined` as `(absent)`, a number JSON cannot hold
 * named), printable, and cut past `max` characters with `…`. Iterative: any depth, any size, a
 * cycle, never throws. `complete` tells whether the whole value was written.
 */
export function quoteValueWhole(value: unknown, max = MAX_QUOTED_CHARS): { text: string; complete: boolean } {
  const out = new BoundedWriter(max);
  let exact = true;
  const stack: Frame[] = [];
  const emit = (v: unknown) => {
    const scalar = scalarText(v, out.room);
    if (scalar !== undefined) {
      if (typeof v === 'number' && !Number.isFinite(v)) exact = false;
      if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean' && v !== null) exact = false;
      out.write(scalar);
      return;
    }
    if (Array.isArray(v)) {
      out.write('[');
      stack.push({ array: v, at: 0 });
    } else {
      out.write('{');
      stack.push({ object: v as object, keys: keysOf(v as object), at: 0 });
    }
  };
  emit(value);
  while (stack.length > 0 && !out.full) {
    const top = stack[stack.length - 1]!;
    const length = 'array' in top ? top.array.length : top.keys.length;
    if (top.at >= length) {
      out.write('array' in top ? ']' : '}');
      stack.pop();
      continue;
    }
    if (top.at > 0) out.write(',');
    if ('array' in top) emit(top.array[top.at]);
    else {
      const key = top.keys[top.at]!;
      out.write(`${quoteText(key, Math.max(out.room, 0))}:`);
      emit(read(top.object, key));
    }
    top.at += 1;
  }
  if (out.full) return { text: `${out.text()}…`, complete: false };
  return { text: out.text(), complete: exact };
}

/** `quoteValueWhole`'s text: a value as a verdict quotes it in a line. */
export function quoteValue(value: unknown, max = MAX_QUOTED_CHARS): string {
  return quoteValueWhole(value, max).text;
}

/**
 * A value as a report or the journal keeps it (a JSON value, written with JSON.stringify): a JSON
 * scalar or a string of at most `max` characters as it is; a string past `max` cut (`… (N more
 * characters)`); an array or object whose quote fits in `max` characters and holds only JSON values,
 * as it is (so its JSON is small and shallow); anything else as a `Quoted`, its quote (cut past `max`).
 * `undefined` stays `undefined` (an absent key).
 */
export function shownValue(value: unknown, max = MAX_QUOTED_CHARS): unknown {
  if (value === undefined || value === null || typeof value === 'boolean' || value instanceof Quoted) return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : numberJsonCannotHold(value);
  if (typeof value === 'string') return value.length > max ? `${value.slice(0, max)}${more(value.length - max)}` : value;
  const { text, complete } = quoteValueWhole(value, max);
  return complete ? value : new Quoted(text);
}

/**
 * JSON text (JSON.stringify's) with the unprintable characters JSON.stringify leaves raw (DEL and
 * C1, format characters, line and paragraph separators) escaped as `\uXXXX`: the same JSON value,
 * safe to print. They can only stand inside strings, where an escape means the same character.
 */
export function printableJson(json: string): string {
  return json.replace(RAW_IN_JSON, escape);
}
