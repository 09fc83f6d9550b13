/** Graceful shutdown of `serve` on SIGTERM and SIGINT, in a child process. */
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startServe, type ServeProcess } from './support/cli-process.ts';
import { get } from './support/http.ts';
import { requestBytes, sendRaw } from './support/raw-http.ts';

let serve: ServeProcess | undefined;
afterEach(() => {
  if (serve && serve.child.exitCode === null && serve.child.signalCode === null) serve.child.kill('SIGKILL');
  serve = undefined;
});

const connects = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await condition()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`gave up waiting for ${what}`);
}

describe('graceful shutdown of serve', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`on ${signal}: stops accepting, finishes the request in flight, exits 0`, async () => {
      serve = await startServe(['--reviews', '20', '--wishlists', '3', '--fault-headers', '--log-level', 'info']);
      const { port, url } = serve;
      const expected = (await get(url, '/store/wishlists?take=2')).text;
      // A slow request (held 1.5 s by x-mock-delay) is in flight when the signal comes.
      const inFlight = sendRaw(port, requestBytes({ method: 'GET', target: '/store/wishlists?take=2', headers: [['x-mock-delay', '1500']] }), 15_000);
      await until(async () => (await get(url, '/__admin/faults')).json.requestsSeen === 2, 'the slow request to arrive');
      serve.child.kill(signal);
      await until(async () => !(await connects(port)), 'the server to stop accepting connections');
      const answer = await inFlight;
      expect(answer.status).toBe(200);
      expect(answer.body).toBe(expected);
      expect(await serve.exited).toBe(0);
      const logs = serve.stdout().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
      expect(logs).toContainEqual(expect.objectContaining({ signal, msg: expect.stringContaining('shutting down') }));
      expect(logs).toContainEqual(expect.objectContaining({ msg: 'request', url: '/store/wishlists?take=2', status: 200 }));
      expect(logs.at(-1)).toMatchObject({ msg: 'stopped' });
    });
  }

  it('does not wait for idle keep-alive connections', async () => {
    serve = await startServe(['--reviews', '5', '--wishlists', '1']);
    // fetch keeps its connection open after the answer.
    expect((await get(serve.url, '/store/products/reviews')).status).toBe(200);
    serve.child.kill('SIGTERM');
    expect(await serve.exited).toBe(0);
  });
});
