import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { normaliseTarget } from '../../lib/request-target.ts';
import { ownsPath, type OverlayMode } from '../backend/ownership.ts';
import { guardRequests, refuseRequest } from './request-guards.ts';

/**
 * What the `http.Server` of a mock calls for each request, outermost first:
 * `guardRequests(overlay(withFastPath(app)))`. The request guards (414, Host) see every request;
 * with a backend, the request target is first normalised (lib/request-target.ts: the one spelling
 * the proxy library, Express and WHATWG readers all read alike) and `req.url` becomes it, or the
 * request is refused with a 400; everything after (ownership, the mock's routes, the journal, the
 * validating proxy's checker, the backend) sees that one target. The overlay then sends every
 * request that is not the mock's (backend/ownership.ts) to the backend before Express or the fast
 * path see it, so no body parser or CORS header touches a passed-through request (the overlay
 * applies the faults itself: backend/pass-faults.ts), and the mock's own answers are as without a
 * backend (for the normalised target).
 * While a backend's catalogue is still to be read (alphabite dialect, no --publishable-key), process.ts
 * puts backend/catalogue-gate.ts between the overlay and the fast path: the mock's requests wait for it.
 */
export interface FrontOverlay {
  mode: OverlayMode;
  passThrough(req: IncomingMessage, res: ServerResponse): void;
}

export function frontListener(app: RequestListener, overlay?: FrontOverlay): RequestListener {
  return guardRequests(overlay ? withOverlay(app, overlay) : app);
}

/** The target normalised (or the request refused), then the mock's requests to `mine`, every other one to the backend. */
export function withOverlay(mine: RequestListener, { mode, passThrough }: FrontOverlay): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    const reading = normaliseTarget(req.url as string, req.headers.host);
    if (!reading.ok) return refuseRequest(res, 400, `Invalid request: ${reading.reason}`);
    // Most targets are normal already: the very string comes back, and `req.url` is left as it is.
    if (reading.target !== req.url) req.url = reading.target;
    if (ownsPath(mode, reading.path)) mine(req, res);
    else passThrough(req, res);
  };
}
