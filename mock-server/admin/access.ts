import { createHash, timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ADMIN_WRITE_HEADER } from '../../lib/admin-paths.ts';
import { routeNotFound, sendError } from '../helpers/errors.ts';
import type { AdminAccessOptions } from '../state/ops.ts';

export type { AdminAccessOptions };

/**
 * Who may use the admin API (everything under ADMIN_PREFIX, including the Pact
 * provider-state endpoint):
 * - with a token (`--admin-token`): whoever sends `Authorization: Bearer <token>`;
 * - without one, on a loopback host (the default 127.0.0.1): clients on this machine;
 * - without one, on any other host (0.0.0.0, a LAN address): nobody; the admin API is off.
 *
 * A browser on this machine is a loopback client too, and any page it opens could call the
 * mock. So, besides: the admin API sends no CORS headers (front/app.ts), so a page of another origin
 * can neither read an answer nor pass a preflight (the guard refuses every one); and on
 * loopback without a token,
 * - a request must name this machine in `Host` (a loopback name, `*.localhost`, or the host
 *   the server listens on; any port): a page of a rebound DNS name (DNS rebinding) is same-origin
 *   with the mock but sends its own name;
 * - a change (any method but GET and HEAD) must carry `Content-Type: application/json` or
 *   `X-Requested-By: <anything>`, two things a page cannot send cross-origin without a preflight;
 *   a simple request (a form post, a bodiless `fetch` POST, `sendBeacon`) is refused.
 * With a token neither is needed: a page cannot know the token, and `Authorization` is itself
 * a header no page sends cross-origin without a preflight. The one admin request that needs no
 * token is the dashboard's page (`GET /__admin/`, dashboard.ts), which holds no data.
 */

export type AdminAccessMode = 'token' | 'loopback' | 'off';

export function adminAccessMode(options: AdminAccessOptions): AdminAccessMode {
  if (options.token) return 'token';
  return options.host === undefined || isLoopbackHost(options.host) ? 'loopback' : 'off';
}

/** 127.0.0.0/8, ::1 (in any spelling Node reports) and `localhost`. */
export function isLoopbackHost(host: string): boolean {
  const h = host.trim().toLowerCase().replace(/^\[|\]$/g, '');
  if (h === 'localhost' || h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
  const v4 = h.startsWith('::ffff:') ? h.slice(7) : h;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/**
 * Whether a `Host` header names this machine, so that no page of a foreign DNS name sent it:
 * a loopback host (`localhost`, 127.0.0.0/8, `[::1]`), a name under `.localhost` (which browsers
 * resolve to loopback themselves), or the host the server listens on; with any port.
 */
export function isLocalHostHeader(header: string | undefined, serverHost: string | undefined): boolean {
  if (header === undefined) return false;
  const match = /^(\[[0-9a-f:.]+\]|[^\s:[\]]+)(?::\d{1,5})?$/i.exec(header);
  if (!match) return false;
  const name = (match[1] as string).toLowerCase();
  if (isLoopbackHost(name) || /^[a-z0-9-]+(?:\.[a-z0-9-]+)*\.localhost$/.test(name)) return true;
  return serverHost !== undefined && name.replace(/^\[|\]$/g, '') === serverHost.trim().toLowerCase().replace(/^\[|\]$/g, '');
}

/** Whether a change carries what no web page can send cross-origin without a preflight (see above). */
function isScriptedChange(req: Request): boolean {
  const type = req.headers['content-type'];
  if (typeof type === 'string' && type.split(';', 1)[0]?.trim().toLowerCase() === 'application/json') return true;
  const marker = req.headers[ADMIN_WRITE_HEADER.toLowerCase()];
  return typeof marker === 'string' && marker.trim() !== '';
}

/** Whether an admin request (its path relative to /__admin) asks for the dashboard's page (dashboard.ts). */
export const isDashboardRequest = (method: string, path: string): boolean => (method === 'GET' || method === 'HEAD') && path === '/';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** The guard, mounted on ADMIN_PREFIX before every admin route. */
export function adminGuard(options: AdminAccessOptions): RequestHandler {
  const mode = adminAccessMode(options);
  const expected = options.token ? digest(options.token) : undefined;
  return (req: Request, res: Response, next: NextFunction) => {
    if (mode !== 'off' && req.method === 'OPTIONS') {
      // Express would answer an OPTIONS for a known admin path itself (200, text/plain).
      if (req.headers['access-control-request-method'] === undefined) return routeNotFound(req, res, next);
      return sendError(res, 403, { type: 'not_allowed', message: 'The admin API takes no cross-origin requests from web pages (no CORS): call it from curl or a script' });
    }
    if (mode === 'token') {
      // The dashboard's page holds no data, and a browser opening it cannot send the token: its script asks for it.
      if (isDashboardRequest(req.method, req.path)) return next();
      const header = req.headers.authorization;
      const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
      if (match && timingSafeEqual(digest(match[1] as string), expected as Buffer)) return next();
      res.setHeader('WWW-Authenticate', 'Bearer realm="__admin"');
      return sendError(res, 401, { type: 'unauthorized', message: 'The admin API needs the bearer token the server was started with (--admin-token): send Authorization: Bearer <token>' });
    }
    if (mode === 'loopback' && isLoopbackHost(req.socket.remoteAddress ?? '')) {
      if (!isLocalHostHeader(req.headers.host, options.host)) {
        return sendError(res, 403, {
          type: 'not_allowed',
          message: `The admin API answers only requests addressed to this machine: the Host header must be localhost, a name under .localhost or a loopback address (any port), got ${quoteHost(req.headers.host)}`,
        });
      }
      if (req.method === 'GET' || req.method === 'HEAD' || isScriptedChange(req)) return next();
      const declared = req.headers['content-type'];
      return sendError(res, 415, {
        type: 'invalid_data',
        message: `Invalid request: an admin change must be sent with Content-Type: application/json (a JSON body; {} when there is nothing to say) or with the header ${ADMIN_WRITE_HEADER}: <anything>, which no web page can send to another origin; got ${declared ? `'${declared.slice(0, 64)}'` : 'no Content-Type'} and no ${ADMIN_WRITE_HEADER}`,
      });
    }
    sendError(res, 404, {
      type: 'not_found',
      message:
        mode === 'off'
          ? `The admin API is off: the server listens on ${options.host}, not on loopback; start it with --admin-token <token> to enable it`
          : 'The admin API answers only clients on this machine (loopback) unless the server has an --admin-token',
    });
  };
}

function quoteHost(header: string | undefined): string {
  return header === undefined ? 'none' : `'${header.slice(0, 64)}'`;
}
