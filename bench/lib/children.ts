/**
 * Every process the bench starts, in one place, so that none outlives it: the servers it measures,
 * the load generator (wrk), the builds (this checkout's, older commits'), the peers' install, the
 * `check` runs. Each child starts in a process group of its own (a wrapper's children, npx's or
 * java's, share it), and ending a child ends its group.
 *
 * On SIGINT, SIGTERM or SIGHUP (`stopOnSignals`) the bench starts nothing more, SIGTERMs every
 * group, SIGKILLs those still there after a few seconds, removes the files and folders it marked
 * as temporary (an older commit's unfinished build, the wrk script), and exits 128 + the signal's
 * number (130, 143, 129); a second signal SIGKILLs at once. An error exit ends them the same way
 * (`endChildren`), and the process's 'exit' event SIGKILLs any group still registered, whatever
 * ended the process.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { rmSync } from 'node:fs';
import { constants } from 'node:os';

/** How long a child has to end on SIGTERM before its group is SIGKILLed. */
const GRACE_MS = 5000;
/** How long to wait for a SIGKILLed leader's exit to be seen. */
const KILLED_MS = 2000;
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

const children = new Set<ChildProcess>();
const temporaries = new Set<string>();
let ending: Promise<void> | undefined;
let stoppedBy: NodeJS.Signals | undefined;

/** Raised by `startChild` once the bench is ending: nothing new starts then. */
export class BenchEnding extends Error {}

/** The signal that is ending the bench, if one is. */
export const stoppingSignal = (): NodeJS.Signals | undefined => stoppedBy;

/** `spawn`, in a process group of its own, registered until it exits. */
export function startChild(command: string, args: readonly string[], options: SpawnOptions = {}): ChildProcess {
  if (ending) throw new BenchEnding(`the bench is ending (${stoppedBy ?? 'error'}): ${command} not started`);
  const child = spawn(command, args, { ...options, detached: true });
  if (child.pid === undefined) {
    // could not start (ENOENT...): 'error' follows, the caller's handler reports it
    return child;
  }
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

export interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Set when the command could not start at all. */
  error?: Error;
}

/** A command run to its end as a registered child; its output captured (`inherit`: shown). */
export function runChild(command: string, args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; output?: 'capture' | 'inherit' } = {}): Promise<Ended> {
  return new Promise((resolve) => {
    const inherit = options.output === 'inherit';
    const child = startChild(command, args, { cwd: options.cwd, env: options.env, stdio: inherit ? ['ignore', 'inherit', 'inherit'] : ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', (error) => resolve({ code: null, signal: null, stdout, stderr, error }));
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** A file or folder to remove when the bench ends, unless `keep` is called first. */
export function temporary(path: string): string {
  temporaries.add(path);
  return path;
}

export function keep(path: string): void {
  temporaries.delete(path);
}

/** Resolves once `child` has exited, or after `ms`. */
function exited(child: ChildProcess, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(resolve, ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-(child.pid as number), signal);
  } catch {
    // the group is gone
  }
}

/** Ends every registered child's group (SIGTERM, then SIGKILL after GRACE_MS) and removes the temporaries. Once. */
export function endChildren(): Promise<void> {
  ending ??= (async () => {
    const running = [...children];
    for (const child of running) killGroup(child, 'SIGTERM');
    await Promise.all(running.map((child) => exited(child, GRACE_MS)));
    // what is left of each group: its leader would not end, or a grandchild outlived it
    for (const child of running) killGroup(child, 'SIGKILL');
    await Promise.all(running.map((child) => exited(child, KILLED_MS)));
    for (const path of temporaries) rmSync(path, { recursive: true, force: true });
    temporaries.clear();
  })();
  return ending;
}

/** SIGINT, SIGTERM and SIGHUP end every child, then the bench (exit 130, 143, 129). */
export function stopOnSignals(log: (line: string) => void): void {
  for (const signal of SIGNALS) {
    process.on(signal, () => {
      if (stoppedBy) {
        log(`bench: ${signal} again: killing what it started`);
        for (const child of children) killGroup(child, 'SIGKILL');
        process.exit(128 + constants.signals[signal]);
      }
      stoppedBy = signal;
      log(`bench: ${signal}: stopping what it started`);
      void endChildren().finally(() => process.exit(128 + constants.signals[signal]));
    });
  }
  // whatever ends the process (an uncaught error, process.exit): no group outlives it
  process.on('exit', () => {
    for (const child of children) killGroup(child, 'SIGKILL');
    for (const path of temporaries) rmSync(path, { recursive: true, force: true });
  });
}
