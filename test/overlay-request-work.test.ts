/**
 * What a request passed to a backend leaves behind in the overlay (issue 36 item 5): counted, not
 * timed (the time is the bench's: `npm run bench -- --only passthrough`). The overlay used to find
 * each exchange in a Map keyed by its request, set and deleted at every exchange; V8 then rehashed
 * the map's table every few exchanges, and once one table had been promoted to the old generation
 * every later one was made there, so the requests set in them were promoted too: some server
 * processes fell into that state and paid 10 % to 60 % more CPU per passed-through request
 * (mock-server/backend/overlay.ts, docs/benchmarks.md). These checks pin that no Map, WeakMap or Set
 * is given a passed-through request or its response (or anything holding them) as a key or value,
 * with the journal on and off, and that the answers are still the backend's.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../mock-server/server.ts';

let backend: Server;
let backendUrl = '';
beforeAll(async () => {
  backend = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ url: req.url }));
  });
  await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve));
  backendUrl = `http://127.0.0.1:${(backend.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => backend.close(() => resolve())));

let mock: MockServer | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

/** Every key and value given to a Map, WeakMap or Set (their `set`/`add`) while `run` runs. */
async function collectionEntries(run: () => Promise<void>): Promise<unknown[]> {
  const seen: unknown[] = [];
  const mapSet = Map.prototype.set;
  const weakMapSet = WeakMap.prototype.set;
  const setAdd = Set.prototype.add;
  Map.prototype.set = function (this: Map<unknown, unknown>, key: unknown, value: unknown) {
    seen.push(key, value);
    return mapSet.call(this, key, value);
  };
  WeakMap.prototype.set = function (this: WeakMap<WeakKey, unknown>, key: WeakKey, value: unknown) {
    seen.push(key, value);
    return weakMapSet.call(this, key, value);
  };
  Set.prototype.add = function (this: Set<unknown>, value: unknown) {
    seen.push(value);
    return setAdd.call(this, value);
  };
  try {
    await run();
  } finally {
    Map.prototype.set = mapSet;
    WeakMap.prototype.set = weakMapSet;
    Set.prototype.add = setAdd;
  }
  return seen;
}

describe('a request passed through to the backend', () => {
  for (const [what, journalSize] of [
    ['with the journal (default)', undefined],
    ['with --journal-size 0', 0],
  ] as const) {
    it(`is kept in no Map, WeakMap or Set, nor is its response, nor anything holding either (${what})`, async () => {
      mock = await startMockServer({ seed: 1, backend: backendUrl, ...(journalSize === undefined ? {} : { journalSize }) });
      const requests: IncomingMessage[] = [];
      const responses: ServerResponse[] = [];
      mock.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
        requests.push(req);
        responses.push(res);
      });
      const base = mock.url;
      // One first, so that whatever is made once (the connection pool, lazily loaded modules) is made.
      await (await fetch(`${base}/store/carts/warm`)).text();
      requests.length = responses.length = 0;
      const answers: string[] = [];
      const seen = await collectionEntries(async () => {
        for (let i = 0; i < 20; i++) answers.push(await (await fetch(`${base}/store/carts/cart_${i}?x=${i}`)).text());
        // A request the mock answers itself, in between, changes nothing.
        await (await fetch(`${base}/store/products/reviews?limit=2`)).text();
      });
      expect(answers).toEqual(Array.from({ length: 20 }, (_, i) => JSON.stringify({ url: `/store/carts/cart_${i}?x=${i}` })));
      expect(requests.length).toBe(21);
      const perRequest = new Set<unknown>([...requests, ...responses]);
      expect(seen.filter((entry) => perRequest.has(entry))).toEqual([]);
      // Nor anything that points back at them (an exchange record holding its request or response).
      const holdsOne = (entry: unknown) => typeof entry === 'object' && entry !== null && Object.values(entry).some((v) => perRequest.has(v));
      expect(seen.filter(holdsOne)).toEqual([]);
    });
  }
});
