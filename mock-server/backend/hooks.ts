import type { IncomingHttpHeaders } from 'node:http';
import type { AnswerCheck } from '../../lib/answer-rules.ts';

/**
 * What the overlay (`serve --backend`, backend/overlay.ts) tells whoever watches the answers it
 * passes through: the validating proxy (`proxy`, backend/check.ts) checks the listings' answers
 * with it. Types only, so that the proxy's checker and the overlay meet here and not in each other.
 */

/** One passed-through exchange, as its answer's head arrives from the backend. */
export interface BackendExchange {
  method: string;
  /** The request target as the backend got it (path and query): the client's, normalised by lib/request-target.ts. */
  url: string;
  requestHeaders: IncomingHttpHeaders;
  status: number;
  responseHeaders: IncomingHttpHeaders;
  /** From the request sent to the backend to its answer's head, in milliseconds. */
  backendMs: number;
}

/**
 * Receives a copy of an answer's body as it streams to the client (the client's bytes are never
 * held back for it), then `end()` once the answer is complete, which gives the verdict to put on
 * the journal entry (an `AnswerCheck`, lib/answer-rules.ts); `abort()` when the answer did not complete (the backend or the client went).
 */
export interface BodySink {
  write(chunk: Buffer): void;
  end(): Promise<AnswerCheck | undefined>;
  abort(): void;
}

/** Called for every passed-through answer at its head: a sink for its body, or undefined to watch no further. */
export type BackendAnswerHook = (exchange: BackendExchange) => BodySink | undefined;
