/**
 * What a listing request through Express does besides answering (issue 27, "the uncached page is
 * back"): a random uncached page at a million reviews cost about a tenth more CPU per request than
 * at 26a2658 once the journal kept bodies and page facts, because observing an answer wrapped its
 * `write` and `end` and noted its page facts as properties of the response object itself: every
 * response got a shape of its own, which Node's and Express's code then pays for. These checks
 * count what is left behind on the response, not time: observing must add nothing to it, while the
 * journal still keeps the body and the page arithmetic (test/journal.test.ts has the rest).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDataset } from '../fixtures/dataset.ts';
import { DatasetHolder } from '../mock-server/dataset/holder.ts';
import { createApp } from '../mock-server/front/app.ts';
import { createOps, type Ops } from '../mock-server/state/ops.ts';
import { Journal } from '../mock-server/journal/journal.ts';

interface Served {
  server: Server;
  url: string;
  ops: Ops;
  /** Every response object the app was given, in order. */
  responses: ServerResponse[];
  /** Per response, the listeners on it right after the app returned (an answer made in that tick has ended, its 'finish' is yet to come). */
  listeners: string[][];
}

/** The Express app alone (no fast path in front), with a journal of `journalSize` entries. */
async function serve(journalSize: number): Promise<Served> {
  const holder = new DatasetHolder(generateDataset({ seed: 3, reviews: 200, products: 5, wishlists: 4, maxItems: 3 }));
  const ops = createOps({ journalSize });
  const app = createApp(holder, { ops });
  const responses: ServerResponse[] = [];
  const listeners: string[][] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    responses.push(res);
    app(req, res);
    listeners.push(res.eventNames().flatMap((event) => Array.from({ length: res.listenerCount(event) }, () => String(event))).sort());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, ops, responses, listeners };
}

const close = (served: Served) => new Promise<void>((resolve) => served.server.close(() => resolve()));

/** The response's own property names and symbols' descriptions, sorted (what it carries beyond its prototype). */
const ownKeys = (res: ServerResponse) =>
  Reflect.ownKeys(res)
    .map((key) => (typeof key === 'symbol' ? `symbol:${key.description ?? ''}` : key))
    .sort();

const PAGES = ['/store/products/reviews?limit=5&offset=17&order=-rating', '/store/products/reviews?limit=3&offset=150', '/store/wishlists?take=2&skip=1', '/no/such/route'];

describe('a request observed by the journal', () => {
  let journaled: Served;
  let unobserved: Served;
  beforeAll(async () => {
    journaled = await serve(50);
    unobserved = await serve(0);
  });
  afterAll(async () => {
    await close(journaled);
    await close(unobserved);
  });

  it('leaves its response with the same own properties as a request nobody observes', async () => {
    for (const path of PAGES) {
      const [a, b] = await Promise.all([fetch(`${journaled.url}${path}`), fetch(`${unobserved.url}${path}`)]);
      expect(await a.text()).toBe(await b.text());
    }
    expect(journaled.responses).toHaveLength(PAGES.length);
    for (let i = 0; i < PAGES.length; i++) {
      const keys = ownKeys(journaled.responses[i]!);
      // Not the journal's wrappers, nor a note of its own (before: `write`, `end` and Symbol(page facts)).
      expect(keys, PAGES[i]).not.toContain('write');
      expect(keys, PAGES[i]).not.toContain('end');
      expect(keys, PAGES[i]).toEqual(ownKeys(unobserved.responses[i]!));
    }
  });

  it('puts no listener on its response: the answer is recorded as it ends, before its \'finish\'', async () => {
    const before = { journaled: journaled.listeners.length, unobserved: unobserved.listeners.length, recorded: journaled.ops.journal.recorded };
    for (const path of PAGES) {
      const [a, b] = await Promise.all([fetch(`${journaled.url}${path}`), fetch(`${unobserved.url}${path}`)]);
      expect(await a.text()).toBe(await b.text());
    }
    const observed = journaled.listeners.slice(before.journaled);
    expect(observed).toHaveLength(PAGES.length);
    // Before: one 'finish' listener (and its closure) more on every observed response than on an unobserved one.
    expect(observed).toEqual(unobserved.listeners.slice(before.unobserved));
    expect(journaled.ops.journal.recorded - before.recorded).toBe(PAGES.length);
  });

  it('is still journaled with its body and, for a listing, its page arithmetic', async () => {
    const path = '/store/products/reviews?limit=4&offset=8&order=created_at';
    const body = await (await fetch(`${journaled.url}${path}`)).text();
    const entry = journaled.ops.journal.entries().at(-1)!;
    expect(entry.url).toBe(path);
    expect(entry.response.body?.text).toBe(body);
    expect(entry.page).toMatchObject({ rule: 'reviewsPageMeta', matching: 200, size: 4, start: 8, currentPage: 3 });
    await fetch(`${journaled.url}/no/such/route`);
    const missing = journaled.ops.journal.entries().at(-1)!;
    expect(missing.status).toBe(404);
    expect(missing.response.body?.text).toContain('not_found');
    expect(missing.page).toBeNull();
  });
});

describe("the journal's copy of an answer made for one request", () => {
  const record = (journal: Journal, bytes: Buffer) => {
    const body = journal.copiedAnswer(bytes);
    journal.record({ arrivedMs: 0, method: 'GET', url: '/x', status: 200, durationMs: 0, responseBody: body });
    return body;
  };

  it('holds none of the answer\'s own memory, and reuses one buffer per slot as the ring turns', () => {
    const journal = new Journal({ capacity: 3, bodyBytes: 8 });
    const answers = ['{"a":1}', '{"bb":22}', '{"ccc":333}', '{"d":4}'].map((text) => Buffer.from(text));
    const kept = answers.map((bytes) => record(journal, bytes));
    for (let i = 0; i < answers.length; i++) expect(kept[i]!.bytes.buffer).not.toBe(answers[i]!.buffer);
    // The fourth entry went into the first slot, over the first one's copy: no new buffer for it.
    expect(kept[3]!.bytes.buffer).toBe(kept[0]!.bytes.buffer);
    expect(new Set(kept.slice(0, 3).map((k) => k.bytes.buffer)).size).toBe(3);
    const shown = journal.entries().map((entry) => entry.response.body);
    expect(shown).toEqual([
      { text: '{"bb":22', bytes: 9, truncated: true },
      { text: '{"ccc":3', bytes: 11, truncated: true },
      { text: '{"d":4}', bytes: 7, truncated: false },
    ]);
  });
});
