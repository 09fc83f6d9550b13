/**
 * The Medusa versions `npm run test:medusa` runs on are one list, TESTED_MEDUSA_VERSIONS
 * (lib/dialects/medusa-versions.ts): the script reads it as text (scripts/support/medusa-versions.mjs),
 * each version has its lockfile (medusa-app/versions/<version>/package-lock.json, installing that
 * @medusajs/medusa), and the README, docs/contracts.md and docs/dialects.md's section on test:medusa
 * name exactly those versions.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NEWEST_MEDUSA_VERSION, OLDEST_MEDUSA_VERSION, TESTED_MEDUSA_VERSIONS } from '../lib/dialects/medusa-versions.ts';
// @ts-expect-error: a plain JavaScript module of the scripts, without types
import { readTestedMedusaVersions } from '../scripts/support/medusa-versions.mjs';

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');
const versions = [...TESTED_MEDUSA_VERSIONS] as string[];
/** "2.13.6 and 2.21.2", "2.13.6, 2.17.0 and 2.21.2". */
const phrase = versions.length === 1 ? versions[0]! : `${versions.slice(0, -1).join(', ')} and ${versions.at(-1)}`;

describe('TESTED_MEDUSA_VERSIONS, the one list', () => {
  it('is what scripts/test-medusa.mjs reads, oldest first', () => {
    expect(readTestedMedusaVersions()).toEqual(versions);
    expect([versions[0], versions.at(-1)]).toEqual([OLDEST_MEDUSA_VERSION, NEWEST_MEDUSA_VERSION]);
  });

  it('the script\'s reading refuses a list it cannot read, in one sentence', () => {
    const dir = mkdtempSync(join(tmpdir(), 'medusa-versions-'));
    try {
      const file = join(dir, 'medusa-versions.ts');
      writeFileSync(file, 'export const TESTED_MEDUSA_VERSIONS = [NEWEST] as const;\n');
      expect(() => readTestedMedusaVersions(file)).toThrow(/should list versions as quoted x\.y\.z strings, got \[NEWEST\]$/);
      writeFileSync(file, 'export const VERSIONS = [];\n');
      expect(() => readTestedMedusaVersions(file)).toThrow(/holds no `export const TESTED_MEDUSA_VERSIONS = \[\.\.\.\]`$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('each version has its lockfile, installing that Medusa, and medusa-app/versions/ holds no other', () => {
    const dir = new URL('../medusa-app/versions/', import.meta.url);
    expect(readdirSync(dir).sort()).toEqual([...versions].sort());
    for (const version of versions) {
      const file = new URL(`${version}/package-lock.json`, dir);
      expect(existsSync(file), version).toBe(true);
      const { packages } = JSON.parse(readFileSync(file, 'utf8')) as { packages: Record<string, { version?: string; dependencies?: Record<string, string> }> };
      for (const name of ['@medusajs/medusa', '@medusajs/framework', '@medusajs/cli']) {
        expect(packages['']!.dependencies![name], `${version} ${name}`).toBe(version);
        expect(packages[`node_modules/${name}`]!.version, `${version} ${name}`).toBe(version);
      }
    }
  });

  it.each([
    ['README.md', read('README.md')],
    ['docs/contracts.md', read('docs/contracts.md')],
    ["docs/dialects.md's section on test:medusa", read('docs/dialects.md').split('## The real backend: `npm run test:medusa`')[1]!.split('\n## ')[0]!],
  ])('%s says which versions test:medusa runs on', (_, text) => {
    expect(text).toContain(`\`npm run test:medusa\` runs on Medusa ${phrase}`);
  });
});
