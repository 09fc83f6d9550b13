/**
 * A bounded journal of recent requests for the admin API (`GET /__admin/journal`) and its
 * dashboard: for each, what was asked (method, URL, headers, body) and what was answered (status,
 * headers, the first bytes of the body, a listing's page arithmetic), when, how long it took and
 * by whom (journal-entry.ts). A ring buffer: recording is O(1), keeps references to what the
 * server made anyway, and memory stays bounded however long the server runs (see
 * `journalMemoryBound`).
 */
import { customerOfEntry, entryView, keptCheck, violationsFound, MAX_JOURNAL_ANSWER_HEAD, MAX_JOURNAL_HEAD, MAX_JOURNAL_URL, pathOf, type JournalEntry, type RecordedRequest, type Secrets } from './journal-entry.ts';

export { journalUrl, MAX_JOURNAL_URL, type JournalEntry, type RecordedRequest } from './journal-entry.ts';

export const DEFAULT_JOURNAL_SIZE = 200;
export const MAX_JOURNAL_SIZE = 100_000;
/** The default cap of the answer (and request) body kept per entry, in bytes. */
export const DEFAULT_JOURNAL_BODY_BYTES = 64 * 1024;
export const MAX_JOURNAL_BODY_BYTES = 1024 * 1024;
/** The most memory a journal may hold at worst (`journalMemoryBound`): a larger size and body cap together are refused. */
export const JOURNAL_MEMORY_BUDGET = 1024 * 1024 * 1024;
/**
 * What an entry holds at worst besides its two bodies: the URL (MAX_JOURNAL_URL), the request's and the
 * answer's headers (MAX_JOURNAL_HEAD, MAX_JOURNAL_ANSWER_HEAD), the objects (about 1 KiB).
 */
export const JOURNAL_ENTRY_OVERHEAD = MAX_JOURNAL_URL + MAX_JOURNAL_HEAD + MAX_JOURNAL_ANSWER_HEAD + 1024;

/** The most memory a journal of `size` entries with bodies cut at `bodyBytes` holds (an answer and a request body per entry). */
export function journalMemoryBound(size: number, bodyBytes: number): number {
  return size * (JOURNAL_ENTRY_OVERHEAD + 2 * bodyBytes);
}

/** The body cap a journal of `size` entries gets by default: 64 KiB, less when that many entries would pass the budget. */
export function defaultJournalBodyBytes(size: number): number {
  if (size === 0) return DEFAULT_JOURNAL_BODY_BYTES;
  const fits = Math.floor((JOURNAL_MEMORY_BUDGET / size - JOURNAL_ENTRY_OVERHEAD) / 2);
  return Math.max(0, Math.min(DEFAULT_JOURNAL_BODY_BYTES, fits));
}

/** Why a journal size and body cap cannot go together (undefined when they can). */
export function journalProblem(size: number, bodyBytes: number): string | undefined {
  if (!Number.isInteger(size) || size < 0 || size > MAX_JOURNAL_SIZE) return `the journal size must be a whole number from 0 to ${MAX_JOURNAL_SIZE}, got ${size}`;
  if (!Number.isInteger(bodyBytes) || bodyBytes < 0 || bodyBytes > MAX_JOURNAL_BODY_BYTES) return `the journal body cap must be a whole number of bytes from 0 to ${MAX_JOURNAL_BODY_BYTES}, got ${bodyBytes}`;
  if (journalMemoryBound(size, bodyBytes) > JOURNAL_MEMORY_BUDGET) {
    return `a journal of ${size} entries with bodies of up to ${bodyBytes} bytes could hold ${Math.ceil(journalMemoryBound(size, bodyBytes) / 2 ** 20)} MiB, more than the ${JOURNAL_MEMORY_BUDGET / 2 ** 20} MiB allowed: keep at most ${defaultJournalBodyBytes(size)} bytes of each body (--journal-body-bytes), or fewer entries`;
  }
  return undefined;
}

/**
 * A `since` cursor: per process, `[pid, the last seq seen]`, each pid once (admin/journal-query.ts). Pairs,
 * not an object keyed by pid: the pids are the client's, and the query crosses to a cluster's workers as JSON.
 */
export type JournalCursor = ReadonlyArray<readonly [pid: number, seq: number]>;

/** Which entries to show: the last `limit` of those that pass every filter given. */
export interface JournalQuery {
  limit: number;
  /** Only entries after these, per process, as a cursor names them. */
  since?: JournalCursor;
  /** Only requests whose path (before `?`) contains this text. */
  path?: string;
  /** Only answers with this status (`404`) or of this class (`4xx`). */
  status?: string;
  /** Only requests of this customer (lib/customers.ts), by id. */
  customer?: string;
  /** Only requests the mock answered, or only those it passed to the backend. */
  by?: 'mock' | 'backend';
  /** Only answers whose check found a rule broken (the validating proxy's). */
  violations?: true;
}

/** The bytes a kept body holds. */
const keptLength = (body: RecordedRequest['requestBody']): number => (body ? (typeof body.bytes === 'string' ? Buffer.byteLength(body.bytes) : body.bytes.length) : 0);

/** Whether a recorded request passes the query's filters (`since` aside). */
function matches(entry: RecordedRequest, query: JournalQuery): boolean {
  if (query.status !== undefined) {
    const status = String(entry.status);
    if (query.status.endsWith('xx') ? status[0] !== query.status[0] || status.length !== 3 : status !== query.status) return false;
  }
  if (query.path !== undefined && !pathOf(entry.url).includes(query.path)) return false;
  if (query.customer !== undefined && customerOfEntry(entry) !== query.customer) return false;
  if (query.by !== undefined && (entry.answeredBy ?? 'mock') !== query.by) return false;
  if (query.violations && !(entry.check && violationsFound(entry.check) > 0)) return false;
  return true;
}

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
  /** The process, and the last `seq` it gave (for the cursor). */
  pid: number;
  seq: number;
  recorded: number;
  entries: StampedEntry[];
}

export interface JournalOptions {
  /** Entries held (default 200; 0: none). */
  capacity?: number;
  /** Bytes kept of each body (default: `defaultJournalBodyBytes(capacity)`; 0: none, only their lengths). */
  bodyBytes?: number;
  /**
   * Also note when each entry was recorded (CLOCK), which merging needs, and show each
   * entry's worker: only the workers of a cluster do; a single server spends nothing on it.
   */
  stamped?: boolean;
  /** Redacted wherever it shows in a header or URL (the admin token). */
  secrets?: Secrets;
}

export class Journal {
  readonly capacity: number;
  /** Bytes kept of each body (answer and request). */
  readonly bodyBytes: number;
  readonly #entries: (RecordedRequest | undefined)[];
  readonly #stamps: Float64Array | undefined;
  readonly #secrets: Secrets;
  #next = 0;
  #recorded = 0;
  #held = 0;
  /** The last entry's number; entries are numbered one after another, so the ring needs no number per slot. */
  #seq = 0;
  /** Cut copies of kept answers larger than the cap, made once per answer (the fast path sends the same bytes again). */
  readonly #cut = new WeakMap<Buffer, Buffer>();

  constructor(options: JournalOptions = {}) {
    const capacity = options.capacity ?? DEFAULT_JOURNAL_SIZE;
    const bodyBytes = options.bodyBytes ?? defaultJournalBodyBytes(capacity);
    const problem = journalProblem(capacity, bodyBytes);
    if (problem) throw new RangeError(problem);
    this.capacity = capacity;
    this.bodyBytes = bodyBytes;
    this.#entries = new Array<RecordedRequest | undefined>(capacity);
    this.#stamps = options.stamped ? new Float64Array(capacity) : undefined;
    this.#secrets = options.secrets ?? {};
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
   * The bytes of an answer to keep: the buffer itself when it fits the cap (a reference: the fast
   * path's kept answers are not copied), else a copy of its first `bodyBytes` (made once per buffer).
   */
  keptAnswer(bytes: Buffer): { bytes: Buffer; length: number } {
    if (bytes.length <= this.bodyBytes) return { bytes, length: bytes.length };
    let cut = this.#cut.get(bytes);
    if (!cut) {
      cut = Buffer.from(bytes.subarray(0, this.bodyBytes));
      this.#cut.set(bytes, cut);
    }
    return { bytes: cut, length: bytes.length };
  }

  /** Per ring slot, the buffer its copied answer bodies are written into (`copiedAnswer`): made on first use, grown when too small. */
  readonly #slabs: (Buffer | undefined)[] = [];

  /**
   * The first `bodyBytes` of an answer made for this request alone (Express's), copied into the
   * buffer of the slot that the next `record` fills: call it right before that `record`, as its
   * entry's `responseBody`. The answer's own bytes then die young, as they did before the journal
   * kept bodies; held by reference, each page outlived the collector's young generation and was
   * promoted, and a random uncached page at a million reviews paid about 5 % more CPU for it.
   * (Bytes kept anyway, as the fast path's answers are, go by reference: `keptAnswer`.)
   */
  copiedAnswer(bytes: Buffer): { bytes: Buffer; length: number } {
    const n = Math.min(bytes.length, this.bodyBytes);
    if (this.capacity === 0 || n === 0) return { bytes: bytes.subarray(0, 0), length: bytes.length };
    let slab = this.#slabs[this.#next];
    if (!slab || slab.length < n) {
      slab = Buffer.allocUnsafeSlow(Math.min(this.bodyBytes, Math.ceil(n / 4096) * 4096));
      this.#slabs[this.#next] = slab;
    }
    bytes.copy(slab, 0, 0, n);
    return { bytes: slab.subarray(0, n), length: bytes.length };
  }

  /**
   * `at`: the request's `arrival()` stamp. Entries are merged by arrival, not by when each was
   * recorded: a worker that answers at once (the fast path) and one that records as Express's answer ends
   * would otherwise swap two requests that came one after the other.
   */
  record(entry: RecordedRequest, at = this.arrival()): void {
    if (this.capacity === 0) return;
    // A checked answer's violations are kept in the request body's share of the memory bound (see keptCheck).
    if (entry.check) entry = { ...entry, check: keptCheck(entry.check, this.bodyBytes - keptLength(entry.requestBody)) };
    this.#entries[this.#next] = entry;
    if (this.#stamps) this.#stamps[this.#next] = at;
    this.#next = (this.#next + 1) % this.capacity;
    this.#recorded++;
    this.#seq++;
    if (this.#held < this.capacity) this.#held++;
  }

  /** The most recent `limit` entries (all held by default), oldest first. */
  entries(limit = this.capacity): JournalEntry[] {
    return this.snapshot({ limit }).entries.map((stamped) => stamped.entry);
  }

  /** The most recent `query.limit` entries that pass its filters, with their stamps (0 unless stamped), oldest first. */
  snapshot(query: JournalQuery): JournalSnapshot {
    const after = query.since?.find(([pid]) => pid === process.pid)?.[1] ?? 0;
    const picked: StampedEntry[] = [];
    const worker = this.#stamps ? process.pid : undefined;
    // Newest first, back to the oldest held or the cursor, until `limit` have passed.
    for (let i = 0; i < this.#held && picked.length < query.limit; i++) {
      const seq = this.#seq - i;
      if (seq <= after) break;
      const slot = (this.#next - 1 - i + 2 * this.capacity) % this.capacity;
      const entry = this.#entries[slot] as RecordedRequest;
      if (!matches(entry, query)) continue;
      picked.push({ at: this.#stamps?.[slot] ?? 0, entry: entryView(entry, seq, { secrets: this.#secrets, worker }) });
    }
    return { pid: process.pid, seq: this.#seq, recorded: this.#recorded, entries: picked.reverse() };
  }

  clear(): void {
    this.#entries.fill(undefined);
    this.#slabs.length = 0;
    this.#next = 0;
    this.#recorded = 0;
    this.#held = 0;
  }
}

/** What `GET /__admin/journal` answers, apart from the capacity. */
export interface MergedJournal {
  recorded: number;
  /** Pass it back as `since` to get only the entries recorded after these. */
  cursor: string;
  entries: JournalEntry[];
}

/** The cursor of snapshots: each process's last `seq`, as `pid:seq`, comma-separated. */
export function cursorOf(snapshots: readonly JournalSnapshot[]): string {
  return snapshots.map((snapshot) => `${snapshot.pid}:${snapshot.seq}`).join(',');
}

/** The journals of several processes as one: every entry in the order recorded, the last `limit` of them. */
export function mergeJournals(snapshots: readonly JournalSnapshot[], limit: number): MergedJournal {
  const all = snapshots.flatMap((snapshot) => snapshot.entries).sort((a, b) => a.at - b.at);
  return {
    recorded: snapshots.reduce((sum, snapshot) => sum + snapshot.recorded, 0),
    cursor: cursorOf(snapshots),
    entries: all.slice(Math.max(0, all.length - limit)).map((stamped) => stamped.entry),
  };
}
