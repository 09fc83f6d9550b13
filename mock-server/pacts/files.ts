import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { OWN_PACT_DIR, PactFileError } from '../../lib/pact-file.ts';

/** The default directory of `--pact-dir`: the one `verify --consumer` reads by default too. */
export const DEFAULT_PACT_DIR = OWN_PACT_DIR;

/** What has pact files to give: a PactBook, the MSW handlers' PactRecording. */
export interface PactFileSource {
  files(existing: (name: string) => string | undefined): Array<{ name: string; text: string }>;
}

/**
 * Writes the pact files of `source` into `dir` (made if missing), merged with the files there, each
 * through a temporary file and a rename, so that a reader never sees half a file; answers the paths
 * written. The Node helper of the MSW handlers' recording (`afterAll(() => writePactFiles(pact, './pacts'))`).
 * Throws an Error of one sentence when a file there is not a V4 pact of the pair or `dir` cannot be written.
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
      const temporary = `${path}.${process.pid}.tmp`;
      writeFileSync(temporary, file.text);
      renameSync(temporary, path);
    } catch (error) {
      throw cannotWrite(error, where);
    }
    written.push(path);
  }
  return written;
}

function cannotWrite(error: unknown, dir: string): Error {
  if (error instanceof PactFileError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  return new Error(`cannot write the pacts into ${dir}${code ? ` (${code})` : ''}: give a directory that may be written (--pact-dir)`);
}

function readIfThere(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

