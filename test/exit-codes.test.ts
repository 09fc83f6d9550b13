/**
 * The exit-code contract is written once, as a table in docs/exit-codes.md. This test parses that
 * table and runs every line as a user would (a child process), so the document and the CLI
 * cannot drift apart: a row that stops being true fails here, and so does a table that loses rows.
 */
import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../mock-server/server.ts';
import { BREAKAGES, startBrokenProvider, type BrokenProvider } from './support/pact-broken-providers.ts';

const BIN = fileURLToPath(new URL('../bin/store-listing-kit.js', import.meta.url));
const DOC = fileURLToPath(new URL('../docs/exit-codes.md', import.meta.url));
const PARALLEL = 4;

export interface Row {
  /** The command line as written, after `store-listing-kit`, with its placeholders. */
  command: string;
  exit: number;
  /** What stderr must contain; undefined for `—` (stderr must be empty). */
  stderr?: string;
}

/** The rows between the exit-codes markers: `| \`store-listing-kit ...\` | <code> | \`phrase\` or — |`. */
export function parseContract(markdown: string): Row[] {
  const begin = markdown.indexOf('<!-- exit-codes:begin -->');
  const end = markdown.indexOf('<!-- exit-codes:end -->');
  if (begin < 0 || end < begin) throw new Error('docs/exit-codes.md has no exit-codes table (markers missing)');
  const rows: Row[] = [];
  for (const line of markdown.slice(begin, end).split('\n')) {
    const match = /^\| `store-listing-kit ?([^`]*)` \| (\d) \| (?:`(.+)`|—) \|$/.exec(line.trim());
    if (match) rows.push({ command: match[1]!, exit: Number(match[2]), ...(match[3] !== undefined ? { stderr: match[3] } : {}) });
    else if (line.startsWith('| `')) throw new Error(`docs/exit-codes.md: a row the test cannot read: ${line}`);
  }
  return rows;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(args: string[]): Promise<Run> {
  // Vitest sets BASE_URL ('/') for its own use; check would read it as --base-url. No broker either.
  const env: NodeJS.ProcessEnv = { ...process.env, PACT_DO_NOT_TRACK: 'true' };
  for (const name of Object.keys(env)) if (name === 'BASE_URL' || name.startsWith('PACT_BROKER_')) delete env[name];
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env, timeout: 60_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });
}

/** A loopback port with nothing listening: bound, then released. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const rows = parseContract(readFileSync(DOC, 'utf8'));
let mock: MockServer;
let alphabite: MockServer;
let held: MockServer;
let broken: BrokenProvider;
let fill: (text: string) => string;
const results = new Map<string, Run>();

beforeAll(async () => {
  [mock, alphabite, held, broken] = await Promise.all([startMockServer({ seed: 1 }), startMockServer({ seed: 1, dialect: 'alphabite' }), startMockServer({ seed: 1, stateLeaseMs: 3_600_000 }), startBrokenProvider(BREAKAGES.countAsString)]);
  // Another run holds $HELD's provider state (for the whole test: its hold lapses after an hour).
  const hold = await fetch(`${held.url}/__admin/provider-states`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-provider-state-run': 'other-run' },
    body: JSON.stringify({ state: 'wishlists exist', params: { count: 12 }, action: 'setup' }),
  });
  expect(hold.status).toBe(200);
  const values: Record<string, string> = {
    $MOCK_PORT: String(new URL(mock.url).port),
    $MOCK: mock.url,
    $ALPHABITE: alphabite.url,
    $HELD: held.url,
    $BROKEN: broken.url,
    $DEAD: `http://127.0.0.1:${await deadPort()}`,
  };
  fill = (text) => text.replace(/\$[A-Z_]+/g, (name) => values[name] ?? name);
  // A few at a time: every row is its own process, against its own or a read-only target.
  const queue = [...rows];
  const worker = async () => {
    for (let row = queue.shift(); row; row = queue.shift()) {
      results.set(row.command, await run(fill(row.command).split(' ').filter(Boolean)));
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
}, 180_000);

afterAll(() => Promise.all([mock?.close(), alphabite?.close(), held?.close(), broken?.close()]));

describe('docs/exit-codes.md', () => {
  it('covers every command, each code, and the cases the issue names', () => {
    const commands = rows.map((r) => r.command);
    for (const command of ['serve', 'proxy', 'fixtures', 'check', 'verify']) {
      expect(commands.some((c) => c.startsWith(`${command} `)), command).toBe(true);
      expect(rows.some((r) => r.command.startsWith(`${command} `) && r.exit === 2), `${command} exit 2`).toBe(true);
    }
    expect(new Set(rows.map((r) => r.exit))).toEqual(new Set([0, 1, 2]));
    expect(commands).toEqual(
      expect.arrayContaining(['', '--help', 'nope', 'serve --port 70000', 'verify', 'verify --provider-base-url $DEAD', 'fixtures --output /dev/null/x.json', 'check --base-url $MOCK --replay-path 9:9:9']),
    );
    expect(commands.some((c) => c.includes('--wishlist-id wl_nope'))).toBe(true);
  });

  describe.each(rows)('store-listing-kit $command', (row) => {
    it(`exits ${row.exit}${row.stderr ? `, saying "${row.stderr}"` : ''}`, () => {
      const result = results.get(row.command)!;
      const context = `stderr: ${result.stderr.slice(0, 1000)}\nstdout: ${result.stdout.slice(-500)}`;
      expect(result.code, context).toBe(row.exit);
      expect(`${result.stdout}${result.stderr}`).not.toMatch(/\n\s+at /);
      if (row.stderr === undefined) {
        expect(result.stderr, context).toBe('');
        return;
      }
      expect(result.stderr).toContain(fill(row.stderr));
      // One sentence naming the cause, first; commander may add its "--help" hint after it.
      expect(result.stderr).toMatch(/^error: [^\n]+\n(\(run with --help for usage\)\n)?$/);
    });
  });
});

describe('a usage error quotes what was typed on one line, bounded', () => {
  const runBin = (args: string[]) =>
    new Promise<Run>((resolve) => {
      execFile(process.execPath, [BIN, ...args], { maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
      });
    });
  const ONE_SENTENCE = /^error: [^\n]+\n\(run with --help for usage\)\n$/;

  it('a refused value with a line break and an ESC: escaped, on one line, where commander quoted it and where the kit did', async () => {
    for (const args of [['serve', '--port', '7\u001b[31mred\nline2'], ['serve', '--medusa-version', '2.1\nx']]) {
      const result = await runBin(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(ONE_SENTENCE);
      expect(result.stderr).not.toContain('\u001b');
    }
    const port = await runBin(['serve', '--port', '7\u001b[31mred\nline2']);
    expect(port.stderr).toBe(`error: option '--port <n>' argument "7\\u001b[31mred\\nline2" is invalid. expected a whole number from 0 to 65535, got "7\\u001b[31mred\\nline2".\n(run with --help for usage)\n`);
    // check reads its base URL when it resolves its options (so that `check --help` works whatever BASE_URL holds): one line too.
    const check = await runBin(['check', '--base-url', 'http://x\u001b[2J\n']);
    expect([check.code, check.stderr]).toEqual([2, 'error: cannot run the check: base URL must be an http(s) URL, got "http://x\\u001b[2J\\n"\n']);
    // A plain value is quoted as before.
    expect((await runBin(['serve', '--port', '70000'])).stderr).toContain("argument '70000' is invalid. expected a whole number from 0 to 65535, got '70000'.");
  });

  it('a 100 kB value, or option name, is cut, saying how much more there was', async () => {
    const huge = '9'.repeat(100_000);
    const value = await runBin(['serve', '--port', huge]);
    expect(value.code).toBe(2);
    expect(value.stderr).toMatch(ONE_SENTENCE);
    expect(value.stderr.length).toBeLessThan(1000);
    expect(value.stderr).toContain('(99920 more characters)');
    const name = await runBin(['serve', `--${'x'.repeat(100_000)}\u001b[2J`]);
    expect(name.code).toBe(2);
    expect(name.stderr).toMatch(ONE_SENTENCE);
    expect(name.stderr.length).toBeLessThan(1000);
  });
});

describe('the last resort (bin/store-listing-kit.js)', () => {
  // An error no command expected, thrown after the command has run: preloaded with --import, and
  // thrown once the bin has installed its handler (a fixed delay lost that race on a busy machine).
  const late = ['--import', 'data:text/javascript,const t = setInterval(() => { if (process.listenerCount("uncaughtException") > 0) { clearInterval(t); throw new Error("boom from nowhere") } }, 5)'];
  const runLate = (env: NodeJS.ProcessEnv) =>
    new Promise<Run>((resolve) => {
      execFile(process.execPath, [...late, BIN, '--version'], { env: { ...process.env, ...env } }, (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
      });
    });

  it('turns any unexpected error into one line and exit 2, without a stack trace', async () => {
    const result = await runLate({ DEBUG: '' });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('error: boom from nowhere\n');
  });

  it('adds the stack with DEBUG=store-listing-kit', async () => {
    const result = await runLate({ DEBUG: 'store-listing-kit' });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: boom from nowhere\nError: boom from nowhere\n\s+at /);
  });
});

describe('a closed pipe is a normal end (`store-listing-kit fixtures | head`)', () => {
  /** Runs the CLI with its standard output a pipe that is closed before it writes (as `| head -c 0` does). */
  const closedPipe = (args: string[]) =>
    new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.destroy();
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      child.on('close', (code) => resolve({ code, stderr }));
    });

  it.each([[['fixtures', '--reviews', '200000']], [['openapi']], [['--help']]])('store-listing-kit %j: exit 0, nothing on stderr', async (args) => {
    expect(await closedPipe(args)).toEqual({ code: 0, stderr: '' });
  });

  it('a command with a verdict keeps it: check against a target that breaks a rule still ends 1', async () => {
    const args = ['check', '--base-url', broken.url, '--seed', '1', '--runs', '3', '--endpoints', 'wishlists', '--properties', 'envelope-shape'];
    expect(await closedPipe(args)).toEqual({ code: 1, stderr: '' });
  });
});
