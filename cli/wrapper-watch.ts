/**
 * `serve` started by npm (`npm start`, `npm run <script>`, `npx store-listing-kit serve`) stops when
 * the process between npm and it can no longer pass a stop on. npm passes SIGTERM and SIGINT on to
 * its own child only; when that child is a shell that runs `serve` (npm exec always runs a bin
 * through `sh -c`, and Debian's dash forks even a lone command), the signal ends there:
 *
 * - SIGTERM kills the shell, and `serve` is left to init, holding its port: here the parent pid
 *   changes, which ends `serve` as SIGTERM would;
 * - SIGINT is caught by a `sh -c` shell, which waits for its child and passes nothing on: here the
 *   shell wakes from its wait, which nothing but a signal does while its only child (`serve`)
 *   runs; Linux counts every such wake (`voluntary_ctxt_switches` in /proc/<pid>/status).
 *
 * Only under npm (its `npm_lifecycle_event` in the environment): a `serve &` whose shell ends is
 * meant to outlive it. docs/architecture.md, "Scripts stop what they start", says why.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

export const WRAPPER_POLL_MS = 200;
const SHELLS = new Set(['sh', 'dash', 'bash', 'ash', 'zsh', 'ksh', 'mksh']);

export function startedByNpm(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.npm_lifecycle_event !== undefined;
}

function readProc(path: string): string | undefined {
  try {
    return readFileSync(path, 'latin1');
  } catch {
    return undefined;
  }
}

/** Whether `pid` is a shell running a `-c` command line (Linux; elsewhere: false). */
function isCommandShell(pid: number): boolean {
  const argv = readProc(`/proc/${pid}/cmdline`)?.split('\0');
  return argv !== undefined && SHELLS.has(basename(argv[0] ?? '').replace(/^-/, '')) && argv.slice(1).some((a) => /^-[a-z]*c[a-z]*$/.test(a));
}

/** How often `pid` has gone to sleep (woken and slept again), or undefined when /proc does not say. */
function sleeps(pid: number): number | undefined {
  const match = /^voluntary_ctxt_switches:\s*(\d+)$/m.exec(readProc(`/proc/${pid}/status`) ?? '');
  return match ? Number(match[1]) : undefined;
}

/** Whether this process is `pid`'s only child (only then is a wake of `pid` a signal, not a SIGCHLD). */
function onlyChildOf(pid: number): boolean {
  return readProc(`/proc/${pid}/task/${pid}/children`)?.trim() === String(process.pid);
}

/**
 * Calls `stop` once, with a sentence naming the cause, when the process that started this one
 * ends, or when that process is a `-c` shell that caught a signal. Returns the function that ends
 * the watch. The timer does not keep the process alive.
 */
export function watchWrapper(stop: (cause: string) => void, pollMs = WRAPPER_POLL_MS): () => void {
  const parent = process.ppid;
  const shell = isCommandShell(parent);
  let baseline = shell && onlyChildOf(parent) ? sleeps(parent) : undefined;
  // Stopping and continuing this process (Ctrl-Z, SIGSTOP/SIGCONT) wakes the shell too (SIGCHLD), and
  // a continue always comes with a SIGCONT here: a wake is judged one tick after it is seen, when
  // this process's own SIGCONT, if any, has been handled.
  let continued = false;
  let woken = false;
  const onContinue = () => (continued = true);
  process.on('SIGCONT', onContinue);
  const end = () => {
    clearInterval(timer);
    process.off('SIGCONT', onContinue);
  };
  const timer = setInterval(() => {
    if (process.ppid !== parent) {
      end();
      stop(`the process that started it (pid ${parent}) has ended`);
      return;
    }
    if (!shell) return;
    const current = onlyChildOf(parent) ? sleeps(parent) : undefined;
    if (woken && !continued) {
      end();
      stop(`the shell that started it (pid ${parent}) caught a signal, which a shell does not pass on`);
      return;
    }
    woken = baseline !== undefined && current !== undefined && current !== baseline && !continued;
    continued = false;
    baseline = current;
  }, pollMs);
  timer.unref();
  return end;
}

export interface WrapperWatch {
  /** Calls `stop` when the npm wrapper went away or caught a signal: now, if that happened already. */
  onStop(stop: (cause: string) => void): void;
}

/** `watchWrapper` under npm (nothing otherwise), watching from now on, before a server is up to stop (`serve`, `proxy`). */
export function watchWrapperFromNow(): WrapperWatch {
  let cause: string | undefined;
  let stopServe: ((cause: string) => void) | undefined;
  if (startedByNpm()) watchWrapper((why) => (stopServe ? stopServe(why) : (cause = why)));
  return {
    onStop(stop) {
      stopServe = stop;
      if (cause !== undefined) stop(cause);
    },
  };
}
