import type { Logger } from './logging.ts';
import type { MockServer } from '../server.ts';

/**
 * Graceful shutdown for the serve command: on the first SIGINT or SIGTERM the server stops
 * accepting connections, lets requests in flight finish (at most the grace period, see
 * MockServer.close) and the process exits 0. A second signal cuts every connection and
 * exits 1 at once.
 */
export function exitGracefullyOnSignals(mock: MockServer, logger: Logger, exit: (code: number) => void = (code) => process.exit(code)): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: cutting connections');
      mock.server.closeAllConnections();
      exit(1);
      return;
    }
    stopping = true;
    logger.info({ signal }, 'shutting down: no new connections, finishing requests in flight');
    mock.close().then(
      () => {
        logger.info('stopped');
        exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}
