/**
 * Starting, pinning, probing and stopping the servers the benchmark measures.
 *
 * Every server runs under `taskset -c <server core>` so that it never shares a core with the
 * load generator, in its own process group so that stopping it also stops whatever it spawned
 * (started through children.ts, which ends every group when the bench ends, however it ends).
 * Resident memory is the sum over the whole process tree (a CLI wrapper plus its server).
 */
import { execFileSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { openSync, readFileSync, readdirSync, closeSync } from 'node:fs';
import { startChild } from './children.ts';

export interface RunningServer {
  name: string;
  child: ChildProcess;
  pid: number;
  port: number;
  /** Milliseconds from spawn to the first successful answer. */
  startMs: number;
  logFile: string;
}

/** A free loopback port, found by binding port 0 and releasing it. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export function cpuCount(): number {
  try {
    return Number(execFileSync('nproc', { encoding: 'utf8' }).trim());
  } catch {
    return 1;
  }
}

/** Pin every thread of this process (the load generator) to one core. */
export function pinSelf(core: number): void {
  execFileSync('taskset', ['-a', '-p', '-c', String(core), String(process.pid)], { stdio: 'ignore' });
}

export function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export interface SpawnSpec {
  name: string;
  command: string;
  args: string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** A path to GET until it answers 200 (the port is filled in by the caller). */
  readyPath: string;
  port: number;
  core: number | undefined;
  logFile: string;
  /** Give up waiting for readiness after this many milliseconds. */
  readyTimeoutMs?: number;
  /** Milliseconds between readiness probes (default 25; the start-up comparison uses a finer step). */
  pollMs?: number;
}

/** Spawn a server pinned to a core, and wait until `readyPath` answers 200. */
export async function startServer(spec: SpawnSpec): Promise<RunningServer> {
  const fd = openSync(spec.logFile, 'w');
  const [command, args] =
    spec.core === undefined ? [spec.command, spec.args] : ['taskset', ['-c', String(spec.core), spec.command, ...spec.args]];
  const started = performance.now();
  let child: ChildProcess;
  try {
    child = startChild(command, args, { cwd: spec.cwd, env: { ...process.env, ...spec.env }, stdio: ['ignore', fd, fd] });
  } finally {
    closeSync(fd);
  }
  let exited: string | undefined;
  child.on('error', (error) => {
    exited = `could not start (${error.message})`;
  });
  child.on('exit', (code, signal) => {
    exited = `exited with ${signal ?? code}`;
  });
  const deadline = started + (spec.readyTimeoutMs ?? 90_000);
  const url = `http://127.0.0.1:${spec.port}${spec.readyPath}`;
  for (;;) {
    if (exited) throw new Error(`${spec.name} ${exited} before answering; see ${spec.logFile}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (performance.now() > deadline) {
      stopServer({ name: spec.name, child, pid: child.pid ?? 0, port: spec.port, startMs: 0, logFile: spec.logFile });
      throw new Error(`${spec.name} did not answer 200 on ${url} within ${spec.readyTimeoutMs ?? 90_000} ms; see ${spec.logFile}`);
    }
    await new Promise((r) => setTimeout(r, spec.pollMs ?? 25));
  }
  return {
    name: spec.name,
    child,
    pid: child.pid ?? 0,
    port: spec.port,
    startMs: performance.now() - started,
    logFile: spec.logFile,
  };
}

/** Stop a server and everything it spawned (its process group), then wait for it to go. */
export async function stopServer(server: RunningServer): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  const gone = new Promise<void>((resolve) => server.child.once('exit', () => resolve()));
  try {
    process.kill(-server.pid, 'SIGTERM');
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-server.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }, 5000);
  await gone;
  clearTimeout(timer);
}

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name may hold spaces and parentheses: fields start after the last ')'
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[1]);
  } catch {
    return undefined;
  }
}

/** The pid and all its descendants (from /proc). */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    const parent = parentOf(pid);
    if (parent === undefined) continue;
    const list = children.get(parent) ?? [];
    list.push(pid);
    children.set(parent, list);
  }
  const out: number[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const pid = stack.pop() as number;
    out.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return out;
}

function statusKb(pid: number, key: 'VmRSS' | 'VmHWM'): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status);
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/** Resident memory of a process tree, in MiB. */
export function treeRssMiB(root: number): number {
  return processTree(root).reduce((sum, pid) => sum + statusKb(pid, 'VmRSS'), 0) / 1024;
}

/** CPU time (user + system) used so far by a process tree, in seconds (from /proc, clock ticks of 10 ms). */
export function treeCpuSeconds(root: number): number {
  let ticks = 0;
  for (const pid of processTree(root)) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // fields[11] and [12] are utime and stime (fields 14 and 15 of proc(5))
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone
    }
  }
  return ticks / 100;
}
