/**
 * Issue 35, item 7: every file a user names is written one way (files/output-file.ts) and read one
 * way (files/input-file.ts), whichever option names it. As CI runs (root), on main: a character
 * device given to `--write-baseline`, `verify --json`/`--pact-log`, `fixtures --from --output` or
 * `proxy --json` was replaced or removed; symbolic links were replaced by some options and followed
 * by others; the probe left an empty file at a dangling link's target; a FIFO froze the server on
 * `POST /__admin/pacts` and `--baseline <fifo>` blocked for ever.
 *
 * The character devices here are nodes of our own in a temporary folder (`mknod c 1 3`, the null
 * device: what /dev/null is), so that a regression replaces one of them, never /dev/null itself.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROVIDER_STATES_PATH } from '../lib/provider-states.ts';
import { startMockServer, type MockServer } from '../mock-server/server.ts';
import { claimOutputFile, writeOutputFile } from '../files/output-file.ts';
import { readRegularText } from '../files/input-file.ts';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runCli, startCommand, startServe, type ServeProcess } from './support/cli-process.ts';

let scratch: string;
let mock: MockServer;
let n = 0;
/** A fresh folder of its own for one case. */
const folder = () => {
  const dir = join(scratch, `case-${++n}`);
  mkdirSync(dir);
  return dir;
};
const mkfifo = (path: string) => {
  execFileSync('mkfifo', [path]);
  return path;
};
/** A character device of our own: the null device (major 1, minor 3), as /dev/null is. */
const nullDevice = (path: string) => {
  execFileSync('mknod', [path, 'c', '1', '3']);
  return path;
};
const isFifo = (path: string) => lstatSync(path).isFIFO();
const isCharDevice = (path: string) => lstatSync(path).isCharacterDevice();
/** Files a write left behind: the temporary files are dot-files beside the target. */
const strays = (dir: string) => readdirSync(dir).filter((name) => name.startsWith('.'));

/** A command that must not wait: a hang is a failure (the run is killed after `ms`, and its code is then null). */
const quick = (args: string[], ms = 30_000) => runCli(args, ms);

// Making device nodes needs root (CI runs as root); elsewhere the device cases are skipped.
let canMknod = false;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'slk-output-files-'));
  try {
    nullDevice(join(scratch, 'probe-null'));
    canMknod = isCharDevice(join(scratch, 'probe-null'));
  } catch {
    canMknod = false;
  }
  mock = await startMockServer({ seed: 1, reviews: 12, wishlists: 2 });
});

afterAll(async () => {
  await mock?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** A `check` run that is quick and passes against the mock. */
const checkArgs = () => ['check', '--base-url', mock.url, '--runs', '1', '--endpoints', 'reviews', '--properties', 'page-length'];

describe('a character device is written through and stays a device (/dev/null discards)', () => {
  it('check --json, --junit and --write-baseline', async (context) => {
    if (!canMknod) return context.skip();
    const dir = folder();
    const [json, junit, baseline] = ['json', 'junit', 'baseline'].map((name) => nullDevice(join(dir, name)));
    const run = await quick([...checkArgs(), '--json', json!, '--junit', junit!, '--write-baseline', baseline!], 120_000);
    expect(run.code, run.stderr).toBe(0);
    for (const device of [json!, junit!, baseline!]) expect(isCharDevice(device), device).toBe(true);
    expect(strays(dir)).toEqual([]);
  });

  it('verify --json, --pact-log and --write-baseline', async (context) => {
    if (!canMknod) return context.skip();
    const dir = folder();
    const [json, log, baseline] = ['json', 'log', 'baseline'].map((name) => nullDevice(join(dir, name)));
    const run = await quick(['verify', '--provider-base-url', mock.url, '--json', json!, '--pact-log', log!, '--write-baseline', baseline!], 120_000);
    expect(run.code, run.stderr).toBe(0);
    for (const device of [json!, log!, baseline!]) expect(isCharDevice(device), device).toBe(true);
    expect(strays(dir)).toEqual([]);
  });

  it('fixtures --output and fixtures --from --output', async (context) => {
    if (!canMknod) return context.skip();
    const dir = folder();
    const generated = nullDevice(join(dir, 'generated'));
    const recorded = nullDevice(join(dir, 'recorded'));
    expect((await quick(['fixtures', '--reviews', '3', '--output', generated])).code).toBe(0);
    const run = await quick(['fixtures', '--from', mock.url, '--output', recorded]);
    expect(run.code, run.stderr).toBe(0);
    expect(isCharDevice(generated)).toBe(true);
    expect(isCharDevice(recorded)).toBe(true);
    expect(strays(dir)).toEqual([]);
  });

  it('proxy --json and --junit', async (context) => {
    if (!canMknod) return context.skip();
    const dir = folder();
    const json = nullDevice(join(dir, 'json'));
    const junit = nullDevice(join(dir, 'junit'));
    const proxy = await startCommand('proxy', ['--backend', mock.url, '--dialect', 'spec', '--json', json, '--junit', junit]);
    await (await fetch(`${proxy.url}/store/products/reviews?limit=2`)).text();
    proxy.child.kill('SIGTERM');
    expect(await proxy.exited, proxy.stderr()).toBe(0);
    expect(isCharDevice(json)).toBe(true);
    expect(isCharDevice(junit)).toBe(true);
  });
});

describe('a FIFO is refused before the run, in one sentence, and stays a FIFO (nothing waits on it)', () => {
  const dead = 'http://127.0.0.1:9';
  it.each([
    ['check --json', (f: string) => ['check', '--base-url', dead, '--json', f], 'cannot write the report'],
    ['check --junit', (f: string) => ['check', '--base-url', dead, '--junit', f], 'cannot write the report'],
    ['check --write-baseline', (f: string) => ['check', '--base-url', dead, '--write-baseline', f], 'cannot write the baseline'],
    ['check --baseline', (f: string) => ['check', '--base-url', dead, '--baseline', f], 'cannot read the baseline'],
    ['verify --json', (f: string) => ['verify', '--provider-base-url', dead, '--json', f], 'cannot write the report'],
    ['verify --pact-log', (f: string) => ['verify', '--provider-base-url', dead, '--pact-log', f], 'cannot write the report'],
    ['verify --write-baseline', (f: string) => ['verify', '--provider-base-url', dead, '--write-baseline', f], 'cannot write the baseline'],
    ['verify --baseline', (f: string) => ['verify', '--provider-base-url', dead, '--baseline', f], 'cannot read the baseline'],
    ['fixtures --output', (f: string) => ['fixtures', '--reviews', '3', '--output', f], 'cannot write'],
    ['fixtures --from --output', (f: string) => ['fixtures', '--from', dead, '--output', f], 'cannot write'],
    ['proxy --json', (f: string) => ['proxy', '--backend', dead, '--port', '0', '--json', f], 'cannot write the report'],
  ])('%s', async (_, args, says) => {
    const dir = folder();
    const fifo = mkfifo(join(dir, 'out.json'));
    const run = await quick(args(fifo));
    expect(run.code, run.stderr).toBe(2);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^error: /);
    expect(lines[0]).toContain(`${says} ${fifo}`);
    expect(lines[0]).toContain('it is a FIFO (named pipe), not a regular file');
    expect(isFifo(fifo)).toBe(true);
    expect(strays(dir)).toEqual([]);
  });
});

describe('a symbolic link is followed by every option: its target is replaced, the link stays', () => {
  const linkTo = (dir: string, name: string) => {
    const target = join(dir, `${name}.target`);
    writeFileSync(target, 'earlier');
    const link = join(dir, name);
    symlinkSync(`${name}.target`, link);
    return { link, target };
  };
  const expectFollowed = ({ link, target }: { link: string; target: string }, check: (text: string) => void) => {
    expect(lstatSync(link).isSymbolicLink(), link).toBe(true);
    expect(readlinkSync(link)).toBe(`${link.split('/').pop()}.target`);
    const text = readFileSync(target, 'utf8');
    expect(text).not.toBe('earlier');
    check(text);
  };

  it('check --json and --write-baseline', async () => {
    const dir = folder();
    const json = linkTo(dir, 'report.json');
    const baseline = linkTo(dir, 'baseline.json');
    const run = await quick([...checkArgs(), '--json', json.link, '--write-baseline', baseline.link], 120_000);
    expect(run.code, run.stderr).toBe(0);
    expectFollowed(json, (text) => expect(JSON.parse(text)).toHaveProperty('results'));
    expectFollowed(baseline, (text) => expect(JSON.parse(text)).toHaveProperty('tool', 'store-listing-kit check'));
    expect(strays(dir)).toEqual([]);
  });

  it('verify --json, --pact-log and --write-baseline', async () => {
    const dir = folder();
    const json = linkTo(dir, 'report.json');
    const log = linkTo(dir, 'pact.log');
    const baseline = linkTo(dir, 'baseline.json');
    const run = await quick(['verify', '--provider-base-url', mock.url, '--provider', 'wishlist', '--json', json.link, '--pact-log', log.link, '--write-baseline', baseline.link], 120_000);
    expect(run.code, run.stderr).toBe(0);
    expectFollowed(json, (text) => expect(JSON.parse(text)).toHaveProperty('tool', 'store-listing-kit verify'));
    expectFollowed(log, (text) => expect(text).toContain('Verifying a pact between'));
    expectFollowed(baseline, (text) => expect(JSON.parse(text)).toHaveProperty('tool', 'store-listing-kit verify'));
    expect(strays(dir)).toEqual([]);
  });

  it('fixtures --from --output and proxy --json', async () => {
    const dir = folder();
    const recording = linkTo(dir, 'recording.json');
    const run = await quick(['fixtures', '--from', mock.url, '--output', recording.link]);
    expect(run.code, run.stderr).toBe(0);
    expectFollowed(recording, (text) => expect(text).toContain('"format":"store-listing-kit/recording@1"'));
    const json = linkTo(dir, 'proxy.json');
    const proxy = await startCommand('proxy', ['--backend', mock.url, '--dialect', 'spec', '--json', json.link]);
    await (await fetch(`${proxy.url}/store/products/reviews?limit=2`)).text();
    proxy.child.kill('SIGTERM');
    expect(await proxy.exited, proxy.stderr()).toBe(0);
    expectFollowed(json, (text) => expect(JSON.parse(text)).toMatchObject({ checked: 1 }));
    expect(strays(dir)).toEqual([]);
  });

  it('a dangling link: a run that cannot finish leaves no file at its target, and the link as it was', async () => {
    const dir = folder();
    const beside = join(dir, 'report.json');
    symlinkSync('elsewhere.json', beside);
    const below = join(dir, 'junit.xml');
    symlinkSync('elsewhere/junit.xml', below);
    const run = await quick(['verify', '--provider-base-url', 'http://127.0.0.1:9', '--json', beside, '--junit', below]);
    expect(run.code).toBe(2);
    expect(run.stderr).not.toContain('cannot write');
    expect(readdirSync(dir).sort()).toEqual(['elsewhere', 'junit.xml', 'report.json']);
    expect(lstatSync(beside).isSymbolicLink()).toBe(true);
    expect(lstatSync(below).isSymbolicLink()).toBe(true);
    // The folders on the way are made, as for any output file; no file is.
    expect(readdirSync(join(dir, 'elsewhere'))).toEqual([]);
  });
});

describe('no stray files', () => {
  it('verify --pact-log: the file being written is removed when SIGTERM stops the run', async () => {
    const dir = folder();
    // A provider that accepts every request and never answers: the run waits, the log being written.
    const silent: Server = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const log = join(dir, 'pact.log');
    const child = spawn(process.execPath, [join(import.meta.dirname, '..', 'bin', 'store-listing-kit.js'), 'verify', '--provider-base-url', url, '--timeout', '600000', '--pact-log', log], { stdio: 'ignore' });
    const exited = new Promise<number | string>((resolve) => child.on('close', (code, signal) => resolve(code ?? signal ?? 'unknown')));
    try {
      // The temporary file beside the log appears once the run has begun (a hang detector, not a clock).
      for (let i = 0; strays(dir).length === 0; i++) {
        expect(i, 'no temporary file beside the log').toBeLessThan(2000);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      child.kill('SIGTERM');
      await exited;
      expect(strays(dir)).toEqual([]);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  }, 90_000);
});

describe('reads take regular files only and never wait', () => {
  it('verify --pact-dir with a FIFO among the pacts verifies the pacts and leaves the FIFO alone', async () => {
    const dir = folder();
    const committed = join(import.meta.dirname, '..', 'contracts', 'pacts');
    for (const name of readdirSync(committed).filter((name) => name.endsWith('.json'))) copyFileSync(join(committed, name), join(dir, name));
    const fifo = mkfifo(join(dir, 'storefront-zz.json'));
    const run = await quick(['verify', '--provider-base-url', mock.url, '--pact-dir', dir, '--consumer', 'storefront', '--provider', 'wishlist'], 120_000);
    expect(run.code, run.stderr).toBe(0);
    expect(isFifo(fifo)).toBe(true);
  });

  it('serve --fixtures <fifo>: exit 2 in one sentence, without waiting for a writer', async () => {
    const dir = folder();
    const fifo = mkfifo(join(dir, 'fixtures.json'));
    const run = await quick(['serve', '--port', '0', '--fixtures', fifo]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toBe(`error: Cannot read fixtures file ${fifo}: it is a FIFO (named pipe), not a regular file\n`);
    expect(isFifo(fifo)).toBe(true);
  });

  it("serve --pact-consumer: a FIFO at a pact file's place is a 409 in the admin shape, and SIGTERM still stops the server", async () => {
    const dir = folder();
    const fifo = mkfifo(join(dir, 'shop-wishlist.json'));
    let serve: ServeProcess | undefined;
    try {
      serve = await startServe(['--pact-consumer', 'shop', '--pact-dir', dir]);
      const state = await fetch(`${serve.url}${PROVIDER_STATES_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ state: 'wishlists exist', params: { count: 2 } }) });
      expect(state.status).toBe(200);
      await state.text();
      await (await fetch(`${serve.url}/store/wishlists?take=1`)).text();
      const write = await fetch(`${serve.url}/__admin/pacts`, { method: 'POST', headers: { 'content-type': 'application/json' }, signal: AbortSignal.timeout(30_000) });
      expect(write.status).toBe(409);
      expect(await write.json()).toEqual({
        type: 'conflict',
        message: `cannot merge with the pact file ${fifo}: it is a FIFO (named pipe), not a regular file; move it away or give another --pact-dir`,
      });
      serve.child.kill('SIGTERM');
      // It stops (its pacts cannot be written at stop either, which it says).
      expect(typeof (await serve.exited)).toBe('number');
      expect(serve.stderr()).toContain(`cannot merge with the pact file ${fifo}`);
      expect(isFifo(fifo)).toBe(true);
    } finally {
      if (serve && serve.child.exitCode === null && serve.child.signalCode === null) serve.child.kill('SIGKILL');
    }
  });
});

describe('files/output-file.ts and files/input-file.ts', () => {
  it('a regular file is replaced whole and keeps its mode; a write that fails leaves it and no temporary file', () => {
    const dir = folder();
    const file = join(dir, 'out.txt');
    writeFileSync(file, 'earlier', { mode: 0o600 });
    writeOutputFile(file, 'now');
    expect(readFileSync(file, 'utf8')).toBe('now');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(() => writeOutputFile(join(dir, 'out.txt', 'below'), 'x')).toThrow(/ENOTDIR/);
    expect(readFileSync(file, 'utf8')).toBe('now');
    expect(strays(dir)).toEqual([]);
  });

  it('the claim makes the folders, leaves a regular file unless told to remove it, and refuses a directory', () => {
    const dir = folder();
    const file = join(dir, 'a', 'b', 'out.txt');
    expect(claimOutputFile(file)).toEqual({ kind: 'file', path: file });
    expect(readdirSync(join(dir, 'a', 'b'))).toEqual([]);
    writeFileSync(file, 'earlier');
    claimOutputFile(file);
    expect(readFileSync(file, 'utf8')).toBe('earlier');
    claimOutputFile(file, { removeOld: true });
    expect(existsSync(file)).toBe(false);
    expect(() => claimOutputFile(dir)).toThrow('it is a directory');
  });

  it('a FIFO is neither opened to write nor read', () => {
    const dir = folder();
    const fifo = mkfifo(join(dir, 'fifo'));
    expect(() => writeOutputFile(fifo, 'x')).toThrow('it is a FIFO (named pipe), not a regular file');
    expect(() => readRegularText(fifo)).toThrow('it is a FIFO (named pipe), not a regular file');
    expect(() => readRegularText(dir)).toThrow('it is a directory');
    expect(isFifo(fifo)).toBe(true);
  });

  it('a bounded read refuses a file over its bound', () => {
    const dir = folder();
    const file = join(dir, 'big');
    writeFileSync(file, 'x'.repeat(100));
    expect(readRegularText(file, 100)).toHaveLength(100);
    expect(() => readRegularText(file, 99)).toThrow('larger than 99 bytes');
  });
});
