/** The options of a property-suite run, their defaults, and the seed handling. */
import type { DialectName } from '../lib/dialects/types.ts';
import { DEFAULT_MAX_BODY_BYTES, MAX_MAX_BODY_BYTES, MIN_MAX_BODY_BYTES } from '../client/http.ts';
import type { EndpointName } from './endpoints.ts';
import { ALL_ENDPOINTS } from './endpoints.ts';
import { quoteText } from '../lib/quote.ts';
import { datasetVariants } from './datasets.ts';

/** Which rules judge the target: the listing spec (default) or the published plugins' dialect (docs/dialects.md). */
export type CheckDialect = DialectName;

export interface CheckOptions {
  /** Where the implementation under test listens, e.g. `http://127.0.0.1:4010`. */
  baseUrl: string;
  /** Which endpoints to check (default: all four). */
  endpoints?: EndpointName[];
  /** Runs per property and endpoint (default 100; walking properties use a tenth, at least 5). */
  runs?: number;
  /** The seed; a random one is chosen (and reported) when absent. */
  seed?: number;
  /** Also check the rules API.md marks [kit]. */
  strict?: boolean;
  /** The largest page the suite asks for (default 100). */
  maxPageSize?: number;
  /** Products to use on 4.2 (default: discovered from 4.1). */
  productIds?: string[];
  /** Wishlists to use on 4.4 (default: discovered from 4.3). */
  wishlistIds?: string[];
  /** Only these property ids (default: all that apply). */
  properties?: string[];
  /** fast-check counterexample path: replays exactly one shrunk case (use with one property and endpoint). */
  replayPath?: string;
  /** A walk stops after this many pages (default 50) and says it was capped. */
  maxWalkPages?: number;
  /** The whole ordered set is fetched in pages of maxPageSize, at most this many (default 20). */
  maxReferencePages?: number;
  /**
   * Also run each endpoint's properties on small edge datasets installed through the target's
   * provider-state door (POST /__admin/provider-states). Changes the target's data: opt-in.
   */
  varyDataset?: boolean;
  /** Only this dataset variant (its label, as printed); implies varyDataset and skips the main run. */
  dataset?: string;
  /** Per-request timeout (default 10 000 ms). */
  timeoutMs?: number;
  /** A body of more bytes than this (as received, or decompressed) is "cannot run" (default 128 MiB: client/http.ts). */
  maxBodyBytes?: number;
  /** Sent with every request: a publishable key, an Authorization header... (names in any case). */
  headers?: Record<string, string>;
  /**
   * Runs of a property in flight at once (default 16; 1 runs them one after the other). The same
   * cases, verdicts and shrunk counterexamples whatever the number (properties/evaluate.ts).
   */
  concurrency?: number;
  /** A property stops generating new runs after this long (default 120 000 ms) and reports it. */
  propertyTimeLimitMs?: number;
  /**
   * `spec` (default): the listing spec's rules. `alphabite`: the published plugins' own rules
   * (limit/offset everywhere, the `data` envelope, clamped page numbers) and what a storefront
   * needs of any listing (properties/catalog/alphabite.ts).
   */
  dialect?: CheckDialect;
}

type Optional = 'productIds' | 'wishlistIds' | 'properties' | 'replayPath' | 'dataset' | 'headers';
export type ResolvedOptions = Required<Omit<CheckOptions, Optional>> & Pick<CheckOptions, Optional>;

export const DEFAULTS = {
  runs: 100,
  maxPageSize: 100,
  maxWalkPages: 50,
  maxReferencePages: 20,
  timeoutMs: 10_000,
  propertyTimeLimitMs: 120_000,
  concurrency: 16,
} as const;

/** The most runs of a property in flight at once: more only queues on the target's connections. */
export const MAX_CONCURRENCY = 256;

export function randomSeed(): number {
  return (Date.now() ^ Math.floor(Math.random() * 0x7fffffff)) >>> 1;
}

export function resolveOptions(options: CheckOptions): ResolvedOptions {
  const positive = (name: string, v: number | undefined, fallback: number): number => {
    const value = v ?? fallback;
    if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got ${v}`);
    return value;
  };
  if (!options.baseUrl) throw new Error('a base URL is required (--base-url or BASE_URL)');
  const baseUrl = httpBaseUrl(options.baseUrl);
  const endpoints = options.endpoints?.length ? options.endpoints : [...ALL_ENDPOINTS];
  const dialect = options.dialect ?? 'spec';
  if (dialect !== 'spec' && dialect !== 'alphabite') throw new Error(`unknown dialect '${String(dialect)}'; accepted: spec, alphabite`);
  if (dialect === 'alphabite') {
    // The provider-state door is the kit's admin API, and [kit] rules are the spec's: the plugins have neither.
    if (options.varyDataset || options.dataset !== undefined) throw new Error('--vary-dataset and --dataset need the kit\'s provider-state door, which the published plugins do not have: leave them out with --dialect alphabite');
    if (options.strict) throw new Error('--strict adds the spec\'s [kit] rules, which do not apply to --dialect alphabite: leave it out');
  }
  if (options.replayPath !== undefined) checkReplayPath(options.replayPath, endpoints, options.properties);
  if (options.dataset !== undefined) checkDataset(options.dataset, endpoints);
  return {
    baseUrl,
    endpoints,
    runs: positive('runs', options.runs, DEFAULTS.runs),
    seed: options.seed ?? randomSeed(),
    strict: options.strict ?? false,
    maxPageSize: positive('max page size', options.maxPageSize, DEFAULTS.maxPageSize),
    maxWalkPages: positive('max walk pages', options.maxWalkPages, DEFAULTS.maxWalkPages),
    maxReferencePages: positive('max reference pages', options.maxReferencePages, DEFAULTS.maxReferencePages),
    timeoutMs: positive('timeout', options.timeoutMs, DEFAULTS.timeoutMs),
    maxBodyBytes: maxBodyBytesOf(options.maxBodyBytes),
    concurrency: concurrencyOf(options.concurrency),
    headers: options.headers,
    propertyTimeLimitMs: positive('property time limit', options.propertyTimeLimitMs, DEFAULTS.propertyTimeLimitMs),
    productIds: options.productIds,
    wishlistIds: options.wishlistIds,
    properties: options.properties,
    replayPath: options.replayPath,
    varyDataset: options.varyDataset ?? options.dataset !== undefined,
    dataset: options.dataset,
    dialect,
  };
}

function maxBodyBytesOf(value: number | undefined): number {
  const n = value ?? DEFAULT_MAX_BODY_BYTES;
  if (!Number.isSafeInteger(n) || n < MIN_MAX_BODY_BYTES || n > MAX_MAX_BODY_BYTES) throw new Error(`the cap on a body must be a whole number of bytes from ${MIN_MAX_BODY_BYTES} to ${MAX_MAX_BODY_BYTES}, got ${value}`);
  return n;
}

function concurrencyOf(value: number | undefined): number {
  const n = value ?? DEFAULTS.concurrency;
  if (!Number.isSafeInteger(n) || n < 1 || n > MAX_CONCURRENCY) throw new Error(`concurrency must be a whole number from 1 to ${MAX_CONCURRENCY}, got ${value}`);
  return n;
}

/** fast-check's counterexample path: run indices separated by colons, e.g. `4:0:0`. */
const REPLAY_PATH = /^[0-9]{1,9}(:[0-9]{1,9})*$/;

/** A replay path names one case of one property on one endpoint: anything else cannot be replayed. */
function checkReplayPath(path: string, endpoints: EndpointName[], properties: string[] | undefined): void {
  if (!REPLAY_PATH.test(path)) {
    throw new Error(`--replay-path '${path}' is not a counterexample path (numbers separated by colons, e.g. 4:0:0, as printed after 'replay:')`);
  }
  if (properties?.length !== 1 || endpoints.length !== 1) {
    throw new Error(
      `--replay-path replays one case of one property on one endpoint: give it with exactly one --properties and one --endpoints (the failure's 'replay:' command has both)`,
    );
  }
}

/** A dataset label names one of the variants, on an endpoint the run checks: refused before anything is sent. */
function checkDataset(label: string, endpoints: EndpointName[]): void {
  const all = datasetVariants();
  const variant = all.find((v) => v.label === label);
  if (!variant) throw new Error(`unknown dataset '${label}'; known: ${all.map((v) => `'${v.label}'`).join(', ')}`);
  if (!endpoints.includes(variant.endpoint)) throw new Error(`dataset '${label}' is for the endpoint ${variant.endpoint}, which --endpoints leaves out`);
}

/** A stable per-(property, endpoint) seed, so that running a subset replays the same cases. */
export function deriveSeed(seed: number, ...parts: string[]): number {
  let h = 0x811c9dc5 ^ seed;
  for (const ch of parts.join('|')) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 0x01000193);
  }
  return h | 0;
}

/**
 * The base URL as WHATWG reads it, without trailing slashes: what every request is sent to, and what
 * the header line and the replay commands show (a control character typed into its path is
 * percent-encoded there, never printed raw). Checked when the options are resolved, not when
 * commander reads them: `check --help` works whatever BASE_URL holds.
 */
function httpBaseUrl(text: string): string {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') throw new Error(`base URL must be an http(s) URL, got ${quoteText(text, 80)}`);
  return url.href.replace(/\/+$/, '');
}
