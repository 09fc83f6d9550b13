import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { below, unit } from '../../fixtures/hash.ts';
import { faultBody, MAX_DELAY_MS, readFaultHeaders, retryAfter } from '../../lib/fault-headers.ts';
import { sendError } from '../helpers/errors.ts';
import { isAdminPath } from '../../lib/admin-paths.ts';

// The header rules and the injected bodies are lib's (lib/fault-headers.ts): the MSW handlers follow them too.
export { DELAY_HEADER, MAX_DELAY_MS, STATUS_HEADER, faultBody } from '../../lib/fault-headers.ts';

/**
 * Fault and latency injection, so that frontends can build their loading and error states.
 *
 * Off by default. When on, it applies to every request except the admin API's:
 * - global settings: a latency range, an error rate and the status of injected errors;
 * - per request (only when `headers` is on): `x-mock-delay: <ms>` and `x-mock-status: <4xx|5xx>`.
 *
 * Deterministic: the n-th request seen since the settings were last set gets its delay and
 * its error draw from hash(seed, n), so the same seed and the same sequence of requests give
 * the same faults. The check on the hot path, when off, is one boolean. In a cluster the
 * workers take n from one count kept by the primary (`shareSequence`), so that they draw
 * what a single server would.
 */

export interface LatencyRange {
  min: number;
  max: number;
}

export interface FaultSettings {
  /** Every request waits a delay drawn from this range (ms), or none when null. */
  latency: LatencyRange | null;
  /** The share of requests, from 0 to 1, answered with `errorStatus` instead. */
  errorRate: number;
  /** The status of injected errors (400-599); the body is the documented JSON for it. */
  errorStatus: number;
  /** Honour the per-request headers `x-mock-delay` and `x-mock-status`. */
  headers: boolean;
  /** The seed of the draws; by default the dataset's seed. */
  seed: number | null;
}

export const NO_FAULTS: FaultSettings = Object.freeze({ latency: null, errorRate: 0, errorStatus: 500, headers: false, seed: null });

/** Any subset of the settings (the body of `PUT /__admin/faults` once validated: admin/schemas.ts). */
export type PartialFaultSettings = { [K in keyof FaultSettings]?: FaultSettings[K] | undefined };

/** Complete settings from a partial, validated input. */
export function faultSettings(input: PartialFaultSettings = {}): FaultSettings {
  return {
    latency: input.latency ?? null,
    errorRate: input.errorRate ?? 0,
    errorStatus: input.errorStatus ?? 500,
    headers: input.headers ?? false,
    seed: input.seed ?? null,
  };
}

/**
 * The settings after `PUT /__admin/faults`: the fields the body names change, the others keep
 * their values (so that a body that sets the latency does not turn off `--fault-headers` or forget
 * `--fault-seed`). `latency: null` and `seed: null` are values too (no latency; the dataset's seed).
 * `DELETE /__admin/faults` is the way to turn everything off.
 */
export function mergedFaultSettings(current: FaultSettings, change: PartialFaultSettings): FaultSettings {
  return {
    latency: change.latency !== undefined ? change.latency : current.latency,
    errorRate: change.errorRate ?? current.errorRate,
    errorStatus: change.errorStatus ?? current.errorStatus,
    headers: change.headers ?? current.headers,
    seed: change.seed !== undefined ? change.seed : current.seed,
  };
}

/** Whether settings may inject anything at all (latency, errors, or the per-request headers). */
export function faultsActive(settings: FaultSettings): boolean {
  return settings.latency !== null || settings.errorRate > 0 || settings.headers;
}

/** `"250"` or `"100-400"` (milliseconds), or undefined when it is neither. */
export function parseLatency(text: string): LatencyRange | undefined {
  const match = /^([0-9]{1,6})(?:-([0-9]{1,6}))?$/.exec(text.trim());
  if (!match) return undefined;
  const min = Number(match[1]);
  const max = match[2] === undefined ? min : Number(match[2]);
  return min <= max && max <= MAX_DELAY_MS ? { min, max } : undefined;
}

export function formatLatency(range: LatencyRange | null): string {
  if (!range) return 'none';
  return range.min === range.max ? `${range.min} ms` : `${range.min}-${range.max} ms`;
}

/** The fault chosen for one request. */
export interface FaultDecision {
  delay: number;
  status: number | null;
}

/**
 * Hands out the next n of a sequence shared with other processes: calls `take(n)` once it
 * is known, synchronously when the answer arrives, so that the draw uses the settings in
 * force when the sequence gave that n out; or `fail(error)` when it cannot.
 */
export type SharedSequence = (take: (n: number) => void, fail: (error: unknown) => void) => void;

/** Salts of the two draws, so that a request's delay and its error draw are independent. */
const DRAW = { kind: 0x6661756c, delay: 1, error: 2 } as const;

export class FaultInjector {
  #settings: FaultSettings = NO_FAULTS;
  #seen = 0;
  #active = false;
  #shared: SharedSequence | undefined;

  /** `defaultSeed`: the seed used when the settings name none (the dataset's). */
  constructor(
    readonly defaultSeed: number,
    settings: FaultSettings = NO_FAULTS,
  ) {
    this.set(settings);
  }

  /** True when anything at all may be injected: the one check made on every request. */
  get active(): boolean {
    return this.#active;
  }

  get settings(): FaultSettings {
    return this.#settings;
  }

  /** Requests drawn for since the settings were last set (by this process: see `shareSequence`). */
  get seen(): number {
    return this.#seen;
  }

  /** Replaces the settings and restarts the sequence of draws. */
  set(settings: FaultSettings): void {
    this.#settings = Object.freeze({ ...settings, latency: settings.latency ? { ...settings.latency } : null });
    this.#seen = 0;
    this.#active = faultsActive(settings);
  }

  /** The global fault of the n-th request (0-based): a pure function of the settings and n. */
  draw(n: number): FaultDecision {
    const { latency, errorRate, errorStatus } = this.#settings;
    const seed = this.#settings.seed ?? this.defaultSeed;
    const delay = latency ? latency.min + below(latency.max - latency.min + 1, seed, DRAW.kind, n, DRAW.delay) : 0;
    const failed = errorRate > 0 && unit(seed, DRAW.kind, n, DRAW.error) < errorRate;
    return { delay, status: failed ? errorStatus : null };
  }

  /** From now on, n comes from `sequence` (a count shared by the workers of a cluster) instead of this process's own count. */
  shareSequence(sequence: SharedSequence): void {
    this.#shared = sequence;
  }

  /** The fault for this request: draw n (by default the next of this process), overridden by its headers when those are honoured. */
  decide(req: IncomingMessage, n: number = this.#seen++): FaultDecision {
    const decision = this.draw(n);
    if (!this.#settings.headers) return decision;
    const asked = readFaultHeaders(req.headers);
    if (asked.delay !== undefined) decision.delay = asked.delay;
    if (asked.status !== undefined) decision.status = asked.status;
    return decision;
  }

  /**
   * Express middleware. Mounted always (settings can be changed at run time); when off it
   * costs one boolean check. Admin routes are never touched.
   */
  middleware(): RequestHandler {
    return (req: Request, res: Response, next: NextFunction) => {
      if (!this.#active || isAdminPath(req.path)) return next();
      this.schedule(req, res, (status) => (status === null ? next() : sendFault(res, status)), next);
    };
  }

  /**
   * Draws this request's fault (its n from the shared sequence when there is one, else from this
   * process's) and, after its delay, calls `act` with the status to answer instead, or null to go on.
   * A request whose fault headers are bad goes to `fail` at once (a QueryError: a 400), as does one
   * whose n the shared sequence cannot give. A client that goes during the delay keeps no timer
   * (nor the shutdown) waiting, and `act` is not called. The one way faults are drawn and timed:
   * the middleware above (the mock's own answers) and backend/pass-faults.ts (passed-through requests).
   */
  schedule(req: IncomingMessage, res: ServerResponse, act: (status: number | null) => void, fail: (error: unknown) => void): void {
    if (this.#shared) this.#shared((n) => this.#inject(req, res, act, fail, n), fail);
    else this.#inject(req, res, act, fail, this.#seen++);
  }

  #inject(req: IncomingMessage, res: ServerResponse, act: (status: number | null) => void, fail: (error: unknown) => void, n: number): void {
    let decision: FaultDecision;
    try {
      decision = this.decide(req, n);
    } catch (error) {
      return fail(error);
    }
    const { delay, status } = decision;
    if (delay > 0) {
      const timer = setTimeout(() => act(status), delay);
      // A client that gives up does not keep a timer (or the shutdown) waiting.
      res.once('close', () => clearTimeout(timer));
    } else act(status);
  }
}

export function sendFault(res: Response, status: number): void {
  const after = retryAfter(status);
  if (after !== undefined) res.setHeader('Retry-After', after);
  sendError(res, status, faultBody(status));
}
