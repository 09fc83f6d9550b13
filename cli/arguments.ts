import { InvalidArgumentError, Option } from 'commander';
import { DEFAULT_MAX_BODY_BYTES, MAX_MAX_BODY_BYTES, MIN_MAX_BODY_BYTES, parseSize, sizeText } from '../client/sizes.ts';
import { parseHeaders } from '../lib/http.ts';

/*
 * The commands' argument parsers that need no dataset: `check` loads these without the fixture
 * generator (and faker) that cli/options.ts's dataset options bring.
 */

/** A commander parser for a whole number in [min, max], with an error that says what is accepted. */
export function integerIn(min: number, max: number): (value: string) => number {
  return (value: string) => {
    const n = /^[0-9]+$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isSafeInteger(n) || n < min || n > max) throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}, got '${value}'.`);
    return n;
  };
}

/**
 * A commander parser for a repeatable `--header 'name: value'` (`check`, `verify`): the headers so
 * far with this one added (a later one of the same name wins).
 */
export function headerArg(value: string, previous: Record<string, string>): Record<string, string> {
  try {
    return { ...previous, ...parseHeaders([value]) };
  } catch (error) {
    throw new InvalidArgumentError(`${(error as Error).message}, e.g. 'x-publishable-api-key: pk_...'.`);
  }
}

/**
 * A commander parser for an http(s) URL, with an error that shows one. It gives the URL as WHATWG
 * reads it (what every request is then sent to, and what the output shows: a control character
 * typed into its path is percent-encoded, never printed raw), without its trailing slashes.
 */
export function httpUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError(`'${value}' is not a URL (expected e.g. http://localhost:9000)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidArgumentError(`'${value}' must be an http or https URL`);
  return url.href.replace(/\/+$/, '');
}

/** A commander parser for a size in [min, max] (bytes, or with KiB, MiB or GiB: `--max-body 64MiB`), with an error that says what is accepted. */
export function sizeIn(min: number, max: number): (value: string) => number {
  return (value: string) => {
    let n: number;
    try {
      n = parseSize(value);
    } catch (error) {
      throw new InvalidArgumentError(`${(error as Error).message}.`);
    }
    if (n < min || n > max) throw new InvalidArgumentError(`expected a size from ${sizeText(min)} to ${sizeText(max)}, got '${value}'.`);
    return n;
  };
}

/** `--max-body <size>`, the same on `check`, `verify` and `fixtures --from`. */
export const maxBodyOption = (what: string) =>
  new Option('--max-body <size>', `${what}the most bytes of one answer's body, after decompression (e.g. 256MiB; default ${sizeText(DEFAULT_MAX_BODY_BYTES)}): an answer over it is exit 2`).argParser(
    sizeIn(MIN_MAX_BODY_BYTES, MAX_MAX_BODY_BYTES),
  );
