import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readRegularText } from '../../files/input-file.ts';
import { NotAFileError, reason, writeOutputFile } from '../../files/output-file.ts';
import { OWN_PACT_DIR, PactFileError } from '../../lib/pact-file.ts';

/** The default directory of `--pact-dir`: the one `verify --consumer` reads by default too. */
export const DEFAULT_PACT_DIR = OWN_PACT_DIR;

/** What has pact files to give: a PactBook, the MSW handlers' PactRecording. */
export interface PactFileSource {
  files(existing: (name: string) => string | undefined): Array<{ name: string; text: string }>;
}

/**
 * Writes the pact files of `source` into `dir` (made if missing), merged with the files there, each
 * whole (files/output-file.ts: a temporary file renamed over it, so that a reader never sees half a
 * file; a link is followed), and answers the paths written. The Node helper of the MSW handlers'
 * recording (`afterAll(() => writePactFiles(pact, './pacts'))`). Throws an Error of one sentence
 * when a file there is not a V4 pact of the pair, is not a regular file (a FIFO is never opened to
 * wait on: files/input-file.ts), or `dir` cannot be written.
 */
export function writePactFiles(source: PactFileSource, dir: string = DEFAULT_PACT_DIR): string[] {
  const where = resolve(dir);
  let files: Array<{ name: string; text: string }>;
  try {
    files = source.files((name) => readIfThere(join(where, name)));
    // No file to write (nothing recorded): no directory made either.
    if (files.length) mkdirSync(where, { recursive: true });
  } catch (error) {
    throw cannotWrite(error, where);
  }
  const written: string[] = [];
  for (const file of files) {
    const path = join(where, file.name);
    try {
      writeOutputFile(path, file.text);
    } catch (error) {
      throw cannotWrite(error, where, file.name);
    }
    written.push(path);
  }
  return written;
}

function cannotWrite(error: unknown, dir: string, name?: string): Error {
  if (error instanceof PactFileError) return error;
  if (error instanceof PactFileNotAFile) return new Error(`cannot merge with the pact file ${error.path}: ${error.message}; move it away or give another --pact-dir`);
  if (error instanceof NotAFileError) return new Error(`cannot write the pact file ${join(dir, name ?? '')}: ${error.message}; move it away or give another --pact-dir`);
  const code = (error as NodeJS.ErrnoException).code;
  return new Error(`cannot write the pacts into ${dir}${code ? ` (${code})` : ''}: give a directory that may be written (--pact-dir)`);
}

/** A file at a pact file's place that is not a regular file (a FIFO, a directory...). */
class PactFileNotAFile extends Error {
  constructor(
    readonly path: string,
    what: string,
  ) {
    super(what);
  }
}

function readIfThere(path: string): string | undefined {
  try {
    return readRegularText(path);
  } catch (error) {
    if (error instanceof NotAFileError) throw new PactFileNotAFile(path, reason(error));
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
