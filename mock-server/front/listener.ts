import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { ownsRequest, type OverlayMode } from '../backend/ownership.ts';
import { guardRequests } from './request-guards.ts';

/**
 * What the `http.Server` of a mock calls for each request, outermost first:
 * `guardRequests(overlay(withFastPath(app)))`. The request guards (414, Host) see every request;
 * with a backend, the overlay then sends every request that is not the mock's (backend/ownership.ts)
 * to the backend before Express or the fast path see it, so no body parser or CORS header touches
 * a passed-through request (the overlay applies the faults itself: backend/pass-faults.ts), and the
 * mock's own answers are as without a backend.
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

/** The mock's requests to `mine`, every other one to the backend. */
export function withOverlay(mine: RequestListener, { mode, passThrough }: FrontOverlay): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    if (ownsRequest(mode, req.method as string, req.url as string)) mine(req, res);
    else passThrough(req, res);
  };
}
