import { createHash, timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ADMIN_PREFIX } from '../lib/admin-paths.ts';
import { sendError } from './errors.ts';

/**
 * Who may use the admin API (everything under ADMIN_PREFIX, including the Pact
 * provider-state endpoint):
 * - with a token (`--admin-token`): whoever sends `Authorization: Bearer <token>`;
 * - without one, on a loopback host (the default 127.0.0.1): clients on this machine;
 * - without one, on any other host (0.0.0.0, a LAN address): nobody; the admin API is off.
 */


export interface AdminAccessOptions {
  /** The bearer token the admin API requires; none means loopback only. */
  token?: string | undefined;
  /** The host the server listens on; unknown (undefined) is treated as loopback. */
  host?: string | undefined;
}

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

/** Whether a request path (no query) is under the admin prefix, as Express matches it (any case). */
export function isAdminPath(path: string): boolean {
  if (path.length < ADMIN_PREFIX.length || path.slice(0, ADMIN_PREFIX.length).toLowerCase() !== ADMIN_PREFIX) return false;
  const next = path[ADMIN_PREFIX.length];
  return next === undefined || next === '/' || next === '?';
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** The guard, mounted on ADMIN_PREFIX before every admin route. */
export function adminGuard(options: AdminAccessOptions): RequestHandler {
  const mode = adminAccessMode(options);
  const expected = options.token ? digest(options.token) : undefined;
  return (req: Request, res: Response, next: NextFunction) => {
    if (mode === 'token') {
      const header = req.headers.authorization;
      const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
      if (match && timingSafeEqual(digest(match[1] as string), expected as Buffer)) return next();
      res.setHeader('WWW-Authenticate', 'Bearer realm="__admin"');
      return sendError(res, 401, { type: 'unauthorized', message: 'The admin API needs the bearer token the server was started with (--admin-token): send Authorization: Bearer <token>' });
    }
    if (mode === 'loopback' && isLoopbackHost(req.socket.remoteAddress ?? '')) return next();
    sendError(res, 404, {
      type: 'not_found',
      message:
        mode === 'off'
          ? `The admin API is off: the server listens on ${options.host}, not on loopback; start it with --admin-token <token> to enable it`
          : 'The admin API answers only clients on this machine (loopback) unless the server has an --admin-token',
    });
  };
}
