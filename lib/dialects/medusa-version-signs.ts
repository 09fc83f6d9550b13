/**
 * Which Medusa versions a backend with the published plugins answers as, told by a few requests
 * whose answers changed between versions (MEDUSA_CHANGES, lib/dialects/medusa-behaviour.ts): the
 * wording of a validation error (zod 3 or 4), a `fields` entry ten relations deep (refused by the
 * relations limit, failing, or ignored), and the same behind `order` (stripped before the limit, or
 * not). `fixtures --from` and `check --dialect alphabite` ask them on 4.1 and print the line.
 * Platform-neutral: the caller sends the requests with its own client.
 */
import { PATHS } from '../api-rules.ts';
import type { QueryPairs } from '../query.ts';
import { MEDUSA_CHANGES, compareVersions } from './medusa-behaviour.ts';
import { NEWEST_MEDUSA_VERSION, OLDEST_MEDUSA_VERSION } from './medusa-versions.ts';

/** What a probe needs of an answer. */
export interface ProbeAnswer {
  status: number;
  text: string;
}

/** Sends a GET of 4.1 with this query (and the caller's headers); undefined when no answer came. */
export type ProbeGet = (path: string, query: QueryPairs) => Promise<ProbeAnswer | undefined>;

/** No product has this id: a probe that passes lists no review, so its answer stays small (4.1 ignores `limit`). */
const NO_PRODUCT: [string, string] = ['product_ids', 'prod_store_listing_kit_version_probe'];
const DEEP = 'a.b.c.d.e.f.g.h.i.j.k';

/** The versions the answers fit: from `from` (included) to before `before`, with what showed it. */
export interface MedusaVersionsShown {
  from?: string;
  before?: string;
  signs: string[];
}

const later = (a: string | undefined, b: string) => (a === undefined || compareVersions(b, a) > 0 ? b : a);
const earlier = (a: string | undefined, b: string) => (a === undefined || compareVersions(b, a) < 0 ? b : a);

/** Asks the probes (at most three GETs of 4.1) and reads the versions their answers show. */
export async function probeMedusaVersions(get: ProbeGet): Promise<MedusaVersionsShown> {
  const shown: MedusaVersionsShown = { signs: [] };
  const narrow = (range: { from?: string; before?: string }, sign: string) => {
    if (range.from) shown.from = later(shown.from, range.from);
    if (range.before) shown.before = earlier(shown.before, range.before);
    shown.signs.push(sign);
  };
  const { zod4, unknownRelationsIgnored, relationsLimit, restrictedFieldsStripped } = MEDUSA_CHANGES;
  const wording = await get(PATHS.reviews, [['limit', 'abc']]);
  if (wording?.status === 400 && wording.text.includes("got: 'nan'")) narrow({ before: zod4.since }, "validation wording of zod 3, got: 'nan'");
  else if (wording?.status === 400 && wording.text.includes("got: 'abc'")) narrow({ from: zod4.since }, "validation wording of zod 4, got: 'abc'");
  const deep = await get(PATHS.reviews, [['fields', DEEP], NO_PRODUCT]);
  const limited = (answer: ProbeAnswer | undefined) => answer?.status === 400 && /expand more than the maximum of \d+ allowed relations/.test(answer.text);
  if (limited(deep)) {
    narrow({ from: relationsLimit.since }, 'a field past the relations limit is a 400');
    const restricted = await get(PATHS.reviews, [['fields', `order.${DEEP}`], NO_PRODUCT]);
    if (limited(restricted)) narrow({ before: restrictedFieldsStripped.since }, 'order is kept in fields (a 400)');
    else if (restricted?.status === 200) narrow({ from: restrictedFieldsStripped.since }, 'order is taken out of fields');
  } else if (deep?.status === 500) narrow({ before: unknownRelationsIgnored.since }, 'a field through an unknown relation is a 500');
  else if (deep?.status === 200) narrow({ from: unknownRelationsIgnored.since, before: relationsLimit.since }, 'no relations limit, unknown relations ignored');
  return shown;
}

/** The versions the answers fit, within the kit's range (from the oldest the plugins accept); undefined when none showed, or none fits. */
export function shownRange(shown: MedusaVersionsShown): { from: string; before?: string } | undefined {
  if (shown.signs.length === 0) return undefined;
  const from = later(shown.from, OLDEST_MEDUSA_VERSION);
  if (shown.before !== undefined && compareVersions(from, shown.before) >= 0) return undefined;
  return shown.before === undefined ? { from } : { from, before: shown.before };
}

/**
 * The report's line: `the backend answers as Medusa 2.13.6 to before 2.14.0 does (...)`, `not shown`
 * when no answer showed a version, or that the answers fit none the kit knows.
 */
export function medusaVersionLine(shown: MedusaVersionsShown): string {
  if (shown.signs.length === 0) return 'not shown by its answers';
  const range = shownRange(shown);
  const signs = shown.signs.join('; ');
  if (!range) return `its answers fit no Medusa version from ${OLDEST_MEDUSA_VERSION} to ${NEWEST_MEDUSA_VERSION} (${signs})`;
  return `the backend answers as Medusa ${range.from}${range.before === undefined ? ' or later' : ` to before ${range.before}`} does (${signs})`;
}
