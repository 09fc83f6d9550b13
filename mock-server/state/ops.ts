import { DEFAULT_SEED } from '../../fixtures/generate.ts';
import type { GenerateOptions } from '../../fixtures/dataset.ts';
import { localCoordinator, type CoordinatorFactory } from './coordination.ts';
import { FaultInjector, type FaultSettings } from './faults.ts';
import { Journal } from '../journal/journal.ts';
import { silentLogger, type Logger } from '../helpers/logging.ts';
import { assertStateLeaseMs, DEFAULT_STATE_LEASE_MS } from './state-lease.ts';

/**
 * The operational state of one server, which the admin API (admin/routes.ts) reads and changes,
 * and which the front (front/app.ts, front/fast-path.ts) consults on every request.
 */

/** Who may use the admin API (admin/access.ts applies it). */
export interface AdminAccessOptions {
  /** The bearer token the admin API requires; none means loopback only. */
  token?: string | undefined;
  /** The host the server listens on; unknown (undefined) is treated as loopback. */
  host?: string | undefined;
}

/** The operational state of one server: faults, journal, logger, admin access. */
export interface Ops {
  readonly faults: FaultInjector;
  readonly journal: Journal;
  readonly logger: Logger;
  readonly access: AdminAccessOptions;
  /** Facts about the server for `GET /__admin/config` (host, port, ...); the server fills them in. */
  readonly info: Record<string, unknown>;
  /** After how long without a state change a run's hold on the provider state lapses (state-lease.ts). */
  readonly stateLeaseMs: number;
  readonly startedAt: number;
  /** Requests the fast path in front of Express answered (mock-server/front/fast-path.ts). */
  readonly stats: { fastPathAnswers: number };
  /** How changes reach every process that serves (default: this one only). */
  readonly coordinate: CoordinatorFactory;
}

export interface OpsOptions {
  faults?: FaultSettings;
  /** The seed of fault draws when the fault settings name none (default: the dataset's, else 1). */
  faultSeed?: number;
  journalSize?: number;
  /** Bytes kept of each journaled body (default: journal/journal.ts's `defaultJournalBodyBytes`; 0: none). */
  journalBodyBytes?: number;
  logger?: Logger;
  access?: AdminAccessOptions;
  /** How the initial dataset was generated, if it was (its seed is the default seed of fault draws). */
  generation?: GenerateOptions;
  /** After how long without a state change a run's hold on the provider state lapses (default 30 s). */
  stateLeaseMs?: number;
  info?: Record<string, unknown>;
  /**
   * The coordinator of a cluster worker (cluster/member.ts); default: this process alone.
   * Given one, the journal also stamps its entries, so that the workers' can be merged.
   */
  coordinate?: CoordinatorFactory;
}

export function createOps(options: OpsOptions = {}): Ops {
  const stateLeaseMs = options.stateLeaseMs ?? DEFAULT_STATE_LEASE_MS;
  assertStateLeaseMs(stateLeaseMs);
  return {
    faults: new FaultInjector(options.faultSeed ?? options.generation?.seed ?? DEFAULT_SEED, options.faults),
    journal: new Journal({
      ...(options.journalSize !== undefined ? { capacity: options.journalSize } : {}),
      ...(options.journalBodyBytes !== undefined ? { bodyBytes: options.journalBodyBytes } : {}),
      stamped: options.coordinate !== undefined,
      secrets: { token: options.access?.token },
    }),
    logger: options.logger ?? silentLogger,
    access: options.access ?? {},
    info: { ...options.info },
    stateLeaseMs,
    startedAt: Date.now(),
    stats: { fastPathAnswers: 0 },
    coordinate: options.coordinate ?? localCoordinator,
  };
}
