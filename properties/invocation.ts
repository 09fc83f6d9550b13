/**
 * How the user runs the kit where this process runs, for the commands the suite prints (each
 * failure's replay line, the run's replay, the report's header): a command line that works where
 * the user is, as they ran it.
 *
 * - the bin of a project's dependency (`node_modules/.bin/store-listing-kit`, as `npx store-listing-kit`
 *   and npm scripts run it), or the library inside a project's test runner: `npx store-listing-kit`,
 *   which runs that very dependency from the project's folder.
 * - a `node_modules` that is no project's: npx's own (npm sets `npm_command=exec`, and
 *   `npm_lifecycle_event=npx` for npx, in the environment it passes on): `npx store-listing-kit`;
 *   otherwise a global install (`<prefix>/lib/node_modules`): `store-listing-kit`, as is the bin's
 *   link on the PATH.
 * - `node bin/store-listing-kit.js` in a clone of the kit: the same, with the path from the current folder.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';

export interface Invocation {
  /** The script node was started with (`process.argv[1]`). */
  script: string | undefined;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** Whether a file exists (the package.json that makes a folder a project). */
  exists(path: string): boolean;
}

const KIT = 'store-listing-kit';

/** The words that start the kit's command line, for that invocation. */
export function kitCommandFor(invocation: Invocation): string[] {
  const script = invocation.script ?? '';
  const parts = script.split(/[\\/]/);
  // The first node_modules: a project's own (package managers nest theirs deeper, as pnpm's .pnpm).
  const at = parts.indexOf('node_modules');
  if (at > 0) {
    if (invocation.exists(join(parts.slice(0, at).join('/') || '/', 'package.json'))) return ['npx', KIT];
    // Outside a project: npx's own folder, or a global install. The environment is inherited, so it
    // is read only here, where the script is the kit's: `npx vitest` running a clone's tests is not `npx store-listing-kit`.
    return invocation.env.npm_command === 'exec' ? ['npx', KIT] : [KIT];
  }
  if (/(^|[\\/])bin[\\/]store-listing-kit\.js$/.test(script)) {
    const path = relative(invocation.cwd, script);
    return ['node', path === '' || path.startsWith('..') || isAbsolute(path) ? script : path];
  }
  return [KIT];
}

let current: string[] | undefined;

/** The words that start the kit's command line, as this process was started (decided once). */
export function kitCommand(): string[] {
  current ??= kitCommandFor({ script: process.argv[1], env: process.env, cwd: process.cwd(), exists: existsSync });
  return current;
}
