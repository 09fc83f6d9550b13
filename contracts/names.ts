import { fileURLToPath } from 'node:url';

/**
 * The contracts' names and places, without Pact: the command line registers `verify` (its
 * choices, defaults and help) from these, and loads Pact only when the command runs.
 */

export const CONSUMER = 'storefront';
export const PROVIDERS = ['product-reviews', 'wishlist'] as const;
export type ProviderName = (typeof PROVIDERS)[number];

/** The committed pact files of the package (`contracts/pacts/`; the build copies them beside the compiled module). */
export const PACT_DIR = fileURLToPath(new URL('./pacts/', import.meta.url));

export interface ConsumerVersionSelector {
  mainBranch?: boolean;
  branch?: string;
  matchingBranch?: boolean;
  deployedOrReleased?: boolean;
  deployed?: boolean;
  released?: boolean;
  environment?: string;
  tag?: string;
  fallbackTag?: string;
  latest?: boolean;
  consumer?: string;
}

/** The selectors Pact recommends: the consumer's main branch and whatever is deployed or released. */
export const DEFAULT_CONSUMER_VERSION_SELECTORS: ConsumerVersionSelector[] = [{ mainBranch: true }, { deployedOrReleased: true }];
