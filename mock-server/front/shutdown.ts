import type { Server } from 'node:http';
import type { Logger } from '../helpers/logging.ts';

/** What the shutdown needs of a running mock (a MockServer of server-options.ts, named by shape, as it sits on a floor above). */
export interface StoppableServer {
  readonly server: Pick<Server, 'closeAllConnections'>;
  close(): Promise<void>;
}

/** The exit code when the server has stopped, and when a second signal cuts it short. */
export interface StopVerdict {
  /** After the graceful stop (requests in flight finished): the exit code. */
  stopped(): number | Promise<number>;
  /** On a second signal, just before the process exits: the exit code, given at once. */
  cut(): number;
}

/** `serve` has no verdict: 0 when stopped, 1 when cut short. */
const SERVE_VERDICT: StopVerdict = { stopped: () => 0, cut: () => 1 };

/** Stops the server as the first SIGTERM would; `cause` is logged (e.g. "the npm process that started it ended"). */
export type StopServe = (cause: string) => void;

/**
 * Graceful shutdown for the serve command: on the first SIGINT or SIGTERM the server stops
 * accepting connections, lets requests in flight finish (at most the grace period, see
 * MockServer.close) and the process exits 0. A second signal cuts every connection and
 * exits 1 at once. The returned function starts the same graceful stop for a reason that is not
 * a signal of this process (cli/wrapper-watch.ts: the npm process or the shell that started it
 * was signalled or went away), with the same exit code. A command with a verdict (`proxy`) gives
 * the exit codes through `verdict`.
 */
export function exitGracefullyOnSignals(mock: StoppableServer, logger: Logger, exit: (code: number) => void = (code) => process.exit(code), verdict: StopVerdict = SERVE_VERDICT): StopServe {
  let stopping = false;
  const stop = (why: { signal: NodeJS.Signals } | { cause: string }) => {
    if (stopping) {
      if (!('signal' in why)) return;
      logger.warn(why, 'second signal: cutting connections');
      mock.server.closeAllConnections();
      exit(verdict.cut());
      return;
    }
    stopping = true;
    logger.info(why, 'shutting down: no new connections, finishing requests in flight');
    mock.close().then(
      async () => {
        logger.info('stopped');
        exit(await verdict.stopped());
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        exit(verdict.cut());
      },
    );
  };
  const onSignal = (signal: NodeJS.Signals) => stop({ signal });
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return (cause) => stop({ cause });
}
