import { closeSync, existsSync, mkdirSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * The report files a command writes for CI (`--junit <file>`, `--json <file>`): checked before the
 * command does its work, so that a path it cannot write stops it at once (exit 2) rather than after
 * a long run; written at the end, creating the folders on the way.
 */

/** A report path that cannot be written: `message` is the one sentence to print. */
export class ReportPathError extends Error {}

/** Why `error` stopped a write, in a few words and its code (`it is a directory (EISDIR)`...). */
export function reason(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  const plain: Record<string, string> = {
    EISDIR: 'it is a directory',
    ENOTDIR: 'a part of the path is a file, not a directory',
    // from mkdir: a folder of the path exists as a file
    EEXIST: 'a part of the path is a file, not a directory',
    EACCES: 'permission denied',
    EPERM: 'permission denied',
    EROFS: 'the file system is read-only',
    ENOENT: 'no such directory',
    ENOSPC: 'no space left on the device',
  };
  if (!e.code) return e.message;
  return plain[e.code] ? `${plain[e.code]} (${e.code})` : e.code;
}

/**
 * Throws the file system's error when `file` cannot be written: its folders are created, and the
 * file is opened for appending, so a file already there keeps its content (one that was not there
 * is removed again).
 */
export function probeWritable(file: string): void {
  const existed = existsSync(file);
  mkdirSync(dirname(file), { recursive: true });
  closeSync(openSync(file, 'a'));
  if (!existed) rmSync(file);
}

/**
 * Claims each `--<option> <file>` given, before the run: creates the file's folders, checks that the
 * file can be written, and removes a report an earlier run left there, so that after a run that
 * cannot finish (exit 2) no old verdict is read as this one's. Throws ReportPathError for the first
 * that cannot be written, or for one path given twice, before anything is removed.
 */
export function claimReportPaths(paths: ReadonlyArray<readonly [option: string, file: string | undefined]>): void {
  const seen = new Map<string, string>();
  for (const [option, file] of paths) {
    if (file === undefined) continue;
    if (file === '') throw new ReportPathError(`${option} needs a file name`);
    const other = seen.get(file);
    if (other) throw new ReportPathError(`${other} and ${option} name the same file ${file}: give each report its own`);
    seen.set(file, option);
  }
  for (const [file, option] of seen) {
    try {
      probeWritable(file);
    } catch (error) {
      throw new ReportPathError(`cannot write the report ${file} (${option}): ${reason(error)}`);
    }
  }
  for (const file of seen.keys()) {
    try {
      rmSync(file, { force: true });
    } catch (error) {
      throw new ReportPathError(`cannot replace the report ${file}: ${reason(error)}`);
    }
  }
}

/** Writes a report, creating its folders. Throws ReportPathError (one sentence) when it cannot. */
export function writeReport(file: string, text: string): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  } catch (error) {
    throw new ReportPathError(`cannot write the report ${file}: ${reason(error)}`);
  }
}
