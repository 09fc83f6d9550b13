// The Medusa versions `npm run test:medusa` runs on, read from the one list:
// TESTED_MEDUSA_VERSIONS in lib/dialects/medusa-versions.ts (so a third version is one line there,
// plus its lockfile, medusa-app/versions/<version>/package-lock.json). Read as text, so that the
// script needs no TypeScript loader; test/medusa-versions.test.ts checks that this reading and the
// module's own export agree.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const MEDUSA_VERSIONS_FILE = fileURLToPath(new URL('../../lib/dialects/medusa-versions.ts', import.meta.url));

/** The versions, oldest first as the list holds them; throws with one sentence when the list cannot be read. */
export function readTestedMedusaVersions(file = MEDUSA_VERSIONS_FILE) {
  const text = readFileSync(file, 'utf8');
  const list = /export const TESTED_MEDUSA_VERSIONS\s*=\s*\[([^\]]*)\]/.exec(text);
  if (!list) throw new Error(`${file} holds no \`export const TESTED_MEDUSA_VERSIONS = [...]\``);
  const items = list[1].split(',').map((s) => s.trim()).filter(Boolean);
  const versions = items.map((item) => /^['"](\d+\.\d+\.\d+)['"]$/.exec(item)?.[1]);
  if (versions.length === 0 || versions.includes(undefined)) {
    throw new Error(`TESTED_MEDUSA_VERSIONS in ${file} should list versions as quoted x.y.z strings, got [${list[1].trim()}]`);
  }
  return versions;
}
