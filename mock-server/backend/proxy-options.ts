import type { Agent as HttpAgent, ClientRequest, IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { createProxyMiddleware, type Options } from 'http-proxy-middleware';
import { noteKeepAliveHint } from './backend-agent.ts';

export { backendAgent, BACKEND_MAX_SOCKETS } from './backend-agent.ts';

/**
 * Everything specific to the proxy library, http-proxy-middleware 3.0 (on http-proxy 1.18), in
 * one file: the overlay (backend/overlay.ts) and the bench's ceiling (bench/ceilings/proxy.mjs)
 * both build their proxy from here, so that they are the same proxy, and moving to
 * http-proxy-middleware 4 (httpxy; Node 22.15 and later) changes this file only.
 *
 * What the options mean for an exchange:
 * - the request goes out as it came (method, headers, body streamed; its target, which
 *   front/listener.ts normalised with lib/request-target.ts before anything judged it, appended to
 *   the backend URL's path as it is: `toProxy` keeps the library from reading it again with
 *   `url.parse`, and the normalised target holds nothing its join rewrites) except `Host`, which names the backend (`changeOrigin`: a remote backend behind
 *   virtual hosting or TLS SNI needs its own name); no `X-Forwarded-*` is added (`xfwd` off);
 * - the answer comes back as it came: status, headers (`Set-Cookie`, `Location` untouched: no cookie,
 *   host or protocol rewriting, redirects are not followed), body streamed; only the hop-by-hop
 *   `Connection` and `Keep-Alive` are the mock's own towards its client, not the backend's;
 * - backend connections are kept alive and pooled (`backendAgent`, backend-agent.ts: without an agent
 *   http-proxy sends `Connection: close` on every request), also when a client sends `Connection:
 *   close`; the backend's `Keep-Alive: timeout=N` is noted for the pool before it is removed;
 * - no websockets (`ws` off: Medusa's store API has none), no logging of the library's own (the
 *   overlay logs its line), none of its default plugins (their logger builds a URL per answer).
 */

/** How long the backend may take to send an answer's head (and stay silent while sending it) by default. */
export const DEFAULT_BACKEND_TIMEOUT_MS = 30_000;
/** What the proxy tells its user of an exchange (all optional; without `error`, a bare 502). */
export interface ProxyHooks {
  /** The library starts the exchange: a listener added to `req` now sees all of its body (the library pipes it in this same turn). */
  start?(req: IncomingMessage, res: ServerResponse): void;
  /** The request to the backend has its socket; its headers are not sent yet. */
  request?(proxyReq: ClientRequest, req: IncomingMessage, res: ServerResponse): void;
  /** The backend's answer head arrived; it is copied to `res` and piped after this returns. */
  answer?(proxyRes: IncomingMessage, req: IncomingMessage, res: ServerResponse): void;
  /** The exchange failed: before an answer head (refused, reset, timed out: `res` has sent nothing), or after it. */
  error?(error: Error, req: IncomingMessage, res: ServerResponse | Socket): void;
}

/** `Connection: close` (or a list holding it) from the client: not passed on, so that the backend socket stays pooled. */
const CLOSES = /(?:^|,)\s*close\s*(?:,|$)/i;

/** The library's options for a proxy to `target` through `agent`, telling `hooks`. */
export function proxyOptions(target: URL, agent: HttpAgent, hooks: ProxyHooks = {}, timeoutMs: number = DEFAULT_BACKEND_TIMEOUT_MS): Options {
  return {
    target: target.href,
    agent,
    changeOrigin: true,
    // http-proxy's name for "send req.url as it is": the judged target, not url.parse's reading of it.
    toProxy: true,
    xfwd: false,
    followRedirects: false,
    ws: false,
    proxyTimeout: timeoutMs,
    ejectPlugins: true,
    plugins: [
      (proxy) => {
        if (hooks.start) proxy.on('start', (req, res) => hooks.start?.(req, res as ServerResponse));
        proxy.on('proxyReq', (proxyReq, req, res) => {
          const connection = proxyReq.getHeader('connection');
          if (typeof connection === 'string' && CLOSES.test(connection) && !proxyReq.headersSent) proxyReq.removeHeader('connection');
          hooks.request?.(proxyReq, req, res);
        });
        proxy.on('proxyRes', (proxyRes, req, res) => {
          // Hop-by-hop: the backend's connection is not the client's. Left in, the backend's `Connection:
          // keep-alive` would keep open a client connection that asked to be closed; the library then sets
          // the client's own choice (its `Connection`, else keep-alive). The pool still needs the backend's hint.
          noteKeepAliveHint(proxyRes);
          delete proxyRes.headers.connection;
          delete proxyRes.headers['keep-alive'];
          // The client went before the whole answer: stop reading it from the backend (as the library's default plugin does).
          res.once('close', () => {
            if (!res.writableEnded) proxyRes.destroy();
          });
          hooks.answer?.(proxyRes, req, res);
        });
        proxy.on('error', (error, req, res) => {
          if (hooks.error) return hooks.error(error, req, res);
          if ('writeHead' in res && !res.headersSent) res.writeHead(502).end();
          else res.destroy();
        });
        // The client went before the answer: http-proxy aborts the backend request itself; nothing to answer.
        proxy.on('econnreset', () => {});
      },
    ],
  };
}

/** A request listener that passes every request it gets to the proxy these options describe. */
export function proxyListener(options: Options): (req: IncomingMessage, res: ServerResponse) => void {
  const middleware = createProxyMiddleware(options);
  return (req, res) => void middleware(req, res);
}
