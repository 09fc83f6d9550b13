import { pino, type Logger } from 'pino';

/**
 * Structured logs (pino, one JSON object per line on stdout). At `info` each request
 * is one line: method, url, status, durationMs. The programmatic default is `silent`,
 * so tests and embedding programs stay quiet; the CLI's default is `warn` (start-up
 * banner on stdout, problems only), so a load test measures the server, not its logs.
 */

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const CLI_LOG_LEVEL: LogLevel = 'warn';

export type { Logger };

/**
 * Synchronous writes to stdout: pino's default destination writes asynchronously, and a
 * process that exits right after logging (serve on SIGTERM) could then print its last
 * lines out of order (the flush at exit overtakes a write still in flight).
 */
export function createLogger(level: LogLevel = 'silent'): Logger {
  return pino({ level, base: { name: 'store-listing-kit' } }, pino.destination({ dest: 1, sync: true }));
}

export const silentLogger: Logger = pino({ level: 'silent' });
