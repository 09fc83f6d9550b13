/**
 * A bounded journal of recent requests (method, URL, status, duration) for the admin API.
 * A ring buffer: recording is O(1) and memory stays fixed however long the server runs.
 */

export interface JournalEntry {
  /** When the request arrived (ISO-8601). */
  time: string;
  method: string;
  /** The URL as received, cut to MAX_JOURNAL_URL characters. */
  url: string;
  status: number;
  /** From arrival to the end of the answer, in milliseconds (0.1 ms precision). */
  durationMs: number;
}

/** What is recorded per request: the arrival as epoch milliseconds, made into `time` only when read. */
export interface RecordedRequest extends Omit<JournalEntry, 'time'> {
  arrivedMs: number;
}

const asEntry = (r: RecordedRequest): JournalEntry => ({ time: new Date(r.arrivedMs).toISOString(), method: r.method, url: r.url, status: r.status, durationMs: r.durationMs });

export const DEFAULT_JOURNAL_SIZE = 200;
export const MAX_JOURNAL_SIZE = 100_000;
export const MAX_JOURNAL_URL = 512;

/** An entry with the instant it was recorded, to merge the journals of several processes. */
export interface StampedEntry {
  /** `CLOCK` when recorded: comparable between the processes of one machine. */
  at: number;
  entry: JournalEntry;
}

/** A monotonic clock shared by every process of the machine (nanoseconds; a double keeps their order). */
export const CLOCK = (): number => Number(process.hrtime.bigint());

/** What one process's journal holds: its part of a merged journal (see `mergeJournals`). */
export interface JournalSnapshot {
  recorded: number;
  entries: StampedEntry[];
}

export class Journal {
  readonly #entries: (RecordedRequest | undefined)[];
  readonly #stamps: Float64Array | undefined;
  #next = 0;
  #recorded = 0;

  /**
   * `stamped`: also note when each entry was recorded (CLOCK), which `snapshot` needs.
   * Only the workers of a cluster do: a single server spends nothing on it.
   */
  constructor(
    readonly capacity: number = DEFAULT_JOURNAL_SIZE,
    stamped = false,
  ) {
    if (!Number.isInteger(capacity) || capacity < 0 || capacity > MAX_JOURNAL_SIZE) {
      throw new RangeError(`journal size must be a whole number from 0 to ${MAX_JOURNAL_SIZE}, got ${capacity}`);
    }
    this.#entries = new Array<RecordedRequest | undefined>(capacity);
    this.#stamps = stamped ? new Float64Array(capacity) : undefined;
  }

  /** Requests recorded since start (or the last clear), including those no longer held. */
  get recorded(): number {
    return this.#recorded;
  }

  /** A stamp for a request arriving now (0 when the journal is not stamped): pass it to `record`. */
  arrival(): number {
    return this.#stamps ? CLOCK() : 0;
  }

  /**
   * `at`: the request's `arrival()` stamp. Entries are merged by arrival, not by when each was
   * recorded: a worker that answers at once (the fast path) and one that records on 'finish'
   * would otherwise swap two requests that came one after the other.
   */
  record(entry: RecordedRequest, at = this.arrival()): void {
    if (this.capacity === 0) return;
    this.#entries[this.#next] = entry;
    if (this.#stamps) this.#stamps[this.#next] = at;
    this.#next = (this.#next + 1) % this.capacity;
    this.#recorded++;
  }

  /** The most recent `limit` entries (all held by default), oldest first. */
  entries(limit = this.capacity): JournalEntry[] {
    return this.#slots(limit).map((slot) => asEntry(this.#entries[slot] as RecordedRequest));
  }

  /** The most recent `limit` entries with their stamps (0 unless stamped), oldest first, and the count recorded. */
  snapshot(limit = this.capacity): JournalSnapshot {
    return { recorded: this.#recorded, entries: this.#slots(limit).map((slot) => ({ at: this.#stamps?.[slot] ?? 0, entry: asEntry(this.#entries[slot] as RecordedRequest) })) };
  }

  /** The ring positions of the most recent `limit` entries, oldest first. */
  #slots(limit: number): number[] {
    const held = Math.min(this.#recorded, this.capacity);
    const n = Math.max(0, Math.min(limit, held));
    const out: number[] = [];
    for (let i = n; i > 0; i--) out.push((this.#next - i + this.capacity) % this.capacity);
    return out;
  }

  clear(): void {
    this.#entries.fill(undefined);
    this.#next = 0;
    this.#recorded = 0;
  }
}

/** The journals of several processes as one: every entry in the order recorded, the last `limit` of them. */
export function mergeJournals(snapshots: readonly JournalSnapshot[], limit: number): { recorded: number; entries: JournalEntry[] } {
  const all = snapshots.flatMap((snapshot) => snapshot.entries).sort((a, b) => a.at - b.at);
  return {
    recorded: snapshots.reduce((sum, snapshot) => sum + snapshot.recorded, 0),
    entries: all.slice(Math.max(0, all.length - limit)).map((stamped) => stamped.entry),
  };
}
