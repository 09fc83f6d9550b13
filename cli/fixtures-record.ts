import { Option } from 'commander';
import { DEFAULT_DIALECT, DIALECT_NAMES, type DialectName } from '../lib/dialects/index.ts';
import { medusaVersionLine, shownRange } from '../lib/dialects/medusa-version-signs.ts';
import { MAX_RECORD_PAGE_SIZE, RECORD_DEFAULTS, RecordError, recordBackend, type RecordProgress, type RecordResult } from '../fixtures/recorder.ts';
import { writeRecording } from '../fixtures/recording-file.ts';
import { sizeText } from '../client/http.ts';
import { headerArg, integerIn, maxBodyOption, sizeIn } from './arguments.ts';
import { claimOutputFile, reason, writeOutputStream, type OutputTarget } from '../files/output-file.ts';
import { cannotRun } from './program.ts';

/**
 * `fixtures --from <base-url>`: records a running backend into a recording (fixtures/recorder.ts)
 * that `serve --dialect <the same> --fixtures <file>` serves byte for byte.
 */

export interface RecordFlags {
  from?: string;
  dialect?: DialectName;
  header?: Record<string, string>;
  pageSize?: number;
  maxRecords?: number;
  timeout?: number;
  maxBody?: number;
  maxRecording?: number;
  output?: string;
}

/**
 * The most records a walk may be allowed: the recorder holds the recording in memory until it is
 * whole, and `serve` holds it too (a few hundred bytes a record).
 */
export const MAX_RECORDS_LIMIT = 1_000_000;
/** The largest byte budget of a recording: its JSON and its records are held in memory until it is written. */
export const MAX_RECORDING_BYTES = 4 * 1024 * 1024 * 1024;

/** The options of a recording; none has a default of its own, so that using one without --from is refused. */
export function recordOptions(): Option[] {
  return [
    new Option('--from <base-url>', "record a running backend instead (the part before /store/...): every review (4.1), wishlist (4.3) and wishlist item (4.4), kept as it answered them").conflicts(['seed', 'reviews', 'products', 'wishlists', 'maxItems']),
    new Option('--dialect <name>', `with --from: the dialect the backend speaks, 'spec' or 'alphabite' (the published plugins); default ${DEFAULT_DIALECT}`).choices(DIALECT_NAMES),
    new Option('--header <name: value>', "with --from: send this header with every request (repeatable), e.g. 'x-publishable-api-key: pk_...' or 'authorization: Bearer ...'").argParser(headerArg),
    new Option('--page-size <n>', `with --from: records per page asked for (default ${RECORD_DEFAULTS.pageSize})`).argParser(integerIn(1, MAX_RECORD_PAGE_SIZE)),
    new Option('--max-records <n>', `with --from: stop after this many records in all, and say so (default ${RECORD_DEFAULTS.maxRecords})`).argParser(integerIn(1, MAX_RECORDS_LIMIT)),
    new Option('--timeout <ms>', `with --from: per-request timeout, body included (default ${RECORD_DEFAULTS.timeoutMs})`).argParser(integerIn(1, 600_000)),
    maxBodyOption('with --from: '),
    new Option('--max-recording <size>', `with --from: the most bytes of records' JSON (UTF-8, as written) the recording may hold (e.g. 1GiB; default ${sizeText(RECORD_DEFAULTS.maxRecordingBytes)}): past it the command stops, exit 2, and writes nothing`).argParser(
      sizeIn(1024, MAX_RECORDING_BYTES),
    ),
  ];
}

/** The recording options given without --from: they would be ignored, so the command refuses them. */
export function recordingOnlyFlags(flags: RecordFlags): string[] {
  const names: Array<[keyof RecordFlags, string]> = [
    ['dialect', '--dialect'],
    ['header', '--header'],
    ['pageSize', '--page-size'],
    ['maxRecords', '--max-records'],
    ['timeout', '--timeout'],
    ['maxBody', '--max-body'],
    ['maxRecording', '--max-recording'],
  ];
  return names.filter(([key]) => flags[key] !== undefined).map(([, flag]) => flag);
}

/** Records `flags.from` and writes the recording to `--output` (or standard output). */
export async function recordToFile(flags: RecordFlags & { from: string }): Promise<void> {
  // Claimed first, so that an output that cannot be written is one sentence before any request;
  // written whole once the recording is (files/output-file.ts): a walk that fails halfway leaves the
  // previous file as it was.
  let target: OutputTarget | undefined;
  if (flags.output) {
    try {
      target = claimOutputFile(flags.output);
    } catch (error) {
      return cannotRun(`cannot write ${flags.output}: ${reason(error)}`);
    }
  }
  const progress = progressLine(process.stderr);
  let result: RecordResult;
  try {
    result = await recordBackend({
      baseUrl: flags.from,
      dialect: flags.dialect ?? DEFAULT_DIALECT,
      headers: flags.header ?? {},
      ...(flags.pageSize !== undefined ? { pageSize: flags.pageSize } : {}),
      ...(flags.maxRecords !== undefined ? { maxRecords: flags.maxRecords } : {}),
      ...(flags.timeout !== undefined ? { timeoutMs: flags.timeout } : {}),
      ...(flags.maxBody !== undefined ? { maxBodyBytes: flags.maxBody } : {}),
      ...(flags.maxRecording !== undefined ? { maxRecordingBytes: flags.maxRecording } : {}),
      onProgress: progress.update,
    });
  } catch (error) {
    progress.clear();
    if (error instanceof RecordError || error instanceof RangeError) return cannotRun(`cannot record ${flags.from}: ${error.message}`);
    throw error;
  }
  progress.clear();
  if (!flags.output) {
    await writeRecording(result.recording, stdoutUntilClosed());
  } else {
    try {
      await writeOutputStream(flags.output, (out) => writeRecording(result.recording, out), target);
    } catch (error) {
      return cannotRun(`cannot write ${flags.output}: ${reason(error)}`);
    }
  }
  for (const line of summaryLines(result, flags)) process.stderr.write(`${line}\n`);
}

/**
 * Standard output, where a reader that stops early (`| head`) ends the command normally: a closed
 * pipe (EPIPE) is exit 0, not an error.
 */
export function stdoutUntilClosed(): NodeJS.WriteStream {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(0);
  });
  return process.stdout;
}

function summaryLines(result: RecordResult, flags: RecordFlags & { from: string }): string[] {
  const { recording } = result;
  const lines = [
    `recorded ${recording.reviews.length} reviews of ${recording.product_ids?.length ?? 0} products, ${recording.wishlists.length} wishlists holding ${recording.wishlist_items.length} items ` +
      `from ${recording.recorded_from} (${recording.dialect} dialect) in ${result.requests} requests${flags.output ? `: wrote ${flags.output}` : ''}`,
  ];
  if (result.truncated) lines.push(`note: stopped at ${flags.maxRecords ?? RECORD_DEFAULTS.maxRecords} records (--max-records): the recording holds part of the backend's records`);
  for (const note of result.notes) lines.push(`note: ${note}`);
  if (result.medusa) lines.push(`medusa: ${medusaVersionLine(result.medusa)}${shownRange(result.medusa) ? '; serve the recording with --dialect alphabite --medusa-version <its version>' : ''}`);
  return lines;
}

/**
 * Progress on a terminal: one line on stderr, rewritten in place at most ten times a second
 * (no colour, so NO_COLOR has nothing to remove). Not on a terminal: nothing until the summary.
 */
export function progressLine(stream: NodeJS.WriteStream): { update: (p: RecordProgress) => void; clear: () => void } {
  if (!stream.isTTY) return { update: () => {}, clear: () => {} };
  let last = 0;
  let shown = false;
  const width = () => Math.max(20, (stream.columns || 80) - 1);
  return {
    update: (p) => {
      const now = Date.now();
      if (now - last < 100) return;
      last = now;
      const text = `recording: ${p.listing}, page ${p.pages}; ${p.records} records in ${p.requests} requests`;
      stream.write(`\r\x1b[K${text.length > width() ? `${text.slice(0, width() - 3)}...` : text}`);
      shown = true;
    },
    clear: () => {
      if (shown) stream.write('\r\x1b[K');
      shown = false;
    },
  };
}
