import { STATUS_CODES, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { ErrorBody } from '../helpers/errors.ts';
import { routeNotFound } from '../helpers/errors.ts';

/**
 * What a hostile or broken client meets before Express: every refusal is a documented
 * JSON 4xx, never Node's bare status line, an HTML page or a dropped connection.
 */

/** The longest request target accepted (longer: 414). Node refuses request line + headers over MAX_HEADER_BYTES with 431. */
export const MAX_URL_LENGTH = 8 * 1024;
/** Node's maxHeaderSize for the server: request line plus headers. */
export const MAX_HEADER_BYTES = 16 * 1024;
/** A client has this long to send a whole request (a GET has no body), then gets 408. */
export const REQUEST_TIMEOUT_MS = 30_000;
export const HEADERS_TIMEOUT_MS = 20_000;

function rawJsonResponse(status: number, body: ErrorBody): string {
  const text = JSON.stringify(body);
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(text)}`,
    'Connection: close',
    '',
    text,
  ].join('\r\n');
}

/** Node's parser refused the request (bad bytes, oversized head, timeout): answer JSON on the socket and close it. */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  let status = 400;
  let message = 'Invalid request: the request is not well-formed HTTP/1.1';
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    status = 431;
    message = `Invalid request: the request line and headers exceed ${MAX_HEADER_BYTES} bytes`;
  } else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    status = 408;
    message = `Invalid request: the request was not received within ${REQUEST_TIMEOUT_MS / 1000} s`;
  } else if (error.code === 'HPE_INVALID_METHOD') {
    message = 'Invalid request: unknown HTTP method; the API answers GET only';
  }
  const answer = rawJsonResponse(status, { type: 'invalid_data', message });
  // A bad request pipelined behind a good one: answer it once the good one's answer is out.
  const pending = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (pending && !pending.writableFinished) pending.once('finish', () => socket.end(answer));
  else socket.end(answer);
}

function sendJson(res: ServerResponse, status: number, body: ErrorBody): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

/**
 * Checks Express never sees: an HTTP/1.1 request without Host (Node's own answer would be
 * an empty 400; the server is created with requireHostHeader off so that this answers
 * instead) and a request target longer than MAX_URL_LENGTH.
 */
export function guardRequests(app: RequestListener): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    if ((req.url as string).length > MAX_URL_LENGTH) return refuseRequest(res, 414, `Invalid request: the URL is longer than ${MAX_URL_LENGTH} characters`);
    if (req.headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor === 1) {
      return refuseRequest(res, 400, 'Invalid request: an HTTP/1.1 request must have a Host header');
    }
    app(req, res);
  };
}

/** A request refused before Express: `invalid_data` with `message`, and the connection closed (its body, if any, is not read). */
export function refuseRequest(res: ServerResponse, status: number, message: string): void {
  res.setHeader('Connection', 'close');
  sendJson(res, status, { type: 'invalid_data', message });
}

/** Installs the JSON answers for what Node handles outside the request listener. */
export function installServerGuards(server: Server): void {
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  server.on('clientError', answerClientError);
  // `Expect: <anything but 100-continue>`: Node would answer an empty 417.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    res.setHeader('Connection', 'close');
    sendJson(res, 417, { type: 'invalid_data', message: `Invalid request: unsupported Expect header ${JSON.stringify(String(req.headers.expect).slice(0, 64))}` });
  });
  // CONNECT: without a listener Node drops the connection without an answer.
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    socket.end(rawJsonResponse(404, { type: 'not_found', message: 'No route for CONNECT: the API answers GET only' }));
  });
}

/**
 * CORS preflights (OPTIONS with Access-Control-Request-Method) go to the CORS handler; a bare
 * OPTIONS is a method the API does not have (404 JSON), where Express would answer text/plain.
 */
export function preflightOnly(cors: RequestHandler): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] === undefined) return routeNotFound(req, res, next);
    return cors(req, res, next);
  };
}
