/**
 * `npm run bench` stops what it starts: SIGTERM or SIGINT to npm's pid (what a CI script or a
 * supervisor sends), or SIGHUP to npm's process group (a terminal that closes), while the bench
 * warms its servers up, ends the bench, its servers (each in a process group of its own) and
 * everything else it started, and frees their ports. A cheap run: `--only raw-http` starts the
 * probe (`serve --reviews 1000`), then the raw node:http and bare Express ceilings, and warms the
 * first up with autocannon (a devDependency; no wrk, no peers) for two minutes, which the signal
 * cuts short.
 *
 * Every process of the tree is read from /proc before the signal (pid and start time), and the
 * clean-up SIGKILLs whichever is left, so a failing test leaves nothing behind.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const START_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 30_000;
const BENCH = ['npm', 'run', 'bench', '--', '--only', 'raw-http', '--no-peers', '--no-install', '--generator', 'autocannon', '--warmup', '60', '--duration', '1', '--rounds', '1', '--out', '-'];

// A CI script's environment, not this run's: none of the variables npm gives the scripts it runs.
const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')));

/** A process as /proc shows it: its start time tells it from a later one with the same pid. */
interface Proc {
  pid: number;
  ppid: number;
  state: string;
  start: string;
}

function readProc(pid: number): Proc | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is the state, [1] the parent, [19] the start time (fields 3, 4 and 22 of proc(5))
    return { pid, state: fields[0]!, ppid: Number(fields[1]), start: fields[19]! };
  } catch {
    return undefined;
  }
}

/** `root` and all its descendants. */
function processTree(root: number): Proc[] {
  const all = readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map((entry) => readProc(Number(entry)))
    .filter((p): p is Proc => p !== undefined);
  const out: Proc[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    const self = all.find((p) => p.pid === pid);
    if (self) out.push(self);
    stack.push(...all.filter((p) => p.ppid === pid).map((p) => p.pid));
  }
  return out;
}

/** Still running: the same process (not a zombie, not a new one with its pid). */
function stillRunning(p: Proc): boolean {
  const now = readProc(p.pid);
  return now !== undefined && now.start === p.start && now.state !== 'Z';
}

function commandLine(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

interface Launched {
  child: ChildProcess;
  npm: number;
  exited: Promise<number | string>;
  output(): string;
  /** The tree as read before the signal. */
  tree: Proc[];
}

const launched: Launched[] = [];
afterEach(() => {
  for (const run of launched.splice(0)) {
    for (const p of run.tree) if (stillRunning(p)) process.kill(p.pid, 'SIGKILL');
    try {
      process.kill(-run.npm, 'SIGKILL');
    } catch {
      // the group is empty already
    }
  }
});

function launch(): Launched {
  const child = spawn(BENCH[0]!, BENCH.slice(1), { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const exited = new Promise<number | string>((resolve) => child.on('close', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  const run: Launched = { child, npm: child.pid!, exited, output: () => out, tree: [] };
  launched.push(run);
  return run;
}

async function waitFor<T>(probe: () => T | undefined | Promise<T | undefined>, timeoutMs: number, what: string, run: Launched): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}; output:\n${run.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Once the bench warms its first server up: its tree, and the ports its ceilings listen on (their first argument). */
async function warmingUp(run: Launched): Promise<number[]> {
  await waitFor(() => (run.output().includes('warming up raw-http') ? true : undefined), START_TIMEOUT_MS, 'the bench to warm raw-http up', run);
  run.tree = processTree(run.npm);
  const ports = run.tree.flatMap((p) => {
    const argv = commandLine(p.pid);
    const script = argv.findIndex((arg) => /bench\/ceilings\/(raw-http|express)\.mjs$/.test(arg));
    return script >= 0 ? [Number(argv[script + 1])] : [];
  });
  expect(ports).toHaveLength(2);
  for (const port of ports) expect(await portFree(port)).toBe(false);
  return ports;
}

async function expectAllGone(run: Launched, ports: number[]): Promise<void> {
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  let left = run.tree;
  let busy = ports;
  while (Date.now() < deadline) {
    left = run.tree.filter(stillRunning);
    busy = [];
    for (const port of ports) if (!(await portFree(port))) busy.push(port);
    if (left.length === 0 && busy.length === 0) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  expect({ processesLeft: left.map((p) => `${p.pid} ${commandLine(p.pid).join(' ').slice(0, 160)}`), portsBusy: busy }).toEqual({ processesLeft: [], portsBusy: [] });
}

describe('npm run bench ends everything it started', () => {
  const timeout = START_TIMEOUT_MS + 2 * STOP_TIMEOUT_MS;

  for (const [signal, code] of [['SIGTERM', 143], ['SIGINT', 130]] as const) {
    it(`${signal} to npm's pid: the bench and the servers it started end, their ports are free, npm exits ${code}`, { timeout }, async () => {
      const run = launch();
      const ports = await warmingUp(run);
      process.kill(run.npm, signal);
      await expectAllGone(run, ports);
      expect(run.output()).toContain(`bench: ${signal}: stopping what it started`);
      // the bench's exit code (128 + the signal's number), passed on by npm
      expect(await run.exited).toBe(code);
    });
  }

  it("SIGHUP to npm's process group (a terminal that closes): the same", { timeout }, async () => {
    const run = launch();
    const ports = await warmingUp(run);
    process.kill(-run.npm, 'SIGHUP');
    await expectAllGone(run, ports);
    await run.exited;
    expect(run.output()).toContain('bench: SIGHUP: stopping what it started');
  });
});
