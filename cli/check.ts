import { Command, InvalidArgumentError, Option } from 'commander';
import { parseEndpointList } from '../properties/endpoints.ts';
import { DEFAULTS, MAX_CONCURRENCY, randomSeed, resolveOptions, type CheckOptions } from '../properties/options.ts';
import { ALPHABITE_PROPERTY_IDS, PROPERTY_IDS } from '../properties/catalog/index.ts';
import { headerLine, jsonReport, junitReport, resultLine, summaryText } from '../properties/report.ts';
import { CannotRunError, runListingProperties, type CheckReport } from '../properties/runner.ts';
import { headerArg, integerIn, maxBodyOption } from './arguments.ts';
import { wantsColour } from './plain-output.ts';
import { keepTheVerdictWhenTheReaderLeaves } from './program.ts';
import { ProgressPrinter } from './progress.ts';
import { releaseHoldsOnSignal } from './release-on-signal.ts';
import { baselineOptions, prepareBaseline, settleBaseline } from './baseline-file.ts';
import { claimReportPaths, ReportPathError, writeReport } from './report-files.ts';
import { BaselineError } from '../lib/baseline.ts';
import { CHECK_BASELINE, checkBaselineEntries, passedCheckKeys, type CheckBaselineEntry } from '../properties/check-baseline.ts';

/** Exit codes of `check` (docs/exit-codes.md): every property holds / some property fails / the check cannot run. */
export const EXIT = { passed: 0, failed: 1, cannotRun: 2 } as const;

interface CheckFlags {
  baseUrl: string;
  endpoints?: string;
  runs: number;
  seed?: number;
  strict?: boolean;
  maxPageSize: number;
  productId: string[];
  header: Record<string, string>;
  wishlistId: string[];
  properties?: string;
  replayPath?: string;
  maxWalkPages: number;
  maxReferencePages: number;
  timeout: number;
  maxBody?: number;
  concurrency: number;
  varyDataset?: boolean;
  dataset?: string;
  junit?: string;
  json?: string;
  baseline?: string;
  writeBaseline?: string;
  dialect: 'spec' | 'alphabite';
}

const collect = (value: string, previous: string[]) => [...previous, ...value.split(',').map((s) => s.trim()).filter(Boolean)];

function endpointsArg(value: string) {
  try {
    return parseEndpointList(value);
  } catch (error) {
    throw new InvalidArgumentError(`${(error as Error).message}.`);
  }
}

function propertiesArg(value: string): string[] {
  const ids = value.split(',').map((s) => s.trim()).filter(Boolean);
  // Either dialect's ids; the run refuses those not in the chosen dialect's suite.
  const known = [...PROPERTY_IDS, ...ALPHABITE_PROPERTY_IDS];
  const unknown = ids.filter((id) => !known.includes(id));
  if (unknown.length || ids.length === 0) throw new InvalidArgumentError(`unknown property '${unknown.join(', ')}'; accepted: ${PROPERTY_IDS.join(', ')} (with --dialect alphabite: ${ALPHABITE_PROPERTY_IDS.join(', ')}).`);
  return ids;
}

export function registerCheckCommand(program: Command): void {
  const command = program
    .command('check')
    .description(
      'run the property suite against an implementation of the four listings: exit 0 when every property holds, 1 when one fails (with the shrunk request, a curl line and the replay command), 2 when it cannot run',
    )
    .addOption(new Option('--base-url <url>', 'where the implementation listens (the part before /store/...)').env('BASE_URL').makeOptionMandatory())
    .addOption(new Option('--endpoints <list>', 'comma-separated subset: reviews, productReviews, wishlists, wishlistItems (or 4.1,4.2,4.3,4.4); default all').argParser(endpointsArg))
    .addOption(new Option('--runs <n>', 'runs per property and endpoint (walking properties use a tenth, at least 5)').argParser(integerIn(1, 100_000)).default(DEFAULTS.runs))
    .addOption(new Option('--seed <n>', 'seed of the generated cases (random when absent; always printed, so any run can be replayed)').argParser(integerIn(0, 0x7fffffff)))
    .addOption(
      new Option('--dialect <name>', "the rules to judge by: spec (the listing spec), or alphabite (the published @alphabite plugins on Medusa: their own paging rules and what a storefront needs; see docs/property-suite.md)")
        .choices(['spec', 'alphabite'])
        .default('spec'),
    )
    .addOption(new Option('--strict', "with --dialect spec: also the rules API.md marks [kit] that no pact pins (unaligned starts' page numbers, ties broken by id, order on 4.2, unknown or repeated parameters, a bad order and a differing ?id= as 400s, 4.2's empty page for an unknown product); what the pacts pin (the records' shape, a bad paging value's 400, 4.4's 404, the reviews' defaults, an empty listing's totalPages 0, prevPage past the end, the JSON content type) is checked without it, as verify checks it"))
    .addOption(new Option('--max-page-size <n>', 'the largest limit/take the suite asks for').argParser(integerIn(1, 1_000_000)).default(DEFAULTS.maxPageSize))
    .addOption(new Option('--product-id <id>', 'product to list on 4.2 (repeatable or comma-separated)').argParser(collect).default([], 'discovered from 4.1'))
    .addOption(new Option('--wishlist-id <id>', 'wishlist to list on 4.4 (repeatable or comma-separated)').argParser(collect).default([], 'discovered from 4.3'))
    .addOption(new Option('--properties <ids>', `only these properties (comma-separated): ${PROPERTY_IDS.join(', ')}`).argParser(propertiesArg))
    .addOption(new Option('--replay-path <path>', 'replay exactly one shrunk counterexample, as printed with each failure (needs exactly one --properties and one --endpoints, and the same --seed)'))
    .addOption(new Option('--max-walk-pages <n>', 'a walk by nextPage stops after this many pages (and says so)').argParser(integerIn(1, 100_000)).default(DEFAULTS.maxWalkPages))
    .addOption(new Option('--max-reference-pages <n>', 'the whole set of a listing is fetched in at most this many pages of --max-page-size').argParser(integerIn(1, 100_000)).default(DEFAULTS.maxReferencePages))
    .addOption(new Option('--vary-dataset', "also run each endpoint's properties on edge datasets (empty, 1, a page exactly full, one more) installed through the target's provider-state door (POST /__admin/provider-states); changes the target's data for every client while it runs, and tears it down after"))
    .addOption(new Option('--dataset <label>', `only this dataset variant, by its label as printed with a failure, e.g. 'reviews exist {"count":0}' (implies --vary-dataset, skips the main run)`))
    .addOption(new Option('--timeout <ms>', 'per-request timeout').argParser(integerIn(1, 600_000)).default(DEFAULTS.timeoutMs))
    .addOption(maxBodyOption(''))
    .addOption(
      new Option('--concurrency <n>', `runs of a property in flight at once (1 to ${MAX_CONCURRENCY}; 1 sends one request at a time); the same cases, verdicts and shrunk counterexamples whatever the number`)
        .argParser(integerIn(1, MAX_CONCURRENCY))
        .default(DEFAULTS.concurrency),
    )
    .addOption(new Option('--header <name: value>', "send this header with every request (repeatable), e.g. 'x-publishable-api-key: pk_...' or 'authorization: Bearer ...'").argParser(headerArg).default({}, 'none'))
    .addOption(new Option('--junit <file>', 'write a JUnit XML report'))
    .addOption(new Option('--json <file>', 'write a JSON report'));
  for (const option of baselineOptions('properties')) command.addOption(option);

  // Bad arguments are "cannot run" (2), not a failing implementation (1): cli/program.ts sets that
  // for every command.

  command.action(async (flags: CheckFlags) => {
    keepTheVerdictWhenTheReaderLeaves();
    process.exitCode = await runCheck(flags);
  });
}

/** Runs the check for parsed flags, printing as it goes; resolves to the exit code. */
export async function runCheck(flags: CheckFlags): Promise<number> {
  const input: CheckOptions = {
    baseUrl: flags.baseUrl,
    runs: flags.runs,
    seed: flags.seed ?? randomSeed(),
    strict: flags.strict ?? false,
    dialect: flags.dialect,
    maxPageSize: flags.maxPageSize,
    maxWalkPages: flags.maxWalkPages,
    maxReferencePages: flags.maxReferencePages,
    timeoutMs: flags.timeout,
    ...(flags.maxBody !== undefined ? { maxBodyBytes: flags.maxBody } : {}),
    concurrency: flags.concurrency,
    ...(flags.endpoints ? { endpoints: flags.endpoints as unknown as CheckOptions['endpoints'] } : {}),
    ...(flags.productId.length ? { productIds: flags.productId } : {}),
    ...(flags.wishlistId.length ? { wishlistIds: flags.wishlistId } : {}),
    ...(Object.keys(flags.header).length ? { headers: flags.header } : {}),
    ...(flags.properties ? { properties: flags.properties as unknown as string[] } : {}),
    ...(flags.replayPath ? { replayPath: flags.replayPath } : {}),
    ...(flags.varyDataset ? { varyDataset: true } : {}),
    ...(flags.dataset ? { dataset: flags.dataset } : {}),
  };
  // A progress line on a terminal, rewritten in place; plain RUN lines for slow properties elsewhere.
  const progress = new ProgressPrinter({ write: (text) => process.stdout.write(text), live: wantsColour(process.stdout), columns: process.stdout.columns });
  const out = (line: string) => {
    progress.clear();
    process.stdout.write(`${line}\n`);
  };
  const cannotRun = (message: string) => {
    process.stderr.write(`error: cannot run the check: ${message}\n`);
    return EXIT.cannotRun;
  };
  try {
    out(headerLine(resolveOptions(input)));
  } catch (error) {
    return cannotRun((error as Error).message);
  }
  // A report path or a baseline that cannot be used stops the check before it runs.
  let recorded: CheckBaselineEntry[] | undefined;
  try {
    claimReportPaths([
      ['--json', flags.json],
      ['--junit', flags.junit],
    ]);
    recorded = prepareBaseline(CHECK_BASELINE, flags.dialect, flags);
  } catch (error) {
    if (error instanceof BaselineError || error instanceof ReportPathError) return cannotRun(error.message);
    throw error;
  }
  let report: CheckReport;
  // Ctrl-C while a dataset variant holds the target's provider state: released, then the end.
  const keepSignals = releaseHoldsOnSignal();
  try {
    report = await runListingProperties(input, {
      onProgress: (p) => progress.progress(p),
      onResult: (r) => {
        progress.result(r);
        out(resultLine(r));
      },
    });
  } catch (error) {
    progress.clear();
    if (error instanceof CannotRunError) return cannotRun(error.message);
    throw error;
  } finally {
    keepSignals();
  }
  out(summaryText(report));
  for (const [file, render] of [
    [flags.json, jsonReport],
    [flags.junit, junitReport],
  ] as const) {
    if (!file) continue;
    try {
      writeReport(file, render(report));
    } catch (error) {
      if (error instanceof ReportPathError) return cannotRun(error.message);
      throw error;
    }
  }
  // Nothing held and nothing failed: the run judged nothing, and says why.
  if (report.results.length === 0) return cannotRun(`no property ran${report.notes.length ? `: ${report.notes[0]}` : ' on the chosen endpoints, properties and dataset'}`);
  if (report.results.every((r) => r.status === 'skipped')) return cannotRun('every property was skipped (see the reasons above)');
  const passed = passedCheckKeys(report);
  let settled: 0 | 1 | undefined;
  try {
    settled = settleBaseline(CHECK_BASELINE, flags.dialect, flags, recorded, checkBaselineEntries(report), (key) => passed.has(key), out);
  } catch (error) {
    if (error instanceof BaselineError) return cannotRun(error.message);
    throw error;
  }
  if (settled !== undefined) return settled;
  return report.passed ? EXIT.passed : EXIT.failed;
}
