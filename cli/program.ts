import { readFileSync } from 'node:fs';
import { Command, CommanderError, type Option } from 'commander';
import { boundedText, quoteArgument } from '../lib/quote.ts';

/** The kit's version, from its package.json: one folder up from the sources (cli/), two from the build (dist/cli/). */
function kitVersion(): string {
  for (const candidate of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(candidate, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'store-listing-kit' && pkg.version) return pkg.version;
    } catch {
      // not there: the next candidate
    }
  }
  return 'unknown';
}

/**
 * The exit codes of every command (docs/exit-codes.md): the target holds, the target breaks a
 * rule, or the command cannot run (bad options, unreachable target, unknown ids, unwritable output).
 */
export const EXIT = { ok: 0, broken: 1, cannotRun: 2 } as const;

/**
 * Commander's own errors (unknown command or option, bad or missing value) mean the command cannot
 * run: exit 2, not commander's 1. `--help` and `--version` stay 0. Commander has already written
 * the message; the error is rethrown with the code so that the caller sets it (no process.exit here,
 * so a test can parse a command line in its own process).
 */
export function usageExitCode(error: CommanderError): never {
  throw new CommanderError(error.exitCode === 0 ? EXIT.ok : EXIT.cannotRun, error.code, error.message);
}

/** The two commander methods KitCommand reorders; commander keeps them out of its typings. */
interface CommanderChecks {
  missingMandatoryOptionValue(option: Option): void;
  unknownOption(flag: string): void;
}

/**
 * The kit's commands, one place for what every command does with a mistyped option: commander
 * says "did you mean" only when it reports the unknown option, and it checks the required options
 * first, so `check --base-ulr <url>` read "required option '--base-url' not specified" with no
 * suggestion. Here an unknown option (with its suggestion) is reported before a missing required
 * one. Each command made with `.command()` is a KitCommand too.
 */
class KitCommand extends Command {
  override createCommand(name?: string): Command {
    return new KitCommand(name);
  }
}

/** How much of a value given on the command line a usage error quotes, and how long the whole sentence may grow. */
const QUOTED_ARGUMENT_CHARS = 80;
const MAX_USAGE_ERROR_CHARS = 600;

/**
 * Every usage error is one line on stderr, whatever was typed: commander quotes a refused value
 * (`argument '<value>' is invalid`), an unknown option or command as given, and the kit's own
 * messages quote the value again (`got '<value>'`). A value with a line break or an ESC (an ANSI
 * sequence) broke the line or spoke to the terminal, and a 100 kB value was printed twice. So a
 * refused value is quoted bounded and printable (lib/quote.ts), and the whole sentence is made
 * printable and bounded once more, in `error`, for the names commander quotes itself.
 */
Object.defineProperty(KitCommand.prototype, '_callParseArg', {
  configurable: true,
  writable: true,
  value(this: Command, target: { parseArg?: (value: string, previous: unknown) => unknown }, value: string, previous: unknown, invalidArgumentMessage: string): unknown {
    try {
      return target.parseArg!(value, previous);
    } catch (err) {
      if ((err as { code?: string }).code !== 'commander.invalidArgument') throw err;
      const as = `'${value}'`;
      const shown = quoteArgument(value, QUOTED_ARGUMENT_CHARS);
      const message = `${invalidArgumentMessage.replace(as, () => shown)} ${(err as Error).message.split(as).join(shown)}`;
      return this.error(message, { exitCode: (err as CommanderError).exitCode, code: (err as CommanderError).code });
    }
  },
});

Object.defineProperty(KitCommand.prototype, 'error', {
  configurable: true,
  writable: true,
  value(this: Command, message: string, options?: { exitCode?: number; code?: string }): never {
    return Command.prototype.error.call(this, boundedText(message, MAX_USAGE_ERROR_CHARS), options);
  },
});

const commanderChecks = Command.prototype as unknown as CommanderChecks;
Object.defineProperty(KitCommand.prototype, 'missingMandatoryOptionValue', {
  configurable: true,
  writable: true,
  value(this: Command & CommanderChecks, option: Option): void {
    // By then commander has parsed the options: the arguments it kept include the unknown ones, as given.
    const isKnown = (flag: string) => this.options.some((known) => known.long === flag || known.short === flag);
    const unknown = this.args.find((arg) => arg.startsWith('-') && arg !== '-' && !isKnown(arg.split('=')[0]!));
    if (unknown !== undefined) commanderChecks.unknownOption.call(this, unknown);
    commanderChecks.missingMandatoryOptionValue.call(this, option);
  },
});

/** The `store-listing-kit` program without its commands: name, description, version, error help, exit codes. */
export function baseProgram(): Command {
  // Set before any command is added: commander copies the exit override and the output
  // settings to each command created with .command().
  return new KitCommand('store-listing-kit')
    .description('Mock server, Pact contracts and property checks for the paginated reviews and wishlist listing endpoints')
    .version(kitVersion())
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride(usageExitCode);
}

/**
 * Stops a command that cannot run (unreachable target, unwritable file...): one `error: ...` line on
 * stderr and exit 2. Unlike `cmd.error`, no "--help" hint: the options were fine.
 */
export function cannotRun(message: string): never {
  process.stderr.write(`error: ${message}\n`);
  throw new CommanderError(EXIT.cannotRun, 'store-listing-kit.cannotRun', message);
}

/** Applies the exit-code override to a program and every command under it (for commands added from elsewhere). */
export function withExitCodes(program: Command): Command {
  for (const command of [program, ...program.commands]) command.exitOverride(usageExitCode);
  return program;
}

/** Set by a command with a verdict to give (`check`, `verify`): see endQuietlyWhenTheReaderLeaves. */
let verdictToGive = false;

/**
 * `check` and `verify` judge a target: a reader that leaves early (`check | head`) must not turn a
 * failing target into exit 0 (under `set -o pipefail`, a green CI step). They call this first; from
 * then on a closed pipe only silences the output, and the command ends with its own verdict.
 */
export function keepTheVerdictWhenTheReaderLeaves(): void {
  verdictToGive = true;
}

/**
 * A reader that closes the pipe early (`fixtures | head`) has had all it wanted: that is a normal end,
 * not an error. A command with nothing to judge stops there, silently, with the exit code it has
 * reached (0 when none yet); one with a verdict to give (keepTheVerdictWhenTheReaderLeaves) goes on
 * without output and ends with its verdict. The same for standard output and standard error. Any
 * other write error goes to the last resort (bin/store-listing-kit.js): one `error:` line, exit 2.
 * Called once by each entry's `main`.
 */
export function endQuietlyWhenTheReaderLeaves(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
      if (!verdictToGive) process.exit(process.exitCode ?? EXIT.ok);
      mute(stream);
    });
  }
}

/** Further writes to a stream whose reader left go nowhere (and still call their callbacks). */
function mute(stream: NodeJS.WriteStream): void {
  stream.write = ((_chunk: unknown, encodingOrCallback?: unknown, callback?: unknown) => {
    const done = typeof encodingOrCallback === 'function' ? encodingOrCallback : callback;
    if (typeof done === 'function') queueMicrotask(() => (done as () => void)());
    return true;
  }) as typeof stream.write;
}
