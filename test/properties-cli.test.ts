/**
 * `store-listing-kit check` as a user runs it (a child process): exit codes 0 / 1 / 2, the failure
 * report (request, curl, expected vs actual, replay command), the seed, and the JSON / JUnit files.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEndpointList } from '../properties/endpoints.ts';
import { kitCommandFor } from '../properties/invocation.ts';
import { startReferenceServer, type ReferenceServer } from './support/reference-server.ts';
import { junitProblems } from './support/junit-reader.ts';

const BIN = new URL('../bin/store-listing-kit.js', import.meta.url).pathname;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI without blocking this process (the servers under test live here). */
function cli(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    // Vitest sets BASE_URL ('/') for its own use; the CLI would read it as --base-url.
    const { BASE_URL: _vite, ...env } = process.env;
    execFile(process.execPath, [BIN, ...args], { env, timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** A port nothing listens on: bound and released. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('store-listing-kit check', () => {
  let good: ReferenceServer;
  let broken: ReferenceServer;
  let dir: string;
  beforeAll(async () => {
    [good, broken] = await Promise.all([startReferenceServer(), startReferenceServer({ bug: 'offset-off-by-one' })]);
    dir = mkdtempSync(join(tmpdir(), 'slk-check-'));
  });
  afterAll(async () => {
    await Promise.all([good?.close(), broken?.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('exits 0 when every property holds, and prints the seed', async () => {
    const run = await cli(['check', '--base-url', good.url, '--runs', '5', '--seed', '123', '--strict']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('seed 123');
    expect(run.stdout).toMatch(/^PASS bad-parameters-400 /m);
    expect(run.stdout).toMatch(/^OK: \d+ passed, 0 failed/m);
    // The title is no command line (`check <url>` would fail when run); the replay line is one.
    expect(run.stdout).toMatch(/^store-listing-kit check: http:\/\/127\.0\.0\.1:\d+\nseed 123 /);
    // Run as `node bin/store-listing-kit.js` from the kit's folder: the commands it prints say so.
    expect(run.stdout).toContain(`replay this run: node bin/store-listing-kit.js check --base-url ${good.url} --seed 123 --strict --runs 5`);
  }, 60_000);

  it('prints a random seed when none is given', async () => {
    const run = await cli(['check', '--base-url', good.url, '--runs', '2', '--endpoints', 'wishlists', '--properties', 'page-length']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^seed \d+ /m);
  }, 60_000);

  it('exits 1 on a broken implementation, with the request, curl line, expected vs actual and a replay command that reproduces it', async () => {
    const json = join(dir, 'report.json');
    const junit = join(dir, 'nested', 'junit.xml');
    const run = await cli(['check', '--base-url', broken.url, '--runs', '10', '--seed', '5', '--endpoints', '4.3', '--json', json, '--junit', junit]);
    expect(run.code).toBe(1);
    const out = run.stdout;
    expect(out).toMatch(/^FAIL page-length +4\.3 \/store\/wishlists/m);
    const block = out.slice(out.indexOf('FAILED page-length on 4.3 /store/wishlists [spec]'));
    expect(block).toMatch(/^ {2}rule: {5}a page holds max\(0, min\(size, count - start\)\) records$/m);
    expect(block).toMatch(/^ {2}found after \d+ runs?, shrunk \d+ times? to \{"size":\d+,"start":\d+\}$/m);
    const request = /^ {2}request: {2}GET (\S+)$/m.exec(block)![1]!;
    expect(request).toMatch(new RegExp(`^${broken.url}/store/wishlists\\?take=\\d+&skip=\\d+$`));
    expect(block).toContain(`  curl:     curl -sS '${request}'`);
    expect(block).toMatch(/^ {2}field: {4}data\.length\n {2}expected: \d+\n {2}actual: {3}\d+$/m);
    const replay = /^ {2}replay: {3}(.+)$/m.exec(block)![1]!;
    expect(replay).toMatch(/^node bin\/store-listing-kit\.js check --base-url \S+ --seed 5 --endpoints wishlists --properties page-length --runs 10 --replay-path \S+$/);
    expect(out).toMatch(/^FAILED: \d+ passed, \d+ failed/m);

    // The JSON and JUnit reports carry the same failure.
    const report = JSON.parse(readFileSync(json, 'utf8'));
    expect(report.passed).toBe(false);
    expect(report.seed).toBe(5);
    const failure = report.results.find((r: { property: string }) => r.property === 'page-length');
    expect(failure).toMatchObject({ status: 'failed', endpoint: 'wishlists', request: `GET ${request}`, curl: `curl -sS '${request}'` });
    expect(failure.violation.field).toBe('data.length');
    expect(failure.expectedText).toBe(String(failure.violation.expected));
    expect(failure.actualText).toBe(String(failure.violation.actual));
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="store-listing-kit check" tests="\d+" failures="[1-9]\d*"/);
    expect(xml).toContain('<testcase classname="store-listing-kit.check.wishlists" name="page-length [spec]"');
    expect(xml).toContain('<failure message="the page holds records');
    expect(await junitProblems(xml)).toEqual([]);

    // Running the printed replay command reproduces the same request, in one run.
    const again = await cli(replay.split(' ').slice(2));
    expect(again.code).toBe(1);
    expect(again.stdout).toContain(`  request:  GET ${request}`);
    expect(again.stdout).toMatch(/found after 1 run,/);
  }, 90_000);

  it('exits 2 when the server is unreachable, saying so', async () => {
    const port = await closedPort();
    const run = await cli(['check', '--base-url', `http://127.0.0.1:${port}`, '--runs', '1']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/cannot run the check: server unreachable: cannot reach http:\/\/127\.0\.0\.1:\d+\/store\/products\/reviews/);
  }, 30_000);

  it('exits 2 when nothing at the base URL is a listing endpoint', async () => {
    const run = await cli(['check', '--base-url', `${good.url}/api`, '--runs', '1']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/no listing endpoint at .*answered 404 \(is --base-url right/);
  }, 30_000);

  it('exits 2 on bad arguments, saying what is wrong', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['check'], /required option '--base-url <url>' not specified/],
      [['check', '--base-url', 'http://127.0.0.1:1', '--runs', '0'], /'--runs <n>' argument '0' is invalid/],
      [['check', '--base-url', 'http://127.0.0.1:1', '--endpoints', 'carts'], /unknown endpoint 'carts'; accepted: reviews \(4\.1\)/],
      [['check', '--base-url', 'ftp://example'], /base URL must be an http\(s\) URL, got "ftp:\/\/example"/],
      [['check', '--base-url', 'http://127.0.0.1:1', '--properties', 'bad-parameters-400'], /no property applies: .*\[kit\] rules \(add --strict\)/],
    ];
    const runs = await Promise.all(cases.map(([args]) => cli(args)));
    runs.forEach((run, i) => {
      expect({ args: cases[i]![0], code: run.code }).toEqual({ args: cases[i]![0], code: 2 });
      expect(run.stderr).toMatch(cases[i]![1]);
    });
  }, 60_000);
});

/**
 * A target that wants a publishable key: without `x-publishable-api-key: pk_test` every request is
 * a 400 `not_allowed`; with it, GETs go to `upstream`. Its provider-state door fails every change.
 */
async function startGate(upstream: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const send = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.method === 'POST') {
      req.resume().on('end', () => send(500, { type: 'unknown_error', message: 'the door is broken' }));
      return;
    }
    if (req.headers['x-publishable-api-key'] !== 'pk_test') return send(400, { type: 'not_allowed', message: 'A valid publishable key is required' });
    fetch(`${upstream}${req.url}`).then(
      async (answer) => res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(await answer.text()),
      () => send(502, { type: 'unknown_error', message: 'upstream' }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('check --header, --dataset and what the report counts', () => {
  let broken: ReferenceServer;
  let gate: Awaited<ReturnType<typeof startGate>>;
  let dir: string;
  beforeAll(async () => {
    broken = await startReferenceServer({ bug: 'offset-off-by-one' });
    gate = await startGate(broken.url);
    dir = mkdtempSync(join(tmpdir(), 'slk-check-h-'));
  });
  afterAll(async () => {
    await Promise.all([gate?.close(), broken?.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints the curl line with the headers it sent (credentials as <yours>), in the console and the JSON report, and that line gets the answer reported', async () => {
    const json = join(dir, 'report.json');
    const headers = ['--header', 'x-publishable-api-key: pk_test', '--header', 'Authorization: Bearer s3cret'];
    const run = await cli(['check', '--base-url', gate.url, ...headers, '--runs', '10', '--seed', '5', '--endpoints', '4.3', '--properties', 'page-length', '--json', json]);
    expect(run.code).toBe(1);
    expect(`${run.stdout}${readFileSync(json, 'utf8')}`).not.toContain('s3cret');
    const curl = /^ {2}curl: {5}(.+)$/m.exec(run.stdout)![1]!;
    expect(curl).toMatch(new RegExp(`^curl -sS -H 'x-publishable-api-key: pk_test' -H 'authorization: <yours>' '${gate.url}/store/wishlists\\?take=\\d+&skip=\\d+'$`));
    const report = JSON.parse(readFileSync(json, 'utf8'));
    expect(report.headers).toEqual({ 'x-publishable-api-key': 'pk_test', authorization: '<yours>' });
    const failure = report.results.find((r: { status: string }) => r.status === 'failed');
    expect(failure.curl).toBe(curl);
    expect(failure.violation.headers).toEqual(report.headers);
    // What the curl line sends, sent again: the listing answers (without the header it was a 400).
    const url = /'(http[^']+)'$/.exec(curl)![1]!;
    const sent = Object.fromEntries([...curl.matchAll(/-H '([^:]+): ([^']*)'/g)].map((m) => [m[1]!, m[2]!]));
    expect((await fetch(url)).status).toBe(400);
    const again = await fetch(url, { headers: sent });
    expect(again.status).toBe(200);
    expect(String(((await again.json()) as { data: unknown[] }).data.length)).toBe(failure.actualText);
  }, 90_000);

  it('counts the request that found a failure on the FAIL line', async () => {
    // A listing whose records are not under 'reviews': each property fails on its own first request
    // (listing the whole set), before any generated case, and counts that request.
    const notJson = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"items":[],"count":0}'));
    await new Promise<void>((resolve) => notJson.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(notJson.address() as AddressInfo).port}`;
      const run = await cli(['check', '--base-url', url, '--runs', '3', '--seed', '1', '--endpoints', 'reviews']);
      expect(run.code).toBe(1);
      const failLines = run.stdout.match(/^FAIL .*$/gm) ?? [];
      expect(failLines.length).toBeGreaterThan(1);
      expect(run.stdout).toMatch(/^FAIL envelope-shape +4\.1 \/store\/products\/reviews +0 runs, 1 request$/m);
      for (const line of failLines) expect(line).toMatch(/ 0 runs, 1 request$/);
      expect(run.stdout).toMatch(/broken: +the envelope must hold the page in an array 'reviews'/);
      // The total counts those requests and the probe's own.
      const total = new RegExp(`^FAILED: 0 passed, ${failLines.length} failed, \\d+ skipped · (\\d+) requests in `, 'm').exec(run.stdout);
      expect(Number(total?.[1])).toBe(failLines.length + 1);
    } finally {
      await new Promise<void>((resolve) => notJson.close(() => resolve()));
    }
  }, 60_000);

  it('refuses an unknown --dataset, or one for an endpoint left out, before sending anything (2)', async () => {
    const [unknown, leftOut] = await Promise.all([
      cli(['check', '--base-url', gate.url, '--dataset', 'empty']),
      cli(['check', '--base-url', gate.url, '--dataset', 'reviews exist {"count":0}', '--endpoints', 'wishlists']),
    ]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^error: cannot run the check: unknown dataset 'empty'; known: 'reviews exist \{"count":0\}', /);
    expect(leftOut.code).toBe(2);
    expect(leftOut.stderr).toBe(`error: cannot run the check: dataset 'reviews exist {"count":0}' is for the endpoint reviews, which --endpoints leaves out\n`);
    for (const run of [unknown, leftOut]) expect(run.stdout).not.toMatch(/^(OK|PASS|SKIP)/m);
  }, 60_000);

  it('judges nothing when the dataset cannot be installed: no OK, one sentence saying why (2)', async () => {
    const run = await cli(['check', '--base-url', gate.url, '--header', 'x-publishable-api-key: pk_test', '--dataset', 'reviews exist {"count":0}']);
    expect(run.code).toBe(2);
    expect(run.stdout).not.toMatch(/^OK/m);
    expect(run.stdout).toMatch(/^NOTHING CHECKED: 0 passed, 0 failed, 0 skipped/m);
    expect(run.stderr).toMatch(/^error: cannot run the check: no property ran: provider state reviews exist \{"count":0\} could not be set up \(500: .*the door is broken.*\): skipped\n$/);
  }, 60_000);
});

describe('check option parsing', () => {
  it('accepts endpoint names and spec sections, and names the accepted ones otherwise', () => {
    expect(parseEndpointList('4.1, wishlists,4.1')).toEqual(['reviews', 'wishlists']);
    expect(parseEndpointList('productreviews,4.4')).toEqual(['productReviews', 'wishlistItems']);
    expect(() => parseEndpointList('carts')).toThrow(/unknown endpoint 'carts'; accepted: reviews \(4\.1\), productReviews \(4\.2\)/);
  });
});

/**
 * The commands `check` prints (the header, each failure's replay line, the run's replay) start as
 * the user runs the kit there: `npx store-listing-kit` from a project, `store-listing-kit` from a
 * global install, `node bin/store-listing-kit.js` in a clone of the kit (properties/invocation.ts).
 */
describe('the printed commands start as the user runs the kit', () => {
  const projectFiles = new Set(['/home/me/shop/package.json', 'C:/Users/me/shop/package.json']);
  const at = (script: string | undefined, env: Record<string, string> = {}, cwd = '/home/me/shop') => kitCommandFor({ script, env, cwd, exists: (p) => projectFiles.has(p.replace(/\\/g, '/')) }).join(' ');

  it('decides from the script node was started with, and npm\'s environment only where that leaves it open', () => {
    // A project's dependency: `npx store-listing-kit`, an npm script, `npm exec`; pnpm's nested folder too.
    expect(at('/home/me/shop/node_modules/.bin/store-listing-kit')).toBe('npx store-listing-kit');
    expect(at('/home/me/shop/node_modules/.bin/store-listing-kit', { npm_command: 'run-script', npm_lifecycle_event: 'contract' })).toBe('npx store-listing-kit');
    expect(at('/home/me/shop/node_modules/.pnpm/store-listing-kit@0.1.0/node_modules/store-listing-kit/bin/store-listing-kit.js')).toBe('npx store-listing-kit');
    expect(at('C:\\Users\\me\\shop\\node_modules\\store-listing-kit\\bin\\store-listing-kit.js')).toBe('npx store-listing-kit');
    // The library inside the project's vitest.
    expect(at('/home/me/shop/node_modules/vitest/vitest.mjs')).toBe('npx store-listing-kit');
    // A global install: its node_modules is no project's; its link on the PATH.
    expect(at('/usr/lib/node_modules/store-listing-kit/bin/store-listing-kit.js')).toBe('store-listing-kit');
    expect(at('/usr/local/bin/store-listing-kit')).toBe('store-listing-kit');
    // npx's own folder outside a project (npm 11 sets npm_command=exec and npm_lifecycle_event=npx).
    expect(at('/root/.npm/_npx/0123abcd/node_modules/.bin/store-listing-kit', { npm_command: 'exec', npm_lifecycle_event: 'npx' })).toBe('npx store-listing-kit');
    // A clone of the kit: the path from the current folder; the environment of `npx vitest` around it says nothing.
    expect(at('/src/store-listing-kit/bin/store-listing-kit.js', { npm_command: 'exec' }, '/src/store-listing-kit')).toBe('node bin/store-listing-kit.js');
    expect(at('/src/store-listing-kit/bin/store-listing-kit.js', {}, '/tmp')).toBe('node /src/store-listing-kit/bin/store-listing-kit.js');
    expect(at(undefined)).toBe('store-listing-kit');
  });

  it('run through a project\'s node_modules/.bin, as npx and npm scripts run it: npx store-listing-kit in the replay', async () => {
    const project = mkdtempSync(join(tmpdir(), 'slk-project-'));
    const server = await startReferenceServer();
    try {
      writeFileSync(join(project, 'package.json'), '{"name":"shop","private":true}\n');
      mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true });
      symlinkSync(BIN, join(project, 'node_modules', '.bin', 'store-listing-kit'));
      const { BASE_URL: _vite, ...env } = process.env;
      const run = await new Promise<Run>((resolve) => {
        execFile(process.execPath, ['node_modules/.bin/store-listing-kit', 'check', '--base-url', server.url, '--seed', '1', '--runs', '1', '--endpoints', 'wishlists', '--properties', 'page-length'], { cwd: project, env, timeout: 60_000 }, (error, stdout, stderr) =>
          resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
        );
      });
      expect([run.code, run.stderr]).toEqual([0, '']);
      expect(run.stdout).toContain(`replay this run: npx store-listing-kit check --base-url ${server.url} --seed 1 --endpoints wishlists --properties page-length --runs 1`);
    } finally {
      await server.close();
      rmSync(project, { recursive: true, force: true });
    }
  }, 60_000);
});
