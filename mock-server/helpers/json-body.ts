import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { sendError } from './errors.ts';

/**
 * The JSON body parser of every route that takes a body (admin API, provider states).
 * A request with a body that is not declared `application/json` is refused with a 415 in
 * the documented JSON shape: silently ignoring it (what `express.json` alone does) would
 * answer 200 and change nothing. A request without a body passes with `req.body` unset.
 */
export function jsonBody(limit: string): RequestHandler {
  const parse = express.json({ limit });
  return (req: Request, res: Response, next: NextFunction) => {
    if (hasBody(req) && !req.is('application/json')) {
      const declared = req.headers['content-type'];
      return sendError(res, 415, {
        type: 'invalid_data',
        message: `Invalid request: the body must be JSON sent with Content-Type: application/json, got ${declared ? `'${declared.slice(0, 64)}'` : 'no Content-Type'}`,
      });
    }
    parse(req, res, (error?: unknown) => next(error === undefined ? undefined : notAnObject(error)));
  };
}

/**
 * The parser is strict (objects and arrays only) and words any other JSON value as a syntax error
 * (`null` was "Unexpected token 'n', "null" is not valid JSON"): that value is valid JSON, so say
 * what is wrong with it.
 */
function notAnObject(error: unknown): unknown {
  const { type, body } = error as { type?: unknown; body?: unknown };
  if (type !== 'entity.parse.failed' || typeof body !== 'string') return error;
  try {
    const value: unknown = JSON.parse(body);
    (error as Error).message = `the body must be a JSON object, got ${value === null ? 'null' : typeof value}`;
  } catch {
    // not JSON at all: the parser's own words
  }
  return error;
}

/** As the `type-is` package decides it: a chunked body, or a Content-Length above 0. */
function hasBody(req: Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}
