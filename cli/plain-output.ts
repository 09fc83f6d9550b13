import type { WriteStream } from 'node:tty';

/**
 * Colour is for a terminal that wants it: standard output is a TTY, and neither `NO_COLOR`,
 * `NODE_DISABLE_COLORS` nor `TERM=dumb` says otherwise (Node's own rules, `tty.WriteStream#hasColors`).
 * A pipe or a file never gets escape codes.
 */
export function wantsColour(stream: NodeJS.WriteStream = process.stdout): boolean {
  return stream.isTTY === true && (stream as WriteStream).hasColors();
}
