import { Option } from 'commander';
import { BaselineError, baselineText, compareWithBaseline, comparisonLines, parseBaseline, type BaselineFormat } from '../lib/baseline.ts';
import { FileTooLargeError, readRegularText } from '../files/input-file.ts';
import { claimOutputFile, reason, writeOutputFile } from '../files/output-file.ts';

/**
 * `--baseline <file>` and `--write-baseline <file>` of `verify` and `check` (lib/baseline.ts): the
 * file read before the run (a baseline that cannot be used stops the command at once, exit 2), the
 * comparison after it, and the file written at its end.
 */

/** The most bytes of a baseline file read: far more than the failures of every interaction and property. */
export const MAX_BASELINE_BYTES = 4 * 1024 * 1024;

export const baselineOptions = (what: string): [baseline: Option, writeBaseline: Option] => [
  new Option('--baseline <file>', `exit 0 when the ${what} that fail are those recorded in this file (written by --write-baseline) or fewer, naming those that now pass; 1 when a new one fails, naming it`),
  new Option('--write-baseline <file>', `record this run's failing ${what} in this file (sorted JSON, for review) and exit 0 once it is written`),
];

/**
 * The text of a baseline file, read with a size bound; BaselineError (one sentence) when it cannot be
 * read. Only a regular file is read (a FIFO is refused, never waited on: files/input-file.ts).
 */
export function readBaselineText(file: string): string {
  try {
    return readRegularText(file, MAX_BASELINE_BYTES);
  } catch (error) {
    if (error instanceof FileTooLargeError) throw new BaselineError(`the baseline ${file} is larger than ${MAX_BASELINE_BYTES / 1024 / 1024} MiB, which no baseline is`);
    const code = (error as NodeJS.ErrnoException).code;
    throw new BaselineError(`cannot read the baseline ${file}: ${code === 'ENOENT' ? 'no such file (write one with --write-baseline)' : reason(error)}`);
  }
}

/** The entries of a baseline file for a run of `format.command` in `dialect`; BaselineError when it cannot be used. */
export function readBaseline<E>(format: BaselineFormat<E>, dialect: string, file: string): E[] {
  return parseBaseline(format, dialect, file, readBaselineText(file));
}

/**
 * Checks before the run that `file` can be written by the rule of every output file
 * (files/output-file.ts: its folders are created; a directory, FIFO or socket is refused), leaving a
 * baseline already there as it is until the run has its failures. BaselineError when it cannot.
 */
export function claimBaselinePath(file: string): void {
  if (file === '') throw new BaselineError('--write-baseline needs a file name');
  try {
    claimOutputFile(file);
  } catch (error) {
    throw new BaselineError(`cannot write the baseline ${file}: ${reason(error)}`);
  }
}

/** Writes the baseline whole (files/output-file.ts: a reader never meets half a file). BaselineError when it cannot. */
export function writeBaseline<E>(format: BaselineFormat<E>, dialect: string, file: string, failures: readonly E[]): void {
  try {
    writeOutputFile(file, baselineText(format, dialect, failures));
  } catch (error) {
    throw new BaselineError(`cannot write the baseline ${file}: ${reason(error)}`);
  }
}

export interface BaselineFlags {
  baseline?: string;
  writeBaseline?: string;
}

/** What the command does with baselines, checked before the run: BaselineError for a file it cannot use. */
export function prepareBaseline<E>(format: BaselineFormat<E>, dialect: string, flags: BaselineFlags): E[] | undefined {
  if (flags.baseline !== undefined && flags.writeBaseline !== undefined) {
    throw new BaselineError('give either --baseline (compare with a baseline) or --write-baseline (record one), not both');
  }
  if (flags.writeBaseline !== undefined) claimBaselinePath(flags.writeBaseline);
  return flags.baseline !== undefined ? readBaseline(format, dialect, flags.baseline) : undefined;
}

/**
 * After the run: writes the baseline (`--write-baseline`: exit 0 once written), or compares with the
 * recorded one (`--baseline`: exit 0 unless a failure is new), printing what it found. Undefined
 * without either option (the run's own verdict stands). BaselineError when the file cannot be written.
 */
export function settleBaseline<E>(
  format: BaselineFormat<E>,
  dialect: string,
  flags: BaselineFlags,
  recorded: readonly E[] | undefined,
  current: readonly E[],
  passed: (key: string) => boolean,
  print: (line: string) => void,
): 0 | 1 | undefined {
  if (flags.writeBaseline !== undefined) {
    writeBaseline(format, dialect, flags.writeBaseline, current);
    print(`\nwrote the baseline ${flags.writeBaseline}: ${current.length} failure${current.length === 1 ? '' : 's'} recorded (compare later runs with --baseline ${flags.writeBaseline})`);
    return 0;
  }
  if (flags.baseline === undefined || recorded === undefined) return undefined;
  const comparison = compareWithBaseline(format, recorded, current, passed);
  for (const line of comparisonLines(format, flags.baseline, comparison)) print(line);
  return comparison.added.length ? 1 : 0;
}
