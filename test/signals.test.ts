/**
 * Scripts stop what they start: `npm start` and `npx store-listing-kit serve` end the server when
 * the npm (or npx) process is sent SIGTERM or SIGINT, as a CI script does (`npm start & ... kill $!`),
 * and the port is free for the next start. Each launcher runs in its own process group, which the
 * clean-up kills whole, so a failing test leaves nothing behind.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SIGNALS = ['SIGTERM', 'SIGINT'] as const;
const START_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 20_000;

// A CI script's environment, not this run's: none of the variables npm gives the scripts it runs
// (npm_lifecycle_event, npm_config_*, ...), which the npm started here sets again.
const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')));

interface Launched {
  /** The launcher's process group: every process it started. */
  group: number;
  /** The pid of the npm (or npx) process, which the test signals. */
  npm: number;
  child: ChildProcess;
  exited: Promise<number | string>;
  output(): string;
}

const launched: Launched[] = [];
afterEach(() => {
  for (const { group } of launched.splice(0)) {
    try {
      process.kill(-group, 'SIGKILL');
    } catch {
      // the group is empty already
    }
  }
});

/**
 * `command` in a process group of its own. With `viaShell`, the way a CI script does it:
 * `sh -c '<command> & echo $!; wait'`, whose background job starts with SIGINT ignored.
 */
async function launch(command: string[], cwd: string, viaShell: boolean): Promise<Launched> {
  const [file, args] = viaShell ? ['sh', ['-c', `${command.join(' ')} & echo "npm pid $!"; wait`]] : [command[0]!, command.slice(1)];
  const child = spawn(file, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const exited = new Promise<number | string>((resolve) => child.on('close', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  const group = child.pid!;
  const run: Launched = { group, npm: group, child, exited, output: () => out };
  launched.push(run);
  if (viaShell) run.npm = Number((await waitFor(() => /npm pid (\d+)/.exec(out)?.[1], 10_000, 'the shell to start npm', run))!);
  return run;
}

async function waitFor<T>(probe: () => T | undefined | Promise<T | undefined>, timeoutMs: number, what: string, run: Launched): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}; process group:\n${tree(run.group)}\noutput:\n${run.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The server's port, once it has printed its banner and answers a listing. */
async function serving(run: Launched): Promise<number> {
  const port = await waitFor(() => /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(run.output())?.[1], START_TIMEOUT_MS, 'the server to start', run);
  const res = await fetch(`http://127.0.0.1:${port}/store/products/reviews?limit=1`);
  await res.arrayBuffer();
  expect(res.status).toBe(200);
  return Number(port);
}

/** Whether a new server could listen on the port (what the next `npm start` does). */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

function groupEmpty(group: number): boolean {
  try {
    process.kill(-group, 0);
    return false;
  } catch {
    return true;
  }
}

/** The processes of a group, for a failure's message (ps may be missing: then a note). */
function tree(group: number): string {
  try {
    return execFileSync('ps', ['-o', 'pid,ppid,stat,args', '-g', String(group)], { encoding: 'utf8' });
  } catch {
    return '(no process left, or no ps)';
  }
}

/** Sends `signal` to npm's pid; the port must be free and the whole tree gone within STOP_TIMEOUT_MS. */
async function signalNpmAndExpectAllGone(run: Launched, port: number, signal: NodeJS.Signals): Promise<void> {
  process.kill(run.npm, signal);
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  let free = false;
  let empty = false;
  while (Date.now() < deadline && !(free && empty)) {
    await new Promise((r) => setTimeout(r, 100));
    free = await portFree(port);
    empty = groupEmpty(run.group);
  }
  expect({ portFree: free, processesLeft: empty ? '' : tree(run.group) }).toEqual({ portFree: true, processesLeft: '' });
}

describe('npm start ends the server when npm is signalled', () => {
  for (const signal of SIGNALS) {
    it(`${signal} to npm's pid: the port is free, no process is left, npm exits 0`, { timeout: START_TIMEOUT_MS + 2 * STOP_TIMEOUT_MS }, async () => {
      const run = await launch(['npm', 'start', '--', '--port', '0'], ROOT, false);
      const port = await serving(run);
      await signalNpmAndExpectAllGone(run, port, signal);
      // serve's documented exit code on a signal-requested stop, passed on by npm
      expect(await run.exited).toBe(0);
    });
  }

  it("SIGINT to npm's pid from a CI shell (`npm start & ... kill -INT $!`, the job started with SIGINT ignored)", { timeout: START_TIMEOUT_MS + 2 * STOP_TIMEOUT_MS }, async () => {
    const run = await launch(['npm', 'start', '--', '--port', '0'], ROOT, true);
    const port = await serving(run);
    await signalNpmAndExpectAllGone(run, port, 'SIGINT');
  });
});

describe('npx store-listing-kit serve ends the server when npx is signalled', () => {
  // A project that has the kit installed: node_modules/store-listing-kit is this checkout, and
  // node_modules/.bin/store-listing-kit links to its bin, as npm links it.
  let project: string;
  beforeAll(() => {
    project = mkdtempSync(join(tmpdir(), 'store-listing-kit-signals-'));
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'signals-scratch', private: true, dependencies: { 'store-listing-kit': '*' } }));
    mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true });
    symlinkSync(ROOT, join(project, 'node_modules', 'store-listing-kit'), 'dir');
    symlinkSync(join('..', 'store-listing-kit', 'bin', 'store-listing-kit.js'), join(project, 'node_modules', '.bin', 'store-listing-kit'));
  });
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  const npx = ['npx', '--no-install', 'store-listing-kit', 'serve', '--port', '0'];
  for (const signal of SIGNALS) {
    it(`${signal} to npx's pid: the port is free, no process is left`, { timeout: START_TIMEOUT_MS + 2 * STOP_TIMEOUT_MS }, async () => {
      const run = await launch(npx, project, false);
      const port = await serving(run);
      await signalNpmAndExpectAllGone(run, port, signal);
    });
  }

  it("SIGINT to npx's pid with --workers 2: the primary and its workers end", { timeout: START_TIMEOUT_MS + 2 * STOP_TIMEOUT_MS }, async () => {
    const run = await launch([...npx, '--workers', '2'], project, false);
    const port = await serving(run);
    await signalNpmAndExpectAllGone(run, port, 'SIGINT');
  });

  it("SIGINT to npx's pid from a CI shell (`npx ... & ... kill -INT $!`, the job started with SIGINT ignored)", { timeout: START_TIMEOUT_MS + 2 * STOP_TIMEOUT_MS }, async () => {
    const run = await launch(npx, project, true);
    const port = await serving(run);
    await signalNpmAndExpectAllGone(run, port, 'SIGINT');
  });
});

describe("every npm script is the process npm signals", () => {
  // npm forwards SIGTERM/SIGINT to its `sh -c` child only, and dash forks even a lone command: without
  // `exec`, `npm test` killed by a CI timeout left vitest and its forks running (seen: vitest with ppid 1).
  it('each script runs its last command with exec (earlier steps of a chain end by themselves)', async () => {
    const { scripts } = (await import('../package.json', { with: { type: 'json' } })).default as { scripts: Record<string, string> };
    const notExec = Object.entries(scripts).filter(([, command]) => !/(^|&& )exec \S/.test(command) || /\|\||[|;&]\s*$/.test(command));
    expect(notExec).toEqual([]);
  });
});
