/**
 * Facts about a JSON text read from the text itself, without parsing it (for a text JSON.parse has
 * accepted): how deep its arrays and objects nest, and the numbers a double cannot hold (JSON.parse
 * reads `1e400` as Infinity, and JSON.stringify writes that as `null`). One pass, iterative, linear.
 * Pure.
 */

export interface JsonTextFacts {
  /** The deepest nesting of arrays and objects (a scalar 0, `{}` 1, `{"a":[]}` 2); the scan stops once it is past `maxDepth`. */
  depth: number;
  /** The number lexemes JSON.parse reads as ±Infinity, each once, in the order met; at most MAX_HUGE_NUMBERS. */
  hugeNumbers: string[];
}

/** Lexemes of numbers a double cannot hold kept (the verdict names one, or a few). */
export const MAX_HUGE_NUMBERS = 8;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const isNumberChar = (c: number) => (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x2b || c === 0x2d || c === 0x65 || c === 0x45;

export function jsonTextFacts(text: string, maxDepth = Number.POSITIVE_INFINITY): JsonTextFacts {
  let depth = 0;
  let deepest = 0;
  const huge = new Set<string>();
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // To the closing quote: the next one not escaped (preceded by an even run of backslashes).
      let end = text.indexOf('"', i + 1);
      while (end > 0) {
        let slashes = 0;
        while (text.charCodeAt(end - 1 - slashes) === BACKSLASH) slashes++;
        if (slashes % 2 === 0) break;
        end = text.indexOf('"', end + 1);
      }
      if (end < 0) break;
      i = end;
    } else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > maxDepth) break;
      }
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      let end = i + 1;
      let exponent = false;
      while (end < text.length && isNumberChar(text.charCodeAt(end))) {
        if ((text.charCodeAt(end) | 0x20) === 0x65) exponent = true;
        end++;
      }
      // Past a double's range: an exponent, or more than 308 digits.
      if ((exponent || end - i > 308) && huge.size < MAX_HUGE_NUMBERS) {
        const lexeme = text.slice(i, end);
        if (!Number.isFinite(Number(lexeme))) huge.add(lexeme);
      }
      i = end - 1;
    }
  }
  return { depth: deepest, hugeNumbers: [...huge] };
}
