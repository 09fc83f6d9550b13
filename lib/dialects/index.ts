/** The dialects the mock server speaks: `spec` (the default) and `alphabite` (the published plugins). */
import { alphabiteDialect } from './alphabite.ts';
import { specDialect } from './spec.ts';
import { DIALECT_NAMES, type Dialect, type DialectName } from './types.ts';

export * from './types.ts';
export { specDialect, WISHLIST_PAGING_HINT } from './spec.ts';
export { alphabiteDialect, PUBLISHABLE_KEY_HEADER } from './alphabite.ts';

export const DEFAULT_DIALECT: DialectName = 'spec';

export function isDialectName(name: string): name is DialectName {
  return (DIALECT_NAMES as readonly string[]).includes(name);
}

/** The dialect of that name; `maxPageSize` bounds the spec dialect's page sizes (the plugins have no bound). */
export function createDialect(name: DialectName, options: { maxPageSize: number }): Dialect {
  return name === 'alphabite' ? alphabiteDialect() : specDialect(options);
}
