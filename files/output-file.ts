import { closeSync, constants, createWriteStream, fchmodSync, fstatSync, lstatSync, mkdirSync, openSync, readlinkSync, renameSync, rmSync, statSync, writeSync, type Stats } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';

/**
 * How the kit writes a file a user names (`--json`, `--junit`, `--pact-log`, `--write-baseline`,
 * `fixtures --output`, the pact files of `serve --pact-consumer` and `writePactFiles`): one rule for
 * every one of them (docs/cli.md, "Output files").
 *
 * - A regular file, or a path where nothing is, is replaced whole: the text goes into a temporary
 *   file beside it (`.<name>.<pid>-<n>.tmp`), which is renamed over it once complete, so that a
 *   reader never meets half a file and a run that fails leaves the earlier file as it was. The
 *   missing folders on the way are made. The temporary file is removed when the write fails, and on
 *   SIGINT, SIGTERM and exit.
 * - A symbolic link is followed: its final target is replaced (made if the link dangles), and the
 *   link stays a link.
 * - A character device (`/dev/null`, a terminal) is written through and left in place: it is never
 *   replaced nor removed.
 * - Anything else (a directory, a FIFO, a socket, a block device) is refused before anything is
 *   opened: `claimOutputFile` says so before the run starts.
 */

/** A path that is not a file the kit may write: `message` says what it is, in a few words. */
export class NotAFileError extends Error {
  override name = 'NotAFileError';
  /** EISDIR for a directory, as the file system says it; none for the rest. */
  readonly code: string | undefined;
  constructor(message: string, code?: string) {
    super(message);
    this.code = code;
  }
}

/** NotAFileError for `stat`, or undefined for a regular file or a character device. */
function refusal(stat: Stats): NotAFileError | undefined {
  const what = notAFile(stat);
  return what === undefined ? undefined : new NotAFileError(what, stat.isDirectory() ? 'EISDIR' : undefined);
}

/** What a path names, as the kit writes it. */
export type OutputTarget =
  /** A regular file (`stat` given) or nothing (`stat` undefined) at `path`, the final target of any link. */
  | { kind: 'file'; path: string; stat?: Stats }
  /** A character device, written through at the path given. */
  | { kind: 'device'; path: string };

/** The few words for a file system entry that is neither a regular file nor a character device. */
export function notAFile(stat: Stats): string | undefined {
  if (stat.isFile() || stat.isCharacterDevice()) return undefined;
  if (stat.isDirectory()) return 'it is a directory';
  if (stat.isFIFO()) return 'it is a FIFO (named pipe), not a regular file';
  if (stat.isSocket()) return 'it is a socket, not a regular file';
  if (stat.isBlockDevice()) return 'it is a block device, not a regular file';
  return 'it is not a regular file';
}

/** Why `error` stopped a read or a write, in a few words and its code (`permission denied (EACCES)`...). */
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
    ELOOP: 'too many symbolic links (a loop?)',
    ENAMETOOLONG: 'the name is too long',
    // opening a socket
    ENXIO: 'it is a socket, not a regular file',
  };
  if (!e.code) return e.message;
  return plain[e.code] ? `${plain[e.code]} (${e.code})` : e.code;
}

const MAX_LINKS = 40;

/**
 * What `file` names, following symbolic links (without opening anything). Throws NotAFileError for
 * a directory, FIFO, socket or block device, and the file system's error when the path cannot be
 * looked at.
 */
export function outputTarget(file: string): OutputTarget {
  let followed: Stats | undefined;
  try {
    followed = statSync(file);
  } catch (error) {
    // Nothing there, or a link to nothing: found below. Anything else is the answer.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (followed) {
    const refused = refusal(followed);
    if (refused) throw refused;
    if (followed.isCharacterDevice()) return { kind: 'device', path: file };
  }
  // A regular file or nothing: the final target of the links, where the file is replaced or made.
  let path = resolve(file);
  for (let hops = 0; ; hops++) {
    let stat: Stats;
    try {
      stat = lstatSync(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'file', path };
      throw error;
    }
    if (!stat.isSymbolicLink()) {
      const refused = refusal(stat);
      if (refused) throw refused;
      return stat.isFile() ? { kind: 'file', path, stat } : { kind: 'device', path };
    }
    if (hops >= MAX_LINKS) throw Object.assign(new Error('too many symbolic links'), { code: 'ELOOP' });
    path = resolve(dirname(path), readlinkSync(path));
  }
}

/** The temporary files being written now, removed if the process ends before they are renamed. */
const temporaries = new Set<string>();
let counter = 0;
let watching = false;

function removeTemporaries(): void {
  for (const path of temporaries) rmSync(path, { force: true });
  temporaries.clear();
}

/**
 * Removes the temporary files on exit and on SIGINT/SIGTERM. On a signal that nothing else in the
 * process listens to, it then ends the process as the signal would have. Installed once, with the
 * first temporary file, and kept: a signal that arrived while it listened is never lost.
 */
function watchForTheEnd(): void {
  if (watching) return;
  watching = true;
  process.on('exit', removeTemporaries);
  const onSignal = (signal: NodeJS.Signals) => {
    removeTemporaries();
    if (process.listenerCount(signal) > 1) return; // the command stops itself (and exits)
    process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
    process.kill(process.pid, signal);
  };
  process.on('SIGINT', onSignal).on('SIGTERM', onSignal);
}

/**
 * A file being written: `fd` to write to, then `commit()` (it is in place; nothing, when a SIGINT or
 * SIGTERM removed the temporary file meanwhile) or `discard()` (nothing changed).
 */
export interface OutputFile {
  readonly fd: number;
  /** Where the text lands: the target of the links, or the device. */
  readonly path: string;
  commit(): void;
  discard(): void;
}

/**
 * Makes the folders of `file` and checks, without touching what is there, that it can be written
 * as `openOutputFile` writes it: a temporary file is made beside the target and removed again.
 * With `removeOld`, a regular file there is removed (an earlier run's report must not be read as
 * this run's); a device never is. Throws NotAFileError or the file system's error.
 */
export function claimOutputFile(file: string, options: { removeOld?: boolean } = {}): OutputTarget {
  const target = outputTarget(file);
  if (target.kind === 'device') {
    // Opened without waiting (a device that would block is as good as writable here).
    closeSync(openSync(target.path, constants.O_WRONLY | constants.O_NOCTTY | constants.O_NONBLOCK));
    return target;
  }
  const output = openOutputFile(file, target);
  output.discard();
  if (options.removeOld && target.stat) rmSync(target.path, { force: true });
  return target;
}

/**
 * Opens `file` for writing by the rule above: a temporary file beside a regular target (renamed
 * over it by `commit`), or the device itself. Throws NotAFileError or the file system's error.
 */
export function openOutputFile(file: string, target: OutputTarget = outputTarget(file)): OutputFile {
  if (target.kind === 'device') {
    const fd = openSync(target.path, constants.O_WRONLY | constants.O_NOCTTY);
    const stat = fstatSync(fd);
    if (!stat.isCharacterDevice()) {
      closeSync(fd);
      throw refusal(stat) ?? new NotAFileError('it became a regular file while it was opened');
    }
    let open = true;
    const close = () => {
      if (open) closeSync(fd);
      open = false;
    };
    return { fd, path: target.path, commit: close, discard: close };
  }
  mkdirSync(dirname(target.path), { recursive: true });
  watchForTheEnd();
  const temporary = join(dirname(target.path), `.${basename(target.path)}.${process.pid}-${++counter}.tmp`);
  temporaries.add(temporary);
  let fd: number;
  try {
    fd = openSync(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o666);
    // A file replaced keeps its permissions.
    if (target.stat) fchmodSync(fd, target.stat.mode & 0o7777);
  } catch (error) {
    temporaries.delete(temporary);
    rmSync(temporary, { force: true });
    throw error;
  }
  let open = true;
  const close = () => {
    if (open) closeSync(fd);
    open = false;
  };
  return {
    fd,
    path: target.path,
    commit: () => {
      try {
        close();
        // Removed by a signal that stops the process: the write was abandoned, nothing is put in place.
        if (!temporaries.has(temporary)) return;
        renameSync(temporary, target.path);
      } finally {
        temporaries.delete(temporary);
        rmSync(temporary, { force: true });
      }
    },
    discard: () => {
      try {
        close();
      } finally {
        temporaries.delete(temporary);
        rmSync(temporary, { force: true });
      }
    },
  };
}

function writeAll(fd: number, bytes: Buffer): void {
  for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
}

/** Writes `text` into `file` by the rule above (whole, or not at all). Throws NotAFileError or the file system's error. */
export function writeOutputFile(file: string, text: string | Buffer): void {
  const output = openOutputFile(file);
  try {
    writeAll(output.fd, typeof text === 'string' ? Buffer.from(text, 'utf8') : text);
  } catch (error) {
    output.discard();
    throw error;
  }
  output.commit();
}

/**
 * A stream into `file`, by the rule above: `done()` once it has ended puts the file in place;
 * `abandon()` leaves nothing (it waits for the writes in flight before the file is closed).
 */
export function outputStream(file: string, target?: OutputTarget): { stream: Writable; done: () => Promise<void>; abandon: () => Promise<void> } {
  const output = openOutputFile(file, target);
  // The file is closed by `output`, once the stream has no write in flight.
  const stream = createWriteStream('', { fd: output.fd, autoClose: false });
  const settled = () => finished(stream).catch(() => undefined);
  return {
    stream,
    done: async () => {
      if (!stream.writableEnded) stream.end();
      try {
        await finished(stream);
      } catch (error) {
        await settled();
        output.discard();
        throw error;
      }
      output.commit();
    },
    abandon: async () => {
      stream.destroy();
      await settled();
      output.discard();
    },
  };
}

/** Writes into `file` what `fill` writes into the stream it is given, by the rule above: whole, or not at all. */
export async function writeOutputStream(file: string, fill: (out: Writable) => Promise<void>, target?: OutputTarget): Promise<void> {
  const { stream, done, abandon } = outputStream(file, target);
  try {
    await fill(stream);
  } catch (error) {
    await abandon();
    throw error;
  }
  await done();
}
