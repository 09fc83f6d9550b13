/**
 * `store-listing-kit proxy --backend <url>`, the validating proxy, as a child process (as CI runs it):
 * in front of `serve --dialect alphabite` (which answers 4.1 as the published plugin does,
 * docs/dialects.md rows 7 and 8), @alphabite/medusa-sdk's list calls break rules only on 4.1 and only
 * the rules of those rows; SIGTERM and SIGINT end it with 1 and both reports written. In front of the
 * bug-free plugins' reference server: no violation, exit 0; with a bug: the rule that catches it. An
 * unreachable backend: 502s, nothing checked, exit 0 with a warning. Gzip answers are checked as
 * the client gets them. A report path that cannot be written: exit 2 before it starts.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAlphabiteReferenceServer, type AlphabiteReferenceServer } from './support/alphabite-reference-server.ts';
import { ALPHABITE_ANSWER_RULE_ROWS } from './support/alphabite-verdicts.ts';
import { runCli, startCommand, startServe, type ServeProcess } from './support/cli-process.ts';
import { junitProblems, xpathString } from './support/junit-reader.ts';
import { sdkFor, type ListingBackend } from './support/real-client-flows.ts';
import { namedCustomer } from './support/customer-token.ts';
import { generateDataset } from '../fixtures/dataset.ts';

const KEY = 'pk_test_proxy';
/** `serve`'s dataset (seed 1, as test/real-clients.test.ts): the customer it names as the first wishlist's owner, who sees it (each customer sees their own wishlists). */
const OWNER = namedCustomer(generateDataset({ seed: 1 }), (w) => w === 0);
const TOKEN = OWNER.authorization;

/** `store-listing-kit proxy --port 0 <args>`, once its banner says where it listens (the shared start-up of test/support/cli-process.ts). */
const startProxy = (args: string[], timeoutMs?: number): Promise<ServeProcess> => startCommand('proxy', args, timeoutMs);

/** What GET /__admin/journal shows of an entry, the parts read here. */
interface JournalView {
  url: string;
  answeredBy: 'mock' | 'backend';
  check: { checked: true; found: number; violations: Array<{ rule: string }> } | null;
}

interface JsonReport {
  checked: number;
  violationCount: number;
  violations: Array<{ method: string; path: string; rule: string; expected: unknown; actual: unknown }>;
}

const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as JsonReport;
const violationLines = (stdout: string) => stdout.split('\n').filter((line) => line.startsWith('violation: '));

/** The SDK's list calls of a storefront: 4.1 without and with a limit, 4.2, 4.3 and 4.4. */
async function sdkListCalls(backend: Pick<ListingBackend, 'baseUrl' | 'productId' | 'wishlistId'>): Promise<void> {
  const sdk = sdkFor({ ...backend, publishableKey: KEY, authorization: TOKEN } as ListingBackend);
  await sdk.alphabite.reviews.list({});
  await sdk.alphabite.reviews.list({ limit: 5, offset: 0 });
  await sdk.alphabite.reviews.listProductReviews({ product_id: backend.productId, limit: 5, offset: 5 });
  await sdk.alphabite.wishlist.list({});
  await sdk.alphabite.wishlist.listItems({ id: backend.wishlistId, limit: 5, offset: 5 });
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'proxy-cli-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('in front of serve --dialect alphabite (4.1 as the published plugin answers it)', () => {
  let serve: ServeProcess;
  // seed 1, as test/real-clients.test.ts
  const productId = 'prod_0000000000DG0Z6FHNZDXQTW3V';
  const wishlistId = OWNER.wishlistIds[0]!;
  beforeAll(async () => {
    serve = await startServe(['--dialect', 'alphabite']);
  });
  afterAll(async () => {
    serve?.child.kill('SIGTERM');
    await serve?.exited;
  });

  it('the SDK\'s list calls break rules on 4.1 only, those of docs/dialects.md rows 7 and 8; SIGTERM: exit 1, both reports written', async () => {
    const json = join(dir, 'term', 'proxy.json');
    const junit = join(dir, 'term', 'proxy.xml');
    const proxy = await startProxy(['--backend', serve.url, '--json', json, '--junit', junit]);
    expect(proxy.stdout()).toContain(`backend: ${serve.url}: every request but /__admin goes there`);
    expect(proxy.stdout()).toContain(`admin: dashboard and API at ${proxy.url}/__admin/`);
    expect(proxy.stdout()).toMatch(/^dialect: alphabite: rules data-envelope, /m);
    await sdkListCalls({ baseUrl: proxy.url, productId, wishlistId });
    // The journal marks each checked answer with its verdict (the dashboard reads the same entries).
    const journal = async (query: string) => ((await (await fetch(`${proxy.url}/__admin/journal${query}`)).json()) as { entries: JournalView[] }).entries;
    // An entry is noted once its answer's check has its verdict, just after the client has the answer.
    let checked = await journal('?by=backend');
    while (checked.length < 5) checked = await new Promise((resolve) => setTimeout(resolve, 20)).then(() => journal('?by=backend'));
    expect(checked).toHaveLength(5);
    for (const entry of checked) expect(entry).toMatchObject({ answeredBy: 'backend', check: { checked: true } });
    const broken = await journal('?violations=1');
    expect(broken.map((e) => e.url).sort()).toEqual(['/store/products/reviews', '/store/products/reviews?limit=5&offset=0']);
    expect(broken.flatMap((e) => e.check!.violations.map((v) => v.rule)).sort()).toEqual(['echo-size-and-start', 'records-within-count', 'records-within-count']);
    proxy.child.kill('SIGTERM');
    expect(await proxy.exited).toBe(1);

    const report = readJson(json);
    expect(report.checked).toBe(5);
    const rules = new Set(report.violations.map((v) => v.rule));
    expect([...rules].sort()).toEqual(Object.keys(ALPHABITE_ANSWER_RULE_ROWS).sort());
    for (const v of report.violations) expect(v.path, JSON.stringify(v)).toMatch(/^\/store\/products\/reviews(\?|$)/);
    expect(report.violationCount).toBe(report.violations.length);
    // limit=5 sent: the echo holds by chance (the plugin always echoes 5), records-within-count does not.
    expect(report.violations.filter((v) => v.path === '/store/products/reviews?limit=5&offset=0').map((v) => v.rule)).toEqual(['records-within-count']);
    expect(report.violations).toContainEqual(expect.objectContaining({ method: 'GET', path: '/store/products/reviews', rule: 'echo-size-and-start', expected: 20, actual: 5 }));

    const lines = violationLines(proxy.stdout());
    expect(lines).toHaveLength(report.violationCount);
    for (const line of lines) expect(line).toMatch(/^violation: GET \/store\/products\/reviews\S* \(4\.1\) (echo-size-and-start|records-within-count): \S+ expected .+, got /);
    expect(proxy.stdout()).toContain(`checked 5 answers of the four listings: ${report.violationCount} violations\n`);
    expect(proxy.stderr()).toBe('');

    const xml = readFileSync(junit, 'utf8');
    expect(await junitProblems(xml)).toEqual([]);
    expect(await xpathString(xml, 'string(//testsuite/@name)')).toBe(`proxy --backend ${serve.url}`);
    expect(await xpathString(xml, 'count(//testcase[failure])')).toBe('2');
    expect(await xpathString(xml, 'string(//testcase[failure][1]/@name)')).toBe('echo-size-and-start (4.1 GET /store/products/reviews)');
    expect(await xpathString(xml, 'string(//testcase[failure][2]/@name)')).toBe('records-within-count (4.1 GET /store/products/reviews)');
    expect(await xpathString(xml, 'string(//testcase[@name="records-within-count (4.1 GET /store/products/reviews)"]/failure)')).toContain('violation: GET /store/products/reviews');
    // Exercised on 4.2 to 4.4 and held; 4.1's envelope holds too (the clamped numbers of its echoed count 0).
    for (const name of ['data-envelope (4.1 GET /store/products/reviews)', 'record-shape (4.2 GET /store/reviews/product/:product_id)', 'echo-size-and-start (4.3 GET /store/wishlists)', 'records-within-count (4.4 GET /store/wishlists/:id/items)']) {
      expect(await xpathString(xml, `count(//testcase[@name="${name}"][not(*)])`), name).toBe('1');
    }
  }, 60_000);

  it('SIGINT: exit 1, both reports written', async () => {
    const json = join(dir, 'int', 'proxy.json');
    const junit = join(dir, 'int', 'proxy.xml');
    const proxy = await startProxy(['--backend', serve.url, '--json', json, '--junit', junit]);
    await sdkFor({ baseUrl: proxy.url, publishableKey: KEY, authorization: TOKEN } as ListingBackend).alphabite.reviews.list({});
    proxy.child.kill('SIGINT');
    expect(await proxy.exited).toBe(1);
    expect(readJson(json)).toMatchObject({ checked: 1, violations: expect.arrayContaining([expect.objectContaining({ rule: 'echo-size-and-start' })]) });
    const xml = readFileSync(junit, 'utf8');
    expect(await junitProblems(xml)).toEqual([]);
    expect(await xpathString(xml, 'count(//testcase[failure])')).toBe('2');
    // 4.2 to 4.4 were never asked for: skipped.
    expect(await xpathString(xml, 'string(//testcase[@name="data-envelope (4.3 GET /store/wishlists)"]/skipped/@message)')).toMatch(/no answer checked exercised this rule/);
  }, 60_000);

  it('a second signal cuts a request still in flight and exits at once with the verdict so far, reports written', async () => {
    // A backend that passes the listings on and holds GET /store/carts until the test ends.
    let held: (() => void) | undefined;
    const heldRequest = new Promise<void>((resolve) => (held = resolve));
    const holding = createServer((req, res) => {
      if (req.url === '/store/carts') return held!();
      void fetch(`${serve.url}${req.url}`, { headers: { 'x-publishable-api-key': KEY } }).then(async (upstream) => {
        res.writeHead(upstream.status, { 'content-type': 'application/json; charset=utf-8' });
        res.end(Buffer.from(await upstream.arrayBuffer()));
      });
    });
    await new Promise<void>((resolve) => holding.listen(0, '127.0.0.1', resolve));
    try {
      const json = join(dir, 'cut', 'proxy.json');
      const junit = join(dir, 'cut', 'proxy.xml');
      const proxy = await startProxy(['--backend', `http://127.0.0.1:${(holding.address() as AddressInfo).port}`, '--json', json, '--junit', junit, '--log-level', 'info']);
      await (await fetch(`${proxy.url}/store/products/reviews`, { headers: { 'x-publishable-api-key': KEY } })).arrayBuffer();
      const inFlight = fetch(`${proxy.url}/store/carts`).catch((error: unknown) => error);
      await heldRequest;
      proxy.child.kill('SIGTERM');
      // The first signal is taken (it waits for the request held), then the second cuts.
      await until(() => proxy.stdout().includes('shutting down'));
      expect(existsSync(json)).toBe(false);
      proxy.child.kill('SIGTERM');
      expect(await proxy.exited).toBe(1);
      expect(await inFlight).toBeInstanceOf(Error);
      expect(readJson(json)).toMatchObject({ checked: 1, violationCount: 2 });
      expect(await junitProblems(readFileSync(junit, 'utf8'))).toEqual([]);
      expect(proxy.stdout()).toContain('checked 1 answer of the four listings: 2 violations\n');
    } finally {
      holding.closeAllConnections();
      await new Promise((resolve) => holding.close(resolve));
    }
  }, 60_000);

  it('gzip answers are checked as the client gets them (the client gets the backend\'s bytes)', async () => {
    // A backend that gzips the plugins' answers (Medusa behind compression middleware).
    const gzipping = createServer((req, res) => {
      void fetch(`${serve.url}${req.url}`, { headers: { 'x-publishable-api-key': KEY } }).then(async (upstream) => {
        const body = gzipSync(Buffer.from(await upstream.arrayBuffer()));
        res.writeHead(upstream.status, { 'content-type': 'application/json; charset=utf-8', 'content-encoding': 'gzip', 'content-length': body.length });
        res.end(body);
      });
    });
    await new Promise<void>((resolve) => gzipping.listen(0, '127.0.0.1', resolve));
    const backend = `http://127.0.0.1:${(gzipping.address() as AddressInfo).port}`;
    try {
      const json = join(dir, 'gzip.json');
      const proxy = await startProxy(['--backend', backend, '--json', json]);
      const raw = await rawGet(`${proxy.url}/store/products/reviews?limit=5`, { 'x-publishable-api-key': KEY, 'accept-encoding': 'gzip' });
      expect(raw.encoding).toBe('gzip');
      expect(raw.body.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
      proxy.child.kill('SIGTERM');
      expect(await proxy.exited).toBe(1);
      const report = readJson(json);
      expect(report.checked).toBe(1);
      expect(report.violations.map((v) => v.rule)).toEqual(['records-within-count']);
    } finally {
      await new Promise((resolve) => gzipping.close(resolve));
    }
  }, 60_000);
});

/** Resolves once `condition` holds (polled; the test's own timeout bounds it). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** A GET whose answer is read as the bytes sent (fetch would decompress them). */
function rawGet(url: string, headers: Record<string, string>): Promise<{ encoding: string | undefined; body: Buffer }> {
  return new Promise((resolve, reject) => {
    httpRequest(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

describe('in front of the plugins\' reference server (paging fixed)', () => {
  let reference: AlphabiteReferenceServer;
  beforeAll(async () => {
    reference = await startAlphabiteReferenceServer();
  });
  afterAll(async () => {
    await reference?.close();
  });

  it('no bug: no violation, exit 0', async () => {
    const json = join(dir, 'clean.json');
    const junit = join(dir, 'clean.xml');
    const proxy = await startProxy(['--backend', reference.url, '--json', json, '--junit', junit]);
    await sdkListCalls({ baseUrl: proxy.url, productId: 'prod_1', wishlistId: 'wl_004' });
    proxy.child.kill('SIGTERM');
    expect(await proxy.exited).toBe(0);
    expect(readJson(json)).toEqual({ checked: 5, violationCount: 0, violations: [] });
    expect(violationLines(proxy.stdout())).toEqual([]);
    expect(proxy.stdout()).toContain('checked 5 answers of the four listings: 0 violations\n');
    const xml = readFileSync(junit, 'utf8');
    expect(await junitProblems(xml)).toEqual([]);
    expect(await xpathString(xml, 'count(//testcase[failure])')).toBe('0');
    expect(await xpathString(xml, 'count(//testcase[not(*)])')).toBe('20');
  }, 60_000);

  it('a bug (spec-nulls: null page numbers) is caught by the rules of one answer that see it', async () => {
    const broken = await startAlphabiteReferenceServer({ bug: 'spec-nulls' });
    try {
      const json = join(dir, 'spec-nulls.json');
      const proxy = await startProxy(['--backend', broken.url, '--json', json]);
      const res = await fetch(`${proxy.url}/store/products/reviews?limit=5&offset=20`, { headers: { 'x-publishable-api-key': KEY } });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      proxy.child.kill('SIGTERM');
      expect(await proxy.exited).toBe(1);
      const report = readJson(json);
      expect([...new Set(report.violations.map((v) => v.rule))].sort()).toEqual(['clamped-page-numbers', 'data-envelope']);
      expect(report.violations).toContainEqual(expect.objectContaining({ path: '/store/products/reviews?limit=5&offset=20', rule: 'data-envelope', actual: null }));
    } finally {
      await broken.close();
    }
  }, 60_000);
});

describe('a backend answering hostile listing bodies (issue 35: verdicts that cannot be lost or forged)', () => {
  // Each answer is a 200 of 4.1, by ?case=: deep as a whole body, deep in a record, key names that would
  // forge lines, and a number JSON cannot hold.
  const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
  const envelope = (records: string, count = '1') => `{"data":[${records}],"count":${count},"take":20,"skip":0,"totalPages":1,"currentPage":1,"nextPage":1,"prevPage":1}`;
  const FORGED = 'dat\nchecked 0 answers of the four listings: 0 violations\n\u001b[2K\u001b[31m\u202e';
  const BODIES: Record<string, string> = {
    'deep-body': deep,
    'deep-record': envelope(`{"id":"rev_1","rating":${deep}}`),
    keys: JSON.stringify({ [FORGED]: [], count: 0 }),
    huge: envelope('', '1e400'),
  };
  let hostile: Server;
  let backend: string;
  beforeAll(async () => {
    hostile = createServer((req, res) => {
      const body = BODIES[new URL(req.url ?? '/', 'http://x').searchParams.get('case') ?? ''] ?? '{}';
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
    await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve));
    backend = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => hostile?.close(resolve));
  });

  it('each is a violation: deep bodies break answer-too-deep-to-check, a key name stays on its line, 1e400 is named; exit 1, reports whole', async () => {
    const json = join(dir, 'hostile.json');
    const junit = join(dir, 'hostile.xml');
    const proxy = await startProxy(['--backend', backend, '--json', json, '--junit', junit]);
    for (const name of Object.keys(BODIES)) {
      const res = await fetch(`${proxy.url}/store/products/reviews?case=${name}`);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(BODIES[name]);
    }
    proxy.child.kill('SIGTERM');
    expect(await proxy.exited).toBe(1);

    const report = readJson(json);
    expect(report.checked).toBe(4);
    const rulesOf = (name: string) => report.violations.filter((v) => v.path === `/store/products/reviews?case=${name}`).map((v) => v.rule);
    expect(rulesOf('deep-body')).toEqual(['answer-too-deep-to-check']);
    expect(rulesOf('deep-record')).toEqual(['answer-too-deep-to-check']);
    expect(rulesOf('keys')).toContain('data-envelope');
    expect(report.violations).toContainEqual(expect.objectContaining({ path: '/store/products/reviews?case=huge', rule: 'data-envelope', actual: '1e400, a number JSON cannot hold (read as Infinity)' }));
    // The report's text holds nothing a terminal acts on (JSON escapes it), and reads back as written.
    expect(readFileSync(json, 'utf8')).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/u);

    // One line per violation: the lines are the report's violations, and the only closing line is the real one.
    const out = proxy.stdout();
    expect(out).not.toMatch(/[\u001b\u202e]/u);
    expect(violationLines(out)).toHaveLength(report.violationCount);
    expect(out.split('\n').filter((line) => line.startsWith('checked '))).toEqual([`checked 4 answers of the four listings: ${report.violationCount} violations`]);
    expect(out).toContain('violation: GET /store/products/reviews?case=huge (4.1) data-envelope: count expected a number, got 1e400, a number JSON cannot hold (read as Infinity)');
    expect(out).not.toContain('got null');

    const xml = readFileSync(junit, 'utf8');
    expect(await junitProblems(xml)).toEqual([]);
    expect(await xpathString(xml, 'string(//testcase[@name="answer-too-deep-to-check (4.1 GET /store/products/reviews)"]/failure/@message)')).toBe('2 violations');
  }, 60_000);
});

describe('a backend that cannot be reached, and a run that cannot start', () => {
  let dead: string;
  beforeAll(async () => {
    const server: Server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    dead = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await new Promise((resolve) => server.close(resolve));
  });

  it('unreachable: each request answers 502 naming the backend; nothing checked: exit 0 with a warning', async () => {
    const json = join(dir, 'dead.json');
    const proxy = await startProxy(['--backend', dead, '--json', json]);
    const res = await fetch(`${proxy.url}/store/products/reviews`, { headers: { 'x-publishable-api-key': KEY } });
    expect(res.status).toBe(502);
    expect(((await res.json()) as { message: string }).message).toContain(dead);
    proxy.child.kill('SIGTERM');
    expect(await proxy.exited).toBe(0);
    expect(readJson(json)).toEqual({ checked: 0, violationCount: 0, violations: [] });
    expect(proxy.stdout()).toContain('checked 0 answers of the four listings: 0 violations\n');
    expect(proxy.stderr()).toMatch(/^warning: no answer of the four listings went through the proxy: nothing was checked/m);
  }, 60_000);

  it('a report path that cannot be written, or bad options: exit 2 in one sentence, before it listens', async () => {
    const unwritable = await runCli(['proxy', '--backend', dead, '--port', '0', '--junit', '/dev/null/proxy.xml'], 30_000);
    expect(unwritable.code).toBe(2);
    expect(unwritable.stderr).toMatch(/^error: cannot write the report \/dev\/null\/proxy\.xml \(--junit\): a part of the path is a file, not a directory \(\w+\)\n$/);
    expect(unwritable.stdout).toBe('');
    const same = await runCli(['proxy', '--backend', dead, '--port', '0', '--json', join(dir, 'x'), '--junit', join(dir, 'x')], 30_000);
    expect(same.code).toBe(2);
    expect(same.stderr).toContain('--json and --junit name the same file');
    expect(existsSync(join(dir, 'x'))).toBe(false);
    const missing = await runCli(['proxy', '--port', '0'], 30_000);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("error: required option '--backend <url>' not specified");
    const credentials = await runCli(['proxy', '--backend', 'http://user:secret@127.0.0.1:1', '--port', '0'], 30_000);
    expect(credentials.code).toBe(2);
    expect(credentials.stderr).toContain('must not hold credentials');
  }, 60_000);
});
