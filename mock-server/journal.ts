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

export const DEFAULT_JOURNAL_SIZE = 200;
export const MAX_JOURNAL_SIZE = 100_000;
export const MAX_JOURNAL_URL = 512;

export class Journal {
  readonly #entries: (JournalEntry | undefined)[];
  #next = 0;
  #recorded = 0;

  constructor(readonly capacity: number = DEFAULT_JOURNAL_SIZE) {
    if (!Number.isInteger(capacity) || capacity < 0 || capacity > MAX_JOURNAL_SIZE) {
      throw new RangeError(`journal size must be a whole number from 0 to ${MAX_JOURNAL_SIZE}, got ${capacity}`);
    }
    this.#entries = new Array<JournalEntry | undefined>(capacity);
  }

  /** Requests recorded since start (or the last clear), including those no longer held. */
  get recorded(): number {
    return this.#recorded;
  }

  record(entry: JournalEntry): void {
    if (this.capacity === 0) return;
    this.#entries[this.#next] = entry;
    this.#next = (this.#next + 1) % this.capacity;
    this.#recorded++;
  }

  /** The most recent `limit` entries (all held by default), oldest first. */
  entries(limit = this.capacity): JournalEntry[] {
    const held = Math.min(this.#recorded, this.capacity);
    const n = Math.max(0, Math.min(limit, held));
    const out: JournalEntry[] = [];
    for (let i = n; i > 0; i--) out.push(this.#entries[(this.#next - i + this.capacity) % this.capacity] as JournalEntry);
    return out;
  }

  clear(): void {
    this.#entries.fill(undefined);
    this.#next = 0;
    this.#recorded = 0;
  }
}
