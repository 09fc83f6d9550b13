import { fileURLToPath } from 'node:url';
import type { DialectName } from '../lib/dialects/types.ts';

/**
 * The contracts' names and places, without Pact: the command line registers `verify` (its
 * choices, defaults and help) from these, and loads Pact only when the command runs.
 */

/** The storefront of the listing spec: the spec pacts (`verify`, `verify --dialect spec`). */
export const CONSUMER = 'storefront';
/** A storefront built on @alphabite/medusa-sdk, talking to the published plugins: its pacts (`verify --dialect alphabite`). */
export const SDK_CONSUMER = 'alphabite-sdk-storefront';

/** Whose pacts `verify --dialect <name>` replays. */
export const CONSUMER_OF_DIALECT: Readonly<Record<DialectName, string>> = { spec: CONSUMER, alphabite: SDK_CONSUMER };
export { OWN_PACT_DIR, PROVIDERS, type ProviderName } from '../lib/pact-file.ts';

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
