/**
 * A mistyped option gets commander's "did you mean" on every command, also when the command has a
 * required option that the typo leaves out (`check --base-ulr <url>` used to read "required option
 * '--base-url' not specified", with no suggestion): cli/program.ts reports the unknown option first.
 */
import { CommanderError } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../cli/main.ts';

async function parseInProcess(args: string[]): Promise<{ code: number; stderr: string }> {
  const program = buildProgram();
  let stderr = '';
  for (const command of [program, ...program.commands]) command.configureOutput({ writeErr: (text) => (stderr += text), writeOut: () => {} });
  try {
    await program.parseAsync(['node', 'store-listing-kit', ...args]);
    return { code: 0, stderr };
  } catch (error) {
    if (error instanceof CommanderError) return { code: error.exitCode, stderr };
    throw error;
  }
}

/** The option with its last two letters swapped: `--base-url` -> `--base-ulr`. */
const typo = (flag: string) => `${flag.slice(0, -2)}${flag.at(-1)}${flag.at(-2)}`;

describe('a mistyped option', () => {
  // Vite sets BASE_URL, which `check --base-url` reads from the environment: as a user's shell, without it.
  const baseUrl = process.env.BASE_URL;
  beforeAll(() => void delete process.env.BASE_URL);
  afterAll(() => void (baseUrl === undefined || (process.env.BASE_URL = baseUrl)));

  it.each([
    ['check', '--base-url', 'http://127.0.0.1:1'],
    ['verify', '--provider-base-url', 'http://127.0.0.1:1'],
    ['proxy', '--backend', 'http://127.0.0.1:1'],
    ['serve', '--fixtures', 'f.json'],
    ['fixtures', '--reviews', '3'],
  ])('%s %s: exit 2, the unknown option named with the one meant, before any missing required option', async (command, flag, value) => {
    const { code, stderr } = await parseInProcess([command, typo(flag), value]);
    expect(code).toBe(2);
    expect(stderr).toContain(`error: unknown option '${typo(flag)}'`);
    expect(stderr).toContain(`(Did you mean ${flag}?)`);
    expect(stderr).not.toContain('required option');
  });

  it('every long option of every command, mistyped, is suggested back', async () => {
    const program = buildProgram();
    const misses: string[] = [];
    for (const command of program.commands) {
      for (const option of command.options) {
        const flag = option.long;
        // Too short to tell apart from another option by one swap.
        if (!flag || flag.length < 7 || option.hidden) continue;
        const { stderr } = await parseInProcess([command.name(), typo(flag), ...(option.required || option.optional ? ['x'] : [])]);
        if (!new RegExp(`Did you mean (one of )?[^)]*${flag}\\b`).test(stderr)) misses.push(`${command.name()} ${typo(flag)}: ${stderr.trim()}`);
      }
    }
    expect(misses).toEqual([]);
  });

  it('a required option left out, with no typo, is still named as missing', async () => {
    const { code, stderr } = await parseInProcess(['verify']);
    expect(code).toBe(2);
    expect(stderr).toContain("error: required option '--provider-base-url <url>' not specified");
  });
});
