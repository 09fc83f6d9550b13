import { InvalidArgumentError, Option } from 'commander';
import { DEFAULT_SEED, DEFAULT_SIZES, SIZE_LIMITS, describeSizeLimit, type DatasetSizes } from '../fixtures/generate.ts';
import type { GenerateOptions } from '../fixtures/dataset.ts';
import { integerIn } from './arguments.ts';

export { headerArg, httpUrl, integerIn } from './arguments.ts';

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
