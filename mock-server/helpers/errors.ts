import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { UNKNOWN_ERROR_BODY } from '../../lib/fault-headers.ts';
import { QueryError } from '../../lib/query.ts';
export { quote } from '../../lib/query.ts';

/**
 * The error types of API.md, after the commerce backend's own conventions. The listings
 * answer only the first three; the others serve the admin API and injected faults.
 */
export type ErrorType = 'invalid_data' | 'not_found' | 'unknown_error' | 'unauthorized' | 'not_allowed' | 'conflict';

/** The documented error body: always JSON, never HTML, never empty. */
export interface ErrorBody {
  type: ErrorType;
  message: string;
}

/** An error that becomes a documented JSON answer. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: ErrorType,
    message: string,
  ) {
    super(message);
  }

  get body(): ErrorBody {
    return { type: this.type, message: this.message };
  }
}

/** 400 `invalid_data`: "Invalid request: <detail>". */
export function invalidRequest(detail: string): ApiError {
  return new ApiError(400, 'invalid_data', `Invalid request: ${detail}`);
}

export function notFound(message: string): ApiError {
  return new ApiError(404, 'not_found', message);
}

export const UNKNOWN_ERROR: ErrorBody = UNKNOWN_ERROR_BODY;


export function sendError(res: Response, status: number, body: ErrorBody): void {
  res.status(status).type('application/json; charset=utf-8').send(JSON.stringify(body));
}

/** Any path or method the API does not have. */
export const routeNotFound: RequestHandler = (req: Request, res: Response) => {
  const path = req.path;
  sendError(res, 404, { type: 'not_found', message: `No route for ${req.method.slice(0, 16)} ${path.length > 200 ? `${path.slice(0, 200)}...` : path}` });
};

/**
 * The last handler: an ApiError answers as itself, a QueryError (lib/query.ts) as the 400
 * `invalid_data` it describes; a client error raised by Express or
 * its parsers (a malformed %-escape in the path, say) is a 400 `invalid_data`; anything
 * else is a fault of ours and answers the documented 500 without details.
 */
export function errorHandler(onFault: (error: unknown, req: Request) => void = () => {}): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) return next(error);
    if (error instanceof ApiError) return sendError(res, error.status, error.body);
    if (error instanceof QueryError) return sendError(res, 400, invalidRequest(error.message).body);
    const status = (error as { status?: unknown; statusCode?: unknown }).status ?? (error as { statusCode?: unknown }).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      const type: ErrorType = status === 404 ? 'not_found' : 'invalid_data';
      const message = status === 404 ? 'Not found' : `Invalid request: ${(error as Error).message || 'malformed request'}`;
      return sendError(res, status, { type, message });
    }
    onFault(error, req);
    sendError(res, 500, UNKNOWN_ERROR);
  };
}

/** How a passed-through request is named in a gateway error: method and path (no query: it may hold a token), each cut short. */
function exchangeName(method: string, path: string): string {
  return `${method.slice(0, 16)} ${path.length > 200 ? `${path.slice(0, 200)}...` : path}`;
}

/**
 * The 502 of `serve --backend` when the backend could not be reached (refused, reset, unknown
 * host...), in Medusa's error shape (the keys and key order of UNKNOWN_ERROR_BODY, which
 * `@medusajs/js-sdk` reads), naming the backend and why.
 */
export function badGatewayBody(backend: string, method: string, path: string, cause: string): ErrorBody {
  const why = cause.length > 200 ? `${cause.slice(0, 200)}...` : cause;
  return { type: 'unknown_error', message: `Bad gateway: the backend ${backend} could not be reached (${why}): ${exchangeName(method, path)} is not one of the mock's routes, so it went there` };
}

/**
 * The 502 of `serve --backend` when the backend's answer began but could not be passed on (its
 * body broke off, or was framed so that it cannot be read: a wrong length, bad chunking) before
 * any byte of it reached the client.
 */
export function brokenAnswerBody(backend: string, method: string, path: string, cause: string): ErrorBody {
  const why = cause.length > 200 ? `${cause.slice(0, 200)}...` : cause;
  return { type: 'unknown_error', message: `Bad gateway: the backend ${backend} sent an answer that could not be passed on (${why}): ${exchangeName(method, path)} is not one of the mock's routes, so it went there` };
}

/** The 504 of `serve --backend`: the backend took the request but sent no answer head within `timeoutMs`. */
export function gatewayTimeoutBody(backend: string, method: string, path: string, timeoutMs: number): ErrorBody {
  return { type: 'unknown_error', message: `Gateway timeout: the backend ${backend} sent no answer within ${timeoutMs} ms: ${exchangeName(method, path)} is not one of the mock's routes, so it went there` };
}

/**
 * The 502 of `serve --backend` (alphabite) when the backend's catalogue could not be read for a
 * request to the mock's routes (mock-server/backend/catalogue-gate.ts): `reason` names the backend.
 */
export function catalogueUnreadBody(reason: string): ErrorBody {
  const why = reason.length > 400 ? `${reason.slice(0, 400)}...` : reason;
  return { type: 'unknown_error', message: `Bad gateway: ${why.replace(/\.$/, '')}; the mock's reviews and wishlists are generated over that catalogue, and the next request reads it again` };
}
