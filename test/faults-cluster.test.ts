/**
 * `PUT /__admin/faults` in a cluster (`workers: 2`): concurrent PUTs of different fields, each
 * received by a different worker, all survive, and every worker ends with the same settings.
 * (One server's fault settings: test/faults.test.ts; the cluster's fault draws: test/scale-workers.test.ts.)
 */
import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockCluster } from '../mock-server/cluster/start-cluster.ts';
import { startMockServer } from '../mock-server/server.ts';

interface Answer {
  status: number;
  json: any;
}

/** A keep-alive connection of its own: every call through it reaches the worker that accepted it. */
function pinnedConnection(base: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const call = (path: string, method = 'GET', body?: unknown): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const headers = payload ? { 'content-type': 'application/json' } : method === 'GET' ? {} : { 'x-requested-by': 'faults-cluster.test' };
      const req = request(`${base}${path}`, { method, agent, headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
      });
      req.on('error', reject);
      req.end(payload);
    });
  return { call, close: () => agent.destroy() };
}

type Connection = ReturnType<typeof pinnedConnection>;

const pidOf = async (connection: Connection): Promise<number> => (await connection.call('/__admin/health')).json.pid as number;

describe('PUT /__admin/faults with workers: 2', () => {
  let cluster: MockCluster;
  const connections: Connection[] = [];

  beforeAll(async () => {
    cluster = await startMockServer({ seed: 3, reviews: 20, wishlists: 2, maxItems: 2, workers: 2, port: 0 });
    // The primary hands each new connection to the next worker: open connections until two workers hold one each.
    const byPid = new Map<number, Connection>();
    for (let i = 0; i < 8 && byPid.size < 2; i++) {
      const connection = pinnedConnection(cluster.url);
      const pid = await pidOf(connection);
      if (byPid.has(pid)) connection.close();
      else byPid.set(pid, connection);
    }
    connections.push(...byPid.values());
  });
  afterAll(async () => {
    for (const connection of connections) connection.close();
    await cluster?.close();
  });

  it('concurrent PUTs of different fields through different workers all survive, on every worker', async () => {
    expect(connections.length).toBe(2);
    const [a, b] = connections as [Connection, Connection];
    const pids = [await pidOf(a), await pidOf(b)];
    expect(new Set(pids)).toEqual(new Set(cluster.pids));

    // Round 0 is what the cluster started with.
    const latency = (round: number) => (round === 0 ? null : { min: round, max: round });
    const rest = (round: number) => (round === 0 ? { errorStatus: 500, headers: false } : { errorStatus: 400 + round, headers: round % 2 === 0 });
    try {
      for (let round = 1; round <= 60; round++) {
        // At the same moment: the latency through one worker, the error status and headers through the other.
        const [latencyAnswer, restAnswer] = await Promise.all([a.call('/__admin/faults', 'PUT', { latency: latency(round) }), b.call('/__admin/faults', 'PUT', rest(round))]);
        expect(latencyAnswer.status).toBe(200);
        expect(restAnswer.status).toBe(200);
        // Each answer shows the settings just after its PUT: its own fields, and the other PUT's from this round or the last.
        expect(latencyAnswer.json.latency, `round ${round}`).toEqual(latency(round));
        expect([rest(round), rest(round - 1)], `round ${round}`).toContainEqual({ errorStatus: latencyAnswer.json.errorStatus, headers: latencyAnswer.json.headers });
        expect(restAnswer.json, `round ${round}`).toMatchObject(rest(round));
        expect([latency(round), latency(round - 1)], `round ${round}`).toContainEqual(restAnswer.json.latency);
        // Then both changes are in force in both workers.
        for (const connection of [a, b]) {
          const settings = (await connection.call('/__admin/faults')).json;
          expect(settings, `round ${round}`).toMatchObject({ latency: latency(round), ...rest(round), errorRate: 0, seed: null, active: true });
        }
      }
    } finally {
      expect((await a.call('/__admin/faults', 'DELETE')).status).toBe(200);
    }
    // The same two workers answered throughout.
    expect([await pidOf(a), await pidOf(b)]).toEqual(pids);
  }, 60_000);
});
