/**
 * `.ci/run`'s steps (`step` from .ci/step.sh): a SIGTERM, SIGINT or SIGHUP to the script ends the
 * running step's whole process tree, then the script exits 143, 130 or 129; a failing step still
 * fails the script with its exit code, and the output and timing lines stay. The real .ci/run is
 * never run here: each test sources .ci/step.sh into a small `bash -c` script whose step is a node
 * process that starts a grandchild. Each script runs in a process group of its own, and every pid
 * a test saw is SIGKILLed at the end, so a failing test leaves nothing behind.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { groupMembers } from './support/process-group.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const STEP_SH = join(ROOT, '.ci', 'step.sh');
const TIMEOUT_MS = 20_000;

interface Script {
  child: ChildProcess;
  exited: Promise<number | string>;
  output(): string;
}

const seen: number[] = [];
const scripts: Script[] = [];
afterEach(() => {
  for (const pid of seen.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  for (const { child } of scripts.splice(0)) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // the group is empty already
    }
  }
});

/** `body` after `set -euo pipefail` and `source .ci/step.sh`, as .ci/run begins. */
function script(body: string, env: NodeJS.ProcessEnv = {}): Script {
  const child = spawn('bash', ['-c', `set -euo pipefail\nsource ${JSON.stringify(STEP_SH)}\n${body}`], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const exited = new Promise<number | string>((resolve) => child.on('close', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  const run = { child, exited, output: () => out };
  scripts.push(run);
  return run;
}

async function waitFor<T>(probe: () => T | undefined, what: string, run: Script): Promise<T> {
  const deadline = Date.now() + TIMEOUT_MS;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}; output:\n${run.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Whether `pid` still runs (a zombie waiting for init to reap it has ended). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/**
 * A step of node that starts a grandchild (`sh -c 'sleep 300; ...'`, or one that ignores SIGTERM
 * and SIGINT), prints both pids and waits: the step's group is then node, sh and sleep.
 */
function treeStep(grandchild: string): string {
  const code = `const c = require('node:child_process').spawn('sh', ['-c', ${JSON.stringify(grandchild)}], { stdio: 'ignore' }); setTimeout(() => console.log('pids', process.pid, c.pid), 200); setInterval(() => {}, 1000);`;
  return `step node -e ${shellQuote(code)}`;
}

const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

async function stepPids(run: Script): Promise<number[]> {
  const line = await waitFor(() => /^pids (\d+) (\d+)$/m.exec(run.output()) ?? undefined, 'the step to start its grandchild', run);
  const [step, grandchild] = [Number(line[1]), Number(line[2])];
  // and the grandchild's own child: `sleep`, forked by sh
  const pids = await waitFor(() => {
    const group = groupMembers(step);
    return group.length >= 3 && group.includes(grandchild) ? group : undefined;
  }, "the grandchild's sleep", run);
  seen.push(...pids);
  return pids;
}


describe('.ci/step.sh: a signal to the script ends the running step', () => {
  for (const [signal, code] of [['SIGTERM', 143], ['SIGINT', 130], ['SIGHUP', 129]] as const) {
    it(`${signal}: the step and its grandchild end, the script exits ${code} and runs nothing after`, { timeout: 2 * TIMEOUT_MS }, async () => {
      const run = script(`${treeStep('sleep 300; sleep 1')}\necho after the step`);
      const pids = await stepPids(run);
      expect(pids.every(alive)).toBe(true);
      process.kill(run.child.pid!, signal);
      expect(await run.exited).toBe(code);
      expect(pids.filter(alive)).toEqual([]);
      expect(run.output()).toContain(`::: ${signal}: stopping the running step (node -e `);
      expect(run.output()).not.toContain('after the step');
    });
  }

  it('a step that ignores SIGTERM is killed once CI_STEP_GRACE seconds have passed', { timeout: 2 * TIMEOUT_MS }, async () => {
    const run = script(treeStep("trap '' TERM INT; sleep 300; sleep 1"), { CI_STEP_GRACE: '1' });
    const pids = await stepPids(run);
    process.kill(run.child.pid!, 'SIGTERM');
    expect(await run.exited).toBe(143);
    expect(pids.filter(alive)).toEqual([]);
    expect(run.output()).toContain('still running after 1 s: killed');
  });
});

describe('.ci/step.sh: a step as .ci/run ran it before', () => {
  it('prints the step, its output and its time, in order; passes an env prefix on', { timeout: TIMEOUT_MS }, async () => {
    const run = script(`GREETING=hello step node -e 'console.log(process.env.GREETING)'\necho next`);
    expect(await run.exited).toBe(0);
    expect(run.output()).toMatch(/^::: node -e console\.log\(process\.env\.GREETING\) \(node v\d+\.\d+\.\d+\)\nhello\n::: node -e console\.log\(process\.env\.GREETING\) took \d+ s\nnext\n$/);
  });

  it('a failing step ends the script with its exit code (set -e), but not in a condition', { timeout: TIMEOUT_MS }, async () => {
    const failing = script(`step sh -c 'exit 3'\necho after`);
    expect(await failing.exited).toBe(3);
    expect(failing.output()).toContain("::: sh -c exit 3 failed (exit 3) after ");
    expect(failing.output()).not.toContain('after\n');

    const tested = script(`if ! step sh -c 'exit 4'; then echo caught; fi`);
    expect(await tested.exited).toBe(0);
    expect(tested.output()).toContain('caught\n');
  });

  it('.ci/run takes its step from .ci/step.sh and parses', () => {
    const run = readFileSync(join(ROOT, '.ci', 'run'), 'utf8');
    expect(run).toMatch(/^source \.ci\/step\.sh$/m);
    expect(run).not.toMatch(/^\s*step\(\)/m);
    // every command that installs or tests runs as a step (a foreground command would hold the trap back)
    expect(run).not.toMatch(/^\s*\(cd /m);
    expect(spawnSync('bash', ['-n', join(ROOT, '.ci', 'run')], { encoding: 'utf8' }).stderr).toBe('');
  });
});
