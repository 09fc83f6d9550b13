import { Agent as HttpAgent, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { Duplex } from 'node:stream';

/**
 * The connections of `serve --backend` and `proxy` to the backend (issue 35): a kept-alive pool
 * that lets an idle connection go before the backend closes it, and the fresh connections that a
 * request failed on a stale pooled one is retried on (backend/overlay.ts decides when).
 *
 * A backend says how long it keeps an idle connection in its answer's `Keep-Alive: timeout=N`
 * (seconds; Medusa, as any Node server: `timeout=5`, closed after about 5 s idle). Node's agent
 * honours that hint only when the agent itself has a `timeout`, and the proxy removes the header
 * from the answer (hop-by-hop: the backend's connection is not the client's) before the agent
 * reads it once the answer has ended. So the proxy notes the hint at the answer's head
 * (`noteKeepAliveHint`), and the pool keeps the connection idle for at most N s less a second, as
 * Node's agent does with a hint (not at all when that leaves nothing: `timeout=1`). Without a
 * hint, the connection is kept until the backend closes it; a request that crosses that close is
 * what the overlay's retry is for.
 */

/** Connections to the backend at most (more requests queue in the agent). */
export const BACKEND_MAX_SOCKETS = 128;

/** How much sooner than the backend's announced keep-alive timeout a pooled connection is let go (Node's agent: 1 s). */
export const KEEP_ALIVE_MARGIN_MS = 1000;

/** The longest timer Node keeps (a longer one fires at once, with a warning on stderr): a larger hint is read as this. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** The idle time each backend connection may have once its current answer has ended, from that answer's hint. */
const idleLimits = new WeakMap<Duplex, number>();

/**
 * The idle time a connection may be kept after an answer with this `Keep-Alive` header (ms, 0: not
 * kept), or undefined without a hint. `timeout=N` among its parameters, N in whole seconds (at
 * most Node's longest timer).
 */
export function keepAliveIdleMs(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (!value) return undefined;
  const match = /(?:^|[,;\s])timeout\s*=\s*"?(\d{1,9})"?\s*(?:[,;]|$)/i.exec(value);
  if (!match) return undefined;
  return Math.min(LONGEST_TIMER_MS, Math.max(0, Number(match[1]) * 1000 - KEEP_ALIVE_MARGIN_MS));
}

/** Notes the keep-alive hint of an answer at its head, for the pool to read when the answer has ended (before the header is removed). */
export function noteKeepAliveHint(answer: IncomingMessage): void {
  const socket = answer.socket;
  if (!socket) return;
  const idle = keepAliveIdleMs(answer.headers['keep-alive']);
  if (idle === undefined) idleLimits.delete(socket);
  else idleLimits.set(socket, idle);
}

/** Node's own decision (keep-alive probes, unref, no timeout), then the hint's idle limit. */
function keepSocketAlive(agent: HttpAgent, own: (socket: Duplex) => unknown, socket: Duplex): boolean {
  const idle = idleLimits.get(socket);
  idleLimits.delete(socket);
  if (idle === 0) return false;
  const kept = own.call(agent, socket) !== false;
  // An idle pooled socket that times out is destroyed by the agent (its own 'timeout' listener).
  if (kept && idle !== undefined) (socket as Duplex & { setTimeout(ms: number): unknown }).setTimeout(idle);
  return kept;
}

type KeepSocketAlive = (socket: Duplex) => boolean;

/** The kept-alive connection pool to a backend: an https one for an https target. Destroy it when done. */
export function backendAgent(target: URL): HttpAgent {
  const options = { keepAlive: true, maxSockets: BACKEND_MAX_SOCKETS };
  const agent: HttpAgent = target.protocol === 'https:' ? new HttpsAgent(options) : new HttpAgent(options);
  // Node calls `this.keepSocketAlive(socket)` when an answer has ended and uses what it returns (@types/node says void).
  const own = agent.keepSocketAlive as unknown as (socket: Duplex) => unknown;
  (agent as unknown as { keepSocketAlive: KeepSocketAlive }).keepSocketAlive = (socket) => keepSocketAlive(agent, own, socket);
  return agent;
}

/**
 * Connections that are never pooled: each request gets a new one, closed after its answer. The
 * overlay retries a request that failed on a stale pooled connection here, so that the retry
 * cannot meet another stale one. Destroy it when done.
 */
export function freshConnections(target: URL): HttpAgent {
  // keepAlive off with a finite maxSockets: Node still sends `Connection: keep-alive`, then closes the socket after the answer.
  const options = { keepAlive: false, maxSockets: BACKEND_MAX_SOCKETS };
  return target.protocol === 'https:' ? new HttpsAgent(options) : new HttpAgent(options);
}
