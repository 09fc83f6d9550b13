/**
 * The sizes of a body and of a recording: the caps and how a size is written and read. Apart from
 * client/http.ts so that `serve`, whose options share the parser module (cli/arguments.ts), does
 * not load undici.
 */

/**
 * The default cap on a body's bytes. The mock answers at most MAX_ANSWER_CHARS (32 Mi) characters
 * of JSON (lib/api-rules.ts), which is 32 MiB in ASCII and at most 96 MiB in UTF-8 (3 bytes per
 * character at worst); 128 MiB fits every page the kit serves, with room for a backend's own
 * whitespace, and bounds what a provider that misbehaves can make the kit hold.
 */
export const DEFAULT_MAX_BODY_BYTES = 128 * 1024 * 1024;
/** The largest cap that can be asked: a body is read as one string, and V8's strings stop a little short of 512 Mi characters. */
export const MAX_MAX_BODY_BYTES = 511 * 1024 * 1024;
/** The smallest cap that can be asked. */
export const MIN_MAX_BODY_BYTES = 1024;

/** `1.5 MiB`, `128 MiB`, `512 KiB`, `900 bytes`: a size as the sentences name it. */
export function sizeText(bytes: number): string {
  for (const [unit, size] of [
    ['GiB', 1024 ** 3],
    ['MiB', 1024 ** 2],
    ['KiB', 1024],
  ] as const) {
    if (bytes >= size) return `${+(bytes / size).toFixed(1)} ${unit}`;
  }
  return `${bytes} bytes`;
}

/**
 * A size as `--max-body` and `--max-recording` take it: a whole number of bytes, or one with a
 * unit, `KiB`, `MiB` or `GiB` (`64MiB`, `1.5 GiB`); throws an Error that says what it takes.
 */
export function parseSize(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(B|bytes?|KiB|MiB|GiB)?\s*$/i.exec(text);
  const unit = match?.[2]?.toLowerCase();
  const factor = unit === 'kib' ? 1024 : unit === 'mib' ? 1024 ** 2 : unit === 'gib' ? 1024 ** 3 : 1;
  const bytes = match ? Math.floor(Number(match[1]) * factor) : Number.NaN;
  if (!Number.isSafeInteger(bytes)) throw new Error(`a size is a number of bytes, or one with KiB, MiB or GiB (e.g. 64MiB), got '${text.slice(0, 40)}'`);
  return bytes;
}
