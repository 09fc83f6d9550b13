/**
 * The example storefront suite (examples/storefront-pacts/), run as a team runs it: its own vitest
 * config, in a child process, its pacts written into `pactDir`. Used by the kit's test of the example
 * and by test:medusa, which verifies the same files against the real Medusa.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');
export const EXAMPLE_DIR = join(ROOT, 'examples', 'storefront-pacts');
const VITEST = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');

export const EXAMPLE_CONSUMER = 'example-storefront';
export const EXAMPLE_PACT_FILES = [`${EXAMPLE_CONSUMER}-product-reviews.json`, `${EXAMPLE_CONSUMER}-wishlist.json`] as const;

export interface ExampleRun {
  code: number | null;
  output: string;
}

/** Runs the example suite once; resolves with its exit code and output (stdout and stderr). */
export function runExampleSuite(pactDir: string, timeoutMs = 120_000): Promise<ExampleRun> {
  return new Promise((resolve) => {
    const env: NodeJS.ProcessEnv = { ...process.env, PACT_DIR: pactDir, PACT_DO_NOT_TRACK: 'true', NO_COLOR: '1', FORCE_COLOR: '0' };
    // VITEST* variables of the run that starts this one would make the child think it is a worker.
    for (const name of Object.keys(env)) if (name.startsWith('VITEST')) delete env[name];
    execFile(process.execPath, [VITEST, 'run', '--config', join(EXAMPLE_DIR, 'vitest.config.ts')], { cwd: ROOT, env, timeout: timeoutMs, maxBuffer: 4 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
      resolve({ code, output: `${stdout}${stderr}` });
    });
  });
}

/**
 * The example's 4.1 interaction, as verify names it: it pins the page a storefront needs (5 of the
 * state's 12 reviews, count 12), which the plugins' 4.1 breaks (docs/dialects.md rows 7, 8), and so
 * the mock's emulation of them: the one interaction that fails against both, and the team's baseline.
 */
export const EXAMPLE_41_FAILURE = 'GET /store/products/reviews?limit=5&offset=0 with a publishable key and a bearer token';

/** The interactions a verify summary lists as failed (`- Given <state> - <interaction>`), in its order. */
export function failedRequests(summary: string): string[] {
  return [...summary.matchAll(/^\s+- Given .+? - (GET .+)$/gm)].map((m) => m[1]!.trim());
}
