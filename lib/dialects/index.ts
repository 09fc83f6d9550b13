/** The dialects the mock server speaks: `spec` (the default) and `alphabite` (the published plugins). */
import { alphabiteDialect } from './alphabite.ts';
import { specDialect } from './spec.ts';
import { DIALECT_NAMES, type Dialect, type DialectName } from './types.ts';

export * from './types.ts';
export { specDialect, WISHLIST_PAGING_HINT } from './spec.ts';
export { alphabiteDialect, PUBLISHABLE_KEY_HEADER, type AlphabiteOptions } from './alphabite.ts';

export const DEFAULT_DIALECT: DialectName = 'spec';

export function isDialectName(name: string): name is DialectName {
  return (DIALECT_NAMES as readonly string[]).includes(name);
}

export interface DialectOptions {
  /** Bounds the spec dialect's page sizes (the plugins have no bound). */
  maxPageSize: number;
  /** The alphabite dialect's known publishable keys (an unknown one is refused); the spec dialect reads no key. */
  publishableKeys?: readonly string[];
}

/** The dialect of that name. */
export function createDialect(name: DialectName, options: DialectOptions): Dialect {
  if (name === 'alphabite') return alphabiteDialect(options.publishableKeys ? { publishableKeys: options.publishableKeys } : {});
  if (options.publishableKeys?.length) throw new TypeError('publishable keys are read by the alphabite dialect only: the spec dialect takes no key (pass --dialect alphabite)');
  return specDialect(options);
}
