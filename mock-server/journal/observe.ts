import type { Request, Response } from 'express';
import { isAdminPath, PROVIDER_STATES_PATH } from '../../lib/admin-paths.ts';
import { customerOf } from '../../lib/customers.ts';
import { flatHeaders, journalUrl, keptBody, keptHead, type KeptBody } from './journal-entry.ts';
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
 */
export function observeRequests(journal: Journal, logger: Logger): RequestObserver | undefined {
  const logRequests = logger.isLevelEnabled('info');
  const journaling = journal.capacity > 0;
  if (!logRequests && !journaling) return undefined;
  return (req: Request, res: Response) => {
    const arrived = Date.now();
    const stamp = journal.arrival();
    const start = performance.now();
    const raw = req.originalUrl;
    const journaled = journaling ? journalKind(req.method, raw) : undefined;
    const tap = journaled && journal.bodyBytes > 0 ? tapBody(res, journal.bodyBytes) : undefined;
    res.once('finish', () => {
      const durationMs = Math.round((performance.now() - start) * 10) / 10;
      const url = journalUrl(raw);
      const status = res.statusCode;
      if (logRequests) logger.info({ method: req.method, url, status, durationMs }, 'request');
      if (!journaled || (journaled === 'state' && (status < 200 || status > 299))) return;
      const head = keptHead(req.rawHeaders);
      const cut = head !== req.rawHeaders;
      journal.record(
        {
          arrivedMs: arrived,
          method: req.method,
          url,
          status,
          durationMs,
          requestHeaders: head,
          headersCut: cut,
          // From the whole headers while they are here, when the kept ones may have lost them.
          customer: cut ? (customerOf(req.headers)?.id ?? null) : undefined,
          requestBody: requestBody(req, journal.bodyBytes),
          responseHeaders: flatHeaders(res.getHeaders()),
          responseBody: tap ? tap.kept(journal) : { bytes: EMPTY, length: Number(res.getHeader('content-length') ?? 0) || 0 },
          page: noted(res)?.page,
        },
        stamp,
      );
    });
  };
}

/** Starts observing one request (it is timed from here), until its answer is out. */
export type RequestObserver = (req: Request, res: Response) => void;

/**
 * What the observer notes of one answer (its body's first chunks, a listing's page facts), held in
 * `res.locals`: Express makes that object for every request anyway, so noting adds no property to
 * the response itself. A property added to every response (as wrapping its `write` and `end` did)
 * gives each one a new shape and costs every later touch of it; the random uncached page at a
 * million reviews paid about a tenth more CPU per request for it (docs/benchmarks.md).
 */
interface Note {
  page?: PageFacts | undefined;
  tap?: Tap | undefined;
}

const NOTE = Symbol('journal note');
type Locals = Record<symbol, Note | undefined>;

function noted(res: Response): Note | undefined {
  return (res.locals as Locals | undefined)?.[NOTE];
}

function noteOf(res: Response): Note | undefined {
  const locals = res.locals as Locals | undefined;
  if (!locals) return undefined;
  return (locals[NOTE] ??= {});
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
function journalKind(method: string, url: string): 'request' | 'state' | undefined {
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

/** The first chunks of one answer's body, up to the cap (references: copied only when cut). */
interface Tap {
  cap: number;
  parts: Chunk[];
  length: number;
  held: number;
}

function noteChunk(tap: Tap, chunk: unknown, encoding: unknown): void {
  if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
  const part: Chunk | undefined = typeof chunk === 'string' ? (typeof encoding === 'string' && encoding !== 'utf8' && encoding !== 'utf-8' ? Buffer.from(chunk, encoding as BufferEncoding) : chunk) : chunk instanceof Uint8Array ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength) : undefined;
  if (part === undefined) return;
  const size = typeof part === 'string' ? Buffer.byteLength(part) : part.length;
  tap.length += size;
  if (tap.held < tap.cap) {
    tap.parts.push(part);
    tap.held += size;
  }
}

/** Prototypes of Express's responses whose `write` and `end` note what a tapped answer writes. */
const tappedPrototypes = new WeakSet<object>();

/**
 * Makes `write` and `end` of the prototype of `res` (an Express app's `app.response`, which every
 * response of that app is given) note the chunks of a tapped answer: once per app, so that tapping
 * one answer only puts a Tap in its `res.locals`, and no response gets a property of its own.
 */
function tapPrototypeOf(res: Response): void {
  const proto = Object.getPrototypeOf(res) as Response | null;
  if (!proto || tappedPrototypes.has(proto)) return;
  tappedPrototypes.add(proto);
  const { write, end } = proto;
  const tapOf = (self: Response) => (self.locals as Locals | undefined)?.[NOTE]?.tap;
  proto.write = function (this: Response, chunk: unknown, ...rest: unknown[]) {
    const tap = tapOf(this);
    if (tap) noteChunk(tap, chunk, rest[0]);
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as Response['write'];
  proto.end = function (this: Response, chunk?: unknown, ...rest: unknown[]) {
    const tap = tapOf(this);
    if (tap) noteChunk(tap, chunk, rest[0]);
    return (end as (...args: unknown[]) => Response).call(this, chunk, ...rest);
  } as Response['end'];
}

/**
 * Watches what an answer writes (Express sends a body with one `res.end(buffer)`), keeping
 * references to its first chunks until the cap: the bytes are copied only when they are cut.
 */
function tapBody(res: Response, cap: number): { kept(journal: Journal): KeptBody } | undefined {
  const note = noteOf(res);
  if (!note) return undefined;
  tapPrototypeOf(res);
  const tap: Tap = { cap, parts: [], length: 0, held: 0 };
  note.tap = tap;
  return {
    kept(journal) {
      const { parts, length } = tap;
      if (parts.length === 0) return { bytes: EMPTY, length: 0 };
      if (parts.length === 1) {
        const only = parts[0] as Chunk;
        // Express's answers are made for this request alone: copied into the journal's own buffer, so that they die young.
        return typeof only === 'string' ? keptBody(only, cap) : journal.copiedAnswer(only);
      }
      const joined = Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : part)));
      return { ...journal.copiedAnswer(joined), length };
    },
  };
}
