/**
 * Baselines: the failures a run of `verify` or `check` is known to have, recorded once
 * (`--write-baseline <file>`) so that later runs (`--baseline <file>`) fail only on a new one. A
 * failure is recorded by what stays the same from run to run: what failed (an interaction, a
 * property), where (the endpoint) and how (the kinds of failure: a mismatch's type and path, never
 * its values, counts, ids, timings or seeds). The file is JSON, sorted, with a version, the command
 * and the dialect that wrote it, so that the same failures always write the same bytes and a review
 * of the file reads as a list. Pure: the commands read and write the file (cli/baseline-file.ts).
 */

/** The version of the file's shape; raised when a field changes meaning or goes away. */
export const BASELINE_VERSION = 1;

/** One command's failures as a baseline records them. */
export interface BaselineFormat<E> {
  /** `verify` or `check`: a file of one command is refused by the other. */
  command: 'verify' | 'check';
  /** The entry read from a file, checked; a sentence saying what is wrong when it is not an entry. */
  parse(value: unknown): E | string;
  /** What failed and where, as one string: the same failure has the same key in every run. */
  key(entry: E): string;
  /** The kinds of failure the entry records (sorted, distinct); a kind not recorded is a new failure. */
  kinds(entry: E): readonly string[];
  /** One line naming what failed, for the output. */
  label(entry: E): string;
}

export interface Baseline<E> {
  version: typeof BASELINE_VERSION;
  /** `store-listing-kit verify` or `store-listing-kit check`. */
  tool: string;
  dialect: string;
  failures: E[];
}

const toolOf = (command: string) => `store-listing-kit ${command}`;

/** A baseline file that cannot be used: `message` is the one sentence to print. */
export class BaselineError extends Error {}

const byKey = <E>(format: BaselineFormat<E>) => (a: E, b: E) => {
  const ka = format.key(a);
  const kb = format.key(b);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
};

/** The file's text: the entries sorted by key, two-space JSON, one trailing newline. The same failures give the same bytes. */
export function baselineText<E>(format: BaselineFormat<E>, dialect: string, failures: readonly E[]): string {
  const baseline: Baseline<E> = { version: BASELINE_VERSION, tool: toolOf(format.command), dialect, failures: [...failures].sort(byKey(format)) };
  return `${JSON.stringify(baseline, null, 2)}\n`;
}

/**
 * A file beside `file` for a run's own baseline (`check-spec-baseline.json`...): never `file` itself,
 * which holds something else.
 */
export function newBaselineFile(file: string, command: BaselineFormat<unknown>['command'], dialect: string): string {
  const slash = Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\'));
  const folder = file.slice(0, slash + 1);
  const name = `${command}-${/^[a-z]+$/.test(dialect) ? `${dialect}-` : ''}baseline.json`;
  return file.slice(slash + 1) === name ? `${folder}${command}-baseline.new.json` : `${folder}${name}`;
}

/**
 * The entries of a baseline file's text, for a run of `format.command` in `dialect`. Throws
 * BaselineError (one sentence, naming `file`) when it is not JSON, not a baseline, of another
 * version, command or dialect, or an entry is malformed.
 */
export function parseBaseline<E>(format: BaselineFormat<E>, dialect: string, file: string, text: string): E[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new BaselineError(`the baseline ${file} is not JSON (${(error as Error).message})`);
  }
  // The file may be another run's baseline (the other command's, the other dialect's) or no baseline
  // at all: the remedy names a new file, never this one, which --write-baseline would replace.
  const wrong = (what: string) => new BaselineError(`the baseline ${file} ${what}; record this run's own in a new file with --write-baseline ${newBaselineFile(file, format.command, dialect)}`);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw wrong('is not a baseline (a JSON object with version, tool, dialect and failures)');
  const b = value as Record<string, unknown>;
  if (typeof b.tool !== 'string' || !b.tool.startsWith('store-listing-kit ')) throw wrong('is not a baseline of store-listing-kit (no "tool")');
  if (b.tool !== toolOf(format.command)) throw wrong(`was written by \`${b.tool}\`, not \`${toolOf(format.command)}\``);
  if (b.version !== BASELINE_VERSION) throw wrong(`has version ${JSON.stringify(b.version)}, and this kit reads version ${BASELINE_VERSION}`);
  if (b.dialect !== dialect) throw wrong(`was written with --dialect ${String(b.dialect)}, and this run is --dialect ${dialect}`);
  if (!Array.isArray(b.failures)) throw wrong('has no "failures" list');
  const out: E[] = [];
  const seen = new Set<string>();
  b.failures.forEach((raw, i) => {
    const entry = format.parse(raw);
    if (typeof entry === 'string') throw wrong(`has a malformed failure ${i + 1}: ${entry}`);
    const key = format.key(entry);
    if (seen.has(key)) throw wrong(`lists failure ${i + 1} (${format.label(entry)}) twice`);
    seen.add(key);
    out.push(entry);
  });
  return out;
}

/** This run's failures held against the baseline's. */
export interface BaselineComparison<E> {
  /** Failing now and not recorded (`kinds` all of its kinds), or recorded with fewer kinds (`kinds` the new ones). */
  added: Array<{ entry: E; kinds: readonly string[]; known: boolean }>;
  /** Recorded and failing as recorded (or with fewer kinds). */
  still: E[];
  /** Recorded, and passed in this run: the baseline can lose them. */
  passing: E[];
  /** Recorded and still failing, but without some recorded kinds: the baseline can lose those kinds. */
  fewerKinds: Array<{ entry: E; gone: readonly string[] }>;
  /** Recorded, and neither failed nor passed in this run (not run: another --provider, --endpoints...). */
  unchecked: E[];
}

/**
 * Compares this run's failures with the recorded ones. `passed(key)` says whether what the key names
 * ran and passed in this run (else a recorded entry that does not fail now was not checked).
 */
export function compareWithBaseline<E>(format: BaselineFormat<E>, recorded: readonly E[], current: readonly E[], passed: (key: string) => boolean): BaselineComparison<E> {
  const known = new Map(recorded.map((e) => [format.key(e), e]));
  const now = new Map(current.map((e) => [format.key(e), e]));
  const result: BaselineComparison<E> = { added: [], still: [], passing: [], fewerKinds: [], unchecked: [] };
  for (const entry of [...current].sort(byKey(format))) {
    const before = known.get(format.key(entry));
    if (!before) {
      result.added.push({ entry, kinds: format.kinds(entry), known: false });
      continue;
    }
    const recordedKinds = new Set(format.kinds(before));
    const fresh = format.kinds(entry).filter((k) => !recordedKinds.has(k));
    if (fresh.length) result.added.push({ entry, kinds: fresh, known: true });
    else result.still.push(entry);
    const nowKinds = new Set(format.kinds(entry));
    const gone = format.kinds(before).filter((k) => !nowKinds.has(k));
    if (gone.length) result.fewerKinds.push({ entry: before, gone });
  }
  for (const entry of [...recorded].sort(byKey(format))) {
    const key = format.key(entry);
    if (now.has(key)) continue;
    (passed(key) ? result.passing : result.unchecked).push(entry);
  }
  return result;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The lines that say how the run stands against the baseline: what is new (the run fails), what could be removed. */
export function comparisonLines<E>(format: BaselineFormat<E>, file: string, c: BaselineComparison<E>): string[] {
  const lines = [''];
  const recorded = c.still.length + c.passing.length + c.unchecked.length + c.added.filter((a) => a.known).length;
  if (c.added.length) {
    lines.push(`FAIL against the baseline ${file}: ${plural(c.added.length, 'new failure')}`);
    for (const a of c.added) lines.push(`  NEW ${format.label(a.entry)}${a.known ? ' (recorded, failing in a new way)' : ''}`, ...a.kinds.map((k) => `        ${k}`));
  } else {
    lines.push(`OK against the baseline ${file}: no new failure (${c.still.length} of ${plural(recorded, 'recorded failure')} still ${c.still.length === 1 ? 'fails' : 'fail'})`);
  }
  if (c.passing.length || c.fewerKinds.length) {
    lines.push(`  now passing, to remove from the baseline (or write it again with --write-baseline ${file}):`);
    for (const e of c.passing) lines.push(`    - ${format.label(e)}`);
    for (const f of c.fewerKinds) lines.push(`    - ${format.label(f.entry)}: no longer ${f.gone.join('; ')}`);
  }
  if (c.unchecked.length) {
    lines.push(`  not checked in this run (kept in the baseline):`);
    for (const e of c.unchecked) lines.push(`    - ${format.label(e)}`);
  }
  return lines;
}
