import type { Request, Response } from 'express';
import { isAdminPath, PROVIDER_STATES_PATH } from '../../lib/admin-paths.ts';
import { customerOf } from '../../lib/customers.ts';
import { journalUrl, keptAnswerHead, keptBody, keptHead, type KeptBody } from './journal-entry.ts';
import type { Journal } from './journal.ts';
import type { PageFacts } from '../../lib/dialects/types.ts';
import type { Logger } from '../helpers/logging.ts';

/**
 * Times each request and, when it has been answered, logs one line (at `info`) and records it
 * in the journal, with its headers and body and the answer's (journal-entry.ts). Admin
 * requests are logged but not journaled, so reading the journal does not push out what it is
 * read for; Pact's provider-state changes that succeed are (`POST` and `DELETE` on
 * /__admin/provider-states), as they change what the listings answer. Answers undefined, so that
 * nothing is observed, when the journal is off and the level excludes `info`.
 *
 * Per request this makes one object (a Note in `res.locals`) and nothing else until the answer
 * ends: no closure and no 'finish' listener. The answer is recorded by the `end` of the app's
 * response prototype (patched once per app, as the body tap is: `watchPrototypeOf`), right after
 * Node has taken the answer's last bytes. A closure and a once-listener per request were about a
 * tenth of the random uncached page's CPU at a million reviews (issue 27, docs/benchmarks.md).
 */
export function observeRequests(journal: Journal, logger: Logger): RequestObserver | undefined {
  const logRequests = logger.isLevelEnabled('info');
  const journaling = journal.capacity > 0;
  if (!logRequests && !journaling) return undefined;
  const observer: Observer = { journal, logger, logRequests };
  const cap = journal.bodyBytes;
  return (req: Request, res: Response) => {
    const note = noteOf(res);
    // Express gives every response its `locals`: without them (not an Express response) nothing is observed.
    if (!note) return;
    watchPrototypeOf(res);
    note.observer = observer;
    note.arrived = Date.now();
    note.stamp = journal.arrival();
    note.started = performance.now();
    const kind = journaling ? journalKind(req.method, req.originalUrl) : undefined;
    note.kind = kind;
    if (kind !== undefined && cap > 0) note.cap = cap;
  };
}

/** Starts observing one request (it is timed from here), until its answer is out. */
export type RequestObserver = (req: Request, res: Response) => void;

/** What the observer of one app records with (one per app, shared by its requests' notes). */
interface Observer {
  journal: Journal;
  logger: Logger;
  logRequests: boolean;
}

/** Logs and records one answer that has just ended (from the prototype's `end`). */
function answered(observer: Observer, res: Response, note: Note): void {
  const req = res.req;
  const { journal } = observer;
  const durationMs = Math.round((performance.now() - note.started) * 10) / 10;
  const url = journalUrl(req.originalUrl);
  const status = res.statusCode;
  if (observer.logRequests) observer.logger.info({ method: req.method, url, status, durationMs }, 'request');
  const kind = note.kind;
  if (kind === undefined || (kind === 'state' && (status < 200 || status > 299))) return;
  const head = keptHead(req.rawHeaders);
  const cut = head !== req.rawHeaders;
  journal.record(
    {
      arrivedMs: note.arrived,
      method: req.method,
      url,
      status,
      durationMs,
      requestHeaders: head,
      headersCut: cut,
      // From the whole headers while they are here, when the kept ones may have lost them.
      customer: cut ? (customerOf(req.headers)?.id ?? null) : undefined,
      requestBody: requestBody(req, journal.bodyBytes),
      responseHeaders: keptAnswerHead(res.getHeaders()),
      responseBody: note.cap > 0 ? tapped(note, journal) : { bytes: EMPTY, length: Number(res.getHeader('content-length') ?? 0) || 0 },
      page: note.page,
    },
    note.stamp,
  );
}

/**
 * What the observer notes of one request (when it arrived, its journal kind, its body's first
 * chunks, a listing's page facts): one object per request, held in `res.locals`. Express makes that
 * object for every request anyway, so noting adds no property to the response itself. A property
 * added to every response (as wrapping its `write` and `end` did) gives each one a new shape and
 * costs every later touch of it; the random uncached page at a million reviews paid about a tenth
 * more CPU per request for it (docs/benchmarks.md). A class, so that every note has one shape.
 */
class Note {
  page: PageFacts | undefined = undefined;
  /** Set while the answer is observed (until its `end`). */
  observer: Observer | undefined = undefined;
  arrived = 0;
  stamp = 0;
  started = 0;
  kind: JournalKind | undefined = undefined;
  /** Bytes of the body to keep (0: the body is not tapped). */
  cap = 0;
  /** The first chunk the answer wrote (Express writes a body with one `res.end(buffer)`), and any after it while under the cap. */
  first: Chunk | undefined = undefined;
  more: Chunk[] | undefined = undefined;
  /** The body's bytes in all, and those of the chunks held. */
  length = 0;
  held = 0;
}

const NOTE = Symbol('journal note');
type Locals = Record<symbol, Note | undefined>;

function noteOf(res: Response): Note | undefined {
  const locals = res.locals as Locals | undefined;
  if (!locals) return undefined;
  return (locals[NOTE] ??= new Note());
}

/** Tells the observer what a listing answer's page numbers were made from (listings/answers.ts). */
export function notePage(res: Response, page: PageFacts | undefined): void {
  if (page) {
    const note = noteOf(res);
    if (note) note.page = page;
  }
}

const EMPTY = Buffer.alloc(0);

/** Whether a request is journaled: every one but the admin API's, and provider-state changes (`state`: when they succeed). */
function journalKind(method: string, url: string): JournalKind | undefined {
  if (!isAdminPath(url)) return 'request';
  if ((method === 'POST' || method === 'DELETE') && url.split('?', 1)[0]!.toLowerCase() === PROVIDER_STATES_PATH) return 'state';
  return undefined;
}

/** A request's parsed body (only a route that takes one parses it), as text, bounded. */
function requestBody(req: Request, cap: number): KeptBody | undefined {
  const body: unknown = req.body;
  if (body === undefined || req.method === 'GET' || req.method === 'HEAD') return undefined;
  const text = typeof body === 'string' ? body : Buffer.isBuffer(body) ? body : JSON.stringify(body);
  if (text === undefined) return undefined;
  return cap > 0 ? keptBody(text, cap) : { bytes: EMPTY, length: Buffer.byteLength(text) };
}

type Chunk = Buffer | string;

type JournalKind = 'request' | 'state';

/** Notes one chunk of a tapped answer: a reference, while the chunks held are under the cap. */
function noteChunk(note: Note, chunk: unknown, encoding: unknown): void {
  if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
  const part: Chunk | undefined = typeof chunk === 'string' ? (typeof encoding === 'string' && encoding !== 'utf8' && encoding !== 'utf-8' ? Buffer.from(chunk, encoding as BufferEncoding) : chunk) : chunk instanceof Uint8Array ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength) : undefined;
  if (part === undefined) return;
  const size = typeof part === 'string' ? Buffer.byteLength(part) : part.length;
  note.length += size;
  if (note.held < note.cap) {
    if (note.first === undefined) note.first = part;
    else (note.more ??= []).push(part);
    note.held += size;
  }
}

/**
 * The kept part of a tapped answer's body. Express's answers are made for this request alone:
 * copied into the journal's own buffer (`copiedAnswer`), so that they die young.
 */
function tapped(note: Note, journal: Journal): KeptBody {
  const { first, more, length, cap } = note;
  if (first === undefined) return { bytes: EMPTY, length: 0 };
  if (more === undefined) return typeof first === 'string' ? keptBody(first, cap) : journal.copiedAnswer(first);
  const joined = Buffer.concat([first, ...more].map((part) => (typeof part === 'string' ? Buffer.from(part) : part)));
  return { ...journal.copiedAnswer(joined), length };
}

/** Prototypes of Express's responses whose `write` and `end` are watched; the last one patched, checked first. */
const watchedPrototypes = new WeakSet<object>();
let lastWatched: object | undefined;

/**
 * Makes `write` and `end` of the prototype of `res` (an Express app's `app.response`, which every
 * response of that app is given) note the chunks of a tapped answer, and `end` record an observed
 * one once Node has taken it: once per app, so that observing a request only fills its Note, and
 * no response gets a property or a listener of its own.
 */
function watchPrototypeOf(res: Response): void {
  const proto = Object.getPrototypeOf(res) as Response | null;
  if (!proto || proto === lastWatched) return;
  lastWatched = proto;
  if (watchedPrototypes.has(proto)) return;
  watchedPrototypes.add(proto);
  const { write, end } = proto as unknown as { write: (...args: unknown[]) => boolean; end: (...args: unknown[]) => Response };
  const noteIn = (self: Response) => (self.locals as Locals | undefined)?.[NOTE];
  proto.write = function (this: Response, chunk: unknown, encoding?: unknown, callback?: unknown) {
    const note = noteIn(this);
    if (note !== undefined && note.cap > 0) noteChunk(note, chunk, encoding);
    return write.call(this, chunk, encoding, callback);
  } as Response['write'];
  proto.end = function (this: Response, chunk?: unknown, encoding?: unknown, callback?: unknown) {
    const note = noteIn(this);
    if (note !== undefined && note.cap > 0) noteChunk(note, chunk, encoding);
    const ended = end.call(this, chunk, encoding, callback);
    const observer = note?.observer;
    if (observer !== undefined) {
      // Once: an answer ended again (Node ignores it) is not recorded twice.
      (note as Note).observer = undefined;
      answered(observer, this, note as Note);
    }
    return ended;
  } as Response['end'];
}
