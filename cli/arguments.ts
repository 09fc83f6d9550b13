import { InvalidArgumentError } from 'commander';
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

/** A commander parser for an http(s) URL (without its trailing slashes), with an error that shows one. */
export function httpUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError(`'${value}' is not a URL (expected e.g. http://localhost:9000)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidArgumentError(`'${value}' must be an http or https URL`);
  return value.replace(/\/+$/, '');
}
