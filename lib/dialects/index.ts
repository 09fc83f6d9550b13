/** The dialects the mock server speaks: `spec` (the default) and `alphabite` (the published plugins). */
import { alphabiteDialect } from './alphabite.ts';
import { specDialect } from './spec.ts';
import { DIALECT_NAMES, type Dialect, type DialectName } from './types.ts';
import { medusaVersionProblem } from './medusa-behaviour.ts';

export * from './types.ts';
export { specDialect, WISHLIST_PAGING_HINT } from './spec.ts';
export { alphabiteDialect, PUBLISHABLE_KEY_HEADER, type AlphabiteOptions } from './alphabite.ts';
export { medusaVersionProblem, MEDUSA_VERSION_RANGE, type MedusaBehaviour } from './medusa-behaviour.ts';

export const DEFAULT_DIALECT: DialectName = 'spec';

/** Why a Medusa version goes with the alphabite dialect only (startMockServer, the MSW handlers). */
export const MEDUSA_VERSION_FOR_ALPHABITE_ONLY = 'medusaVersion is the Medusa the published plugins run on, read by the alphabite dialect only: the spec dialect has none (dialect: \'alphabite\')';

/**
 * The option `medusaVersion` of startMockServer and the MSW handlers, checked before anything starts:
 * a TypeError outside the alphabite dialect, a RangeError naming the accepted range for any other value.
 */
export function assertMedusaVersion(medusaVersion: unknown, dialect: DialectName): void {
  if (medusaVersion === undefined) return;
  if (dialect !== 'alphabite') throw new TypeError(MEDUSA_VERSION_FOR_ALPHABITE_ONLY);
  const problem = medusaVersionProblem(medusaVersion);
  if (problem) throw new RangeError(`medusaVersion: ${problem}`);
}

export function isDialectName(name: string): name is DialectName {
  return (DIALECT_NAMES as readonly string[]).includes(name);
}

export interface DialectOptions {
  /** Bounds the spec dialect's page sizes (the plugins have no bound). */
  maxPageSize: number;
  /** The alphabite dialect's known publishable keys (an unknown one is refused); the spec dialect reads no key. */
  publishableKeys?: readonly string[];
  /** The Medusa version the alphabite dialect answers as (default the newest tested); the spec dialect has none. */
  medusaVersion?: string;
}

/** The dialect of that name. */
export function createDialect(name: DialectName, options: DialectOptions): Dialect {
  if (name === 'alphabite') {
    return alphabiteDialect({ ...(options.publishableKeys ? { publishableKeys: options.publishableKeys } : {}), ...(options.medusaVersion !== undefined ? { medusaVersion: options.medusaVersion } : {}) });
  }
  if (options.publishableKeys?.length) throw new TypeError('publishable keys are read by the alphabite dialect only: the spec dialect takes no key (pass --dialect alphabite)');
  if (options.medusaVersion !== undefined) throw new TypeError(MEDUSA_VERSION_FOR_ALPHABITE_ONLY);
  return specDialect(options);
}
