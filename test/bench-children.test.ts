/**
 * bench/lib/children.ts, the one place the bench's children are kept: `endChildren` (what the
 * bench's error exit and its signal handlers call) ends every child's whole process group, a
 * group that ignores SIGTERM too, removes the temporaries, and nothing starts after it.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BenchEnding, endChildren, keep, runChild, startChild, temporary } from '../bench/lib/children.ts';
import { groupMembers } from './support/process-group.ts';


const groups: number[] = [];
const dir = mkdtempSync(join(tmpdir(), 'store-listing-kit-bench-children-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  for (const group of groups) {
    try {
      process.kill(-group, 'SIGKILL');
    } catch {
      // gone
    }
  }
});

async function until(probe: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('endChildren', () => {
  it('ends every group (SIGKILL for one that ignores SIGTERM), removes the temporaries, and starts nothing after', { timeout: 30_000 }, async () => {
    expect((await runChild(process.execPath, ['-e', 'console.log(6 * 7)'])).stdout).toBe('42\n');

    // a wrapper and its grandchild, as npx and a peer, or bash and wrk
    const wrapper = startChild('sh', ['-c', 'sleep 300 & sleep 301 & wait'], { stdio: 'ignore' });
    // a group that will not end on SIGTERM
    const stubborn = startChild('sh', ['-c', "trap '' TERM; sleep 302 & sleep 303 & wait"], { stdio: 'ignore' });
    groups.push(wrapper.pid!, stubborn.pid!);
    await until(() => groupMembers(wrapper.pid!).length === 3 && groupMembers(stubborn.pid!).length === 3, 'the groups to start their sleeps');

    const unfinished = temporary(join(dir, 'build-unfinished'));
    writeFileSync(unfinished, 'half a build');
    const built = temporary(join(dir, 'build-done'));
    writeFileSync(built, 'a whole build');
    keep(built);

    await endChildren();
    // SIGKILLed orphans (the sleeps) take a moment to be gone on a loaded machine
    await until(() => groupMembers(wrapper.pid!).length === 0 && groupMembers(stubborn.pid!).length === 0, 'both groups to end');
    expect(existsSync(unfinished)).toBe(false);
    expect(existsSync(built)).toBe(true);
    expect(() => startChild('sleep', ['300'])).toThrow(BenchEnding);
  });
});
