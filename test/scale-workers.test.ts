/** `workers: N` (node:cluster): several processes on one port answer the bytes one server answers. */
import { get as httpGet } from 'node:http';
import { describe, expect, it } from 'vitest';
import { startMockServer } from '../mock-server/server.ts';

/** One request on a new connection (so that the cluster's round robin spreads them over the workers). */
function fetchFresh(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    httpGet(url, { agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    }).on('error', reject);
  });
}

describe('startMockServer({ workers })', () => {
  it('two workers share one port and answer every listing byte for byte as one in-process server', async () => {
    const options = { seed: 4, reviews: 3000, wishlists: 25 };
    const single = await startMockServer(options);
    const cluster = await startMockServer({ ...options, workers: 2, port: 0 });
    try {
      expect(cluster.workers).toBe(2);
      expect(cluster.summary.reviews).toBe(3000);
      const wishlistId = ((await (await fetch(`${single.url}/store/wishlists?take=1`)).json()) as { data: { id: string }[] }).data[0]!.id;
      const paths = [
        '/store/products/reviews?limit=10&offset=2990&order=-rating',
        '/store/products/reviews?limit=7&offset=100&order=updated_at',
        '/store/reviews/product/prod_unknown?limit=5',
        '/store/wishlists?skip=20&take=10',
        `/store/wishlists/${wishlistId}/items?take=3&skip=1`,
        '/store/products/reviews?limit=0',
      ];
      const pids = new Set<number>();
      for (let round = 0; round < 3; round++) {
        for (const path of paths) {
          const expected = await fetchFresh(`${single.url}${path}`);
          const actual = await fetchFresh(`${cluster.url}${path}`);
          expect(actual.status, path).toBe(expected.status);
          expect(actual.body, path).toBe(expected.body);
        }
      }
      // consecutive connections go to the workers in turn
      for (let i = 0; i < 4; i++) pids.add((JSON.parse((await fetchFresh(`${cluster.url}/__admin/health`)).body) as { pid: number }).pid);
      // the round robin reached both workers, neither of which is this process
      expect(pids.size).toBe(2);
      expect(pids.has(process.pid)).toBe(false);
    } finally {
      await cluster.close();
      await single.close();
    }
  });

  it('refuses a Dataset object, which cannot cross processes', async () => {
    await expect(startMockServer({ workers: 2, dataset: {} } as never)).rejects.toThrow(/cannot serve a Dataset object/);
  });
});
