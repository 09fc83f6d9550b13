import { stripVTControlCharacters } from 'node:util';
import { readRegularText } from '../files/input-file.ts';
import { isObject } from '../lib/http.ts';
import { printable, quoteValue } from '../lib/quote.ts';

/**
 * What became of each interaction of a verification: passed or failed, with the mismatches (the
 * same lines `verify` prints), the failed state changes, the provider state and request as the pact
 * file has them, and Pact's timing. Built from the pact files and Pact's JSON verification result
 * (`interactionResults`, `errors`, `pendingErrors`); read by the reports (contracts/verify-report.ts).
 */

export interface Mismatch {
  interaction: string;
  /** One line, the right way round: `BodyMismatch $.limit: expected 5, got 20` (expected = the contract). */
  detail: string;
  /**
   * What stays the same from run to run: the type and where, without the values (`BodyMismatch
   * $.limit`; an array's positions as `[*]`; the keys a map lacks). A baseline records these.
   */
  kind: string;  /** Pact's id of the interaction (a broker's pacts: two pacts may hold interactions of the same description). */
  interactionId?: string;
}

export interface ProviderStateRef {
  name: string;
  params?: Record<string, unknown>;
}

export interface PactRequest {
  method: string;
  path: string;
  /** Each parameter's values, as the pact has them. */
  query?: Record<string, string[]>;
}

/** An interaction as its pact file describes it. */
export interface PactInteraction {
  description: string;
  states: ProviderStateRef[];
  request?: PactRequest;
}

export interface InteractionOutcome extends PactInteraction {
  /**
   * `passed`: Pact matched the provider's answer and every state change worked; `failed`: a
   * mismatch, a failed state change, or not replayed (`error` says why); `pending`: it failed, but
   * the pact is pending for this provider (broker, `--enable-pending`), which does not fail the run.
   */
  status: 'passed' | 'failed' | 'pending';
  /**
   * Of a work-in-progress pact (broker, `--include-wip-pacts-since`): a pact no selector asked for,
   * verified as pending; its outcome is reported apart and never fails the run.
   */
  wip?: true;
  /** The mismatch lines, as the summary prints them (pending mismatches included). */
  mismatches: string[];
  /**
   * The mismatches once per kind: the first line of each kind, and how many more lines of that kind
   * there are (the same rule broken at other positions of an array, say).
   */
  distinct: Array<{ kind: string; detail: string; alike: number }>;
  /**
   * The kinds of failure, sorted and distinct: each mismatch's kind, `StateChangeFailed '<state>'`
   * for a state change refused, `NotVerified` when it was not replayed or Pact gave no verdict.
   * Empty when it passed. What a baseline records (contracts/verify-baseline.ts).
   */
  kinds: string[];
  /** State changes of this interaction's states that the provider refused or failed. */
  stateErrors: string[];
  /** Why it failed without a mismatch: not replayed, or Pact's own error. */
  error?: string;
  /** Pact's time for the interaction, when Pact reported one. */
  durationMs?: number;
}

/** A state change that the provider refused or failed. */
export interface StateFailure {
  state: string;
  params: Record<string, unknown>;
  /** `setup of 'wishlists exist' {"count":12}: POST ... answered 500 ...`, as the summary prints it. */
  text: string;
}

/** The interactions of these pact files, in order; a file that cannot be read adds none. */
export function interactionsIn(files: readonly string[]): PactInteraction[] {
  const out: PactInteraction[] = [];
  for (const file of files) {
    let pact: unknown;
    try {
      pact = JSON.parse(readRegularText(file));
    } catch {
      continue;
    }
    const interactions = isObject(pact) && Array.isArray(pact.interactions) ? pact.interactions : [];
    for (const i of interactions) {
      if (!isObject(i) || typeof i.description !== 'string') continue;
      const request = requestOf(i.request);
      out.push({ description: i.description, states: statesOf(i), ...(request ? { request } : {}) });
    }
  }
  return out;
}

function statesOf(i: Record<string, unknown>): ProviderStateRef[] {
  // Pact 3 and 4 list `providerStates`; Pact 2 had one `providerState`.
  if (Array.isArray(i.providerStates)) {
    return i.providerStates
      .filter((s): s is Record<string, unknown> => isObject(s) && typeof s.name === 'string')
      .map((s) => ({ name: s.name as string, ...(isObject(s.params) && Object.keys(s.params).length ? { params: s.params } : {}) }));
  }
  return typeof i.providerState === 'string' && i.providerState ? [{ name: i.providerState }] : [];
}

function requestOf(r: unknown): PactRequest | undefined {
  if (!isObject(r) || typeof r.path !== 'string') return undefined;
  const method = typeof r.method === 'string' ? r.method.toUpperCase() : 'GET';
  // A Map: query names are the pact's data (`constructor`, `__proto__` are names like any other).
  const query = new Map<string, string[]>();
  if (typeof r.query === 'string') {
    // Pact 2: the query string itself.
    for (const [name, value] of new URLSearchParams(r.query)) query.set(name, [...(query.get(name) ?? []), value]);
  } else if (isObject(r.query)) {
    for (const [name, values] of Object.entries(r.query)) query.set(name, (Array.isArray(values) ? values : [values]).map(String));
  }
  // Object.fromEntries defines own properties, so a `__proto__` name stays a name.
  return { method, path: r.path, ...(query.size ? { query: Object.fromEntries(query) } : {}) };
}

/** `GET /store/wishlists?skip=5&take=5`. */
export function requestLine(r: PactRequest): string {
  const query = new URLSearchParams(Object.entries(r.query ?? {}).flatMap(([name, values]) => values.map((v): [string, string] => [name, v]))).toString();
  return `${r.method} ${r.path}${query ? `?${query}` : ''}`;
}

/** `wishlist has items {"count":15,"wishlist_id":"wl_..."}`. */
export function stateLine(s: ProviderStateRef): string {
  return `${s.name}${s.params && Object.keys(s.params).length ? ` ${canonical(s.params)}` : ''}`;
}

/** JSON with its object keys sorted: the same params compare equal whatever order Pact sent them in. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (isObject(v) && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v));
}

/** The part of Pact's JSON verification result the reports read. */
export interface PactVerification {
  /** `pending`/`wip`: the pact it belongs to, as Pact's notices before it said (a broker's pacts). */
  interactionResults: Array<{ description: string; result: string; durationMs?: number; interactionId?: string; pending?: true; wip?: true }>;
  errors: Mismatch[];
  pendingErrors: Mismatch[];
}

/** Pact's JSON verification result (what its verifier resolves with, or rejects with as the message), or undefined for any other text. */
export function parseVerification(text: string): PactVerification | undefined {
  let result: unknown;
  try {
    result = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(result) || (!Array.isArray(result.interactionResults) && !Array.isArray(result.errors))) return undefined;
  const interactionResults: PactVerification['interactionResults'] = (Array.isArray(result.interactionResults) ? result.interactionResults : []).filter(isObject).map((r) => {
    const durationMs = typeof r.duration === 'string' ? parseDuration(r.duration) : undefined;
    return {
      description: String(r.description ?? ''),
      result: String(r.result ?? ''),
      ...(durationMs !== undefined ? { durationMs } : {}),
      ...(typeof r.interactionId === 'string' ? { interactionId: r.interactionId } : {}),
    };
  });
  const pacts = pactsOfInteractions(Array.isArray(result.output) ? result.output.filter((l): l is string => typeof l === 'string') : []);
  // Only when Pact's report names a pact for every result, in order: otherwise nothing is assumed.
  if (pacts.length === interactionResults.length) {
    pacts.forEach((pact, i) => Object.assign(interactionResults[i]!, pact.pending ? { pending: true } : {}, pact.wip ? { wip: true } : {}));
  }
  return { interactionResults, errors: mismatchesOf(result.errors), pendingErrors: mismatchesOf(result.pendingErrors) };
}

/**
 * For each interaction Pact's report shows, the pact it belongs to: a broker's pacts each come after
 * Pact's notices saying why it is verified ("... because it is a 'work in progress' pact") and whether
 * it is pending ("This pact is in pending state ..."); each interaction is a line
 * `  <description> (<time> loading, <time> verification)`.
 */
function pactsOfInteractions(output: readonly string[]): Array<{ pending: boolean; wip: boolean }> {
  const out: Array<{ pending: boolean; wip: boolean }> = [];
  let pact = { pending: false, wip: false };
  for (const entry of output) {
    for (const line of stripVTControlCharacters(entry).split('\n')) {
      if (line.startsWith('The pact at ')) pact = { pending: false, wip: /is being verified because it is a 'work in progress' pact/.test(line) };
      else if (line.startsWith('This pact is in pending state')) pact.pending = true;
      else if (/^  \S.* \([^()]* loading, [^()]* verification\)$/.test(line)) out.push({ ...pact });
    }
  }
  return out;
}

const UNIT_MS: Record<string, number> = { ns: 1e-6, 'µs': 1e-3, us: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Pact's durations, `83ms`, `1.2s`, `1s 5ms`, in milliseconds; undefined for anything else. */
export function parseDuration(text: string): number | undefined {
  const parts = text.trim().split(/\s+/);
  let total = 0;
  for (const part of parts) {
    const m = /^([0-9]+(?:\.[0-9]+)?)(ns|µs|us|ms|s|m|h)$/.exec(part);
    if (!m) return undefined;
    total += Number(m[1]) * UNIT_MS[m[2]!]!;
  }
  return parts.length ? Math.round(total * 1000) / 1000 : undefined;
}

/** The failures of Pact's JSON verification result, flattened; empty when `text` is not such a result. */
export function parseMismatches(text: string): Mismatch[] {
  return parseVerification(text)?.errors ?? [];
}

function mismatchesOf(errors: unknown): Mismatch[] {
  const out: Mismatch[] = [];
  for (const entry of Array.isArray(errors) ? (errors as Array<{ interaction?: string; mismatch?: unknown }>) : []) {
    const interaction = entry.interaction ?? '(unknown interaction)';
    const mismatch = entry.mismatch as { message?: string; mismatches?: Array<Record<string, unknown>>; type?: string; interactionId?: unknown } | undefined;
    const id = typeof mismatch?.interactionId === 'string' ? { interactionId: mismatch.interactionId } : {};
    const details = mismatch?.mismatches ?? [];
    if (details.length === 0) out.push({ interaction, detail: typeof mismatch?.message === 'string' ? printable(mismatch.message) : quoteValue(mismatch, MAX_MISMATCH_VALUE), kind: typeof mismatch?.type === 'string' ? mismatch.type : 'Error', ...id });
    // Pact lists one interaction's mismatches in no fixed order: sorted, the report reads the same each run.
    const described = details.map((d) => ({ interaction, detail: describeMismatch(d), kind: mismatchKind(d), ...id }));
    for (const m of described.sort((a, b) => (a.detail < b.detail ? -1 : a.detail > b.detail ? 1 : 0))) out.push(m);
  }
  return out;
}

/**
 * One mismatch, the right way round. Pact's text reads "Expected <what the provider sent> to be
 * equal to <what the contract wants>"; its structured `expected` is the contract's value and
 * `actual` the provider's (checked against broken providers in test/contracts-verify.test.ts).
 */
export function describeMismatch(d: Record<string, unknown>): string {
  const where = typeof d.path === 'string' ? `${d.path}: ` : typeof d.key === 'string' ? `${d.key}: ` : '';
  const text = typeof d.mismatch === 'string' ? d.mismatch : undefined;
  const shown = (v: unknown) => (typeof v === 'string' ? v : quoteValue(v, MAX_MISMATCH_VALUE));
  const hasValues = d.expected !== undefined && d.actual !== undefined && d.expected !== null && d.actual !== null;
  let what: string;
  const missingKeys = text === undefined ? null : /^Actual map is missing the following keys: (.+)$/s.exec(text);
  const butGot = text === undefined ? null : /^(?:Type mismatch: )?Expected (.+?),? but (?:received|was|got) (.+)$/s.exec(text);
  if (hasValues && (d.type === 'StatusMismatch' || text === undefined || /to be equal to/.test(text))) {
    what = `expected ${shown(d.expected)}, got ${shown(d.actual)}`;
  } else if (missingKeys) {
    // "Actual map is missing the following keys: totalPages"; `actual` is the provider's keys as a JSON array.
    const keys = parsedKeys(d.actual);
    what = `expected keys including ${missingKeys[1]}, got ${keys ? keys.join(', ') || 'no keys' : 'an object without them'}`;
  } else if (butGot) {
    // "Expected an empty Map but received {...}" -> "expected an empty Map, got {...}"
    what = `expected ${butGot[1]}, got ${butGot[2]}`;
  } else if (text) {
    // "Expected '12' (String) to be the same type as 12 (Integer)" -> "expected the same type as 12 (Integer), got '12' (String)"
    const rule = /^Expected (.+?) to (?:be )?(.+)$/s.exec(text);
    what = rule ? `expected ${rule[2]}, got ${rule[1]}` : text;
  } else {
    what = quoteValue(d, MAX_MISMATCH_VALUE);
  }
  // The provider's values are in Pact's texts: printable, so a mismatch is one line wherever it is shown.
  return printable(`${typeof d.type === 'string' ? d.type : 'Mismatch'} ${where}${what}`);
}

/** A value of a mismatch that Pact gives as data (not text) is quoted up to this many characters. */
const MAX_MISMATCH_VALUE = 4096;

/**
 * A mismatch's kind: its type, where (a body path with each array position as `[*]`, a header's
 * name in lower case) and, for a map that lacks keys, which keys. No value of the answer is in it,
 * so the same rule broken by the same provider has the same kind in every run.
 */
export function mismatchKind(d: Record<string, unknown>): string {
  const type = typeof d.type === 'string' ? d.type : 'Mismatch';
  const where = typeof d.path === 'string' ? d.path.replace(/\[\d+\]/g, '[*]').replace(/\.\d+(?=\.|\[|$)/g, '[*]') : typeof d.key === 'string' ? d.key.toLowerCase() : '';
  const missing = typeof d.mismatch === 'string' ? /^Actual map is missing the following keys: (.+)$/s.exec(d.mismatch) : null;
  return `${type}${where ? ` ${where}` : ''}${missing ? ` lacks ${missing[1]!.split(/,\s*/).sort().join(', ')}` : ''}`;
}

/** Pact's `expected`/`actual` of a missing-keys mismatch: the keys, as a JSON array in a string. */
function parsedKeys(value: unknown): string[] | undefined {
  try {
    const keys: unknown = typeof value === 'string' ? JSON.parse(value) : value;
    return Array.isArray(keys) && keys.every((k) => typeof k === 'string') ? keys : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The interaction a failure of Pact's names (`Verifying a pact between C and P Given S - <description>`):
 * the one whose description ends it, the longest if several do (a description may end another).
 */
function ownerOf(interaction: string, descriptions: readonly string[]): number {
  let best = -1;
  descriptions.forEach((d, i) => {
    if ((interaction === d || interaction.endsWith(` ${d}`)) && (best < 0 || d.length > descriptions[best]!.length)) best = i;
  });
  return best;
}

export interface OutcomeInputs {
  /** The interactions of the pact files verified; undefined when they came from a broker (then Pact's results name them). */
  interactions?: readonly PactInteraction[];
  /** Pact's result; undefined when Pact gave none (it could not run, or the pacts were not replayed). */
  verification?: PactVerification;
  stateFailures: readonly StateFailure[];
  /** Why nothing was replayed, or why Pact failed without a result: every interaction failed for it. */
  error?: string;
}

/**
 * One outcome per interaction (the pact files' order; Pact's order when they came from a broker), and
 * the state failures that belong to no known interaction (a broker's pacts: their states are not known here).
 */
export function interactionOutcomes(inputs: OutcomeInputs): { outcomes: InteractionOutcome[]; unclaimedStateErrors: string[] } {
  const v = inputs.verification;
  // From a broker, Pact's results are the interactions: each is its own (ids, not descriptions, tell
  // apart two pacts' interactions of one description), pending or work in progress as its pact is.
  const fromResults = !inputs.interactions;
  const results = v?.interactionResults ?? [];
  const known: PactInteraction[] = inputs.interactions ? [...inputs.interactions] : results.map((r) => ({ description: r.description, states: [] }));
  const descriptions = known.map((k) => k.description);
  const mismatches = known.map((): Mismatch[] => []);
  const pending = known.map((_k, i) => fromResults && results[i]?.pending === true);
  const ownerById = (m: Mismatch): number => (fromResults && m.interactionId !== undefined ? results.findIndex((r) => r.interactionId === m.interactionId) : -1);
  const extra: Array<{ description: string; pending: boolean; mismatches: Mismatch[] }> = [];
  for (const [list, isPending] of [
    [v?.errors ?? [], false],
    [v?.pendingErrors ?? [], true],
  ] as const) {
    for (const m of list) {
      const byId = ownerById(m);
      const i = byId >= 0 ? byId : ownerOf(m.interaction, descriptions);
      if (i >= 0) {
        mismatches[i]!.push(m);
        if (isPending) pending[i] = true;
        continue;
      }
      // A failure of no interaction the kit knows: reported on its own rather than lost.
      const description = m.interaction.replace(/^Verifying a pact between \S+ and \S+ /, '');
      const same = extra.find((e) => e.description === description);
      if (same) same.mismatches.push(m);
      else extra.push({ description, pending: isPending, mismatches: [m] });
    }
  }
  const claimed = new Set<StateFailure>();
  const used = new Set<number>();
  const outcomes = known.map((interaction, i): InteractionOutcome => {
    // The result of this description not yet taken (a description repeated in two files has two).
    const r = fromResults ? (i < results.length ? i : -1) : (v?.interactionResults.findIndex((x, n) => !used.has(n) && x.description === interaction.description) ?? -1);
    if (r >= 0) used.add(r);
    const result = r >= 0 ? v!.interactionResults[r] : undefined;
    const own = inputs.stateFailures.filter((f) => interaction.states.some((s) => s.name === f.state && canonical(s.params ?? {}) === canonical(f.params)));
    for (const f of own) claimed.add(f);
    const stateErrors = own.map((f) => f.text);
    let error = inputs.error ?? (result === undefined && v ? 'Pact reported no result for this interaction (see its report: --verbose or --pact-log <file>)' : undefined);
    const failed = Boolean(error) || stateErrors.length > 0 || (mismatches[i]!.length > 0 && !pending[i]) || (result !== undefined && result.result !== 'OK' && !pending[i]);
    // Failed with nothing to say why: say what Pact said.
    if (failed && !error && stateErrors.length === 0 && mismatches[i]!.length === 0) error = `Pact reported '${result?.result}' without a mismatch (see its report: --verbose or --pact-log <file>)`;
    // Pending is what a failure of a pending pact is: a pending pact's interaction that passed passed.
    const brokePending = pending[i]! && (mismatches[i]!.length > 0 || (result !== undefined && result.result !== 'OK'));
    const status = failed ? 'failed' : brokePending ? 'pending' : 'passed';
    const stateKinds = own.map((f) => `StateChangeFailed '${f.state}'`);
    return {
      ...interaction,
      status,
      ...(fromResults && results[i]?.wip ? { wip: true as const } : {}),
      ...described(mismatches[i]!, status === 'failed' ? [...stateKinds, ...(error ? ['NotVerified'] : [])] : undefined),
      stateErrors,
      ...(error ? { error } : {}),
      ...(result?.durationMs !== undefined ? { durationMs: result.durationMs } : {}),
    };
  });
  const others = extra.map((e): InteractionOutcome => ({ description: e.description, states: [], status: e.pending ? 'pending' : 'failed', ...described(e.mismatches, e.pending ? undefined : []), stateErrors: [] }));
  return { outcomes: [...outcomes, ...others], unclaimedStateErrors: inputs.stateFailures.filter((f) => !claimed.has(f)).map((f) => f.text) };
}

/**
 * An outcome's mismatch lines, the same once per kind, and its kinds of failure: the mismatches'
 * and `more` (state changes, not verified); no kinds when it did not fail (`more` undefined).
 */
function described(list: readonly Mismatch[], more: readonly string[] | undefined): Pick<InteractionOutcome, 'mismatches' | 'distinct' | 'kinds'> {
  const distinct: InteractionOutcome['distinct'] = [];
  const seen = new Set<string>();
  for (const m of list) {
    if (seen.has(`${m.kind}\n${m.detail}`)) continue;
    seen.add(`${m.kind}\n${m.detail}`);
    const same = distinct.find((d) => d.kind === m.kind);
    if (same) same.alike += 1;
    else distinct.push({ kind: m.kind, detail: m.detail, alike: 0 });
  }
  const kinds = more === undefined ? [] : [...new Set([...list.map((m) => m.kind), ...more])].sort();
  return { mismatches: list.map((m) => m.detail), distinct, kinds };
}
