import { resolve } from 'node:path';
import type { Request, Response } from 'express';
import { isAdminPath, PROVIDER_STATES_PATH } from '../../lib/admin-paths.ts';
import { bearerToken } from '../../lib/customers.ts';
import { PUBLISHABLE_KEY_HEADER } from '../../lib/dialects/alphabite.ts';
import type { DialectName } from '../../lib/dialects/types.ts';
import { LEFT_OUT, leftOutLines, PactBook, type PactBookReport, type PactState } from '../../lib/pact-recording.ts';
import type { DatasetHolder } from '../dataset/holder.ts';
import { ApiError } from '../helpers/errors.ts';
import { DEFAULT_PACT_DIR, writePactFiles } from './files.ts';

export { DEFAULT_PACT_DIR, writePactFiles, type PactFileSource } from './files.ts';

/**
 * `serve --pact-consumer <name>` (issue 30): the consumer's requests under provider states become
 * its pacts (lib/pact-recording.ts says how), written into `dir` on `POST /__admin/pacts` and
 * when the server stops. The recorder watches every request before it is answered: the
 * provider-state door's changes (which state is set up, at which dataset version), and the
 * answers of the listings (their bodies, bounded). One process only (no workers): the state and
 * the answers must be seen together.
 */

/** The largest answer recorded (a page of 1000 wishlists with their items stays below it). */
const MAX_RECORDED_BODY_BYTES = 8 * 1024 * 1024;

export interface PactRecorderOptions {
  consumer: string;
  /** Where the pact files go (default DEFAULT_PACT_DIR, from the working directory). */
  dir?: string;
  dialect: DialectName;
  holder: DatasetHolder;
}

export interface PactsReport extends PactBookReport {
  /** The directory the files go to (absolute). */
  dir: string;
}

export class PactRecorder {
  readonly book: PactBook;
  readonly dir: string;
  readonly #dialect: DialectName;
  readonly #holder: DatasetHolder;
  /** The state set up, and the dataset version it installed; `dirty` once a write changed the data under it. */
  #state: { state: PactState; version: number; dirty: boolean } | undefined;
  /** The files the last write wrote. */
  lastWritten: string[] = [];

  constructor(options: PactRecorderOptions) {
    this.book = new PactBook(options.consumer);
    this.dir = resolve(options.dir ?? DEFAULT_PACT_DIR);
    this.#dialect = options.dialect;
    this.#holder = options.holder;
  }

  /** Watches one request until its answer is out (front/app.ts calls it for every request). */
  observe(req: Request, res: Response): void {
    const method = req.method;
    if (method === 'OPTIONS') return;
    const url = req.originalUrl;
    if (isAdminPath(req.path)) {
      if (req.path === PROVIDER_STATES_PATH && (method === 'POST' || method === 'DELETE')) res.once('finish', () => this.#stateChanged(req, res));
      return;
    }
    const listing = method === 'GET';
    const kept = listing ? tapBody(res, MAX_RECORDED_BODY_BYTES) : undefined;
    const headers = { publishableKey: Boolean(req.headers[PUBLISHABLE_KEY_HEADER]), bearer: bearerToken(req.headers.authorization) !== undefined };
    res.once('finish', () => {
      const status = res.statusCode;
      if (!listing) {
        // A write changes what the state set up: what the listings answer next is not the state's.
        if (method !== 'HEAD' && this.#state && status < 400) this.#state.dirty = true;
        this.book.leaveOut(method === 'HEAD' ? LEFT_OUT.notListing : LEFT_OUT.write, method, url);
        return;
      }
      const under = this.#state;
      if (!under) return this.book.leaveOut(LEFT_OUT.noState, method, url);
      if (under.dirty || under.version !== this.#holder.version || !this.#holder.inProviderState) return this.book.leaveOut(LEFT_OUT.changed, method, url);
      this.book.record({ dialect: this.#dialect, state: under.state, method, url, headers, status, body: parsedJson(kept?.()) });
    });
  }

  #stateChanged(req: Request, res: Response): void {
    if (res.statusCode < 200 || res.statusCode > 299) return;
    const body = req.body as { state?: unknown; params?: unknown; action?: unknown } | undefined;
    if (req.method === 'DELETE' || body?.action === 'teardown' || typeof body?.state !== 'string') {
      this.#state = undefined;
      return;
    }
    const params = typeof body.params === 'object' && body.params !== null && !Array.isArray(body.params) ? (body.params as Record<string, unknown>) : {};
    this.#state = { state: { name: body.state, params }, version: this.#holder.version, dirty: false };
  }

  report(): PactsReport {
    return { ...this.book.report(), dir: this.dir };
  }

  /** Lines for the banner at stop (and the log): where the pacts went, what was left out and why. */
  summaryLines(written: readonly string[]): string[] {
    const report = this.report();
    const n = report.interactions['product-reviews'] + report.interactions.wishlist;
    const head = written.length
      ? `pacts of '${report.consumer}': ${n} ${n === 1 ? 'interaction' : 'interactions'} in ${written.join(', ')}`
      : `pacts of '${report.consumer}': no interaction recorded (no request was made to a listing under a provider state), no file written`;
    return [head, ...leftOutLines(report)];
  }

  /**
   * Writes the pact files (merged with those in the directory): writePactFiles. Throws an ApiError
   * (409) when a file there cannot be merged with or the directory cannot be written.
   */
  write(): string[] {
    try {
      this.lastWritten = writePactFiles(this.book, this.dir);
    } catch (error) {
      throw new ApiError(409, 'conflict', (error as Error).message);
    }
    return this.lastWritten;
  }
}

function parsedJson(bytes: Buffer | undefined): unknown {
  if (bytes === undefined || bytes.length === 0) return undefined;
  try {
    return JSON.parse(bytes.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

type Chunk = string | Uint8Array | undefined | null;

/** Keeps a copy of what an answer sends, up to `cap` bytes (undefined past it). */
function tapBody(res: Response, cap: number): () => Buffer | undefined {
  const chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  const keep = (chunk: unknown, encoding: unknown) => {
    if (over || chunk === undefined || chunk === null || typeof chunk === 'function') return;
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8') : Buffer.from(chunk as Uint8Array);
    size += bytes.length;
    if (size > cap) {
      over = true;
      chunks.length = 0;
    } else chunks.push(bytes);
  };
  const write = res.write.bind(res) as (chunk: Chunk, ...rest: unknown[]) => boolean;
  const end = res.end.bind(res) as (chunk?: Chunk, ...rest: unknown[]) => Response;
  (res as { write: unknown }).write = (chunk: Chunk, ...rest: unknown[]) => {
    keep(chunk, rest[0]);
    return write(chunk, ...rest);
  };
  (res as { end: unknown }).end = (chunk?: Chunk, ...rest: unknown[]) => {
    keep(chunk, rest[0]);
    return end(chunk, ...rest);
  };
  return () => (over ? undefined : Buffer.concat(chunks));
}
