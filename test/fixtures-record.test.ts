/**
 * `fixtures --from`: recording a running backend. The self-test: record the mock (both dialects)
 * through the command line, serve the recording, and ask both servers a matrix of requests (every
 * endpoint, paging edges, orders, filters, refusals): same status, same body bytes. A fake backend
 * whose records are not the kit's (extra fields, another key order, real-looking ids) shows that a
 * recording keeps records exactly as a backend returned them. Then the command's exit codes and
 * its output on a pipe.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clampedPageNumbers, pageLength, reviewsEnvelope, wishlistEnvelope } from '../lib/paging.ts';
import type { DialectName } from '../lib/dialects/index.ts';
import { loadFixturesFile, parseFixtures } from '../fixtures/file.ts';
import { loadRecordingFile } from '../fixtures/recording-file.ts';
import { startMockServer, type MockServer } from '../mock-server/server.ts';
import { progressLine } from '../cli/fixtures-record.ts';
import { reviewRecord } from './support/misbehaving-provider.ts';
import { customerToken } from './support/customer-token.ts';
import { SEEDED_WISHLISTS_PER_CUSTOMER } from '../mock-server/writes/customer-seed.ts';

const BIN = join(import.meta.dirname, '..', 'bin', 'store-listing-kit.js');
const KEY = { 'x-publishable-api-key': 'pk_test' };
const CUSTOMER = { ...KEY, authorization: 'Bearer token' };
const HEADER_ARGS = ['--header', 'x-publishable-api-key: pk_test', '--header', 'authorization: Bearer token'];

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { timeout: 60_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });
}

async function answer(base: string, path: string, headers: Record<string, string>): Promise<{ status: number; type: string | null; body: string }> {
  const res = await fetch(`${base}${path}`, { headers });
  return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'slk-record-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Paging edges for a listing of `count` records: first, aligned, unaligned (fractional page), last, past the end. */
function windows(count: number, size: 'limit' | 'take', start: 'offset' | 'skip'): string[] {
  return [
    '',
    `${size}=1`,
    `${size}=3&${start}=3`,
    `${size}=3&${start}=2`,
    `${size}=2&${start}=${Math.max(count - 1, 0)}`,
    `${size}=4&${start}=${count}`,
    `${start}=${count + 5}`,
  ];
}

const withQuery = (path: string, query: string) => (query ? `${path}?${query}` : path);

/**
 * The wishlists the recording customer (CUSTOMER) sees on `base`, with their item counts: what a recording
 * of the alphabite dialect holds, since each customer sees their own wishlists (docs/writes.md, "Whose wishlists").
 */
async function customerWishlists(base: string): Promise<Array<{ id: string; items: number }>> {
  const listed = (await (await fetch(`${base}/store/wishlists?limit=1000`, { headers: CUSTOMER })).json()) as { data: Array<{ id: string }> };
  const out: Array<{ id: string; items: number }> = [];
  for (const { id } of listed.data) out.push({ id, items: ((await (await fetch(`${base}/store/wishlists/${id}/items?limit=0`, { headers: CUSTOMER })).json()) as { count: number }).count });
  return out;
}

/**
 * The matrix of requests for a dataset: every endpoint, every product and wishlist, paging edges, orders, refusals.
 * In the alphabite dialect, the wishlists are those the recording customer sees (`seen`): another customer's
 * are not in the recording (4.4 of them is the plugin's 500 on the original, an unknown id on the copy).
 */
function matrix(dialect: DialectName, mock: MockServer, seen: Array<{ id: string; items: number }> = []): Array<{ path: string; headers: Record<string, string> }> {
  const { reviews, wishlists } = mock.dataset.current;
  const products = Array.from({ length: reviews.source.productCount }, (_, p) => reviews.source.productId(p));
  const wishlistIds = dialect === 'alphabite' ? seen.map((w) => w.id) : Array.from({ length: wishlists.count }, (_, w) => wishlists.source.wishlist(w).id);
  const out: Array<{ path: string; headers: Record<string, string> }> = [];
  const add = (path: string, headers: Record<string, string> = dialect === 'alphabite' ? CUSTOMER : {}) => out.push({ path, headers });
  if (dialect === 'alphabite') {
    for (const q of ['', 'limit=5&offset=3', `product_ids=${products[0]}`, `product_ids=${products[1]},${products[2]}`, 'rating=4', 'verified_purchase_only=true', 'order=-created_at', 'foo=1']) add(withQuery('/store/products/reviews', q));
    add('/store/products/reviews', {});
    for (const product of [...products, 'prod_unknown']) {
      const count = reviews.productIndexes(Math.max(reviews.source.productIndexOf(product), 0), { field: 'id', descending: false }).length;
      for (const q of [...windows(count, 'limit', 'offset'), 'limit=0', 'limit=-1', 'order=-created_at&limit=3', 'order=rating', 'order=-updated_at&offset=1', 'order=title', 'include_aggregated_counts=true', 'rating=5&limit=2', 'verified_purchase_only=true']) {
        add(withQuery(`/store/reviews/product/${product}`, q));
      }
    }
    for (const q of [...windows(seen.length, 'limit', 'offset'), 'limit=0', 'order=-id&limit=3', 'order=created_at', 'skip=0&take=2']) add(withQuery('/store/wishlists', q));
    add('/store/wishlists', KEY);
    for (const id of [...wishlistIds, 'wl_unknown']) {
      const items = seen.find((w) => w.id === id)?.items ?? 0;
      for (const q of [...windows(items, 'limit', 'offset'), 'order=-id', 'order=-created_at&limit=2', `id=${id}`]) add(withQuery(`/store/wishlists/${id}/items`, q));
    }
    add(`/store/wishlists/${wishlistIds[0]}/items`, KEY);
  } else {
    for (const q of [...windows(reviews.count, 'limit', 'offset'), 'order=-created_at&limit=7', 'order=rating&limit=9&offset=4', 'order=-rating', 'order=updated_at&offset=2', 'limit=0', 'limit=1001', 'order=id']) add(withQuery('/store/products/reviews', q));
    for (const product of [...products, 'prod_unknown']) {
      const count = reviews.productIndexes(Math.max(reviews.source.productIndexOf(product), 0), { field: 'id', descending: false }).length;
      for (const q of [...windows(count, 'limit', 'offset'), 'order=-created_at&limit=2', 'order=rating']) add(withQuery(`/store/reviews/product/${product}`, q));
    }
    for (const q of [...windows(wishlists.count, 'take', 'skip'), 'limit=2']) add(withQuery('/store/wishlists', q));
    for (const id of [...wishlistIds, 'wl_unknown']) {
      const w = wishlists.indexOf(id);
      for (const q of [...windows(w < 0 ? 0 : wishlists.source.itemCount(w), 'take', 'skip'), `id=${id}&take=2`, 'id=wl_other']) add(withQuery(`/store/wishlists/${id}/items`, q));
    }
  }
  return out;
}

describe.each(['alphabite', 'spec'] as const)('recording serve --dialect %s, then serving the recording', (dialect) => {
  let original: MockServer;
  let copy: MockServer;
  let file: string;
  let recorded: Run;
  /** What the recording holds of the wishlists: every one (spec), or those the recording customer sees (alphabite). */
  let seen: Array<{ id: string; items: number }>;
  let wishlistCount: number;
  let itemCount: number;

  beforeAll(async () => {
    original = await startMockServer({ dialect, seed: 11, reviews: 70, products: 9, wishlists: 8, maxItems: 9 });
    file = join(dir, `${dialect}.json`);
    recorded = await run(['fixtures', '--from', original.url, '--dialect', dialect, ...(dialect === 'alphabite' ? HEADER_ARGS : []), '--page-size', '7', '--output', file]);
    copy = await startMockServer({ dialect, fixtures: file });
    seen = dialect === 'alphabite' ? await customerWishlists(original.url) : [];
    const { summary } = original.dataset.current;
    [wishlistCount, itemCount] = dialect === 'alphabite' ? [seen.length, seen.reduce((n, w) => n + w.items, 0)] : [summary.wishlists, summary.wishlistItems];
  }, 60_000);
  afterAll(async () => {
    await original?.close();
    await copy?.close();
  });

  it('writes the recording, exit 0, with one summary line (in the alphabite dialect, and one on Medusa) and no progress on a pipe', () => {
    expect(recorded.code, recorded.stderr).toBe(0);
    expect(recorded.stdout).toBe('');
    // the mock answers as the newest Medusa tested by default (docs/dialects.md, "Which Medusa version")
    const medusa = dialect === 'alphabite' ? "medusa: the backend answers as Medusa 2\\.20\\.1 or later does \\(validation wording of zod 4, got: 'abc'; [^\\n]*\\); serve the recording with --dialect alphabite --medusa-version <its version>\\n" : '';
    expect(recorded.stderr).toMatch(new RegExp(`^recorded 70 reviews of \\d+ products, ${wishlistCount} wishlists holding ${itemCount} items from ${original.url} \\(${dialect} dialect\\) in \\d+ requests: wrote ${file.replace(/[.\\]/g, '\\$&')}\\n${medusa}$`));
    expect(recorded.stderr).not.toMatch(/\r|\x1b/);
    // The file is written beside the output under another name, then renamed: nothing of it is left.
    expect(readdirSync(dir).filter((name) => name.startsWith('.'))).toEqual([]);
  });

  it('serves the same records: summary counts match the original dataset (alphabite: as the recording customer sees it)', () => {
    const a = original.dataset.current.summary;
    const b = copy.dataset.current.summary;
    expect({ reviews: b.reviews, wishlists: b.wishlists, wishlistItems: b.wishlistItems, recordedIn: b.recordedIn }).toEqual({ reviews: a.reviews, wishlists: wishlistCount, wishlistItems: itemCount, recordedIn: dialect });
    // a customer of their own: one seeded wishlist with items, not the dataset's 8
    if (dialect === 'alphabite') expect([seen.length, itemCount > 0]).toEqual([SEEDED_WISHLISTS_PER_CUSTOMER, true]);
  });

  it('answers a matrix of requests with the same status, type and bytes as the original', async () => {
    const requests = matrix(dialect, original, seen);
    expect(requests.length).toBeGreaterThan(100);
    const statuses = new Set<number>();
    for (const { path, headers } of requests) {
      const [a, b] = await Promise.all([answer(original.url, path, headers), answer(copy.url, path, headers)]);
      expect(b, `${path} ${JSON.stringify(headers)}`).toEqual(a);
      statuses.add(a.status);
    }
    // The matrix reaches pages and refusals, not just one kind of answer.
    expect([...statuses].sort()).toEqual(dialect === 'alphabite' ? [200, 400, 401, 500] : [200, 400, 404]);
  });

  it('is read a line at a time, never whole, so that any size the kit writes loads; another layout only while small', async () => {
    // With no room for a whole file, the kit's layout still loads (line by line), and a pretty-printed copy does not.
    const lines = await loadRecordingFile(file, { wholeFileLimit: 0 });
    expect(lines.summary).toEqual(copy.dataset.current.summary);
    const pretty = join(dir, `${dialect}-big.json`);
    writeFileSync(pretty, JSON.stringify(JSON.parse(readFileSync(file, 'utf8')), null, 1));
    await expect(loadRecordingFile(pretty, { wholeFileLimit: 1024 })).rejects.toThrow("a recording over 1 KiB loads only in the layout `fixtures --from` writes");
  });

  it('is refused, in one sentence, by a server speaking the other dialect', async () => {
    const other = dialect === 'spec' ? 'alphabite' : 'spec';
    await expect(startMockServer({ dialect: other, fixtures: file })).rejects.toThrow(`was recorded from a backend speaking the ${dialect} dialect: serve it with --dialect ${dialect}`);
  });

  it('loads the same in another layout (pretty-printed), as text too', async () => {
    const pretty = join(dir, `${dialect}-pretty.json`);
    const whole = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    writeFileSync(pretty, JSON.stringify(whole, null, 2));
    const again = await startMockServer({ dialect, fixtures: pretty });
    try {
      for (const { path, headers } of matrix(dialect, original, seen).filter((_, i) => i % 7 === 0)) {
        expect(await answer(again.url, path, headers), path).toEqual(await answer(copy.url, path, headers));
      }
    } finally {
      await again.close();
    }
    expect(parseFixtures(JSON.stringify(whole), 'x.json').summary).toMatchObject({ reviews: 70, wishlists: wishlistCount, recordedIn: dialect });
  });
});

/** A backend whose records are not the kit's: other fields, another key order, real-looking ids. */
const FAKE = {
  reviews: [
    { id: 'rev_01JZ8Q3X0A7B', title: 'Café ✓ "quoted"', content: null, rating: 5, product_id: 'prod_01JZA', status: 'pending', image_urls: [], customer: { first_name: 'Ana', last_name: '' }, created_at: '2025-06-01T10:00:00.000Z', updated_at: '2025-06-02T10:00:00.000Z', is_verified_purchase: false },
    { product_id: 'prod_01JZB', id: 'rev_01JZ8Q3X0A7C', rating: 3, is_verified_purchase: true, created_at: '2025-06-03T10:00:00.000Z', updated_at: '2025-06-03T10:00:00.000Z', metadata: { source: 'import', score: 0.5 }, customer: { first_name: 'Bo', last_name: 'Li' } },
  ],
  wishlists: [{ id: 'wl_01JZW1', name: 'Summer', customer_id: 'cus_01JZC', sales_channel_id: 'sc_01JZS', created_at: '2025-06-01T00:00:00.000Z', updated_at: '2025-06-01T00:00:00.000Z', deleted_at: null }],
  items: [
    { id: 'wli_01JZI1', wishlist_id: 'wl_01JZW1', product_variant_id: 'variant_01JZV1', product_variant: { id: 'variant_01JZV1', title: 'S', product_id: 'prod_01JZC', product: { id: 'prod_01JZC', handle: 'tee', thumbnail: null } } },
    { id: 'wli_01JZI2', wishlist_id: 'wl_01JZW1', product_variant_id: 'variant_01JZV2', product_variant: { id: 'variant_01JZV2', title: 'M', product_id: 'prod_01JZA', product: { id: 'prod_01JZA', handle: 'cap', thumbnail: 'https://cdn.example.com/cap.jpg' } } },
    { id: 'wli_01JZI3', wishlist_id: 'wl_01JZW1', product_variant_id: 'variant_01JZV3', product_variant: { id: 'variant_01JZV3', title: 'L', product_id: 'prod_01JZC', product: { id: 'prod_01JZC', handle: 'tee', thumbnail: null } } },
  ],
};

/**
 * The fake's answers, alphabite envelopes around FAKE's records (paged with the plugins' arithmetic).
 * With `quirks`: 4.2 shows reviews with another key order, 4.3's envelope has skip before take, and
 * 4.4 writes its JSON indented: what a recording cannot keep, and says so.
 */
function fakeBackend(quirks = false): Server {
  return createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    const limit = Number(url.searchParams.get('limit') ?? 20);
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const indented = quirks && url.pathname.endsWith('/items');
    const send = (body: unknown) => res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body, null, indented ? 1 : undefined));
    if (!req.headers['x-publishable-api-key']) return res.writeHead(400, { 'content-type': 'application/json' }).end('{"type":"not_allowed","message":"Publishable API key required in the request header: x-publishable-api-key."}');
    if (url.pathname === '/store/products/reviews') return send({ data: FAKE.reviews, count: 0, nextPage: 1, currentPage: 1, prevPage: 1, totalPages: 1, take: 5, skip: 0 });
    if (url.pathname.startsWith('/store/reviews/product/')) {
      const id = url.pathname.split('/').pop();
      const all = FAKE.reviews.filter((r) => r.product_id === id).map((r) => (quirks ? Object.fromEntries([['rating', r.rating], ...Object.entries(r)]) : r));
      return send({ data: all.slice(offset, offset + limit), ...clampedPageNumbers(all.length, offset, limit), take: limit, skip: offset });
    }
    const echo = quirks ? { skip: offset, take: limit } : { take: limit, skip: offset };
    if (url.pathname === '/store/wishlists') return send({ data: FAKE.wishlists.slice(offset, offset + limit), ...echo, ...clampedPageNumbers(FAKE.wishlists.length, offset, limit) });
    const items = /^\/store\/wishlists\/([^/]+)\/items$/.exec(url.pathname);
    if (items) {
      const all = FAKE.items.filter((i) => i.wishlist_id === items[1]);
      return send({ data: all.slice(offset, offset + limit), skip: offset, take: limit, ...clampedPageNumbers(all.length, offset, limit) });
    }
    res.writeHead(404).end();
  });
}

describe('a recording keeps records as the backend returned them', () => {
  let fake: Server;
  let fakeUrl: string;
  let served: MockServer;
  // Recorded and served with the token of the customer the fake's wishlist names, as a real backend's recording
  // is made with its customer's token: the recording names them, so they see exactly that wishlist.
  const OWNER = { ...KEY, authorization: `Bearer ${customerToken(FAKE.wishlists[0]!.customer_id)}` };
  beforeAll(async () => {
    fake = fakeBackend();
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
    const file = join(dir, 'fake.json');
    const result = await run(['fixtures', '--from', fakeUrl, '--dialect', 'alphabite', '--header', `x-publishable-api-key: ${KEY['x-publishable-api-key']}`, '--header', `authorization: ${OWNER.authorization}`, '--page-size', '2', '-o', file]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('recorded 2 reviews of 3 products, 1 wishlists holding 3 items');
    served = await startMockServer({ dialect: 'alphabite', fixtures: file });
  });
  afterAll(async () => {
    await served?.close();
    await new Promise<void>((resolve) => fake.close(() => resolve()));
  });

  it('serves their fields, values and key order byte for byte, on every listing', async () => {
    for (const path of ['/store/products/reviews', '/store/wishlists?limit=10', '/store/wishlists/wl_01JZW1/items?limit=10&offset=0', '/store/wishlists/wl_01JZW1/items?limit=2&offset=1', '/store/reviews/product/prod_01JZA']) {
      expect((await answer(served.url, path, OWNER)).body, path).toBe((await answer(fakeUrl, path, OWNER)).body);
    }
  });

  it('knows every product it met, from reviews and from items', async () => {
    const dataset = await loadFixturesFile(join(dir, 'fake.json'));
    expect(dataset.summary).toMatchObject({ reviews: 2, products: 3, wishlists: 1, wishlistItems: 3 });
  });
});

describe('what a recording cannot keep, it says', () => {
  let fake: Server;
  beforeAll(async () => {
    fake = fakeBackend(true);
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => fake.close(() => resolve())));

  it('one note per difference, after the summary, and the file is written all the same (exit 0)', async () => {
    const url = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
    const file = join(dir, 'quirks.json');
    const result = await run(['fixtures', '--from', url, '--dialect', 'alphabite', ...HEADER_ARGS, '-o', file]);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^recorded 2 reviews of 3 products, 1 wishlists holding 3 items/);
    // the last line is the Medusa versions its answers show (docs/dialects.md, "Which Medusa version")
    expect(lines.at(-1)).toMatch(/^medusa: /);
    const notes = lines.slice(1, -1);
    expect(notes).toHaveLength(3);
    expect(notes).toContain(
      `note: ${url}/store/wishlists?limit=100&offset=0 answered the envelope {"data":[],"skip":0,"take":100,"count":1,"nextPage":1,"currentPage":1,"prevPage":1,"totalPages":1}, where serve --dialect alphabite answers {"data":[],"take":100,"skip":0,"count":1,"nextPage":1,"currentPage":1,"prevPage":1,"totalPages":1}`,
    );
    expect(notes).toContain(`note: ${url}/store/wishlists/wl_01JZW1/items?limit=100&offset=0 writes its JSON otherwise than JSON.stringify (spacing, escapes or numbers): the mock serves the same values, not the same bytes`);
    expect(notes.find((n) => n.includes('/store/reviews/product/'))).toMatch(
      /^note: \S+\/store\/reviews\/product\/prod_01JZA\?limit=100&offset=0 shows review rev_01JZ8Q3X0A7B as \{"rating":5,"id":"rev_01JZ8Q3X0A7B",.*, 4\.1 as \{"id":"rev_01JZ8Q3X0A7B","title".*: the recording keeps 4\.1's, and serves it on 4\.2 too$/,
    );
    expect(await loadFixturesFile(file)).toBeDefined();
  });
});

describe('the command when it cannot record', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ dialect: 'alphabite', seed: 2, reviews: 30, wishlists: 4 });
  });
  afterAll(() => mock.close());

  const deadPort = async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return port;
  };

  it.each([
    ['no backend there', async () => ['--from', `http://127.0.0.1:${await deadPort()}`], 'cannot reach http://127.0.0.1:'],
    ['no publishable key', async () => ['--from', mock.url, '--dialect', 'alphabite'], "answered 400 (Publishable API key required in the request header: x-publishable-api-key. You can manage your keys in settings in the dashboard.): pass the store's publishable key with --header 'x-publishable-api-key: pk_...'"],
    ['no customer token', async () => ['--from', mock.url, '--dialect', 'alphabite', '--header', 'x-publishable-api-key: pk_1'], "/store/wishlists?limit=100&offset=0 answered 401 (Unauthorized): pass a customer's token with --header 'authorization: Bearer ...'"],
    ['another dialect', async () => ['--from', mock.url, '--header', 'x-publishable-api-key: pk_1'], "answers in the alphabite dialect, not spec: GET "],
    ['not the base URL', async () => ['--from', `${mock.url}/api`, '--dialect', 'alphabite', ...HEADER_ARGS], "--from is the backend's base URL, the part before /store/..."],
    ['an option without --from', async () => ['--max-records', '5'], '--max-records goes with --from (recording a backend)'],
    ['a malformed header', async () => ['--from', mock.url, '--header', 'nocolon'], "a header is 'name: value', got 'nocolon'"],
  ])('%s: exit 2, one sentence, no file', async (_, args, sentence) => {
    const file = join(dir, 'never.json');
    const result = await run(['fixtures', ...(await args()), '--output', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(sentence);
    expect(result.stderr.trim().split('\n').filter((l) => !l.startsWith('(run with --help')).length).toBe(1);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(file)).toBe(false);
  });

  it('a backend with a smaller maximum page size: exit 2, saying to ask smaller pages', async () => {
    const small = await startMockServer({ seed: 2, reviews: 5, wishlists: 1, maxPageSize: 20 });
    try {
      const result = await run(['fixtures', '--from', small.url, '--page-size', '21']);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^error: cannot record .*answered 400 \(Invalid request: .*'limit'.*\): ask smaller pages with --page-size\n$/);
    } finally {
      await small.close();
    }
  });

  it('a failed recording leaves an earlier file as it was', async () => {
    const file = join(dir, 'kept.json');
    writeFileSync(file, 'earlier');
    const result = await run(['fixtures', '--from', mock.url, '--dialect', 'alphabite', '--output', file]);
    expect(result.code).toBe(2);
    expect(readFileSync(file, 'utf8')).toBe('earlier');
  });

  it('an output it cannot write: exit 2 before any request', async () => {
    // Missing folders are made (as for every output file); a folder that is a file cannot be.
    const file = join(dir, 'a-file');
    writeFileSync(file, '');
    const result = await run(['fixtures', '--from', mock.url, '--output', join(file, 'x.json')]);
    expect(result).toMatchObject({ code: 2, stderr: `error: cannot write ${join(file, 'x.json')}: a part of the path is a file, not a directory (ENOTDIR)\n` });
  });

  it('--max-records bounds the walk, says so, and the partial recording loads', async () => {
    const file = join(dir, 'partial.json');
    const result = await run(['fixtures', '--from', mock.url, '--dialect', 'alphabite', ...HEADER_ARGS, '--max-records', '12', '-o', file]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain("note: stopped at 12 records (--max-records): the recording holds part of the backend's records");
    const dataset = await loadFixturesFile(file);
    expect(dataset.summary.reviews + dataset.summary.wishlists + dataset.summary.wishlistItems).toBe(12);
  });

  it('to standard output when no --output is given', async () => {
    const result = await run(['fixtures', '--from', mock.url, '--dialect', 'alphabite', ...HEADER_ARGS, '--max-records', '3']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ format: 'store-listing-kit/recording@1', dialect: 'alphabite', reviews: [{}, {}, {}], wishlists: [] });
  });
});

/** A spec-dialect backend whose 4.1 lists `count` reviews, each page as `records` makes it, and whose 4.3 lists no wishlists. */
async function reviewsBackend(count: number, records: (start: number, size: number) => unknown[]): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    if (url.pathname === '/store/wishlists') {
      const take = Number(url.searchParams.get('take') ?? 20);
      const skip = Number(url.searchParams.get('skip') ?? 0);
      return res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(wishlistEnvelope([], 0, skip, take)));
    }
    if (url.pathname !== '/store/products/reviews') return res.writeHead(404).end();
    const size = Number(url.searchParams.get('limit') ?? 20);
    const start = Number(url.searchParams.get('offset') ?? 0);
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(reviewsEnvelope(records(start, size), count, start, size)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}


/** A preload that writes the process's peak resident memory (bytes) to $PEAK_RSS_FILE as it exits. */
const PEAK_RSS_ON_EXIT = `data:text/javascript,${encodeURIComponent("import{writeFileSync}from'node:fs';process.on('exit',()=>{writeFileSync(process.env.PEAK_RSS_FILE,String(process.resourceUsage().maxRSS*1024))})")}`;

function runMeasured(args: string[]): Promise<Run & { ms: number; peakRss: number }> {
  const peakFile = join(dir, `peak-${Date.now()}-${Math.random()}.txt`);
  const began = Date.now();
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', PEAK_RSS_ON_EXIT, BIN, ...args], { timeout: 60_000, env: { ...process.env, PEAK_RSS_FILE: peakFile } }, (error, stdout, stderr) => {
      const peakRss = existsSync(peakFile) ? Number(readFileSync(peakFile, 'utf8')) : Number.NaN;
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr, ms: Date.now() - began, peakRss });
    });
  });
}

describe('a recording bounded in bytes, and one that does not add up', () => {
  it('a backend whose reviews have 1 MB titles: exit 2 at the byte budget, promptly, with no file and bounded memory', async () => {
    const title = 'x'.repeat(1024 * 1024);
    const backend = await reviewsBackend(1000, (start, size) => Array.from({ length: pageLength(1000, start, size) }, (_, i) => reviewRecord(start + i, title)));
    try {
      const file = join(dir, 'titles.json');
      const result = await runMeasured(['fixtures', '--from', backend.url, '--page-size', '2', '--max-recording', '8MiB', '-o', file]);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toBe(`error: cannot record ${backend.url}: the recording is over its 8 MiB budget after 7 records (at ${backend.url}/store/products/reviews?limit=2&offset=6; --max-recording raises it)\n`);
      expect(existsSync(file)).toBe(false);
      expect(readdirSync(dir).filter((name) => name.includes('titles.json'))).toEqual([]);
      expect(result.ms).toBeLessThan(30_000);
      expect(result.peakRss).toBeLessThan(400 * 1024 * 1024);
      // Pages larger than the cap on a body are refused before they are read.
      const big = await runMeasured(['fixtures', '--from', backend.url, '--page-size', '10', '--max-body', '4MiB', '-o', file]);
      expect(big.code, big.stderr).toBe(2);
      expect(big.stderr).toBe(`error: cannot record ${backend.url}: ${backend.url}/store/products/reviews?limit=10&offset=0: the answer is over the 4 MiB cap on a body (--max-body raises it)\n`);
      expect(existsSync(file)).toBe(false);
    } finally {
      await backend.close();
    }
  });

  it('counts the UTF-8 bytes of multi-byte records (CJK and emoji titles), not their UTF-16 length', async () => {
    // Each title: 40,000 x '本😀', 120,000 UTF-16 units but 280,000 UTF-8 bytes (3 + 4 a pair).
    const title = '本😀'.repeat(40_000);
    const backend = await reviewsBackend(6, (start, size) => Array.from({ length: pageLength(6, start, size) }, (_, i) => reviewRecord(start + i, title)));
    try {
      // Six such records are about 720 K units but 1.7 MB: over a 1 MiB budget at the fourth record.
      const file = join(dir, 'multibyte.json');
      const over = await run(['fixtures', '--from', backend.url, '--page-size', '2', '--max-recording', '1MiB', '-o', file]);
      expect(over.code, over.stderr).toBe(2);
      expect(over.stderr).toBe(`error: cannot record ${backend.url}: the recording is over its 1 MiB budget after 3 records (at ${backend.url}/store/products/reviews?limit=2&offset=2; --max-recording raises it)\n`);
      expect(existsSync(file)).toBe(false);
      // Within a budget that holds them, the file's records take no more bytes than the budget.
      const within = await run(['fixtures', '--from', backend.url, '--page-size', '2', '--max-recording', '2MiB', '-o', file]);
      expect(within.code, within.stderr).toBe(0);
      const reviews = (JSON.parse(readFileSync(file, 'utf8')) as { reviews: unknown[] }).reviews;
      expect(reviews).toHaveLength(6);
      const recordBytes = reviews.reduce<number>((sum, r) => sum + Buffer.byteLength(JSON.stringify(r), 'utf8'), 0);
      expect(recordBytes).toBeGreaterThan(1024 * 1024);
      expect(recordBytes).toBeLessThanOrEqual(2 * 1024 * 1024);
    } finally {
      await backend.close();
    }
  });

  it("a backend whose pages come back empty while its count says 23: exit 2, naming the listing, the count and what was read; no file", async () => {
    const backend = await reviewsBackend(23, () => []);
    try {
      const file = join(dir, 'empty.json');
      const result = await run(['fixtures', '--from', backend.url, '-o', file]);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toBe(`error: cannot record ${backend.url}: ${backend.url}/store/products/reviews counts 23 records, but its pages held 0: the backend's pages do not add up to its count\n`);
      expect(existsSync(file)).toBe(false);
    } finally {
      await backend.close();
    }
  });

  it('a backend whose pages hold fewer records than its count: exit 2 with what was read', async () => {
    // Every page holds one record fewer than asked: 23 counted, 20 read in pages of 10 (9 + 9 + 2).
    const backend = await reviewsBackend(23, (start, size) => Array.from({ length: Math.max(pageLength(23, start, size) - 1, 0) }, (_, i) => reviewRecord(start + i, 'Fine')));
    try {
      const result = await run(['fixtures', '--from', backend.url, '--page-size', '10']);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(`${backend.url}/store/products/reviews counts 23 records, but its pages held 20: the backend's pages do not add up to its count`);
      expect(result.stdout).toBe('');
    } finally {
      await backend.close();
    }
  });
});

describe('progress', () => {
  const stream = (isTTY: boolean, columns = 100) => {
    const writes: string[] = [];
    return { writes, stream: { isTTY, columns, write: (s: string) => writes.push(s) } as unknown as NodeJS.WriteStream };
  };

  it('on a terminal: one line on stderr, rewritten in place, cleared at the end', () => {
    const { writes, stream: tty } = stream(true);
    const progress = progressLine(tty);
    progress.update({ listing: '4.3 /store/wishlists', pages: 2, records: 130, requests: 3 });
    progress.clear();
    expect(writes).toEqual(['\r\x1b[Krecording: 4.3 /store/wishlists, page 2; 130 records in 3 requests', '\r\x1b[K']);
  });

  it('a narrow terminal gets the line cut short, so that it never wraps', () => {
    const { writes, stream: tty } = stream(true, 40);
    progressLine(tty).update({ listing: '4.4 /store/wishlists/wl_1/items', pages: 1, records: 5, requests: 9 });
    expect(writes).toEqual(['\r\x1b[Krecording: 4.4 /store/wishlists/wl_1...']);
  });

  it('not on a terminal: nothing', () => {
    const { writes, stream: pipe } = stream(false);
    const progress = progressLine(pipe);
    progress.update({ listing: '4.1 /store/products/reviews', pages: 1, records: 0, requests: 1 });
    progress.clear();
    expect(writes).toEqual([]);
  });
});

describe('a recording file the kit cannot serve', () => {
  const header = '{"format":"store-listing-kit/recording@1","dialect":"alphabite",';
  const load = (name: string, text: string) => {
    const file = join(dir, name);
    writeFileSync(file, text);
    return loadFixturesFile(file);
  };

  it('names the line, the list, the record and the field', async () => {
    const review = '{"id":"rev_1","product_id":"prod_1","rating":7,"is_verified_purchase":true,"created_at":"2025-01-01T00:00:00.000Z","updated_at":"2025-01-01T00:00:00.000Z"}';
    await expect(load('bad-rating.json', `${header}\n"reviews":[\n${review}\n],\n"wishlists":[\n],\n"wishlist_items":[\n]}\n`)).rejects.toThrow(/^Cannot load fixtures file .*bad-rating\.json: line 3: reviews\[0\] \(id rev_1\), field 'rating': Too big/);
    await expect(load('orphan.json', `${header}\n"reviews":[\n],\n"wishlists":[\n],\n"wishlist_items":[\n{"id":"wli_1","wishlist_id":"wl_9"}\n]}\n`)).rejects.toThrow("wishlist_items[0] (id wli_1), field 'wishlist_id': no wishlist wl_9 in 'wishlists'");
    await expect(load('cut.json', `${header}\n"reviews":[\n`)).rejects.toThrow("the file ends early: expected a record, or '],'");
    await expect(load('dialect.json', '{"format":"store-listing-kit/recording@1","dialect":"graphql","reviews":[],"wishlists":[],"wishlist_items":[]}')).rejects.toThrow(/field 'dialect'/);
  });
});
