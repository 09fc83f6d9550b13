import { claimOutputFile, reason, writeOutputFile } from '../files/output-file.ts';

export { reason };

/**
 * The report files a command writes for CI (`--junit <file>`, `--json <file>`, `--pact-log <file>`),
 * by the kit's one rule for output files (files/output-file.ts, docs/cli.md "Output files"):
 * claimed before the command does its work, so that a path it cannot write stops it at once
 * (exit 2) rather than after a long run; written whole at the end.
 */

/** A report path that cannot be written: `message` is the one sentence to print. */
export class ReportPathError extends Error {}

/**
 * Claims each `--<option> <file>` given, before the run: creates the file's folders, checks that the
 * file can be written (a directory, FIFO, socket or block device cannot), and removes a report an
 * earlier run left there, so that after a run that cannot finish (exit 2) no old verdict is read as
 * this one's. Throws ReportPathError for the first that cannot be written, or for one file named
 * twice (a link and its target are one file; a device such as /dev/null may take several).
 */
export function claimReportPaths(paths: ReadonlyArray<readonly [option: string, file: string | undefined]>): void {
  const given: Array<[option: string, file: string]> = [];
  for (const [option, file] of paths) {
    if (file === undefined) continue;
    if (file === '') throw new ReportPathError(`${option} needs a file name`);
    given.push([option, file]);
  }
  const seen = new Map<string, string>();
  for (const [option, file] of given) {
    let where: string;
    try {
      const target = claimOutputFile(file);
      where = target.kind === 'file' ? target.path : '';
    } catch (error) {
      throw new ReportPathError(`cannot write the report ${file} (${option}): ${reason(error)}`);
    }
    if (!where) continue;
    const other = seen.get(where);
    if (other) throw new ReportPathError(`${other} and ${option} name the same file ${file}: give each report its own`);
    seen.set(where, option);
  }
  for (const [option, file] of given) {
    try {
      claimOutputFile(file, { removeOld: true });
    } catch (error) {
      throw new ReportPathError(`cannot replace the report ${file} (${option}): ${reason(error)}`);
    }
  }
}

/** Writes a report whole, creating its folders. Throws ReportPathError (one sentence) when it cannot. */
export function writeReport(file: string, text: string): void {
  try {
    writeOutputFile(file, text);
  } catch (error) {
    throw new ReportPathError(`cannot write the report ${file}: ${reason(error)}`);
  }
}
