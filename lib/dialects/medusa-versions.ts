/**
 * The Medusa versions the published plugins accept and the kit emulates and tests: one list, in one
 * place. `npm run test:medusa` runs its tests on each of TESTED_MEDUSA_VERSIONS (so a third version is
 * one line here), and the alphabite dialect emulates NEWEST_MEDUSA_VERSION unless told another.
 * The plugins' peerDependencies accept `@medusajs/*` `^2.13.6`.
 */
export const TESTED_MEDUSA_VERSIONS = ['2.13.6', '2.21.2'] as const;

export type TestedMedusaVersion = (typeof TESTED_MEDUSA_VERSIONS)[number];

/** The oldest Medusa the published plugins accept (their peerDependencies). */
export const OLDEST_MEDUSA_VERSION: TestedMedusaVersion = TESTED_MEDUSA_VERSIONS[0];

/** The newest Medusa 2 the kit is tested on, and the one the alphabite dialect emulates by default. */
export const NEWEST_MEDUSA_VERSION: TestedMedusaVersion = TESTED_MEDUSA_VERSIONS[TESTED_MEDUSA_VERSIONS.length - 1]!;
