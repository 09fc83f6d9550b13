/**
 * Issue 19: a web page the developer opens must not be able to steer the mock through its admin
 * API. No CORS on /__admin (preflights refused), a `Host` that names this machine on a loopback
 * bind (DNS rebinding), admin changes only with what no page can send cross-origin without a
 * preflight, preflights of the listings that allow only their methods, and `--cors-origin`
 * values a browser can actually send. test/browser/admin-cross-origin.browser.test.ts drives
 * the same attacks from a real page in Chromium.
 */
import { execFile } from 'node:child_process';
import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { CommanderError } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../cli/main.ts';
import { generateDataset } from '../fixtures/index.ts';
import { ADMIN_WRITE_HEADER } from '../lib/admin-paths.ts';
import { isLocalHostHeader } from '../mock-server/admin/access.ts';
import { createOps } from '../mock-server/state/ops.ts';
import { createApp } from '../mock-server/front/app.ts';
import { corsOriginProblem } from '../mock-server/helpers/cors-policy.ts';
import { DatasetHolder } from '../mock-server/dataset/holder.ts';
import { startMockServer, type MockServer } from '../mock-server/server.ts';
import type { MockCluster } from '../mock-server/cluster/start-cluster.ts';
import { startServe } from './support/cli-process.ts';
import { sendRaw } from './support/raw-http.ts';

const BIN = fileURLToPath(new URL('../bin/store-listing-kit.js', import.meta.url));
const EVIL = 'http://evil.example';
const SHOP = 'http://shop.test';
const DATA = { seed: 3, reviews: 40, products: 4, wishlists: 5, maxItems: 4 };

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  json: any;
}

/** One request on its own connection (so a cluster's workers take turns), with any Host. */
function call(base: string, path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method: init.method ?? 'GET', agent: false, headers: init.headers ?? {} }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

const corsHeadersOf = (answer: Answer) => Object.keys(answer.headers).filter((name) => name.startsWith('access-control-'));

function expectError(answer: Answer, status: number, type: string, mentions?: RegExp): void {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expect(answer.json).toEqual({ type, message: expect.any(String) });
  if (mentions) expect(answer.json.message).toMatch(mentions);
}

const preflight = (origin: string, method: string, headers = 'content-type') => ({
  method: 'OPTIONS',
  headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers },
});

/** What an admin change could alter: faults, dataset, journal. */
async function state(base: string) {
  const config = (await call(base, '/__admin/config')).json;
  const journal = (await call(base, '/__admin/journal')).json;
  return { faults: config.faults.active, errorRate: config.faults.errorRate, version: config.dataset.version, seed: config.dataset.current.seed, journal: journal.recorded };
}

/** Every admin change, each as a page could send it without a preflight (a "simple request"). */
const SIMPLE_CHANGES: Array<{ name: string; method: string; path: string; headers?: Record<string, string>; body?: string }> = [
  { name: 'POST reset, no body', method: 'POST', path: '/__admin/reset' },
  { name: 'POST dataset, no body', method: 'POST', path: '/__admin/dataset' },
  { name: 'POST dataset, a form', method: 'POST', path: '/__admin/dataset', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'seed=9' },
  { name: 'POST dataset, JSON as text/plain', method: 'POST', path: '/__admin/dataset', headers: { 'content-type': 'text/plain;charset=UTF-8' }, body: '{"seed":9}' },
  { name: 'POST reset, multipart', method: 'POST', path: '/__admin/reset', headers: { 'content-type': 'multipart/form-data; boundary=x' }, body: '--x--\r\n' },
  { name: 'POST provider-states, JSON as text/plain', method: 'POST', path: '/__admin/provider-states', headers: { 'content-type': 'text/plain' }, body: '{"state":"no reviews exist"}' },
  // Not simple in a browser (a preflight comes first), refused all the same without the marks.
  { name: 'PUT faults, JSON as text/plain', method: 'PUT', path: '/__admin/faults', headers: { 'content-type': 'text/plain' }, body: '{"errorRate":1}' },
  { name: 'DELETE journal, no body', method: 'DELETE', path: '/__admin/journal' },
  { name: 'DELETE journal, empty X-Requested-By', method: 'DELETE', path: '/__admin/journal', headers: { 'x-requested-by': '' } },
];

describe('the admin API on loopback without a token', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ ...DATA, corsOrigin: [SHOP] });
  });
  afterAll(() => mock.close());

  it('sends no CORS headers, even to an allowed origin, while the listings keep theirs', async () => {
    const listing = await call(mock.url, '/store/wishlists', { headers: { origin: SHOP } });
    expect(listing.status).toBe(200);
    expect(listing.headers['access-control-allow-origin']).toBe(SHOP);
    for (const origin of [SHOP, EVIL]) {
      const answers = [
        await call(mock.url, '/__admin/config', { headers: { origin } }),
        await call(mock.url, '/__admin/nope', { headers: { origin } }),
        await call(mock.url, '/__ADMIN/health', { headers: { origin } }),
        await call(mock.url, '/__admin/faults', { method: 'DELETE', headers: { origin, [ADMIN_WRITE_HEADER]: 'admin-access.test' } }),
        await call(mock.url, '/__admin/provider-states', { method: 'POST', headers: { origin, 'content-type': 'application/json' }, body: '{"state":"no such state"}' }),
      ];
      expect(answers.map((a) => a.status)).toEqual([200, 404, 200, 200, 400]);
      for (const answer of answers) expect(corsHeadersOf(answer), answer.text).toEqual([]);
    }
  });

  it('refuses every preflight with a JSON 403 and no CORS headers, so the browser sends nothing', async () => {
    for (const origin of [SHOP, EVIL]) {
      for (const [path, method] of [['/__admin/faults', 'PUT'], ['/__admin/reset', 'POST'], ['/__admin/journal', 'DELETE'], ['/__admin/config', 'GET'], ['/__Admin/provider-states', 'POST']]) {
        const answer = await call(mock.url, path!, preflight(origin, method!, 'content-type,x-requested-by'));
        expectError(answer, 403, 'not_allowed', /no cross-origin requests/);
        expect(corsHeadersOf(answer)).toEqual([]);
      }
    }
    // A bare OPTIONS (not a preflight) is a method the admin API does not have, in JSON (not Express's text/plain 200).
    expectError(await call(mock.url, '/__admin/health', { method: 'OPTIONS' }), 404, 'not_found', /No route for OPTIONS/);
  });

  it('answers only a Host that names this machine (DNS rebinding), on /__admin only', async () => {
    for (const host of ['127.0.0.1', `127.0.0.1:${mock.port}`, '127.9.8.7:1', 'localhost', 'LOCALHOST:9000', '[::1]:9000', '[::1]', 'shop.localhost:3000', 'a.b.localhost']) {
      expect((await call(mock.url, '/__admin/config', { headers: { host } })).status, host).toBe(200);
    }
    const before = await state(mock.url);
    for (const host of ['attacker.example', `attacker.example:${mock.port}`, '127.0.0.1.nip.io', 'localhost.attacker.example', 'localhost.', '[::2]:9000', '10.0.0.1', '0.0.0.0', 'localhost:9000:1']) {
      expectError(await call(mock.url, '/__admin/config', { headers: { host } }), 403, 'not_allowed', /Host header/);
      expectError(await call(mock.url, '/__admin/faults', { method: 'PUT', headers: { host, 'content-type': 'application/json' }, body: '{"errorRate":1}' }), 403, 'not_allowed');
      expectError(await call(mock.url, '/__admin/reset', { method: 'POST', headers: { host, [ADMIN_WRITE_HEADER]: 'x' } }), 403, 'not_allowed');
      // The listings answer whatever the Host.
      expect((await call(mock.url, '/store/wishlists', { headers: { host } })).status).toBe(200);
    }
    // HTTP/1.0 without a Host: no browser sends that, and it names nothing: refused too.
    const bare = await sendRaw(mock.port, Buffer.from('GET /__admin/config HTTP/1.0\r\n\r\n', 'latin1'));
    expect(bare.status).toBe(403);
    expect(JSON.parse(bare.body)).toMatchObject({ type: 'not_allowed', message: expect.stringMatching(/got none/) });
    expect({ ...(await state(mock.url)), journal: before.journal }).toEqual(before);
  });

  it('refuses a change sent as a page could send it without a preflight, and changes nothing', async () => {
    await call(mock.url, '/__admin/dataset', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"seed":11}' });
    await call(mock.url, '/__admin/journal', { method: 'DELETE', headers: { [ADMIN_WRITE_HEADER]: 'admin-access.test' } });
    await call(mock.url, '/store/wishlists?take=2');
    const before = await state(mock.url);
    expect(before).toMatchObject({ faults: false, seed: 11, journal: 1 });
    for (const change of SIMPLE_CHANGES) {
      const answer = await call(mock.url, change.path, { method: change.method, headers: { origin: EVIL, ...change.headers }, ...(change.body === undefined ? {} : { body: change.body }) });
      expectError(answer, 415, 'invalid_data', /Content-Type: application\/json .* or with the header X-Requested-By/);
      expect(corsHeadersOf(answer)).toEqual([]);
    }
    expect(await state(mock.url)).toEqual(before);
    expect((await call(mock.url, '/store/wishlists?take=2')).status).toBe(200);
  });

  it('takes a change with a JSON body ({} will do) or X-Requested-By; reads need neither', async () => {
    expect((await call(mock.url, '/__admin/faults', { method: 'PUT', headers: { 'content-type': 'application/json; charset=utf-8' }, body: '{"errorRate":1,"errorStatus":503}' })).status).toBe(200);
    expect((await call(mock.url, '/store/wishlists')).status).toBe(503);
    expect((await call(mock.url, '/__admin/faults', { method: 'DELETE', headers: { [ADMIN_WRITE_HEADER]: 'curl' } })).status).toBe(200);
    expect((await call(mock.url, '/store/wishlists')).status).toBe(200);
    const reseeded = await call(mock.url, '/__admin/dataset', { method: 'POST', headers: { 'Content-Type': 'Application/JSON' }, body: '{"seed":12}' });
    expect(reseeded.json.current.seed).toBe(12);
    expect((await call(mock.url, '/__admin/reset', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).json.current.seed).toBe(DATA.seed);
    expect((await call(mock.url, '/__admin/journal', { method: 'DELETE', headers: { [ADMIN_WRITE_HEADER]: 'a script' } })).status).toBe(200);
    for (const path of ['/__admin/health', '/__admin/config', '/__admin/journal', '/__admin/faults']) {
      expect((await call(mock.url, path)).status, path).toBe(200);
      expect((await call(mock.url, path, { method: 'HEAD' })).status, path).toBe(200);
    }
  });

  it('preflights of the listings allow only their methods (GET, HEAD)', async () => {
    for (const method of ['GET', 'PUT', 'POST', 'DELETE']) {
      const answer = await call(mock.url, '/store/products/reviews', preflight(SHOP, method));
      expect(answer.status).toBe(204);
      expect(answer.headers['access-control-allow-origin']).toBe(SHOP);
      expect(answer.headers['access-control-allow-methods']).toBe('GET,HEAD');
    }
  });

  it("in the alphabite dialect, preflights allow the plugins' write methods too (a storefront on another origin writes), never under /__admin", async () => {
    const alphabite = await startMockServer({ ...DATA, dialect: 'alphabite', corsOrigin: [SHOP] });
    try {
      for (const method of ['POST', 'PUT', 'DELETE']) {
        const answer = await call(alphabite.url, '/store/wishlists', preflight(SHOP, method, 'authorization,content-type,x-publishable-api-key'));
        expect(answer.status, method).toBe(204);
        expect(answer.headers['access-control-allow-origin']).toBe(SHOP);
        expect(answer.headers['access-control-allow-methods']).toBe('GET,HEAD,POST,PUT,DELETE');
      }
      expectError(await call(alphabite.url, '/__admin/faults', preflight(SHOP, 'PUT')), 403, 'not_allowed');
    } finally {
      await alphabite.close();
    }
  });
});

describe('the admin API with a token', () => {
  it('needs neither a local Host nor the change marks: the bearer token is the proof, and no page can send it', async () => {
    const holder = new DatasetHolder(generateDataset(DATA));
    const app = createApp(holder, { ops: createOps({ access: { host: '127.0.0.1', token: 's3cret-token' } }) });
    const server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const auth = { authorization: 'Bearer s3cret-token' };
      expect((await call(base, '/__admin/config', { headers: { ...auth, host: 'dev-box.lan:9000' } })).status).toBe(200);
      expect((await call(base, '/__admin/reset', { method: 'POST', headers: auth })).status).toBe(200);
      expectError(await call(base, '/__admin/reset', { method: 'POST', headers: { host: 'dev-box.lan' } }), 401, 'unauthorized');
      // Still no CORS, and preflights refused.
      const answer = await call(base, '/__admin/faults', preflight(EVIL, 'PUT', 'authorization,content-type'));
      expectError(answer, 403, 'not_allowed');
      expect(corsHeadersOf(answer)).toEqual([]);
      expect(corsHeadersOf(await call(base, '/__admin/config', { headers: { ...auth, origin: EVIL } }))).toEqual([]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('with --workers, every worker', () => {
  let cluster: MockCluster;
  beforeAll(async () => {
    cluster = await startMockServer({ ...DATA, workers: 2 });
  }, 60_000);
  afterAll(() => cluster?.close());

  it('guards /__admin the same way', async () => {
    // Consecutive connections go to the workers in turn: each check twice.
    for (let i = 0; i < 2; i++) {
      expectError(await call(cluster.url, '/__admin/reset', { method: 'POST' }), 415, 'invalid_data', /X-Requested-By/);
      expectError(await call(cluster.url, '/__admin/config', { headers: { host: 'attacker.example' } }), 403, 'not_allowed', /Host header/);
      const refused = await call(cluster.url, '/__admin/faults', preflight(EVIL, 'PUT'));
      expectError(refused, 403, 'not_allowed');
      expect(corsHeadersOf(refused)).toEqual([]);
      expect(corsHeadersOf(await call(cluster.url, '/__admin/health', { headers: { origin: EVIL } }))).toEqual([]);
      expect((await call(cluster.url, '/store/wishlists', preflight(EVIL, 'PUT'))).headers['access-control-allow-methods']).toBe('GET,HEAD');
    }
    expect((await call(cluster.url, '/__admin/config')).json.faults.active).toBe(false);
  });
});

describe('which Host headers name this machine', () => {
  it('loopback names and addresses, names under .localhost, and the host the server listens on, with any port', () => {
    for (const header of ['localhost', 'localhost:1', '127.0.0.1:65535', '127.255.0.1', '[::1]:80', '[::ffff:127.0.0.1]:9000', 'app.localhost', 'x-1.app.localhost:3000']) {
      expect(isLocalHostHeader(header, '127.0.0.1'), header).toBe(true);
    }
    expect(isLocalHostHeader('devbox:9000', 'devbox')).toBe(true);
    expect(isLocalHostHeader('DevBox', 'devbox')).toBe(true);
    for (const header of [undefined, '', 'example.com', 'localhost.example.com', 'localhost.', '.localhost', '127.0.0.1.nip.io', '[::2]', '128.0.0.1', 'localhost:', 'localhost:abc', 'local host', 'devbox']) {
      expect(isLocalHostHeader(header, '127.0.0.1'), String(header)).toBe(false);
    }
  });
});

describe('--cors-origin', () => {
  const REFUSED: Array<[string, RegExp]> = [
    ['http://localhost:3000/', /trailing slash; a browser sends http:\/\/localhost:3000$/],
    ['localhost:3000', /does not start with scheme:\/\//],
    ['*.example.com', /wildcard/],
    ['https://*.example.com', /wildcard/],
    ['HTTP://LOCALHOST:3000', /upper case; a browser sends http:\/\/localhost:3000$/],
    ['http://Shop.test', /upper case/],
    ['http://localhost:3000/app', /path/],
    ['https://shop.test:443', /default port, which a browser leaves out; a browser sends https:\/\/shop.test$/],
    ['http://user:pw@shop.test', /user name or password/],
    ['null', /sandboxed/],
    [' http://shop.test', /white space/],
    ['file:///tmp/page.html', /no host/],
    ['http://[::0001]:3000', /a browser sends it as http:\/\/\[::1\]:3000/],
  ];

  it('takes origins exactly as browsers send them, or *', () => {
    for (const origin of ['*', 'http://localhost:3000', 'https://shop.example.com', 'http://127.0.0.1:5173', 'http://[::1]:3000', 'capacitor://localhost']) expect(corsOriginProblem(origin), origin).toBeUndefined();
    for (const [origin, reason] of REFUSED) expect(corsOriginProblem(origin), origin).toMatch(reason);
  });

  it('startMockServer and createApp refuse the same values before serving anything', async () => {
    await expect(startMockServer({ corsOrigin: 'http://localhost:3000/' })).rejects.toThrow(/corsOrigin "http:\/\/localhost:3000\/" is not an origin a browser sends: it has a path, query or trailing slash/);
    await expect(startMockServer({ corsOrigin: [SHOP, '*.example.com'], workers: 2 })).rejects.toThrow(/"\*\.example\.com" .*wildcard/);
    expect(() => createApp(new DatasetHolder(generateDataset(DATA)), { corsOrigin: ['HTTP://SHOP.TEST'] })).toThrow(TypeError);
  });

  it('serve refuses each with exit 2 and the reason, before it starts', async () => {
    // (The command line trims each origin of the list: white space around one is no fault there.)
    for (const [origin, reason] of REFUSED.filter(([value]) => value === value.trim())) {
      const result = await parseInProcess(['serve', '--port', '0', '--cors-origin', `${SHOP},${origin}`]);
      expect(result.code, origin).toBe(2);
      expect(result.stderr, origin).toContain(`'${origin}' is not an origin a browser sends`);
      expect(result.stderr.replace(/\.\n[^]*$/, ''), origin).toMatch(reason);
    }
    expect((await parseInProcess(['serve', '--port', '0', '--cors-origin', ' , '])).stderr).toMatch(/expected one or more origins/);
    // The real command line: one line, exit 2, no stack.
    const run = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(process.execPath, [BIN, 'serve', '--port', '0', '--cors-origin', 'http://localhost:3000/'], { timeout: 30_000 }, (error, _stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stderr });
      });
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^error: option '--cors-origin <origins>' argument 'http:\/\/localhost:3000\/' is invalid\. 'http:\/\/localhost:3000\/' is not an origin a browser sends: it has a path, query or trailing slash; a browser sends http:\/\/localhost:3000\.\n\(run with --help for usage\)\n$/);
  });

  it('serve takes a list of good ones and answers them on the listings, never on /__admin', async () => {
    const serve = await startServe(['--reviews', '10', '--wishlists', '2', '--cors-origin', `http://localhost:3000, ${SHOP}`]);
    try {
      expect(serve.stdout()).toMatch(/cors: http:\/\/localhost:3000, http:\/\/shop\.test \(credentials allowed\)/);
      expect(serve.stdout()).toMatch(/admin: .*loopback clients only; changes need Content-Type: application\/json or X-Requested-By/);
      expect((await call(serve.url, '/store/wishlists', { headers: { origin: SHOP } })).headers['access-control-allow-origin']).toBe(SHOP);
      expect(corsHeadersOf(await call(serve.url, '/__admin/config', { headers: { origin: SHOP } }))).toEqual([]);
    } finally {
      serve.child.kill('SIGTERM');
      await serve.exited;
    }
  });
});

/** Parses a command line in this process: options are refused before anything starts (as in faults-cli.test.ts). */
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
