import { InvalidArgumentError, Option } from 'commander';
import { DEFAULT_SEED, DEFAULT_SIZES, SIZE_LIMITS, describeSizeLimit, type DatasetSizes } from '../fixtures/generate.ts';
import type { GenerateOptions } from '../fixtures/dataset.ts';
import { parseHeaders } from '../lib/http.ts';

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

export const MAX_SEED = 0xffffffff;

/** A commander parser for a dataset size, with an error that says what is accepted and why. */
function sizeIn(key: keyof DatasetSizes): (value: string) => number {
  const parse = integerIn(SIZE_LIMITS[key].min, SIZE_LIMITS[key].max);
  return (value: string) => {
    try {
      return parse(value);
    } catch {
      throw new InvalidArgumentError(`expected a whole number ${describeSizeLimit(key)}, got '${value}'.`);
    }
  };
}

/** The options that choose a generated dataset, shared by `serve` and `fixtures`. */
export function datasetOptions(): Option[] {
  const size = (flag: string, key: keyof DatasetSizes, what: string) =>
    new Option(`${flag} <n>`, `${what} (${SIZE_LIMITS[key].min} to ${SIZE_LIMITS[key].max})`).argParser(sizeIn(key)).default(DEFAULT_SIZES[key]);
  return [
    new Option('--seed <n>', 'seed of the generated dataset: the same seed gives the same bytes').argParser(integerIn(0, MAX_SEED)).default(DEFAULT_SEED),
    size('--reviews', 'reviews', 'number of reviews'),
    size('--products', 'products', 'number of products (the last one has no reviews)'),
    size('--wishlists', 'wishlists', 'number of wishlists'),
    size('--max-items', 'maxItems', 'most items in one wishlist'),
  ];
}

export interface DatasetFlags {
  seed: number;
  reviews: number;
  products: number;
  wishlists: number;
  maxItems: number;
}

export function generateOptionsFrom(flags: DatasetFlags): GenerateOptions {
  return { seed: flags.seed, reviews: flags.reviews, products: flags.products, wishlists: flags.wishlists, maxItems: flags.maxItems };
}
