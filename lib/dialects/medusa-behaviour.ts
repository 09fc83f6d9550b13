/**
 * What the alphabite dialect answers differently on each Medusa 2 version the published plugins
 * accept: one rule per entry of MEDUSA_CHANGES, each with the version it came in and the Medusa file
 * it comes from (docs/dialects.md, "Which Medusa version the dialect answers as", lists them). The
 * dialect asks `medusaBehaviour(version)` once and reads its fields; no other module compares versions.
 * The versions the kit tests are lib/dialects/medusa-versions.ts's one list.
 */
import { quoteArgument } from '../quote.ts';
import { NEWEST_MEDUSA_VERSION, OLDEST_MEDUSA_VERSION } from './medusa-versions.ts';

/** A change of Medusa that the plugins' routes show: from which version, what, and where it is written. */
export interface MedusaChange {
  /** The first version that behaves the new way (x.y.z). */
  since: string;
  /** What a client sees change, in one sentence. */
  what: string;
  /** The Medusa file(s) it comes from: package@version/path inside the npm package. */
  source: string;
}

/** Every change between the oldest and the newest Medusa the plugins accept that shows on their routes. */
export const MEDUSA_CHANGES = {
  zod4: {
    since: '2.14.0',
    what: "query and body validation runs on zod 4: a value of the wrong type is shown as sent (`got: 'abc'`) where zod 3 named its type (`got: 'nan'`, 'array', 'string', 'object', 'number', 'boolean', 'null'), issues come in the schema's order with the unknown fields last (zod 3: those of fields without preprocessing, the unknown fields, then the preprocessed ones: offset, limit, with_deleted, product_ids, rating), an infinite rating is not a number (zod 3: too big or too small), and a body that is not an object is `Field '' is required`",
    source: '@medusajs/deps@2.14.0/package.json (zod 4.2.0; 2.13.6: zod 3.25.76), @medusajs/framework@2.14.0/dist/zod/zod-helpers.js',
  },
  unknownRelationsIgnored: {
    since: '2.16.0',
    what: "a `fields` entry through a relation the records do not have (`a.b`, `*foo`; on 4.1 and 4.2 any `.`, the routes passing the parameter's characters on as fields) is dropped by the database layer; before, the query fails: an empty 500 on 4.1, 4.3 and 4.4, Medusa's 500 `unknown_error` on 4.2 (seen on 2.13.6)",
    source: '@medusajs/utils@2.16.0/dist/dal/mikro-orm/prune-find-options-against-metadata.js, dist/dal/mikro-orm/mikro-orm-repository.js; @medusajs/deps@2.16.0/package.json (MikroORM 6.6.14; 2.13.6: 6.6.12)',
  },
  bodyParserErrors: {
    since: '2.17.0',
    what: "a body the parser refuses (over the size limit, malformed JSON) is answered with the parser's status and `{message, type}` (413 `unknown_error`, 400 `invalid_data`); before, Medusa's 500 `unknown_error`",
    source: '@medusajs/framework@2.17.0/dist/http/middlewares/error-handler.js',
  },
  relationsLimit: {
    since: '2.20.0',
    what: 'a `fields` entry that expands more than `http.storeRelationsLimit` (default 3) relations is a 400 on every store route; before, it reaches the route',
    source: '@medusajs/framework@2.20.0/dist/http/utils/relations-limit.js, dist/http/utils/validate-query.js, dist/http/router.js, dist/config/config.js',
  },
  modifierStripping: {
    since: '2.20.0',
    what: "a `fields` entry loses every leading `+`, ` `, tab and `-` and its surrounding spaces (`stripModifier`); before, one character where the list replaces the defaults, `trim()` then one `+` where it adds, one `-` where it removes",
    source: '@medusajs/framework@2.20.0/dist/http/utils/field-filtering/field-parser.js',
  },
  restrictedFieldsStripped: {
    since: '2.20.1',
    what: 'fields naming the store\'s restricted relations `order` or `orders` (any segment) are taken out of the query, before the relations limit is counted; before, only with the `rbac_filter_fields` feature flag',
    source: '@medusajs/framework@2.20.1/dist/http/utils/get-query-config.js, @medusajs/utils@2.20.1/dist/common/define-config.js (DEFAULT_STORE_RESTRICTED_FIELDS)',
  },
} as const satisfies Record<string, MedusaChange>;

/** What the dialect reads of the Medusa version it answers as. */
export interface MedusaBehaviour {
  /** The version (x.y.z). */
  readonly version: string;
  /** The zod major version Medusa validates with (MEDUSA_CHANGES.zod4). */
  readonly zod: 3 | 4;
  /** Whether a query through a relation the records do not have fails (MEDUSA_CHANGES.unknownRelationsIgnored: before 2.16). */
  readonly unknownRelationsFail: boolean;
  /** Whether a body the parser refuses keeps its status (MEDUSA_CHANGES.bodyParserErrors). */
  readonly bodyParserErrors: boolean;
  /** `http.storeRelationsLimit` (MEDUSA_CHANGES.relationsLimit): undefined where there is none. */
  readonly storeRelationsLimit: number | undefined;
  /** How a `fields` entry loses its modifier (MEDUSA_CHANGES.modifierStripping). */
  readonly modifierStripping: 'one character' | 'all';
  /** Whether fields naming `order` or `orders` are taken out of the query (MEDUSA_CHANGES.restrictedFieldsStripped). */
  readonly stripsRestrictedFields: boolean;
}

/** Medusa's default `http.storeRelationsLimit` (@medusajs/framework@2.20.0/dist/config/config.js); the app the kit is tested on sets none. */
export const DEFAULT_STORE_RELATIONS_LIMIT = 3;

/** A version's numbers, or undefined when it is not `x.y.z` in plain decimal digits. */
function numbersOf(version: string): [number, number, number] | undefined {
  const match = /^(0|[1-9][0-9]{0,5})\.(0|[1-9][0-9]{0,5})\.(0|[1-9][0-9]{0,5})$/.exec(version);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
}

function compare(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

/** Orders two valid versions (x.y.z): negative, 0 or positive. */
export const compareVersions = (a: string, b: string): number => compare(numbersOf(a)!, numbersOf(b)!);

/** Whether `version` (valid) is `since` or later. */
const atLeast = (version: string, since: string) => compareVersions(version, since) >= 0;

/** The accepted versions, as every refusal names them. */
export const MEDUSA_VERSION_RANGE = `a Medusa version x.y.z from ${OLDEST_MEDUSA_VERSION} (the oldest the published plugins accept) to ${NEWEST_MEDUSA_VERSION} (the newest the kit is tested on)`;

/** Why `value` is not a Medusa version the dialect can answer as (one sentence, without the name of the option), or undefined. */
export function medusaVersionProblem(value: unknown): string | undefined {
  const shown = typeof value === 'string' ? quoteArgument(value, 40) : typeof value;
  const numbers = typeof value === 'string' ? numbersOf(value) : undefined;
  if (!numbers || compare(numbers, numbersOf(OLDEST_MEDUSA_VERSION)!) < 0 || compare(numbers, numbersOf(NEWEST_MEDUSA_VERSION)!) > 0) {
    return `expected ${MEDUSA_VERSION_RANGE}, such as 2.15.0, got ${shown}`;
  }
  return undefined;
}

/** The behaviour of a Medusa version (default the newest tested); a RangeError with medusaVersionProblem's sentence for any other value. */
export function medusaBehaviour(version: string = NEWEST_MEDUSA_VERSION): MedusaBehaviour {
  const problem = medusaVersionProblem(version);
  if (problem) throw new RangeError(`medusaVersion: ${problem}`);
  const since = (change: keyof typeof MEDUSA_CHANGES) => atLeast(version, MEDUSA_CHANGES[change].since);
  return Object.freeze({
    version,
    zod: since('zod4') ? 4 : 3,
    unknownRelationsFail: !since('unknownRelationsIgnored'),
    bodyParserErrors: since('bodyParserErrors'),
    storeRelationsLimit: since('relationsLimit') ? DEFAULT_STORE_RELATIONS_LIMIT : undefined,
    modifierStripping: since('modifierStripping') ? 'all' : 'one character',
    stripsRestrictedFields: since('restrictedFieldsStripped'),
  });
}

/** The behaviour of the newest Medusa the kit is tested on: what the dialect answers as when it is told no version. */
export const NEWEST_MEDUSA_BEHAVIOUR = medusaBehaviour();
