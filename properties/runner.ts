/**
 * Runs the catalog against a base URL: discovery, then every applicable property on every chosen
 * endpoint with fast-check, each from a seed derived from the run's seed (so a subset replays the
 * same cases), collecting the shrunk counterexample of each failure.
 */
import { PATHS } from '../lib/api-rules.ts';
import { detectOtherDialect } from '../lib/dialects/detect.ts';
import { medusaVersionLine, probeMedusaVersions } from '../lib/dialects/medusa-version-signs.ts';
import { ALPHABITE_ENDPOINTS, AlphabiteContext } from './alphabite.ts';
import { propertiesOf } from './catalog/index.ts';
import { CheckContext } from './context.ts';
import { datasetVariants, PROVIDER_STATES_PATH } from './datasets.ts';
import { ENDPOINTS, type EndpointName, type ListingEndpoint } from './endpoints.ts';
import { describeAnswer, isObject } from '../lib/http.ts';
import { stateConflict, StateRun } from '../client/state-run.ts';
import { printableHeaders, UnreachableError, type Exchange, type Query } from './http.ts';
import { kitCommand } from './invocation.ts';
import { DEFAULTS, deriveSeed, resolveOptions, type CheckDialect, type CheckOptions, type ResolvedOptions } from './options.ts';
import { evaluate, type Evaluation } from './evaluate.ts';
import { isSkip, ruleOf, type ListingProperty, type Rule } from './property.ts';
import { placeOf, Tally, within } from './tally.ts';
import { Violation, type ViolationDetail } from './violation.ts';

export type Status = 'passed' | 'failed' | 'skipped';

export interface PropertyResult {
  property: string;
  title: string;
  rule: Rule;
  endpoint: EndpointName;
  /** "4.1" ... */
  section: string;
  path: string;
  status: Status;
  /** Runs executed. */
  runs: number;
  shrinks: number;
  /** The fast-check seed this property ran with (derived from the run's seed). */
  seed: number;
  /** The generated case that fails, after shrinking. */
  counterexample?: unknown;
  /** fast-check's path to the shrunk case (for --replay-path). */
  counterexamplePath?: string;
  violation?: ViolationDetail;
  skipReason?: string;
  /** The provider-state dataset this result was found on (with --vary-dataset). */
  dataset?: string;
  /** Stopped early by the time limit (still passed on the runs it made). */
  interrupted?: boolean;
  requests: number;
  durationMs: number;
  /** The command that replays this failure. */
  replay?: string;
}

export interface CheckReport {
  baseUrl: string;
  seed: number;
  /** The rules the target was judged by: the spec's, or the published plugins' (`--dialect alphabite`). */
  dialect: CheckDialect;
  strict: boolean;
  runs: number;
  maxPageSize: number;
  endpoints: EndpointName[];
  /** The headers sent with every request (`--header`), credentials' values shown as `<yours>`. */
  headers: Record<string, string>;
  results: PropertyResult[];
  notes: string[];
  /** `--dialect alphabite`: which Medusa versions the target answers as, as its answers to a few requests show (lib/dialects/medusa-version-signs.ts), or `not shown`. */
  medusa?: string;
  requests: number;
  durationMs: number;
  passed: boolean;
  /** The command that replays the whole run. */
  replay: string;
}

/** The suite cannot run at all (unreachable target, nothing listening at those paths, bad options). */
export class CannotRunError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CannotRunError';
  }
}

/** Where a property stands while it runs (for a progress line). */
export interface PropertyProgress {
  property: string;
  endpoint: EndpointName;
  section: string;
  path: string;
  dataset?: string;
  /** Runs finished so far, of `numRuns`. */
  runs: number;
  numRuns: number;
  /** A failing case was found and is being shrunk. */
  shrinking: boolean;
}

export interface RunHooks {
  /** A property is about to run (the first progress of each), then as its runs finish. */
  onProgress?(progress: PropertyProgress): void;
  onResult?(result: PropertyResult): void;
}

/** The listings as a dialect's properties see them (parameter names, envelope key, defaults). */
export const endpointsOf = (dialect: CheckDialect): Record<EndpointName, ListingEndpoint> => (dialect === 'alphabite' ? ALPHABITE_ENDPOINTS : ENDPOINTS);

/** What the suite knows of the target while it runs (the alphabite one learns sets without trusting `count`). */
export const contextFor = (options: ResolvedOptions): CheckContext => (options.dialect === 'alphabite' ? new AlphabiteContext(options) : new CheckContext(options));

/** Which (property, endpoint) pairs a run covers. */
export function plannedChecks(options: ResolvedOptions): Array<{ property: ListingProperty; endpoint: EndpointName }> {
  const out: Array<{ property: ListingProperty; endpoint: EndpointName }> = [];
  const endpoints = endpointsOf(options.dialect);
  for (const property of propertiesOf(options.dialect)) {
    if (options.properties && !options.properties.includes(property.id)) continue;
    for (const endpoint of options.endpoints) {
      if (!property.endpoints.includes(endpoint)) continue;
      if (ruleOf(property, endpoints[endpoint]) === 'kit' && !options.strict) continue;
      out.push({ property, endpoint });
    }
  }
  return out;
}

const shellQuote = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/**
 * The `store-listing-kit check` command line for these options (and a narrower scope, for one
 * failure), started as the user runs the kit here (`npx store-listing-kit` from a project: invocation.ts).
 */
export function replayCommand(
  options: ResolvedOptions,
  scope: { property?: string; endpoint?: EndpointName; path?: string; dataset?: string } = {},
): string {
  const args = [...kitCommand(), 'check', '--base-url', options.baseUrl, '--seed', String(options.seed)];
  if (options.dialect !== 'spec') args.push('--dialect', options.dialect);
  if (scope.endpoint) args.push('--endpoints', scope.endpoint);
  else if (options.endpoints.length < 4) args.push('--endpoints', options.endpoints.join(','));
  if (scope.property) args.push('--properties', scope.property);
  else if (options.properties) args.push('--properties', options.properties.join(','));
  if (options.strict) args.push('--strict');
  if (options.runs !== DEFAULTS.runs) args.push('--runs', String(options.runs));
  if (options.maxPageSize !== DEFAULTS.maxPageSize) args.push('--max-page-size', String(options.maxPageSize));
  if (options.maxWalkPages !== DEFAULTS.maxWalkPages) args.push('--max-walk-pages', String(options.maxWalkPages));
  if (options.maxReferencePages !== DEFAULTS.maxReferencePages) args.push('--max-reference-pages', String(options.maxReferencePages));
  for (const id of options.productIds ?? []) args.push('--product-id', id);
  for (const id of options.wishlistIds ?? []) args.push('--wishlist-id', id);
  // Credentials stay out of printed commands and reports: the reader adds their own.
  for (const [name, value] of Object.entries(printableHeaders(options.headers))) args.push('--header', `${name}: ${value}`);
  const dataset = scope.dataset ?? options.dataset;
  if (dataset) args.push('--dataset', dataset);
  else if (options.varyDataset) args.push('--vary-dataset');
  if (scope.path) args.push('--replay-path', scope.path);
  return args.map(shellQuote).join(' ');
}

function detailOf(error: unknown, options: ResolvedOptions): ViolationDetail {
  if (error instanceof Violation) return withHeaders(error.detail, options);
  if (error instanceof UnreachableError) return withHeaders({ message: `the server did not answer: ${error.message}`, url: error.url }, options);
  // A fault of the suite itself: its message, not a stack trace (DEBUG=store-listing-kit adds it).
  const stack = /(^|,)\s*(store-listing-kit|\*)\s*(,|$)/.test(process.env.DEBUG ?? '') && error instanceof Error ? `\n${error.stack}` : '';
  return { message: `the check itself failed: ${error instanceof Error ? error.message : String(error)}${stack}` };
}

/** A violation's request as it was sent: with the run's headers, so that its curl line gets the same answer. */
function withHeaders(detail: ViolationDetail, options: ResolvedOptions): ViolationDetail {
  return detail.url && options.headers && Object.keys(options.headers).length ? { ...detail, headers: printableHeaders(options.headers) } : detail;
}

const PROBE_ATTEMPTS = 3;

/** GETs a listing for the probe, asking again after a 5xx (a server with injected faults is still a server). */
async function probeGet(ctx: CheckContext, path: string, query: Query): Promise<{ ex: Exchange; attempts: number }> {
  let attempts = 0;
  for (;;) {
    attempts += 1;
    let ex: Exchange;
    try {
      ex = await ctx.client.get(path, query);
    } catch (error) {
      if (error instanceof UnreachableError) throw new CannotRunError(error.message.startsWith('cannot reach') ? `server unreachable: ${error.message}` : error.message);
      throw error;
    }
    if (ex.status < 500 || attempts === PROBE_ATTEMPTS) return { ex, attempts };
  }
}

/**
 * Probes the listing paths (and the wishlists given with --wishlist-id); throws CannotRunError when
 * nothing usable answers: unreachable, 404 everywhere, not JSON, always 5xx, refused, unknown ids.
 */
async function probe(ctx: CheckContext): Promise<Map<Family, Blocker>> {
  const base = ctx.options.baseUrl;
  const blocked = new Map<Family, Blocker>();
  const paths = new Set<string>();
  for (const e of ctx.options.endpoints) paths.add(e === 'productReviews' || e === 'reviews' ? PATHS.reviews : PATHS.wishlists);
  let notFound = 0;
  const endpoints = endpointsOf(ctx.options.dialect);
  for (const path of paths) {
    const family: Family = path === PATHS.reviews ? 'reviews' : 'wishlists';
    const { sizeParam, recordsKey } = endpoints[family];
    const { ex, attempts } = await probeGet(ctx, path, [[sizeParam, String(ctx.maxPageSize)]]);
    if (ex.status === 404) {
      notFound += 1;
      continue;
    }
    // The largest page is the server's choice [kit]: asking for more than it allows is not a paging bug.
    if (ex.status === 400 && /\b(max|maximum|most|too (big|large)|exceeds?|from \d+ to \d+)\b/i.test(ex.text)) {
      throw new CannotRunError(
        `${ex.url} answered 400 (${ex.text.slice(0, 200)}): the server's largest page seems smaller than ${ctx.maxPageSize}; pass --max-page-size with its maximum`,
      );
    }
    if (ex.status >= 500) {
      throw new CannotRunError(`nothing at ${base} answers the listings: GET ${ex.url} answered ${describeAnswer(ex)} (${attempts} times in a row)`);
    }
    if (ex.status === 401 || ex.status === 403 || (ex.status === 400 && isObject(ex.json) && ex.json.type === 'not_allowed')) {
      throw new CannotRunError(`GET ${ex.url} was refused (${describeAnswer(ex)}): ${headersHint(ex)}`);
    }
    if ((ex.status >= 200 && ex.status < 300 && !isObject(ex.json)) || ex.status === 405) {
      throw new CannotRunError(`nothing at ${base} answers the listings as JSON (GET ${ex.url} got ${describeAnswer(ex)})`);
    }
    // A server that speaks the other dialect cannot be judged by this one's rules: every property would fail.
    const other = await detectOtherDialect({
      base,
      asked: ctx.options.dialect,
      endpoint: family,
      first: ex,
      size: ctx.maxPageSize,
      askAgain: async (query) => (await probeGet(ctx, path, query)).ex,
    });
    if (other) throw new CannotRunError(other.sentence);
    const page = isObject(ex.json) ? ex.json[recordsKey] : undefined;
    // A listing that refuses the paging parameters or keeps its records under another key is
    // left to the properties: each reports its own first request. Only a page far larger than
    // asked stops the listing here (every property would fetch it hundreds of times).
    if (Array.isArray(page) && page.length > hugePage(ctx.maxPageSize)) {
      blocked.set(family, {
        property: ctx.options.dialect === 'alphabite' ? 'limit-offset-honoured' : 'page-length',
        requests: attempts,
        violation: withHeaders({
          message: `asked for at most ${ctx.maxPageSize} records (${sizeParam}=${ctx.maxPageSize}), the server answered a page of ${page.length}: it ignores the page size`,
          url: ex.url,
          field: `${recordsKey}.length`,
          expected: `at most ${ctx.maxPageSize}`,
          actual: page.length,
        }, ctx.options),
      });
    }
  }
  if (notFound === paths.size) {
    throw new CannotRunError(
      `no listing endpoint at ${base}: ${[...paths].join(' and ')} answered 404 (is --base-url right? it is the part before /store/...)`,
    );
  }
  if (ctx.options.endpoints.includes('wishlistItems')) {
    for (const id of ctx.options.wishlistIds ?? []) {
      const { ex } = await probeGet(ctx, endpoints.wishlistItems.path(id), [[endpoints.wishlistItems.sizeParam, '1']]);
      if (ex.status === 404) throw new CannotRunError(`no wishlist ${id} at ${base}: GET ${ex.url} answered 404 (check --wishlist-id)`);
    }
  }
  return blocked;
}

/** A GET for the Medusa version probe: its answer, or undefined when none came (a probe never stops the check). */
async function askQuietly(ctx: CheckContext, path: string, query: Query): Promise<Exchange | undefined> {
  try {
    return await ctx.client.get(path, query);
  } catch (error) {
    if (error instanceof UnreachableError) return undefined;
    throw error;
  }
}

/** What to pass when the target refuses the suite's requests (the plugins want a key, and a token on 4.3). */
function headersHint(ex: Exchange): string {
  const text = ex.text;
  if (/x-publishable-api-key/i.test(text)) return `pass the publishable key: --header 'x-publishable-api-key: pk_...' (and, for the wishlists, a customer's token: --header 'authorization: Bearer ...')`;
  if (ex.status === 401 && /\/store\/wishlists/.test(ex.url)) return `pass a customer's token for the wishlists: --header 'authorization: Bearer ...'`;
  return `pass what the server needs with --header 'name: value' (a publishable key, an Authorization header)`;
}

/** The listing a probe reads for each endpoint: 4.1 stands for 4.1 and 4.2, 4.3 for 4.3 and 4.4. */
type Family = 'reviews' | 'wishlists';

/**
 * What the probe saw that no property of a listing can get past (it ignores the page size):
 * reported once, as the failure of the property that names it, and the listing's other
 * properties as skipped, saying why.
 */
interface Blocker {
  property: string;
  violation: ViolationDetail;
  /** The probe's requests that showed it (more than one when a 5xx was asked again). */
  requests: number;
}
const familyOf = (e: EndpointName): Family => (e === 'reviews' || e === 'productReviews' ? 'reviews' : 'wishlists');

/**
 * A page this much larger than asked means the server ignores the page size. Every property would
 * then fetch pages of that size hundreds of times (minutes, gigabytes), so the run stops at the
 * probe's evidence: one failure, the other properties of that listing skipped.
 */
const hugePage = (maxPageSize: number) => Math.max(1000, 10 * maxPageSize);

/** What every result of a property on an endpoint says about itself, before it is run. */
function resultBase(options: ResolvedOptions, property: ListingProperty, endpointName: EndpointName, dataset?: string) {
  const endpoint = endpointsOf(options.dialect)[endpointName];
  return {
    property: property.id,
    title: property.title,
    rule: ruleOf(property, endpoint),
    endpoint: endpointName,
    section: endpoint.section,
    path: PATHS[endpointName],
    ...(dataset ? { dataset } : {}),
    seed: deriveSeed(options.seed, property.id, endpointName, ...(dataset ? [dataset] : [])),
    shrinks: 0,
  };
}

function blockedResult(options: ResolvedOptions, family: Family, property: ListingProperty, endpointName: EndpointName, { property: catcher, violation, requests }: Blocker): PropertyResult {
  const failed = endpointName === family && property.id === catcher;
  return {
    ...resultBase(options, property, endpointName),
    runs: failed ? 1 : 0,
    requests: failed ? requests : 0,
    durationMs: 0,
    ...(failed
      ? { status: 'failed' as const, violation, replay: replayCommand(options, { property: property.id, endpoint: endpointName }) }
      : { status: 'skipped' as const, skipReason: `not run: ${ENDPOINTS[family].section}: ${violation.message} (see ${catcher} on ${ENDPOINTS[family].section})` }),
  };
}

/** Runs the property suite against `options.baseUrl`. Throws CannotRunError when it cannot run. */
export async function runListingProperties(input: CheckOptions, hooks: RunHooks = {}): Promise<CheckReport> {
  let options: ResolvedOptions;
  try {
    options = resolveOptions(input);
  } catch (error) {
    throw new CannotRunError((error as Error).message);
  }
  const catalog = propertiesOf(options.dialect);
  const unknown = (options.properties ?? []).filter((id) => !catalog.some((p) => p.id === id));
  if (unknown.length) {
    throw new CannotRunError(`no property ${unknown.map((id) => `'${id}'`).join(', ')} in the ${options.dialect} dialect's suite; its properties: ${catalog.map((p) => p.id).join(', ')}`);
  }
  if (plannedChecks(options).length === 0) {
    throw new CannotRunError('no property applies: the chosen properties are [kit] rules (add --strict) or do not concern the chosen endpoints');
  }
  const began = Date.now();
  const ctx = contextFor(options);
  const blocked = await probe(ctx);
  const medusa = options.dialect === 'alphabite' ? medusaVersionLine(await probeMedusaVersions((path, query) => askQuietly(ctx, path, query))) : undefined;
  const results: PropertyResult[] = [];
  const report = (result: PropertyResult) => {
    results.push(result);
    hooks.onResult?.(result);
  };
  for (const [family, blocker] of blocked) {
    // The probe's evidence is reported by its property even when the run chose other properties,
    // or only a dataset variant (which is then not run: see below).
    const catcher = catalog.find((p) => p.id === blocker.property)!;
    if (options.dataset || !plannedChecks(options).some((c) => c.endpoint === family && c.property === catcher)) report(blockedResult(options, family, catcher, family, blocker));
  }
  if (!options.dataset) {
    const plan = plannedChecks(options);
    // Several checks side by side (their requests share --concurrency), reported in the plan's order.
    const progress = headProgress(hooks);
    await inOrder(
      plan.length,
      options.concurrency > 1 ? CHECKS_AT_ONCE : 1,
      async (index) => {
        const { property, endpoint } = plan[index]!;
        const blocker = blocked.get(familyOf(endpoint));
        if (blocker) return settled(blockedResult(options, familyOf(endpoint), property, endpoint, blocker));
        return startOne(ctx, property, endpoint, {}, { onProgress: (p) => progress.update(index, p) }, index);
      },
      (index, done) => {
        report(done.settle());
        progress.next(index + 1);
      },
    );
  }
  let requests = ctx.client.requests;
  if (options.varyDataset && blocked.size === 0) requests += await runDatasetVariants(ctx, results, hooks);
  return {
    baseUrl: options.baseUrl,
    seed: options.seed,
    dialect: options.dialect,
    strict: options.strict,
    runs: options.runs,
    maxPageSize: options.maxPageSize,
    endpoints: options.endpoints,
    headers: printableHeaders(options.headers),
    results,
    notes: ctx.notes,
    ...(medusa ? { medusa } : {}),
    requests,
    durationMs: Date.now() - began,
    passed: results.every((r) => r.status !== 'failed'),
    replay: replayCommand(options),
  };
}

/**
 * Runs the properties of each endpoint on the edge datasets of datasets.ts, installed through the
 * target's provider-state door, tearing each down afterwards. The variants are one run (the door
 * of the kit's mock lets one run at a time hold its provider state): a 409 from the door (another run
 * holds it) is CannotRunError. Answers the requests it made.
 */
async function runDatasetVariants(ctx: CheckContext, results: PropertyResult[], hooks: RunHooks): Promise<number> {
  const { options } = ctx;
  const all = datasetVariants();
  const variants = all.filter((v) => options.endpoints.includes(v.endpoint) && (!options.dataset || v.label === options.dataset));
  if (options.dataset && variants.length === 0) {
    throw new CannotRunError(`unknown dataset '${options.dataset}'; known: ${all.map((v) => `'${v.label}'`).join(', ')}`);
  }
  const door = new StateRun(new CheckContext(options).client.url(PROVIDER_STATES_PATH), 'check', options.timeoutMs, options.headers ?? {});
  const refused = (answer: Exchange) => {
    const conflict = stateConflict(answer);
    if (conflict) throw new CannotRunError(conflict);
  };
  let requests = 0;
  try {
    for (const v of variants) {
      const setup = await door.change(v.state, v.params, 'setup');
      requests += 1;
      if (setup.status === 404 || setup.status === 405) {
        const note = `the target has no provider-state door (POST ${PROVIDER_STATES_PATH} answered ${setup.status}): the dataset was not varied`;
        if (options.dataset) throw new CannotRunError(note);
        ctx.noteOnce(note);
        break;
      }
      refused(setup);
      if (setup.status !== 200) {
        ctx.noteOnce(`provider state ${v.label} could not be set up (${setup.status}: ${setup.text.slice(0, 200)}): skipped`);
        continue;
      }
      const variantOptions: ResolvedOptions = {
        ...options,
        endpoints: [v.endpoint],
        runs: Math.max(5, Math.ceil(options.runs / 5)),
        productIds: v.productIds,
        wishlistIds: v.wishlistIds,
      };
      const vctx = new CheckContext(variantOptions);
      try {
        await door.holding(async () => {
          for (const { property, endpoint } of plannedChecks(variantOptions)) {
            const result = (await startOne(vctx, property, endpoint, { dataset: v.label, replayOptions: options }, hooks)).settle();
            results.push(result);
            hooks.onResult?.(result);
          }
        });
      } finally {
        requests += vctx.client.requests;
        const teardown = await door.change(v.state, {}, 'teardown').catch(() => undefined);
        requests += 1;
        // Another run took the state over (this one's hold lapsed): what ran on it proves nothing.
        if (teardown) refused(teardown);
      }
    }
  } finally {
    await door.release();
  }
  return requests;
}

function replayImpossible(path: string, property: string, endpoint: EndpointName, seed: number): CannotRunError {
  return new CannotRunError(
    `--replay-path ${path} leads to no case of ${property} on ${endpoint} with seed ${seed}: use the whole 'replay:' command of the failure (same --seed, --properties, --endpoints and options)`,
  );
}

/** How many checks (property × endpoint) run side by side when requests may be in flight at once. */
const CHECKS_AT_ONCE = 8;

/** A check that has ended; its request count is final once every check before it in the plan has ended (tally.ts). */
interface Ended {
  settle(): PropertyResult;
}

const settled = (result: PropertyResult): Ended => ({ settle: () => result });

/**
 * Runs `count` tasks, at most `atOnce` of them started and not yet reported, and reports each in
 * index order as soon as it and all before it have ended. The first failure (in index order) is thrown.
 */
async function inOrder<T>(count: number, atOnce: number, start: (index: number) => Promise<T>, reportOne: (index: number, value: T) => void): Promise<void> {
  const started: Array<Promise<T>> = [];
  const launch = (index: number) => {
    if (index >= count || started[index]) return;
    const task = start(index);
    task.catch(() => undefined); // reported in order below, not as an unhandled rejection
    started[index] = task;
  };
  for (let i = 0; i < Math.min(atOnce, count); i++) launch(i);
  for (let index = 0; index < count; index++) {
    const value = await started[index]!;
    reportOne(index, value);
    launch(index + atOnce);
  }
}

/** Progress of the check to be reported next only (several run at once; the line follows the one the reader waits for). */
function headProgress(hooks: RunHooks) {
  const latest = new Map<number, PropertyProgress>();
  let head = 0;
  return {
    update(index: number, progress: PropertyProgress) {
      if (index < head) return;
      latest.set(index, progress);
      if (index === head) hooks.onProgress?.(progress);
    },
    next(index: number) {
      latest.delete(head);
      head = index;
      const now = latest.get(head);
      if (now) hooks.onProgress?.(now);
    },
  };
}

/** Runs one property on one endpoint (with the run's concurrency, as `check` does). */
export async function runOne(
  ctx: CheckContext,
  property: ListingProperty,
  endpointName: EndpointName,
  variant: { dataset?: string; replayOptions?: ResolvedOptions } = {},
  hooks: RunHooks = {},
): Promise<PropertyResult> {
  return (await startOne(ctx, property, endpointName, variant, hooks)).settle();
}

/** Runs one check; `check` is its index in the plan (its place among the checks running side by side). */
async function startOne(
  ctx: CheckContext,
  property: ListingProperty,
  endpointName: EndpointName,
  variant: { dataset?: string; replayOptions?: ResolvedOptions } = {},
  hooks: RunHooks = {},
  check = 0,
): Promise<Ended> {
  const options = variant.replayOptions ?? ctx.options;
  const endpoint = endpointsOf(options.dialect)[endpointName];
  const began = Date.now();
  const base = resultBase(options, property, endpointName, variant.dataset);
  const { seed } = base;
  // The requests this property's verdict needs, counted by the async context they are sent from
  // (tally.ts): the same whatever the concurrency.
  const tally = new Tally(placeOf(check, -1));
  let requests = () => tally.requests;
  const finish = (r: Partial<PropertyResult> & { status: Status; runs: number }): Ended => {
    const result: PropertyResult = { ...base, ...r, requests: 0, durationMs: Date.now() - began };
    return { settle: () => ({ ...result, requests: requests() }) };
  };
  const runs = ctx.options.runs;
  const numRuns = property.heavy ? Math.min(runs, Math.max(5, Math.ceil(runs / 10))) : runs;
  const progress = (done: number, shrinking: boolean) =>
    hooks.onProgress?.({ property: property.id, endpoint: endpointName, section: base.section, path: base.path, ...(variant.dataset ? { dataset: variant.dataset } : {}), runs: done, numRuns, shrinking });
  progress(0, false);
  let built;
  try {
    built = await within(tally, () => property.build(ctx, endpoint));
  } catch (error) {
    // Listing the whole set (which every case is compared with) broke a rule before any case ran.
    const detail = detailOf(error, options);
    const violation = { ...detail, note: [detail.note, 'found while listing the whole set, before any generated case'].filter(Boolean).join('\n') };
    return finish({ status: 'failed', runs: 0, violation, replay: replayCommand(options, { property: property.id, endpoint: endpointName, dataset: variant.dataset }) });
  }
  if (isSkip(built)) return finish({ status: 'skipped', runs: 0, skipReason: built.skip });
  const replayPath = ctx.options.replayPath;
  let details: Evaluation;
  try {
    details = await evaluate(built, {
      seed,
      numRuns,
      concurrency: ctx.options.concurrency,
      timeLimitMs: options.propertyTimeLimitMs,
      tally,
      check,
      ...(replayPath ? { path: replayPath } : {}),
      onProgress: ({ runs: done, shrinking }) => progress(done, shrinking),
    });
  } catch (error) {
    // fast-check throws when a replay path leads to no generated case ("Unable to replay ...").
    if (replayPath && /Unable to replay/i.test((error as Error).message)) throw replayImpossible(replayPath, property.id, endpointName, options.seed);
    throw error;
  }
  requests = () => details.requests();
  if (replayPath && !details.failed && details.numRuns === 0) throw replayImpossible(replayPath, property.id, endpointName, options.seed);
  if (!details.failed) {
    return finish({ status: 'passed', runs: details.numRuns, interrupted: details.interrupted || undefined });
  }
  const counterexample = details.counterexample?.[0];
  return finish({
    status: 'failed',
    runs: details.numRuns,
    shrinks: details.numShrinks,
    counterexample,
    counterexamplePath: details.counterexamplePath ?? undefined,
    violation: detailOf(details.errorInstance, options),
    replay: replayCommand(options, { property: property.id, endpoint: endpointName, path: details.counterexamplePath ?? undefined, dataset: variant.dataset }),
  });
}
