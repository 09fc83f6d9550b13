/**
 * `GET /__admin/journal?since=<cursor>`: the cursor is the client's text; a hostile one gets the
 * documented 400 (or the 414 of any URL too long), never a 5xx, in one server and in a cluster, where
 * the query crosses to every worker. (The journal's filters otherwise: test/journal.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockCluster } from '../mock-server/cluster/start-cluster.ts';
import { startMockServer, type MockServer } from '../mock-server/server.ts';
import { exactRequest } from './support/http.ts';

const journal = async (base: string, query = '') => {
  const answer = await exactRequest(base, `/__admin/journal${query}`);
  return { status: answer.status, json: JSON.parse(answer.text) };
};
const since = (cursor: string) => `?since=${encodeURIComponent(cursor)}`;
const pairsOf = (cursor: string) => cursor.split(',').map((part) => part.split(':'));

/** Values of `since` that no journal gives, each answered 400 `invalid_data` naming 'since'. */
const HOSTILE = [
  '',
  ':',
  '1:',
  ':1',
  '__proto__:1',
  'constructor:1',
  'toString:1',
  '1:1,__proto__:2',
  '__proto__',
  'hasOwnProperty:0',
  '-1:1',
  '1.5:1',
  '1:1e3',
  '1e3:1',
  'Infinity:1',
  'NaN:NaN',
  '0x10:1',
  ' 1:1',
  '1:1,',
  '99999999999:1',
  '1:9999999999999999',
  `1:${'9'.repeat(400)}`,
  '1:1\u0000',
  'x'.repeat(7000),
  Array.from({ length: 1500 }, (_, i) => `${i}:1`).join(','),
  Array.from({ length: 66 }, (_, i) => `${i}:1`).join(','),
];

function describeCursor(name: string, start: () => Promise<MockServer | MockCluster>) {
  describe(name, () => {
    let server: MockServer | MockCluster;
    let cursor: string;

    beforeAll(async () => {
      server = await start();
      // On new connections: a cluster's primary hands them to its workers in turn, so each records some.
      for (let i = 0; i < 4; i++) expect((await exactRequest(server.url, `/store/wishlists?take=${i + 1}`)).status).toBe(200);
      const all = await journal(server.url);
      expect(all.json.entries).toHaveLength(4);
      cursor = all.json.cursor;
      expect(pairsOf(cursor)).toHaveLength(name.includes('cluster') ? 2 : 1);
    });
    afterAll(async () => {
      await server?.close();
    });

    it('a cursor means the same with its pids written with leading zeros (they are numbers)', async () => {
      expect((await journal(server.url, since(cursor))).json.entries).toEqual([]);
      const padded = pairsOf(cursor)
        .map(([pid, seq]) => `00${pid}:${seq}`)
        .join(',');
      const answer = await journal(server.url, since(padded));
      expect(answer.status).toBe(200);
      expect(answer.json.entries).toEqual([]);
      // An older cursor of the first process only: the later entries of every process, by seq.
      const [first] = pairsOf(cursor) as [[string, string]];
      const older = await journal(server.url, since(`0${first[0]}:${Number(first[1]) - 1}`));
      expect(older.json.entries.filter((e: { worker?: number }) => (e.worker ?? Number(first[0])) === Number(first[0])).map((e: { seq: number }) => e.seq)).toEqual([Number(first[1])]);
    });

    it('a cursor that names a process twice is refused, whichever seq comes last', async () => {
      const [first] = pairsOf(cursor) as [[string, string]];
      for (const twice of [`${cursor},${first[0]}:0`, `${first[0]}:0,${cursor}`, `${first[0]}:1,0${first[0]}:1`]) {
        const answer = await journal(server.url, since(twice));
        expect(answer.status, twice).toBe(400);
        expect(answer.json, twice).toEqual({ type: 'invalid_data', message: expect.stringMatching(/'since' must name each process once.* names \d+ twice$/) });
      }
    });

    it('a hostile since gets the documented 400 naming it, or the 414 of a URL too long; never a 5xx, and the server goes on', async () => {
      for (const value of HOSTILE) {
        const answer = await journal(server.url, since(value));
        const label = value.slice(0, 40);
        if (answer.status === 414) {
          expect(`/__admin/journal${since(value)}`.length, label).toBeGreaterThan(8192);
          continue;
        }
        expect(answer.status, label).toBe(400);
        expect(answer.json, label).toEqual({ type: 'invalid_data', message: expect.stringContaining("'since'") });
      }
      // Still serving, and still journaling.
      expect((await exactRequest(server.url, '/store/wishlists?take=9')).status).toBe(200);
      expect((await journal(server.url, since(cursor))).json.entries.map((e: { url: string }) => e.url)).toEqual(['/store/wishlists?take=9']);
    });
  });
}

describeCursor('one server', () => startMockServer({ seed: 2, reviews: 10, wishlists: 12, maxItems: 2 }));
describeCursor('a cluster of two workers', () => startMockServer({ seed: 2, reviews: 10, wishlists: 12, maxItems: 2, workers: 2, port: 0 }));
