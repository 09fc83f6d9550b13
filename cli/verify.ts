import { printable } from '../lib/quote.ts';
import { Command, InvalidArgumentError, Option } from 'commander';
import { CONSUMER_OF_DIALECT, DEFAULT_CONSUMER_VERSION_SELECTORS, OWN_PACT_DIR, PACT_DIR, PROVIDERS, type ConsumerVersionSelector, type ProviderName } from '../contracts/names.ts';
import { DIALECT_NAMES, type DialectName } from '../lib/dialects/types.ts';
import type { ProviderResult, VerifyOptions } from '../contracts/verify.ts';
import { wantsColour } from './plain-output.ts';
import { cannotRun, keepTheVerdictWhenTheReaderLeaves } from './program.ts';
import { headerArg, httpUrl } from './options.ts';
import { maxBodyOption } from './arguments.ts';
import { PROVIDER_STATES_PATH } from '../lib/provider-states.ts';
import { claimReportPaths, ReportPathError, writeReport } from './report-files.ts';
import { existsSync } from 'node:fs';
import { outputStream, reason } from '../files/output-file.ts';
import { consumerNameProblem } from '../lib/pact-file.ts';
import { consumerShown, consumersIn, noPactSentence, pactFilesFor, pactsIn, VerifyConfigError } from '../contracts/pact-dir.ts';
import { BaselineError } from '../lib/baseline.ts';
import { baselineOptions, prepareBaseline, settleBaseline } from './baseline-file.ts';
import { passedVerifyKeys, VERIFY_BASELINE, verifyBaselineEntries, type VerifyBaselineEntry } from '../contracts/verify-baseline.ts';
import type { InteractionOutcome } from '../contracts/outcomes.ts';
import { verifyInWorker } from './verify-run.ts';

interface VerifyFlags {
  providerBaseUrl: string;
  provider: ProviderName | 'both';
  dialect: DialectName;
  consumer?: string;
  pactDir?: string;
  brokerUrl?: string;
  brokerToken?: string;
  brokerUsername?: string;
  brokerPassword?: string;
  consumerVersionSelectors: ConsumerVersionSelector[];
  enablePending?: boolean;
  includeWipPactsSince?: string;
  providerStatesSetupUrl?: string;
  providerStates: boolean;
  publishVerificationResults?: boolean;
  providerAppVersion?: string;
  providerVersionBranch?: string;
  /** The kit's earlier names of the three above, still taken. */
  publish?: boolean;
  providerVersion?: string;
  providerBranch?: string;
  buildUrl?: string;
  logLevel: NonNullable<VerifyOptions['logLevel']>;
  timeout?: number;
  maxBody?: number;
  header: Record<string, string>;
  junit?: string;
  json?: string;
  verbose?: boolean;
  pactLog?: string;
  baseline?: string;
  writeBaseline?: string;
}

/** `--consumer <name>`: a consumer name as `serve --pact-consumer` takes it. */
function consumerArg(value: string): string {
  const problem = consumerNameProblem(value);
  if (problem) throw new InvalidArgumentError(problem);
  return value;
}

function selectors(value: string): ConsumerVersionSelector[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new InvalidArgumentError(`must be a JSON array of selectors, e.g. '[{"mainBranch":true},{"deployedOrReleased":true}]'`);
  }
  if (!Array.isArray(parsed) || parsed.length === 0 || !parsed.every((s) => typeof s === 'object' && s !== null && !Array.isArray(s))) {
    throw new InvalidArgumentError('must be a non-empty JSON array of selector objects');
  }
  return parsed as ConsumerVersionSelector[];
}

/** A mismatch on a whole array quotes the array: the full text is in the reports and Pact's. */
function shorten(text: string, max = 200): string {
  // Printable (lib/quote.ts): a provider's words in a mismatch or a state change's error stay on their line.
  return text.length > max ? `${printable(text.slice(0, max))}... (in full: --json <file>, or Pact's report)` : printable(text);
}

/** The most kinds of mismatch listed for one interaction. */
const MAX_KINDS = 10;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** `Given <states> - <description>`, as Pact names an interaction. */
const interactionName = (o: InteractionOutcome) => `${o.states.length ? `Given ${o.states.map((s) => s.name).join(' and ')} - ` : ''}${o.description}`;

/** A failing interaction, once: each kind of mismatch once, its failed state changes, why it was not verified. */
function failureLines(o: InteractionOutcome): string[] {
  const lines = [`    - ${interactionName(o)}`];
  for (const d of o.distinct.slice(0, MAX_KINDS)) lines.push(`        ${shorten(d.detail)}${d.alike ? ` (and ${d.alike} more like it)` : ''}`);
  if (o.distinct.length > MAX_KINDS) lines.push(`        ... and ${plural(o.distinct.length - MAX_KINDS, 'more kind')} of mismatch (all of them: --json <file>)`);
  for (const e of o.stateErrors) lines.push(`        state change ${shorten(e)}`);
  if (o.error) lines.push(`        ${shorten(o.error.split('\n')[0]!)}`);
  return lines;
}

/**
 * The kit's own report: per provider, how many interactions passed; each failing interaction once
 * with its distinct mismatches (the same kind of mismatch at several positions counts once), its
 * failed state changes; then the count of failing interactions.
 */
export function verifySummary(results: readonly ProviderResult[], dialect: DialectName): string[] {
  const lines = ['', `store-listing-kit verify: summary (dialect ${dialect})`];
  for (const r of results) {
    // A broker's work-in-progress pacts are reported apart: pending, they never fail the run.
    const wip = r.interactions.filter((o) => o.wip);
    const all = r.interactions.filter((o) => !o.wip);
    const failed = all.filter((o) => o.status === 'failed');
    const pending = all.filter((o) => o.status === 'pending');
    const passed = all.filter((o) => o.status === 'passed').length;
    const extra = pending.length ? `, ${pending.length} pending` : '';
    const pendingLines = (): string[] => [
      ...pending.flatMap((o) => failureLines(o).map((line, n) => (n === 0 ? `${line} (pending: does not fail the run)` : line))),
      ...(wip.length
        ? [
            `    work in progress (pending, never fails the run): ${wip.filter((o) => o.status === 'passed').length} of ${plural(wip.length, 'interaction')} passed`,
            ...wip.filter((o) => o.status !== 'passed').flatMap((o) => failureLines(o)),
          ]
        : []),
    ];
    if (r.ok) {
      lines.push(`  PASS ${r.provider}: ${passed} of ${plural(all.length, 'interaction')} passed${extra} (the pacts of ${consumerShown(r.consumer)})`, ...pendingLines());
      continue;
    }
    if (r.error && r.mismatches.length === 0 && !r.stateErrors?.length) {
      // Not replayed, or Pact failed without a verdict: one reason for every interaction, said once.
      lines.push(`  FAIL ${r.provider}: ${shorten(r.error.split('\n')[0]!)}`, `    ${failed.length} of ${plural(all.length, 'interaction')} not verified (the pacts of ${consumerShown(r.consumer)})`);
      continue;
    }
    lines.push(`  FAIL ${r.provider}: ${failed.length} of ${plural(all.length, 'interaction')} failed${extra} (the pacts of ${consumerShown(r.consumer)})`);
    for (const o of failed) lines.push(...failureLines(o));
    lines.push(...pendingLines());
    for (const e of r.unclaimedStateErrors ?? []) lines.push(`    - state change ${shorten(e)}`);
  }
  const failing = results.reduce((n, r) => n + r.interactions.filter((o) => o.status === 'failed').length, 0);
  const total = results.reduce((n, r) => n + r.interactions.filter((o) => !o.wip).length, 0);
  const pendingCount = results.reduce((n, r) => n + r.interactions.filter((o) => !o.wip && o.status === 'pending').length, 0);
  const wipCount = results.reduce((n, r) => n + r.interactions.filter((o) => o.wip).length, 0);
  const apart = `${pendingCount ? `, ${pendingCount} pending` : ''}${wipCount ? ` (and ${plural(wipCount, 'interaction')} of work-in-progress pacts)` : ''}`;
  lines.push(failing || results.some((r) => !r.ok) ? `FAILED: ${failing} of ${plural(total, 'interaction')} failed${apart} (Pact's own report: --verbose, or --pact-log <file>)` : `OK: ${plural(total - pendingCount, 'interaction')} passed${apart}`);
  return lines;
}

function positiveInteger(value: string): number {
  if (!/^[0-9]+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError('must be a positive integer');
  return Number(value);
}

export function registerVerifyCommand(program: Command): void {
  const [baselineOption, writeBaselineOption] = baselineOptions('interactions');
  program
    .command('verify')
    .description("verify a running provider against the storefront's Pact contracts (exit 0 when it honours them)")
    .requiredOption('--provider-base-url <url>', 'base URL of the provider to verify, e.g. http://localhost:9000', httpUrl)
    .addOption(new Option('--provider <name>', 'which provider to verify').choices([...PROVIDERS, 'both']).default('both'))
    .addOption(
      new Option('--dialect <name>', `whose pacts: spec (the listing spec's storefront, consumer '${CONSUMER_OF_DIALECT.spec}') or alphabite (a storefront on @alphabite/medusa-sdk against the published plugins, consumer '${CONSUMER_OF_DIALECT.alphabite}')`)
        .choices(DIALECT_NAMES)
        .default('spec'),
    )
    .addOption(
      new Option('--consumer <name>', `whose pacts, by consumer name, instead of the dialect's: a storefront's own (serve --pact-consumer <name>), from --pact-dir (default ${OWN_PACT_DIR}, where serve --pact-consumer writes) or the broker; with --provider both, a provider without a pact of that consumer is left out`).argParser(
        consumerArg,
      ),
    )
    .addOption(new Option('--pact-dir <dir>', `read pacts from this directory: without --consumer, every pact in it, of any consumer (default: with --consumer, ${OWN_PACT_DIR}; without, the kit's committed pacts of the dialect's storefront, ${PACT_DIR})`))
    .addOption(new Option('--broker-url <url>', 'fetch pacts from this Pact Broker instead of a directory').env('PACT_BROKER_BASE_URL').argParser(httpUrl))
    .addOption(new Option('--broker-token <token>', 'bearer token for the broker').env('PACT_BROKER_TOKEN'))
    .addOption(new Option('--broker-username <name>', 'basic-auth user for the broker').env('PACT_BROKER_USERNAME'))
    .addOption(new Option('--broker-password <password>', 'basic-auth password for the broker').env('PACT_BROKER_PASSWORD'))
    .addOption(
      new Option('--consumer-version-selectors <json>', 'which consumer versions to verify, as a JSON array')
        .argParser(selectors)
        .default(DEFAULT_CONSUMER_VERSION_SELECTORS, JSON.stringify(DEFAULT_CONSUMER_VERSION_SELECTORS)),
    )
    .option('--enable-pending', 'pending pacts (not yet verified by this provider) do not fail the build (broker only)')
    .option('--include-wip-pacts-since <date>', 'also verify work-in-progress pacts since this date, e.g. 2024-01-01 (broker only)')
    .addOption(new Option('--provider-states-setup-url <url>', `where Pact POSTs { state, params, action } before each interaction (default: <provider-base-url>${PROVIDER_STATES_PATH})`).argParser(httpUrl))
    .option('--no-provider-states', 'call no state-change URL: only for pacts without provider states (e.g. a broker\'s); refused for pacts whose interactions need states, such as the committed ones')
    .option('--publish-verification-results', 'publish the verification results to the broker (needs --provider-app-version)')
    .addOption(new Option('--provider-app-version <version>', 'provider version to publish the results for (e.g. the git sha)').env('PACT_PROVIDER_VERSION'))
    .addOption(new Option('--provider-version-branch <branch>', "the provider's branch: the broker tells pending and work-in-progress pacts by it (--enable-pending, --include-wip-pacts-since), and results are published for it").env('PACT_PROVIDER_BRANCH'))
    // The kit's earlier names of the three, still taken (Pact's own names above are the documented ones).
    .addOption(new Option('--publish').hideHelp())
    .addOption(new Option('--provider-version <version>').hideHelp())
    .addOption(new Option('--provider-branch <branch>').hideHelp())
    .addOption(new Option('--build-url <url>', 'link to the CI build, published with the results').env('PACT_BUILD_URL'))
    .addOption(new Option('--log-level <level>', "Pact's log level (its logs come with its report: --verbose, --pact-log)").choices(['trace', 'debug', 'info', 'warn', 'error']).default('warn'))
    .addOption(new Option('--timeout <ms>', 'per-request timeout in milliseconds').argParser(positiveInteger))
    .addOption(maxBodyOption("the kit's own requests (the checks before the replay): "))
    .addOption(
      new Option('--header <name: value>', "send this header with every request to the provider (repeatable; replaces a pact's header of that name), e.g. 'x-publishable-api-key: pk_...' or 'authorization: Bearer ...'")
        .argParser(headerArg)
        .default({}, 'none'),
    )
    .addOption(new Option('--junit <file>', 'also write a JUnit XML report: a testsuite per pact, a testcase per interaction, each failure with its mismatches (written on exit 0 and 1; none on exit 2)'))
    .addOption(new Option('--json <file>', 'also write a JSON report of every interaction: verdict, mismatches, provider state, request, time (shape: docs/contracts.md; written on exit 0 and 1; none on exit 2)'))
    .option('--verbose', "also print Pact's own report (every interaction, each mismatch with the values) and its logs, before the summary")
    .addOption(new Option('--pact-log <file>', "write Pact's own report and its logs into this file (without colour codes), whatever the verdict"))
    .addOption(baselineOption)
    .addOption(writeBaselineOption)
    .action(async (flags: VerifyFlags, cmd: Command) => {
      keepTheVerdictWhenTheReaderLeaves();
      const fail = (message: string): never => cmd.error(`error: ${message}`, { exitCode: 2 });
      flags.publish ||= flags.publishVerificationResults;
      flags.providerVersion ??= flags.providerAppVersion;
      flags.providerBranch ??= flags.providerVersionBranch;
      // A report path that cannot be written stops the run before Pact starts; an old report there is removed.
      const reports = [
        ['--junit', flags.junit],
        ['--json', flags.json],
        ['--pact-log', flags.pactLog],
      ] as const;
      try {
        claimReportPaths(reports);
      } catch (error) {
        if (error instanceof ReportPathError) cannotRun(error.message);
        throw error;
      }
      // So does a baseline that cannot be read or written.
      let recorded: VerifyBaselineEntry[] | undefined;
      try {
        recorded = prepareBaseline(VERIFY_BASELINE, flags.dialect, flags);
      } catch (error) {
        if (error instanceof BaselineError) cannotRun(error.message);
        throw error;
      }
      // A storefront's own pacts (--consumer) are where serve --pact-consumer writes them; the kit's own, in the package.
      const pactDir = flags.pactDir ?? (flags.consumer !== undefined ? OWN_PACT_DIR : PACT_DIR);
      if (flags.pactDir && flags.brokerUrl && cmd.getOptionValueSource('brokerUrl') === 'cli') fail('give either --pact-dir or --broker-url, not both');
      // An explicit --pact-dir wins over a broker URL that only came from the environment.
      const useBroker = Boolean(flags.brokerUrl) && !flags.pactDir;
      // A folder given without a consumer: every pact in it, as Pact's verifier reads a folder.
      const allConsumers = flags.pactDir !== undefined && flags.consumer === undefined;
      if (flags.publish && !useBroker) fail('--publish-verification-results needs a broker: give --broker-url (or set PACT_BROKER_BASE_URL)');
      if (flags.publish && !flags.providerVersion) fail('--publish-verification-results needs --provider-app-version (or PACT_PROVIDER_VERSION), e.g. the git commit');
      if (useBroker && (flags.enablePending || flags.includeWipPactsSince) && !flags.providerBranch) {
        fail(`${flags.enablePending ? '--enable-pending' : '--include-wip-pacts-since'} needs --provider-version-branch (or PACT_PROVIDER_BRANCH): the broker tells pending and work-in-progress pacts by the provider's branch`);
      }
      let providers: readonly ProviderName[] = flags.provider === 'both' ? PROVIDERS : [flags.provider];
      /** The pact files of the run with `provider`. */
      const filesWith = (provider: ProviderName) =>
        allConsumers ? pactsIn(pactDir).filter((p) => p.provider === provider && p.consumer !== undefined).map((p) => p.file) : pactFilesFor(pactDir, provider, flags.consumer ?? CONSUMER_OF_DIALECT[flags.dialect]);
      if (flags.consumer !== undefined && flags.pactDir === undefined && !useBroker && !existsSync(pactDir)) {
        cannotRun(`no pact of '${flags.consumer}' in ${pactDir}: there is no such folder here (serve --pact-consumer ${flags.consumer} writes its pacts there; --pact-dir <dir> names another folder)`);
      }
      try {
        // A storefront's own pacts may be with one provider only (it asked one of them): verify those there are.
        if ((flags.consumer !== undefined || allConsumers) && flags.provider === 'both' && !useBroker) {
          providers = PROVIDERS.filter((p) => (allConsumers ? consumersIn(pactDir, p).length > 0 : pactFilesFor(pactDir, p, flags.consumer!).length > 0));
          if (providers.length === 0) cannotRun(noPactSentence(pactDir, allConsumers ? `with ${PROVIDERS.map((p) => `'${p}'`).join(' or ')}` : `of '${flags.consumer}'`));
        }
      } catch (error) {
        if (error instanceof VerifyConfigError) cannotRun(error.message);
        throw error;
      }
      if (!flags.providerStates && !useBroker) {
        // Pact's JavaScript (its native core: most of a second) loads only for this check; the verification runs in a worker.
        const { statesIn } = await import('../contracts/verify.ts');
        // Each state describes the whole dataset an interaction relies on, and the states contradict
        // each other ("no reviews exist", "reviews exist" with 12): no fixed data can pass them all.
        let states: string[] = [];
        try {
          states = statesIn(providers.flatMap(filesWith));
        } catch (error) {
          if (error instanceof VerifyConfigError) cannotRun(error.message);
          throw error;
        }
        if (states.length) {
          fail(`--no-provider-states cannot pass: the pacts in ${pactDir} need provider states (${states.slice(0, 3).map((n) => `'${n}'`).join(', ')}${states.length > 3 ? ', ...' : ''}), which contradict each other; it is for pacts without states`);
        }
      }
      const options: VerifyOptions = {
        providerBaseUrl: flags.providerBaseUrl,
        providers,
        dialect: flags.dialect,
        ...(flags.consumer !== undefined ? { consumer: flags.consumer } : {}),
        ...(allConsumers && !useBroker ? { allConsumers: true } : {}),
        logLevel: flags.logLevel,
        ...(flags.timeout !== undefined ? { timeout: flags.timeout } : {}),
        ...(flags.maxBody !== undefined ? { maxBodyBytes: flags.maxBody } : {}),
        ...(Object.keys(flags.header).length ? { headers: flags.header } : {}),
        ...(flags.providerStates ? { providerStatesSetupUrl: flags.providerStatesSetupUrl ?? `${flags.providerBaseUrl}${PROVIDER_STATES_PATH}` } : {}),
        ...(useBroker
          ? {
              broker: {
                url: flags.brokerUrl!,
                consumerVersionSelectors: flags.consumerVersionSelectors,
                ...(flags.brokerToken ? { token: flags.brokerToken } : {}),
                ...(flags.brokerUsername ? { username: flags.brokerUsername } : {}),
                ...(flags.brokerPassword ? { password: flags.brokerPassword } : {}),
                ...(flags.enablePending ? { enablePending: true } : {}),
                ...(flags.includeWipPactsSince ? { includeWipPactsSince: flags.includeWipPactsSince } : {}),
                ...(flags.providerBranch ? { providerBranch: flags.providerBranch } : {}),
              },
            }
          : { pactDir }),
        ...(flags.publish
          ? {
              publish: {
                providerVersion: flags.providerVersion!,
                ...(flags.providerBranch ? { providerBranch: flags.providerBranch } : {}),
                ...(flags.buildUrl ? { buildUrl: flags.buildUrl } : {}),
              },
            }
          : {}),
      };
      const startedAt = new Date();
      // Written whole at the end (files/output-file.ts), as every output file.
      let pactLog: ReturnType<typeof outputStream> | undefined;
      try {
        pactLog = flags.pactLog ? outputStream(flags.pactLog) : undefined;
      } catch (error) {
        cannotRun(`cannot write Pact's report to ${flags.pactLog} (--pact-log): ${reason(error)}`);
      }
      let logError: Error | undefined;
      pactLog?.stream.on('error', (error) => (logError ??= error));
      let answer: Awaited<ReturnType<typeof verifyInWorker>>;
      try {
        answer = await verifyInWorker(options, {
          ...(flags.verbose ? { terminal: { out: process.stdout, err: process.stderr, colour: wantsColour() } } : {}),
          ...(pactLog ? { file: pactLog.stream } : {}),
        });
      } catch (error) {
        cannotRun((error as Error).message);
      } finally {
        await pactLog?.done().catch((error: Error) => (logError ??= error));
      }
      if (logError) cannotRun(`cannot write Pact's report to ${flags.pactLog} (--pact-log): ${reason(logError)}`);
      // Bad options, no pact, or a provider / state-change URL that does not answer: cannot run.
      if ('cannotRun' in answer) cannotRun(answer.cannotRun);
      const results: ProviderResult[] = answer.results;
      process.stdout.write(`${verifySummary(results, flags.dialect).join('\n')}\n`);
      if (flags.junit || flags.json) {
        const { verifyJsonReport, verifyJunitReport } = await import('../contracts/verify-report.ts');
        const run = {
          providerBaseUrl: flags.providerBaseUrl,
          dialect: flags.dialect,
          source: useBroker ? { brokerUrl: flags.brokerUrl! } : { pactDir },
          startedAt: startedAt.toISOString(),
          durationMs: Date.now() - startedAt.getTime(),
          results,
        };
        try {
          if (flags.junit) writeReport(flags.junit, verifyJunitReport(run));
          if (flags.json) writeReport(flags.json, verifyJsonReport(run));
        } catch (error) {
          if (error instanceof ReportPathError) cannotRun(error.message);
          throw error;
        }
      }
      let settled: 0 | 1 | undefined;
      try {
        const passed = passedVerifyKeys(results);
        settled = settleBaseline(VERIFY_BASELINE, flags.dialect, flags, recorded, verifyBaselineEntries(results), (key) => passed.has(key), (line) => process.stdout.write(`${line}\n`));
      } catch (error) {
        if (error instanceof BaselineError) cannotRun(error.message);
        throw error;
      }
      process.exitCode = settled ?? (results.some((r) => !r.ok) ? 1 : 0);
    });
}
