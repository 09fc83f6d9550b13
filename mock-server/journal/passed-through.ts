import type { IncomingHttpHeaders } from 'node:http';
import { customerOf } from '../../lib/customers.ts';
import { decodedPath } from '../../lib/request-target.ts';
import type { AnswerCheck } from '../../lib/answer-rules.ts';
import type { Logger } from '../helpers/logging.ts';
import { journalUrl, keptHead, MAX_JOURNAL_ANSWER_HEAD, pathOf, type KeptBody } from './journal-entry.ts';
import type { Journal } from './journal.ts';

/**
 * The journal entry and log line of a request the backend answered (`serve --backend`, `proxy`:
 * backend/overlay.ts), or the mock in its place with an injected fault (backend/pass-faults.ts: then
 * as the mock's own answers are, without a backend part), made once the answer is out. Entries of
 * the mock's own answers are made elsewhere (observe.ts, front/fast-path.ts) and do not change.
 *
 * Secrets: the request's body is never kept, only its length (`/auth/customer/emailpass` bodies hold
 * passwords), nor the body of an answer under `/auth` (`{"token": ...}`); the headers that carry
 * secrets are redacted when the journal is read, as for every entry (journal-entry.ts).
 */

const EMPTY = Buffer.alloc(0);

/**
 * Whether the path is Medusa's auth API, whose answers hold tokens: their bodies are not kept. `url`
 * is the normalised target (lib/request-target.ts: front/listener.ts made it, and it is what the
 * backend got), so `//auth/...`, `/x/../auth/...` or `\auth\...` are `/auth/...` here; a percent-escaped
 * spelling (`/%61uth/...`) counts too, in case a proxy in front of the backend decodes it.
 */
export function holdsTokens(url: string): boolean {
  const path = pathOf(url);
  return isAuthPath(path.toLowerCase()) || (path.includes('%') && isAuthPath(decodedPath(path).toLowerCase()));
}

const isAuthPath = (path: string) => path === '/auth' || path.startsWith('/auth/');

/**
 * The first bytes of a streamed answer, up to a cap, and its whole length: chunks are held by
 * reference until the cap is reached (never more than the chunk that reaches it), and copied
 * into the journal's own buffer when the entry is made.
 */
export class AnswerTap {
  #parts: Buffer[] = [];
  #held = 0;
  length = 0;

  constructor(readonly cap: number) {}

  add(chunk: Buffer): void {
    this.length += chunk.length;
    if (this.#held < this.cap) {
      this.#parts.push(chunk);
      this.#held += chunk.length;
    }
  }

  /** The kept bytes, copied into the journal's buffer of the entry it makes next: call right before `record`. */
  kept(journal: Journal): KeptBody {
    const parts = this.#parts;
    this.#parts = [];
    if (parts.length === 0) return { bytes: EMPTY, length: this.length };
    const joined = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
    return { ...journal.copiedAnswer(joined), length: this.length };
  }
}

/** What is known of a passed-through exchange when its answer is out (or failed). */
export interface PassedThrough {
  arrivedMs: number;
  /** The journal's arrival stamp. */
  stamp: number;
  method: string;
  /** The request target as judged and passed on (normalised: lib/request-target.ts). */
  url: string;
  rawHeaders: string[];
  headers: IncomingHttpHeaders;
  /** The request body's length in bytes (0 when none); the body itself is never kept. */
  requestBytes: number;
  status: number;
  durationMs: number;
  /** The answer's raw headers: the backend's, or the mock's own (a 502 or 504). */
  responseHeaders: string[];
  /** The answer's body as tapped (its length only, with a cap of 0), or the mock's own. */
  responseBody?: AnswerTap | KeptBody | undefined;
  /** The backend's part; absent when the mock answered in its place (an injected fault: backend/pass-faults.ts). */
  backend: { ms: number; error?: string } | undefined;
  check?: AnswerCheck | undefined;
}

/** Logs the request's line (at `info`, when enabled) and records it in the journal (when it keeps any). */
export function notePassedThrough(journal: Journal, logger: Logger, logs: boolean, facts: PassedThrough): void {
  const url = journalUrl(facts.url);
  if (logs) {
    logger.info(
      facts.backend
        ? { method: facts.method, url, status: facts.status, durationMs: facts.durationMs, by: 'backend', backendMs: facts.backend.ms, ...(facts.backend.error !== undefined ? { backendError: facts.backend.error } : {}) }
        : { method: facts.method, url, status: facts.status, durationMs: facts.durationMs },
      'request',
    );
  }
  if (journal.capacity === 0) return;
  const head = keptHead(facts.rawHeaders);
  const cut = head !== facts.rawHeaders;
  const body = facts.responseBody;
  journal.record(
    {
      arrivedMs: facts.arrivedMs,
      method: facts.method,
      url,
      status: facts.status,
      durationMs: facts.durationMs,
      requestHeaders: head,
      headersCut: cut,
      customer: cut ? (customerOf(facts.headers)?.id ?? null) : undefined,
      ...(facts.requestBytes > 0 ? { requestBody: { bytes: EMPTY, length: facts.requestBytes } } : {}),
      responseHeaders: keptHead(facts.responseHeaders, MAX_JOURNAL_ANSWER_HEAD),
      responseBody: body instanceof AnswerTap ? body.kept(journal) : (body ?? { bytes: EMPTY, length: 0 }),
      ...(facts.backend ? { answeredBy: 'backend' as const, backend: facts.backend } : {}),
      ...(facts.check ? { check: facts.check } : {}),
    },
    facts.stamp,
  );
}
