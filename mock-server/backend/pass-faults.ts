import type { IncomingMessage, ServerResponse } from 'node:http';
import { faultBody, retryAfter } from '../../lib/fault-headers.ts';
import { QueryError } from '../../lib/query.ts';
import { EXPOSED_HEADERS } from '../helpers/cors-policy.ts';
import { invalidRequest, UNKNOWN_ERROR, type ErrorBody } from '../helpers/errors.ts';
import type { FaultInjector } from '../state/faults.ts';

/**
 * Fault and latency injection for the requests passed to a backend (`serve --backend`, `proxy`):
 * what a frontend team wants of a mock in front of a real backend, the same settings
 * (`--latency`, `--error-rate`, `PUT /__admin/faults`, the per-request headers) and the same draws
 * as the mock's own answers (state/faults.ts: one sequence over every request, in arrival order).
 *
 * - latency: the request waits its delay before it is sent to the backend (as a slow network
 *   would hold it); a client that goes meanwhile is never forwarded;
 * - an error (the error rate's draw, or `x-mock-status`): the injected error is answered **instead
 *   of** forwarding, whatever the method, so the backend never sees a write the fault refused;
 * - a bad `x-mock-delay`/`x-mock-status` (with the headers honoured): the 400 the mock answers for
 *   it too, not forwarded.
 *
 * A CORS preflight (OPTIONS with `Access-Control-Request-Method`) is never faulted, as on the mock's
 * own routes: it goes to the backend, whose CORS policy holds. An injected answer, which the backend
 * never saw, lets the page that asked read it (its `Origin` echoed, with credentials, as a backend
 * that took the request from that page does): it holds nothing but the fault's own body.
 */

/** How the overlay answers on the backend's behalf: a status, the documented JSON body, and headers besides its entity ones. */
export type OwnAnswer = (req: IncomingMessage, res: ServerResponse, status: number, body: ErrorBody, headers: string[]) => void;

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/** `forward` with the faults of `faults` in front of it (it costs one boolean check while they are off). */
export function withPassFaults(faults: FaultInjector, forward: Listener, answer: OwnAnswer): Listener {
  return (req, res) => {
    if (!faults.active || isPreflight(req)) return forward(req, res);
    faults.schedule(
      req,
      res,
      (status) => {
        if (status === null) return forward(req, res);
        const after = retryAfter(status);
        answer(req, res, status, faultBody(status), [...readableBy(req), ...(after !== undefined ? ['Retry-After', after] : [])]);
      },
      (error) => {
        const refusal = error instanceof QueryError ? { status: 400, body: invalidRequest(error.message).body } : { status: 500, body: UNKNOWN_ERROR };
        answer(req, res, refusal.status, refusal.body, readableBy(req));
      },
    );
  };
}

/** A CORS preflight: the backend's to answer, never faulted. */
function isPreflight(req: IncomingMessage): boolean {
  return req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
}

/** The CORS headers that let the page that sent the request read an answer the mock made in the backend's place. */
function readableBy(req: IncomingMessage): string[] {
  const origin = req.headers.origin;
  if (typeof origin !== 'string' || origin === '') return [];
  return ['Access-Control-Allow-Origin', origin, 'Access-Control-Allow-Credentials', 'true', 'Access-Control-Expose-Headers', EXPOSED_HEADERS.join(','), 'Vary', 'Origin'];
}
