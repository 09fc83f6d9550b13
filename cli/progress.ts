/**
 * `check`'s progress: which property runs on which endpoint, its runs done, and how many properties
 * failed so far. On a terminal that takes escape codes, one line rewritten in place and erased
 * before each result line (the final report is the same as without it). Elsewhere (a pipe, a file,
 * `NO_COLOR`, `TERM=dumb`), plain `RUN` lines without escape codes, only for a property still running
 * after a while, and again every while: a CI log shows a slow target is alive, a fast run prints
 * nothing more than its results.
 */
import type { PropertyProgress, PropertyResult } from '../properties/runner.ts';

/** A plain line for a property running this long, and again after as long. */
export const PLAIN_EVERY_MS = 5_000;
/** The live line is redrawn at most this often. */
const LIVE_EVERY_MS = 80;
const CLEAR_LINE = '\r\x1b[2K';

export interface ProgressOptions {
  write(text: string): void;
  /** Rewrite one line in place (a terminal that takes escape codes), or print plain lines. */
  live: boolean;
  /** The terminal's width: the live line is cut to it (a wrapped line cannot be rewritten). */
  columns?: number;
  now?: () => number;
  plainEveryMs?: number;
}

const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));

export class ProgressPrinter {
  private failed = 0;
  private shown = false;
  private current: { key: string; since: number; lastPrinted: number; lastDrawn: number } | undefined;
  private readonly now: () => number;
  private readonly plainEveryMs: number;

  constructor(private readonly options: ProgressOptions) {
    this.now = options.now ?? Date.now;
    this.plainEveryMs = options.plainEveryMs ?? PLAIN_EVERY_MS;
  }

  /** The text of a progress line (the same columns as the result lines). */
  static text(p: PropertyProgress, failedSoFar: number): string {
    const what = `${pad(p.property, 36)} ${pad(`${p.section} ${p.path}`, 42)}${p.dataset ? ` [dataset: ${p.dataset}]` : ''}`;
    const state = p.shrinking ? 'shrinking a failing case' : `${p.runs}/${p.numRuns} runs`;
    return `RUN  ${what} ${state} · ${failedSoFar} failed so far`;
  }

  progress(p: PropertyProgress): void {
    const now = this.now();
    const key = `${p.property}|${p.endpoint}|${p.dataset ?? ''}`;
    if (this.current?.key !== key) this.current = { key, since: now, lastPrinted: now, lastDrawn: Number.NEGATIVE_INFINITY };
    const line = ProgressPrinter.text(p, this.failed);
    if (this.options.live) {
      if (now - this.current.lastDrawn < LIVE_EVERY_MS && p.runs !== 0) return;
      this.current.lastDrawn = now;
      const width = Math.max(20, (this.options.columns || 80) - 1); // a pty may say 0
      this.options.write(`${CLEAR_LINE}${line.length > width ? `${line.slice(0, width - 1)}…` : line}`);
      this.shown = true;
    } else if (now - this.current.lastPrinted >= this.plainEveryMs) {
      this.current.lastPrinted = now;
      this.options.write(`${line}\n`);
    }
  }

  /** Before any other output: the live line goes away. */
  clear(): void {
    if (this.shown) this.options.write(CLEAR_LINE);
    this.shown = false;
  }

  result(r: PropertyResult): void {
    if (r.status === 'failed') this.failed += 1;
    this.current = undefined;
  }
}
