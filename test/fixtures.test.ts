import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { isoTimestamp, writeIsoTimestamp } from '../fixtures/iso.ts';
import { FixturesError, generateDataset, loadFixturesFile, parseFixtures, writeFixtures, type Dataset } from '../fixtures/index.ts';
import { assertFitsInMemory } from '../fixtures/file.ts';
import { JsonObjectSplitter, JsonSplitError } from '../fixtures/json-split.ts';
import { decodeBase32, encodeBase32, ID_WIDTH, INDEX_WIDTH, indexedId, indexOfId, randomBase32 } from '../fixtures/ids.ts';
import { startMockServer } from '../mock-server/server.ts';
import { get } from './support/http.ts';

const run = promisify(execFile);
const CLI = join(import.meta.dirname, '..', 'bin', 'store-listing-kit.js');

/** A scratch folder, removed with the files in it (some megabytes) when the file's tests end. */
const scratchDirs: string[] = [];
async function scratch(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  scratchDirs.push(dir);
  return dir;
}
afterAll(async () => {
  await Promise.all(scratchDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function exportText(dataset: Dataset): Promise<string> {
  let text = '';
  await writeFixtures(
    dataset,
    new Writable({
      write(chunk, _enc, done) {
        text += chunk;
        done();
      },
    }),
  );
  return text;
}

describe('generated data', () => {
  it('encodes indexes so that ids sort as the indexes do', () => {
    for (const n of [0, 1, 31, 32, 1023, 1024, 999_999, 2 ** 40]) expect(decodeBase32(encodeBase32(n, 10))).toBe(n);
    const ids = [5, 31, 32, 33, 100, 1000].map((n) => encodeBase32(n, 10));
    expect([...ids].sort()).toEqual(ids);
  });

  it('makes each record the same whatever was made before it', () => {
    const a = generateDataset({ seed: 9 });
    const b = generateDataset({ seed: 9 });
    const forward = Array.from({ length: 30 }, (_, i) => JSON.stringify(a.reviews.source.review(i)));
    const backward = Array.from({ length: 30 }, (_, i) => JSON.stringify(b.reviews.source.review(29 - i))).reverse();
    expect(backward).toEqual(forward);
    expect(JSON.stringify(b.wishlists.source.wishlist(3))).toBe(JSON.stringify(a.wishlists.source.wishlist(3)));
  });

  it('numbers reviews in id order and finds products and wishlists by id', () => {
    const d = generateDataset({ seed: 3, reviews: 200, products: 5, wishlists: 12 });
    const ids = Array.from({ length: 200 }, (_, i) => d.reviews.source.review(i).id);
    expect([...ids].sort()).toEqual(ids);
    const wishlist = d.wishlists.source.wishlist(7);
    expect(d.wishlists.indexOf(wishlist.id)).toBe(7);
    expect(d.wishlists.indexOf(`${wishlist.id.slice(0, -1)}0`)).toBe(-1);
    expect(d.wishlists.indexOf('wl_nope')).toBe(-1);
    const productId = d.reviews.source.review(0).product_id;
    expect(d.reviews.productPage(productId, { field: 'created_at', descending: false }, 0, 1000).records.every((r) => r.product_id === productId)).toBe(true);
  });

  it('respects the sizes asked for, including empty ones', () => {
    const d = generateDataset({ reviews: 0, wishlists: 3, maxItems: 0, products: 1 });
    expect(d.reviews.count).toBe(0);
    expect(d.wishlists.page(0, 10).records.map((w) => w.items_count)).toEqual([0, 0, 0]);
  });
});

describe('fixtures files', () => {
  it('round-trips: a served export answers byte for byte as the generated dataset', async () => {
    const generated = generateDataset({ seed: 42, reviews: 120, products: 4, wishlists: 14, maxItems: 12 });
    const loaded = parseFixtures(await exportText(generated), 'data.json');
    expect(loaded.summary).toMatchObject({ source: 'records', file: 'data.json', seed: 42, reviews: 120, products: 4, wishlists: 14 });
    const [a, b] = await Promise.all([startMockServer({ dataset: generated }), startMockServer({ dataset: loaded })]);
    try {
      const wishlistId = generated.wishlists.source.wishlist(0).id;
      const emptyProduct = generated.reviews.source.productId(3);
      for (const path of [
        '/store/products/reviews?limit=1000',
        '/store/products/reviews?limit=13&offset=26&order=-updated_at',
        '/store/products/reviews?limit=50&order=rating',
        `/store/reviews/product/${generated.reviews.source.review(0).product_id}?limit=7&offset=7`,
        `/store/reviews/product/${emptyProduct}`,
        '/store/wishlists?take=1000',
        `/store/wishlists/${wishlistId}/items?take=5&skip=5`,
      ]) {
        const [x, y] = await Promise.all([get(a.url, path), get(b.url, path)]);
        expect(y.status).toBe(200);
        expect(y.text).toBe(x.text);
      }
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  function brokenFile(mutate: (data: any) => void): string {
    const data = JSON.parse(exportTextSync);
    mutate(data);
    return JSON.stringify(data);
  }
  let exportTextSync = '';

  it('refuses a malformed file naming the file, the record and the field', async () => {
    exportTextSync = await exportText(generateDataset({ seed: 5, reviews: 10, wishlists: 4, maxItems: 3 }));
    const cases: Array<[(d: any) => void, RegExp]> = [
      [(d) => (d.reviews[3].rating = 7), /^Cannot load fixtures file data\.json: reviews\[3\] \(id rev_\w+\), field 'rating': .*5.* \(got 7\)$/],
      [(d) => delete d.reviews[0].content, /reviews\[0\] \(id rev_\w+\), field 'content'/],
      [(d) => (d.reviews[1].created_at = '2024-01-01'), /reviews\[1\] \(id rev_\w+\), field 'created_at': must be an ISO-8601 UTC timestamp/],
      [(d) => (d.wishlists[0].items_count = 99), /wishlists\[0\] \(id wl_\w+\), field 'items_count': must equal the number of items/],
      [(d) => (d.wishlists[0].items[0].wishlist_id = 'wl_other'), /wishlists\[0\] \(id wl_\w+\), field 'items\.0\.wishlist_id'/],
      [(d) => (d.wishlists[2].surprise = true), /wishlists\[2\] \(id wl_\w+\), record: .*surprise/],
      [(d) => (d.reviews[4].id = d.reviews[2].id), /reviews: id rev_\w+ appears more than once/],
      [(d) => (d.format = 'other'), /field 'format'/],
    ];
    for (const [mutate, message] of cases) {
      expect(() => parseFixtures(brokenFile(mutate), 'data.json')).toThrowError(message);
    }
    expect(() => parseFixtures('{"reviews": [', 'data.json')).toThrowError(/^Cannot load fixtures file data\.json: not valid JSON/);
    expect(() => parseFixtures('{}', 'x.json')).toThrow(FixturesError);
  });
});

/** What the splitter makes of `text` fed in `chunks` pieces: the object, rebuilt from its fields and elements. */
function split(text: string, cuts: number[]): unknown {
  const entries: Array<[string, unknown]> = [];
  const arrays = new Map<string, unknown[]>();
  const splitter = new JsonObjectSplitter(['reviews', 'wishlists'], {
    field: (key, value) => entries.push([key, value]),
    arrayStart: (key) => {
      arrays.set(key, []);
      entries.push([key, arrays.get(key)]);
    },
    element: (key, index, value) => {
      expect(index).toBe(arrays.get(key)!.length);
      arrays.get(key)!.push(value);
    },
  });
  let at = 0;
  for (const cut of [...cuts.filter((c) => c < text.length)].sort((a, b) => a - b)) {
    splitter.push(text.slice(at, cut));
    at = cut;
  }
  splitter.push(text.slice(at));
  splitter.end();
  return Object.fromEntries(entries);
}

describe('reading a fixtures file a record at a time (fixtures/json-split.ts)', () => {
  const objects = fc.record(
    { reviews: fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 6 }), wishlists: fc.oneof(fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 6 }), fc.jsonValue({ maxDepth: 2 })), other: fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 }) },
    { requiredKeys: [] },
  ).map(({ other, ...lists }) => ({ ...Object.fromEntries(Object.entries(other ?? {}).filter(([k]) => k !== 'reviews' && k !== 'wishlists')), ...lists }));
  const layouts = fc.constantFrom<Array<string | number | undefined>>(undefined, 0, 1, 2, '\t', ' \r\n ');
  const texts = fc.tuple(objects, layouts).map(([object, indent]) => JSON.stringify(object, null, indent as never));
  const cuts = fc.array(fc.nat({ max: 400 }), { maxLength: 12 });

  it('reads what JSON.parse reads, in any layout, cut into chunks anywhere', () => {
    fc.assert(
      fc.property(texts, cuts, (text, at) => {
        expect(split(text, at)).toEqual(JSON.parse(text));
      }),
      { numRuns: 500, seed: 19 },
    );
  });

  it('refuses what JSON.parse refuses: a character dropped, added or changed anywhere', () => {
    const broken = fc.tuple(texts, fc.nat(), fc.constantFrom('', '"', '\\', ',', ':', '{', '}', '[', ']', 'x', '1', ' ')).map(([text, at, c]) => {
      const i = at % (text.length + 1);
      return text.slice(0, i) + c + text.slice(i + (at % 2));
    });
    fc.assert(
      fc.property(broken, cuts, (text, at) => {
        let expected: unknown;
        try {
          expected = JSON.parse(text);
        } catch {
          expect(() => split(text, at)).toThrow(JsonSplitError);
          return;
        }
        let got: unknown;
        try {
          got = split(text, at);
        } catch (error) {
          // What JSON.parse lets through that a fixtures file may not hold: another root, a repeated field.
          expect((error as Error).message).toMatch(/not one JSON object|appears more than once/);
          return;
        }
        expect(got).toEqual(expected);
      }),
      { numRuns: 1000, seed: 23 },
    );
  });

  it('names the line and what it expected', () => {
    const cases: Array<[string, RegExp]> = [
      ['', /^not valid JSON: the file is empty$/],
      ['{"format": "x",\n"reviews": [\n{"id": 1},\n{"id": 2}', /^not valid JSON: the file ends at line 4, before the object is closed/],
      ['{"reviews": [\n{"id": 1},\n{"id": 2,}\n]}', /^not valid JSON at line 3, in reviews\[1\] \(/],
      ['{"reviews": [1,]}', /^not valid JSON at line 1: expected a value in "reviews", got '\]'$/],
      ['{"a": 1} {}', /^not valid JSON at line 1: expected nothing after the closing }, got '\{'$/],
      ['{a: 1}', /^not valid JSON at line 1: expected a field name in double quotes or '\}', got 'a'$/],
      ['{"a" 1}', /^not valid JSON at line 1: expected ':' after the field name "a", got '1'$/],
      ['[{"reviews": []}]', /^the file holds an array, not one JSON object/],
      ['{"reviews": [], "reviews": []}', /^field 'reviews' appears more than once/],
    ];
    for (const [text, message] of cases) expect(() => split(text, []), text).toThrowError(message);
    // A byte-order mark, as some editors write, is not content.
    expect(split('\ufeff{"a": [1]}', [])).toEqual({ a: [1] });
  });
});

describe('fixtures files as docs/cli.md describes them', () => {
  it('loads a file many read chunks long, record by record, the same records as generated', async () => {
    const dir = await scratch('slk-big-');
    const file = join(dir, 'big.json');
    // About 3.5 MB: several of the 1 MB chunks the loader reads, records cut at chunk ends.
    await run(process.execPath, [CLI, 'fixtures', '--seed', '8', '--reviews', '6000', '--wishlists', '60', '--output', file]);
    const loaded = await loadFixturesFile(file);
    const generated = generateDataset({ seed: 8, reviews: 6000, wishlists: 60 });
    expect(loaded.summary).toMatchObject({ source: 'records', seed: 8, reviews: 6000, wishlists: 60, wishlistItems: generated.summary.wishlistItems });
    for (const i of [0, 1, 1234, 3000, 5999]) expect(loaded.reviews.source.review(i)).toEqual(generated.reviews.source.review(i));
    for (const w of [0, 59]) expect(loaded.wishlists.source.wishlist(w)).toEqual(generated.wishlists.source.wishlist(w));
  });

  it('refuses up front a file whose records would not fit in the heap, saying how to allow more', async () => {
    const MB = 2 ** 20;
    const heap = { heap_size_limit: 4144 * MB, used_heap_size: 20 * MB };
    expect(() => assertFitsInMemory('big.json', 562 * MB, heap)).not.toThrow();
    expect(() => assertFitsInMemory('huge.json', 5600 * MB, heap)).toThrowError(
      /^Cannot load fixtures file huge\.json: its 5600 MB of records need about 7840 MB of memory, more than this Node process may use \(4144 MB\); allow more with NODE_OPTIONS=--max-old-space-size=8192, or serve a generated dataset/,
    );
    // As a user meets it: a process allowed little heap, a file of 40,000 reviews (22 MB).
    const dir = await scratch('slk-heap-');
    const file = join(dir, 'mid.json');
    await run(process.execPath, [CLI, 'fixtures', '--reviews', '40000', '--output', file]);
    const failure = await run(process.execPath, ['--max-old-space-size=48', CLI, 'serve', '--port', '0', '--fixtures', file]).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toMatch(new RegExp(`^error: Cannot load fixtures file ${file}: its 22 MB of records need about 3\\d MB of memory, .* NODE_OPTIONS=--max-old-space-size=1024, `));
  });

  it('serves the hand-written file of docs/cli.md', async () => {
    const doc = await readFile(join(import.meta.dirname, '..', 'docs', 'cli.md'), 'utf8');
    const text = /### Fixtures files[\s\S]*?```json\n([\s\S]*?)\n```/.exec(doc)![1]!;
    const dataset = parseFixtures(text, 'docs/cli.md');
    expect(dataset.summary).toMatchObject({ reviews: 1, products: 2, wishlists: 1, wishlistItems: 1 });
    const mock = await startMockServer({ dataset });
    try {
      const reviews = await get(mock.url, '/store/reviews/product/prod_01MUG');
      expect(reviews.status).toBe(200);
      expect(JSON.parse(reviews.text)).toMatchObject({ count: 1, reviews: [JSON.parse(text).reviews[0]] });
      const items = await get(mock.url, '/store/wishlists/wl_01HANDWRITTEN/items');
      expect(JSON.parse(items.text)).toMatchObject({ count: 1, data: [{ id: 'wli_01HANDWRITTEN0001' }] });
    } finally {
      await mock.close();
    }
  });

  it('refuses a file without its format, saying what a fixtures file is', () => {
    expect(() => parseFixtures('{"reviews": [], "wishlists": []}', 'mine.json')).toThrowError(
      /^Cannot load fixtures file mine\.json: field 'format': .*store-listing-kit\/fixtures@1.* \(a fixtures file is one JSON object .*see "Fixtures files" in docs\/cli\.md\)$/,
    );
    // A file that is another program's JSON stops at its format, before its records are read.
    expect(() => parseFixtures('{"format": "other", "reviews": [{"bad": true}], "wishlists": []}', 'x.json')).toThrowError(/field 'format'/);
  });

  it("names a top-level field that is JavaScript's own (__proto__, constructor) as an unknown field, not lose it", () => {
    for (const name of ['__proto__', 'constructor', 'toString']) {
      const text = `{"${name}": {"format": "other"}, "format": "store-listing-kit/fixtures@1", "reviews": [], "wishlists": []}`;
      expect(() => parseFixtures(text, 'mine.json'), name).toThrowError(`unknown field(s) '${name}'`);
    }
  });
});

describe('command line', () => {
  it('--help lists the commands', async () => {
    const { stdout } = await run(process.execPath, [CLI, '--help']);
    expect(stdout).toMatch(/serve \[options\]/);
    expect(stdout).toMatch(/fixtures \[options\]/);
  });

  it('fixtures --seed writes a file that serve --fixtures serves; a bad file is refused at start', async () => {
    const dir = await scratch('slk-');
    const file = join(dir, 'data.json');
    await run(process.execPath, [CLI, 'fixtures', '--seed', '42', '--reviews', '30', '--wishlists', '5', '--output', file]);
    const dataset = parseFixtures(await readFile(file, 'utf8'), file);
    expect(dataset.summary).toMatchObject({ seed: 42, reviews: 30, wishlists: 5 });
    const { stdout } = await run(process.execPath, [CLI, 'fixtures', '--seed', '42', '--reviews', '30', '--wishlists', '5']);
    expect(stdout).toBe(await readFile(file, 'utf8'));

    const bad = JSON.parse(stdout);
    bad.reviews[2].rating = 'five';
    await writeFile(file, JSON.stringify(bad));
    const failure = await run(process.execPath, [CLI, 'serve', '--port', '0', '--fixtures', file]).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toContain(`Cannot load fixtures file ${file}: reviews[2]`);
    expect(failure?.stderr).toContain("field 'rating'");
  });

  it('serve --fixtures with a file that is not there, or a folder: exit 2, one sentence naming the file, not a bare ENOENT', async () => {
    const dir = await scratch('slk-nofile-');
    const serve = (file: string) =>
      promisify(execFile)(process.execPath, [CLI, 'serve', '--port', '0', '--fixtures', file], { cwd: dir }).then(
        () => ({ code: 0, stderr: '' }),
        (error: { code: number; stderr: string }) => error,
      );
    const relative = await serve('nope.json');
    expect(relative.code).toBe(2);
    // Read from the current folder: the sentence says which file that was.
    expect(relative.stderr).toBe(`error: Cannot read fixtures file nope.json: there is no file ${join(dir, 'nope.json')} (ENOENT)\n`);
    const absolute = await serve(join(dir, 'gone.json'));
    expect(absolute.stderr).toBe(`error: Cannot read fixtures file ${join(dir, 'gone.json')}: there is no such file (ENOENT)\n`);
    const folder = await serve(dir);
    expect([folder.code, folder.stderr]).toEqual([2, `error: Cannot read fixtures file ${dir}: it is a directory\n`]);
  });

  it('refuses bad option values with the accepted range: cannot run, exit 2', async () => {
    const failure = await run(process.execPath, [CLI, 'serve', '--port', '70000']).catch((e: { stderr: string; code: number }) => e);
    expect((failure as { code: number }).code).toBe(2);
    expect((failure as { stderr: string }).stderr).toMatch(/--port <n>' argument '70000' is invalid\. expected a whole number from 0 to 65535/);
  });
});

describe('timestamps', () => {
  it('isoTimestamp (and writeIsoTimestamp, in pieces) writes what Date.prototype.toISOString writes', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: 0, max: 253_402_300_799_999 }), fc.integer({ min: 1_704_067_200_000, max: 1_800_000_000_000 }), fc.constantFrom(0, 86_399_999, 951_782_400_000, -1, 0.5)), (ms) => {
        expect(isoTimestamp(ms)).toBe(new Date(ms).toISOString());
        const pieces: string[] = [];
        writeIsoTimestamp(ms, pieces);
        expect(pieces.join('')).toBe(new Date(ms).toISOString());
        // the JSON that follows a timestamp rides in its last piece
        for (const after of ['"}', '","updated_at":"']) {
          const withAfter: string[] = [];
          writeIsoTimestamp(ms, withAfter, after);
          expect(withAfter.join('')).toBe(new Date(ms).toISOString() + after);
        }
      }),
      { numRuns: 20_000, seed: 3 },
    );
  });
});

describe('ids made from character codes', () => {
  it('indexedId is prefix_ + the index in base 32 + the random tail, and indexOfId reads it back', () => {
    fc.assert(
      fc.property(fc.constantFrom('rev', 'wl', 'prod', 'item'), fc.integer({ min: 0, max: 2 ** 40 }), fc.nat(), fc.integer({ min: 1, max: 9 }), (prefix, index, seed, kind) => {
        const id = indexedId(prefix, index, seed, kind);
        expect(id).toBe(`${prefix}_${encodeBase32(index, INDEX_WIDTH)}${randomBase32(ID_WIDTH - INDEX_WIDTH, seed, kind, index)}`);
        // with text before it in the same string (the character codes are reused between calls of any length)
        expect(indexedId(prefix, index, seed, kind, '{"id":"')).toBe(`{"id":"${id}`);
        expect(indexedId(prefix, index, seed, kind)).toBe(id);
        expect(indexOfId(id, prefix, index + 1, seed, kind)).toBe(index);
      }),
      { numRuns: 2_000, seed: 5 },
    );
  });
});

describe('review JSON written directly', () => {
  it('is JSON.stringify of the review, for every review of several seeds', () => {
    for (const seed of [1, 2, 99]) {
      const source = generateDataset({ seed, reviews: 3000 }).reviews.source;
      for (let i = 0; i < source.count; i++) {
        const out: string[] = [];
        source.writeReviewJson?.(i, out);
        expect(out.join(''), `seed ${seed}, review ${i}`).toBe(JSON.stringify(source.review(i)));
      }
    }
  });
});
