import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { NotAFileError, notAFile } from './output-file.ts';

/**
 * How the kit reads a file a user names and it must read whole (`--baseline`, the pacts of
 * `verify --pact-dir`, the pact files `serve --pact-consumer` merges with): only a regular file (a
 * symbolic link to one is followed). The file is opened without waiting (`O_NONBLOCK`: a FIFO with
 * no writer would block an ordinary open for ever, and the server's event loop with it), then
 * looked at (`fstat`); anything but a regular file is refused with NotAFileError and never read.
 */

/** A file over the bound the caller gave. */
export class FileTooLargeError extends Error {
  override name = 'FileTooLargeError';
  constructor(readonly maxBytes: number) {
    super(`it is larger than ${maxBytes} bytes`);
  }
}

export { NotAFileError };

/** The few words for anything a read refuses (all but a regular file), or undefined for a regular file. */
export function notARegularFile(stat: Stats): string | undefined {
  return stat.isFile() ? undefined : (notAFile(stat) ?? 'it is a character device, not a regular file');
}

/**
 * The bytes of the regular file `file`, at most `maxBytes` of them (FileTooLargeError past it).
 * Throws NotAFileError for anything else (a directory, FIFO, socket, device), and the file system's
 * error (ENOENT...) when it cannot be opened.
 */
export function readRegularFile(file: string, maxBytes = Number.MAX_SAFE_INTEGER): Buffer {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  try {
    const stat = fstatSync(fd);
    const what = notARegularFile(stat);
    if (what) throw new NotAFileError(what, stat.isDirectory() ? 'EISDIR' : undefined);
    let buffer = Buffer.alloc(Math.min(stat.size, maxBytes) + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        // The file grew since fstat: read on, within the bound.
        if (length > maxBytes) throw new FileTooLargeError(maxBytes);
        const grown = Buffer.alloc(Math.min(buffer.length * 2, maxBytes + 1));
        buffer.copy(grown);
        buffer = grown;
      }
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
    }
    if (length > maxBytes) throw new FileTooLargeError(maxBytes);
    return buffer.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}

/** The text (UTF-8) of the regular file `file`, as readRegularFile reads it. */
export function readRegularText(file: string, maxBytes?: number): string {
  return readRegularFile(file, maxBytes).toString('utf8');
}
