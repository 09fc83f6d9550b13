/**
 * The per-request fault headers (`x-mock-delay: <ms>`, `x-mock-status: <4xx|5xx>`) and the
 * bodies of injected errors: the rules the HTTP mock (mock-server/state/faults.ts) and the MSW
 * handlers (msw/) both follow, so a frontend meets the same faults in either. Pure: no
 * Node built-ins, no I/O.
 */
import { QueryError } from './query.ts';

/** The longest delay a request may be held (a global range or `x-mock-delay`). */
export const MAX_DELAY_MS = 60_000;
export const DELAY_HEADER = 'x-mock-delay';
export const STATUS_HEADER = 'x-mock-status';

/** The 500 body: for an injected 5xx, and for any fault of the mock's own. */
export const UNKNOWN_ERROR_BODY = { type: 'unknown_error', message: 'An unknown error occurred.' } as const;

/** The error types an injected fault answers with (API.md, "Errors"). */
export type FaultErrorType = 'invalid_data' | 'not_found' | 'unknown_error' | 'unauthorized' | 'not_allowed' | 'conflict';

/** The documented JSON body of an injected error with this status. */
export function faultBody(status: number): { type: FaultErrorType; message: string } {
  if (status >= 500) return UNKNOWN_ERROR_BODY;
  switch (status) {
    case 401:
      return { type: 'unauthorized', message: 'Unauthorized (injected fault).' };
    case 403:
      return { type: 'not_allowed', message: 'Not allowed (injected fault).' };
    case 404:
      return { type: 'not_found', message: 'Not found (injected fault).' };
    case 409:
      return { type: 'conflict', message: 'Conflict (injected fault).' };
    case 429:
      return { type: 'not_allowed', message: 'Too many requests (injected fault).' };
    default:
      return { type: 'invalid_data', message: 'Invalid request (injected fault).' };
  }
}

/** The `Retry-After` value an injected error carries, if any (429 and 503: one second). */
export function retryAfter(status: number): string | undefined {
  return status === 429 || status === 503 ? '1' : undefined;
}

/** What a request's fault headers ask for; absent when not asked. */
export interface HeaderFault {
  delay?: number;
  status?: number;
}

type Headers = Readonly<Record<string, string | string[] | undefined>>;

/**
 * Reads `x-mock-delay` and `x-mock-status` (header names in lower case). A bad value throws a
 * QueryError, which both mocks answer as 400 `invalid_data` ("Invalid request: header ...").
 */
export function readFaultHeaders(headers: Headers): HeaderFault {
  const out: HeaderFault = {};
  const delay = headerValue(headers, DELAY_HEADER);
  if (delay !== undefined) out.delay = headerInteger(DELAY_HEADER, delay, 0, MAX_DELAY_MS);
  const status = headerValue(headers, STATUS_HEADER);
  if (status !== undefined) out.status = headerInteger(STATUS_HEADER, status, 400, 599);
  return out;
}

function headerValue(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  if (value === undefined) return undefined;
  if (Array.isArray(value)) throw new QueryError(`header '${name}' must be given at most once`);
  return value;
}

function headerInteger(name: string, raw: string, min: number, max: number): number {
  const value = /^[0-9]{1,6}$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN;
  if (!(value >= min && value <= max)) throw new QueryError(`header '${name}' must be an integer from ${min} to ${max}, got '${raw.slice(0, 64)}'`);
  return value;
}
