import { spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import type { WriteStream } from 'node:tty';
import { stripVTControlCharacters } from 'node:util';

/**
 * Colour is for a terminal that wants it: standard output is a TTY, and neither `NO_COLOR`,
 * `NODE_DISABLE_COLORS` nor `TERM=dumb` says otherwise (Node's own rules, `tty.WriteStream#hasColors`).
 * A pipe or a file never gets escape codes.
 */
export function wantsColour(stream: NodeJS.WriteStream = process.stdout): boolean {
  return stream.isTTY === true && (stream as WriteStream).hasColors();
}

/** Set in the child of `rerunWithoutColour`, which then runs the command itself. */
const CHILD_MARK = 'STORE_LISTING_KIT_PLAIN_OUTPUT_CHILD';

/**
 * Runs this same command line again in a child process and passes its output on without ANSI escape
 * codes; resolves to the child's exit code. For output the kit does not write itself: Pact's verifier
 * (its native core) prints its report in colour whatever the terminal, with no switch that Pact's
 * JavaScript API passes on. Resolves `undefined` in the child, which is to do the work.
 */
export async function rerunWithoutColour(): Promise<number | undefined> {
  if (process.env[CHILD_MARK]) return undefined;
  const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    env: { ...process.env, [CHILD_MARK]: '1' },
    stdio: ['inherit', 'pipe', 'pipe'],
  });
  // The child ends with this process (e.g. when the reader of its output leaves: see program.ts).
  const stop = () => child.kill();
  process.on('exit', stop);
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.on('SIGINT', forward).on('SIGTERM', forward);
  const done = Promise.all([withoutEscapes(child.stdout, process.stdout), withoutEscapes(child.stderr, process.stderr)]);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('close', (c, s) => resolve([c, s])));
  await done;
  process.off('exit', stop).off('SIGINT', forward).off('SIGTERM', forward);
  if (signal) {
    // Stopped by a signal: this process ends the same way, as it would have without the child.
    process.kill(process.pid, signal);
  }
  return code ?? 2;
}

/** Copies text from `from` to `to` line by line (an escape code never spans a line), escape codes removed. */
function withoutEscapes(from: Readable, to: Writable): Promise<void> {
  let rest = '';
  from.setEncoding('utf8');
  from.on('data', (chunk: string) => {
    const text = rest + chunk;
    const cut = text.lastIndexOf('\n') + 1;
    rest = text.slice(cut);
    if (cut > 0) to.write(stripVTControlCharacters(text.slice(0, cut)));
  });
  return new Promise((resolve) =>
    from.on('end', () => {
      if (rest) to.write(stripVTControlCharacters(rest));
      resolve();
    }),
  );
}
