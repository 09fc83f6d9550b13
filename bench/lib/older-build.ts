/**
 * An older commit of the kit, built from git beside this checkout, to run in the same rounds as
 * this build: `random-<size>@<rev>` (issue 27: the random uncached page against 26a2658, the
 * commit before the journal kept bodies and page facts). The build is `git archive` of that
 * commit into the bench's work folder, this checkout's node_modules, its own build script; made
 * once and kept (`.built`); a build the bench's end cuts short is removed (children.ts).
 */
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { median } from './stats.ts';
import { keep, runChild, temporary } from './children.ts';

/** The commit the random uncached page is compared with: before the journal with bodies and the writes overlay. */
export const RANDOM_PAGE_BASELINE = '26a2658';

/** The CLI of commit `rev` built into `work`, or why it cannot be (no git history, say, in a package). */
export async function buildCommit(root: string, work: string, rev: string, log: (line: string) => void): Promise<{ cli: string; dir: string } | { skipped: string }> {
  const dir = join(work, `build-${rev}`);
  const cli = join(dir, 'bin', 'store-listing-kit.js');
  if (existsSync(join(dir, '.built'))) return { cli, dir };
  log(`building ${rev} into ${dir}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(temporary(dir), { recursive: true });
  const archive = await runChild('sh', ['-c', `git -C "$0" archive --format=tar "$2" | tar -x -C "$1"`, root, dir, rev]);
  if (archive.code !== 0) return { skipped: `git could not give commit ${rev} (${archive.stderr.trim().split('\n')[0] || `exit ${archive.signal ?? archive.code}`})` };
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  const build = await runChild(process.execPath, ['scripts/build.mjs'], { cwd: dir });
  if (build.code !== 0) return { skipped: `the build of ${rev} failed (${build.stderr.trim().split('\n')[0] || `exit ${build.signal ?? build.code}`})` };
  writeFileSync(join(dir, '.built'), `${rev}\n`);
  keep(dir);
  return { cli, dir };
}

/**
 * `order` with the targets named by `ids` moved right beside one another, where the first of them
 * was, their own order rotated by one each round (for two: one side in even rounds, the other in
 * odd ones), so that they compare the same moment of a machine that may not be quiet. Those missing
 * from `order` are left out; unchanged when fewer than two are there.
 */
export function besideEachOther<T extends { id: string }>(order: T[], ids: string[], round: number): T[] {
  const group = ids.map((id) => order.find((t) => t.id === id)).filter((t): t is T => t !== undefined);
  if (group.length < 2) return order;
  const shift = round % group.length;
  const rotated = [...group.slice(shift), ...group.slice(0, shift)];
  const first = order.findIndex((t) => group.includes(t));
  return order.flatMap((t, i) => (i === first ? rotated : group.includes(t) ? [] : [t]));
}

/** The commit named by a target id `random-<size>@<rev>`, or undefined for any other id. */
export function commitOfTarget(id: string, randomId: string): string | undefined {
  const prefix = `${randomId}@`;
  if (!id.startsWith(prefix)) return undefined;
  const rev = id.slice(prefix.length);
  return /^[0-9A-Za-z][0-9A-Za-z._-]*$/.test(rev) && !rev.includes('..') ? rev : undefined;
}

export interface PairedCpu {
  label: string;
  rev: string;
  /** CPU µs per request, round by round, of this build and of `rev`. */
  ours: number[];
  older: number[];
}

/** The heading of RESULTS.md's section that sets this build's random uncached page beside an older commit's. */
export const AGAINST_COMMIT_SECTION = '## The random uncached page against an older commit';

/**
 * That section. `how`: the command and conditions, when the section is measured on its own
 * (`--only random-<size>,random-<size>@<rev>`) and spliced into a RESULTS.md of a full run.
 */
export function renderAgainstCommit(pairs: PairedCpu[], how?: string): string[] {
  if (pairs.length === 0) return [];
  const lines = [AGAINST_COMMIT_SECTION, ''];
  lines.push(
    'The same random-page sequence sent to this build and to the older commit (built from git into `bench/.work/`), each right beside the other in every round (sides alternating). Ratios are this build over the older one, round by round; their median is what to quote.',
    '',
  );
  if (how) lines.push(how, '');
  lines.push('| listing | commit | CPU µs/req (median) | this build / commit, median of rounds | round by round |', '|---|---|---:|---:|---|');
  for (const p of pairs) {
    const ratios = p.ours.map((v, i) => v / (p.older[i] ?? Number.NaN)).filter(Number.isFinite);
    lines.push(`| ${p.label} | this build | ${Math.round(median(p.ours))} | | |`);
    lines.push(`| ${p.label} | ${p.rev} | ${Math.round(median(p.older))} | **${median(ratios).toFixed(2)}×** | ${ratios.map((r) => r.toFixed(2)).join(', ')} |`);
  }
  lines.push('');
  return lines;
}
