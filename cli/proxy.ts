import { Command, Option } from 'commander';
import { dialectRules } from '../lib/answer-rules.ts';
import { PATHS } from '../lib/api-rules.ts';
import { DIALECT_NAMES, type DialectName } from '../lib/dialects/index.ts';
import { adminAccessMode } from '../mock-server/admin/access.ts';
import { answerChecker } from '../mock-server/backend/check.ts';
import { Verdicts, violationLine } from '../mock-server/backend/verdicts.ts';
import { exitGracefullyOnSignals } from '../mock-server/front/shutdown.ts';
import { CLI_LOG_LEVEL, LOG_LEVELS, createLogger, type LogLevel } from '../mock-server/helpers/logging.ts';
import { DEFAULT_JOURNAL_SIZE, MAX_JOURNAL_SIZE } from '../mock-server/journal/journal.ts';
import { DEFAULT_SHUTDOWN_GRACE_MS, MAX_BACKEND_TIMEOUT_MS, startMockServer } from '../mock-server/server.ts';
import { integerIn } from './arguments.ts';
import { cannotRun, EXIT } from './program.ts';
import { closingLine, proxyJsonReport, proxyJunitReport, type ProxyRun } from './proxy-reports.ts';
import { claimReportPaths, ReportPathError, writeReport } from './report-files.ts';
// serve's constants and parsers: the same options read the same way (and no proxy library loaded for --help).
import { adminBanner, backendArg, DEFAULT_BACKEND_TIMEOUT_MS, DEFAULT_HOST, DEFAULT_PORT, tokenArg } from './serve.ts';
import { watchWrapperFromNow } from './wrapper-watch.ts';

/**
 * `store-listing-kit proxy --backend <url>`: a validating proxy. Every request but /__admin goes to
 * the backend and back unchanged (the overlay of `serve --backend` in mode 'proxy'); every answer of
 * the four listings is checked against the dialect's rules as it streams (mock-server/backend/check.ts),
 * each violation printed as one line and marked in the journal and the dashboard. On SIGTERM or
 * SIGINT it finishes the requests in flight, writes `--json` and `--junit`, and exits 1 if any answer
 * broke a rule, else 0 (docs/cli.md, "Validating proxy").
 */

interface ProxyFlags {
  backend: string;
  dialect: DialectName;
  port: number;
  host: string;
  strict?: boolean;
  json?: string;
  junit?: string;
  journalSize: number;
  adminToken?: string;
  logLevel: LogLevel;
  backendTimeout: number;
  shutdownGrace: number;
}

export function registerProxyCommand(program: Command): void {
  program
    .command('proxy')
    .description(
      'a validating proxy: every request but /__admin goes to --backend and back unchanged (its target normalised first, as the backend reads it; ambiguous escapes such as %2F refused with 400), and every answer of the four listings is checked against the dialect\'s rules as it streams (a line per violation); SIGINT/SIGTERM stops it, writes --json/--junit and exits 1 if any answer broke a rule, else 0',
    )
    .addOption(new Option('--backend <url>', 'the backend every request goes to (http or https), e.g. a Medusa with the plugins: http://localhost:9000').argParser(backendArg).makeOptionMandatory())
    .addOption(
      new Option('--dialect <name>', "the rules the listings' answers are held to: 'alphabite' (the published @alphabite plugins, what a Medusa backend serves) or 'spec' (the listing spec; see docs/dialects.md)")
        .choices(DIALECT_NAMES)
        .default('alphabite'),
    )
    .addOption(new Option('--port <n>', 'port to listen on; 0 picks a free one').argParser(integerIn(0, 65535)).default(DEFAULT_PORT))
    .addOption(new Option('--host <host>', 'interface to listen on (0.0.0.0 for every interface)').default(DEFAULT_HOST))
    .addOption(new Option('--strict', "with --dialect spec: the spec's other [kit] rules too, as check --strict (the records' shape is judged without it; no effect on the alphabite dialect)"))
    .addOption(new Option('--json <file>', 'on exit, write the verdicts as JSON: { "checked": n, "violations": [{ "method", "path", "rule", "expected", "actual", ... }] }'))
    .addOption(new Option('--junit <file>', 'on exit, write a JUnit XML report: one testcase per listing and rule (failed with examples, passed, or skipped if never exercised)'))
    .addOption(new Option('--journal-size <n>', 'recent requests kept for GET /__admin/journal and the dashboard (0: none)').argParser(integerIn(0, MAX_JOURNAL_SIZE)).default(DEFAULT_JOURNAL_SIZE))
    .addOption(new Option('--admin-token <token>', 'bearer token for /__admin (required for it on a non-loopback --host)').env('MOCK_ADMIN_TOKEN').argParser(tokenArg))
    .addOption(new Option('--log-level <level>', 'pino log level; info logs one line per request').choices(LOG_LEVELS).env('LOG_LEVEL').default(CLI_LOG_LEVEL))
    .addOption(new Option('--backend-timeout <ms>', "how long the backend may stay silent before an answer's head (then 504) or while sending it (then the connection is cut)").argParser(integerIn(1, MAX_BACKEND_TIMEOUT_MS)).default(DEFAULT_BACKEND_TIMEOUT_MS))
    .addOption(new Option('--shutdown-grace <ms>', 'on SIGINT/SIGTERM, how long requests in flight may take to finish').argParser(integerIn(0, 600_000)).default(DEFAULT_SHUTDOWN_GRACE_MS))
    .action(runProxy);
}

async function runProxy(flags: ProxyFlags): Promise<void> {
  try {
    claimReportPaths([
      ['--json', flags.json],
      ['--junit', flags.junit],
    ]);
  } catch (error) {
    if (error instanceof ReportPathError) cannotRun(error.message);
    throw error;
  }
  const strict = flags.strict ?? false;
  const verdicts = new Verdicts();
  verdicts.onViolation((violation) => process.stdout.write(`${violationLine(violation)}\n`));
  const logger = createLogger(flags.logLevel);
  // Watched from before the start: a signal the wrapper caught while the proxy started is not lost.
  const wrapper = watchWrapperFromNow();
  const started = performance.now();
  const mock = await startMockServer({
    mode: 'proxy',
    backend: flags.backend,
    backendTimeoutMs: flags.backendTimeout,
    dialect: flags.dialect,
    onBackendAnswer: answerChecker({ dialect: flags.dialect, strict, verdicts }),
    port: flags.port,
    host: flags.host,
    journalSize: flags.journalSize,
    ...(flags.adminToken ? { adminToken: flags.adminToken } : {}),
    shutdownGraceMs: flags.shutdownGrace,
    logger,
  }).catch((error: Error) => cannotRun(error.message));
  process.stdout.write(`${banner(flags, mock.url, adminBanner(adminAccessMode(mock.ops.access), mock.url)).join('\n')}\n`);

  const run = (): ProxyRun => ({ backend: flags.backend, dialect: flags.dialect, strict, verdicts, durationMs: performance.now() - started });
  /** Writes the reports (synchronously), prints the closing line, and gives the exit code. */
  const finish = (): number => {
    try {
      if (flags.json) writeReport(flags.json, proxyJsonReport(run()));
      if (flags.junit) writeReport(flags.junit, proxyJunitReport(run()));
    } catch (error) {
      process.stderr.write(`error: ${(error as Error).message}\n`);
      return EXIT.cannotRun;
    }
    process.stdout.write(`${closingLine(verdicts)}\n`);
    if (verdicts.checked === 0) process.stderr.write('warning: no answer of the four listings went through the proxy: nothing was checked (were the requests sent to it, and to these paths?)\n');
    return verdicts.violationCount > 0 ? EXIT.broken : EXIT.ok;
  };
  wrapper.onStop(
    exitGracefullyOnSignals(mock, logger, (code) => process.exit(code), {
      stopped: async () => {
        await verdicts.settled();
        return finish();
      },
      cut: finish,
    }),
  );
}

/** The start-up banner: where it listens, where requests go, what is checked, the reports, the dashboard. */
function banner(flags: ProxyFlags, url: string, admin: string): string[] {
  const reports = [flags.json && `--json ${flags.json}`, flags.junit && `--junit ${flags.junit}`].filter(Boolean);
  return [
    `store-listing-kit validating proxy listening on ${url}`,
    `backend: ${flags.backend}: every request but /__admin goes there and back unchanged (kept alive; --backend-timeout ${flags.backendTimeout} ms)`,
    `dialect: ${flags.dialect}${strict(flags)}: rules ${dialectRules(flags.dialect, { strict: flags.strict ?? false }).join(', ')} (docs/dialects.md)`,
    'checked: every GET answered 200 on the four listings, as it streams:',
    ...Object.values(PATHS).map((path) => `  GET ${url}${path}`),
    `reports on exit: ${reports.length ? reports.join(', ') : 'none (--json <file>, --junit <file>)'}`,
    `admin: ${admin}`,
    'stop: SIGINT (Ctrl-C) or SIGTERM finishes the requests in flight, then exits 1 if any answer broke a rule, else 0',
  ];
}

const strict = (flags: ProxyFlags) => (flags.strict && flags.dialect === 'spec' ? ' (strict)' : '');
