/**
 * The kit's one HTTP client (client/http.ts), as check's transport (properties/transport.ts)
 * and client/exchange.ts use it: a raw TCP server writes each shape of answer byte for byte
 * and counts the requests and connections it gets. Every shape of HTTP/1.x answer is read, once;
 * every failure is one sentence; a body is bounded by its cap, compressed or not.
 */
import { createServer as createHttpServer } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { exchange } from '../client/exchange.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { BodyMemo, get } from '../properties/transport.ts';
import { parseHeaders } from '../lib/http.ts';

const JSON_BODY = '{"reviews":[{"id":"rev_1","rating":4}],"count":1,"limit":10,"offset":0}';

interface RawServer {
  url: string;
  /** Requests received, by connection, in order. */
  requests: string[];
  connections: number;
  close(): Promise<void>;
}

const servers: RawServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A server that answers each request head it reads with `answer(index)` (the index counts every request). */
async function rawServer(answer: (index: number, socket: net.Socket) => string | Buffer | undefined): Promise<RawServer> {
  const sockets = new Set<net.Socket>();
  const requests: string[] = [];
  const state = { connections: 0 };
  const server = net.createServer((socket) => {
    state.connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let pending = '';
    socket.on('data', (chunk) => {
      pending += chunk.toString('latin1');
      for (let end = pending.indexOf('\r\n\r\n'); end >= 0; end = pending.indexOf('\r\n\r\n')) {
        const head = pending.slice(0, end);
        pending = pending.slice(end + 4);
        const index = requests.length;
        requests.push(head);
        const bytes = answer(index, socket);
        if (bytes !== undefined) socket.write(bytes);
      }
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const raw: RawServer = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    get connections() {
      return state.connections;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  servers.push(raw);
  return raw;
}

const withLength = (body: string | Buffer, headers: string[] = []) => {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
  return Buffer.concat([Buffer.from(['HTTP/1.1 200 OK', 'Content-Type: application/json; charset=utf-8', ...headers, `Content-Length: ${bytes.length}`, '', ''].join('\r\n'), 'latin1'), bytes]);
};

const chunked = (body: string) =>
  ['HTTP/1.1 200 OK', 'Content-Type: application/json; charset=utf-8', 'Transfer-Encoding: chunked', '', `${Buffer.byteLength(body).toString(16)}`, body, '0', '', ''].join('\r\n');

const expectedAnswer = (url: string, extraHeaders: Record<string, string> = {}) => ({
  url,
  status: 200,
  contentType: 'application/json; charset=utf-8',
  text: JSON_BODY,
  json: JSON.parse(JSON_BODY),
  headers: { 'content-type': 'application/json; charset=utf-8', ...extraHeaders },
});

describe("the kit's HTTP client", () => {
  it('reads answers over one kept-alive connection, with every header as node:http names it', async () => {
    const server = await rawServer(() => withLength(JSON_BODY, ['ETag:  W/"1"  ', 'X-Odd:\tvalue with\ttabs\t']));
    const memo = new BodyMemo();
    for (let i = 0; i < 3; i++) {
      const url = `${server.url}/store/products/reviews?limit=10&offset=${i}`;
      expect(await get(url, 5000, {}, memo)).toEqual(expectedAnswer(url, { etag: 'W/"1"', 'x-odd': 'value with\ttabs', 'content-length': String(JSON_BODY.length) }));
      // undici reuses a connection one turn of the event loop after its answer (a request sent at once takes another).
      await new Promise(setImmediate);
    }
    expect(server.requests).toHaveLength(3);
    expect(server.connections).toBe(1);
    expect(server.requests[0]).toMatch(/^GET \/store\/products\/reviews\?limit=10&offset=0 HTTP\/1\.1\r\nhost: 127\.0\.0\.1:\d+\r\nconnection: keep-alive\r\naccept: application\/json$/);
  });

  it('sends the headers asked for, and accept: application/json unless they name one', async () => {
    const server = await rawServer(() => withLength(JSON_BODY));
    await get(`${server.url}/a`, 5000, { 'x-publishable-api-key': 'pk_1', Accept: 'application/json, */*' });
    expect(server.requests[0]).toBe(`GET /a HTTP/1.1\r\nhost: ${server.url.slice('http://'.length)}\r\nconnection: keep-alive\r\nx-publishable-api-key: pk_1\r\nAccept: application/json, */*`);
  });

  it("sends a --header named as JavaScript's own (__proto__, constructor) as given: header names are data", async () => {
    const server = await rawServer(() => withLength(JSON_BODY));
    const headers = parseHeaders(['__proto__: a', 'constructor: b', 'toString: c']);
    expect(Object.entries(headers)).toEqual([['__proto__', 'a'], ['constructor', 'b'], ['tostring', 'c']]);
    await get(`${server.url}/a`, 5000, headers);
    await exchange(`${server.url}/b`, 5000, undefined, headers);
    for (const request of server.requests) expect(request).toContain('\r\n__proto__: a\r\nconstructor: b\r\ntostring: c');
  });

  const shapes: Array<[string, () => string | Buffer]> = [
    ['a chunked body', () => chunked(JSON_BODY)],
    ['a header named twice', () => withLength(JSON_BODY, ['Vary: Origin', 'Vary: Accept'])],
    ['an HTTP/1.0 answer', () => withLength(JSON_BODY).toString('latin1').replace('HTTP/1.1', 'HTTP/1.0')],
    ['a 103 before the answer', () => `HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n${withLength(JSON_BODY).toString('latin1')}`],
  ];
  for (const [shape, answer] of shapes) {
    it(`reads ${shape}, asking once`, async () => {
      const server = await rawServer(() => answer());
      const first = await get(`${server.url}/first`, 5000);
      const second = await get(`${server.url}/second`, 5000);
      for (const [a, path] of [[first, '/first'], [second, '/second']] as const) {
        expect(a.status).toBe(200);
        expect(a.text).toBe(JSON_BODY);
        expect(a.json).toEqual(JSON.parse(JSON_BODY));
        expect(a.url).toBe(`${server.url}${path}`);
      }
      expect(server.requests.map((r) => r.split(' ')[1])).toEqual(['/first', '/second']);
    });
  }

  const refused: Array<[string, string[]]> = [
    ['a folded header', ['X-Folded: one', ' two']],
    ['a chunked body with a Content-Length too', ['Transfer-Encoding: chunked']],
  ];
  for (const [shape, headers] of refused) {
    it(`refuses ${shape} in one sentence`, async () => {
      const server = await rawServer(() => withLength(JSON_BODY, headers));
      await expect(get(`${server.url}/`, 5000)).rejects.toThrow(/^cannot reach http:\/\/127\.0\.0\.1:\d+\/: [^\n]+$/);
    });
  }

  it('joins a header named twice as node:http does', async () => {
    const server = await rawServer(() => withLength(JSON_BODY, ['Vary: Origin', 'Vary: Accept']));
    const answer = await get(`${server.url}/`, 5000);
    expect(answer.headers?.vary).toBe('Origin, Accept');
  });

  for (const [coding, compress] of [['gzip', gzipSync], ['deflate', deflateSync], ['br', brotliCompressSync]] as const) {
    it(`decodes a ${coding} body`, async () => {
      const server = await rawServer(() => withLength(compress(JSON_BODY), [`Content-Encoding: ${coding}`]));
      const answer = await get(`${server.url}/`, 5000);
      expect(answer.text).toBe(JSON_BODY);
      expect((await exchange(`${server.url}/x`, 5000)).json).toEqual(JSON.parse(JSON_BODY));
      expect(server.requests).toHaveLength(2);
    });
  }

  it('asks once more on a new connection when the server closed the kept-alive one', async () => {
    // Answers, then closes each connection after its first answer without saying so.
    const server = await rawServer((index, socket) => {
      setTimeout(() => socket.end(), 20);
      return withLength(JSON_BODY);
    });
    await get(`${server.url}/one`, 5000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const again = await get(`${server.url}/two`, 5000);
    expect(again.text).toBe(JSON_BODY);
    expect(server.connections).toBe(2);
  });

  it('does not keep a connection the server said it closes, nor one with bytes past the body', async () => {
    const server = await rawServer((index) => (index === 0 ? withLength(JSON_BODY, ['Connection: close']) : Buffer.concat([withLength(JSON_BODY), Buffer.from('garbage')])));
    for (const path of ['/a', '/b', '/c']) expect((await get(`${server.url}${path}`, 5000)).text).toBe(JSON_BODY);
    expect(server.connections).toBe(3);
  });

  it('says the server did not finish in time when the body never ends, and that it cannot reach a closed port', async () => {
    const server = await rawServer(() => 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"reviews":[');
    await expect(get(`${server.url}/drip`, 300)).rejects.toThrow(/: the server did not finish its answer within 300 ms \(it sent the headers, then too little of the body\)$/);
    const closed = await rawServer(() => undefined);
    await closed.close();
    await expect(get(`${closed.url}/`, 2000)).rejects.toThrow(/^cannot reach http:\/\/127\.0\.0\.1:\d+\/: connect ECONNREFUSED/);
  });

  // Each failure in one sentence that names the URL, having asked once.
  const failures: Array<[string, (socket: net.Socket) => string | undefined, RegExp]> = [
    ['closes without answering', (socket) => void socket.end(), /^cannot reach <server>\/x: other side closed$/],
    ['resets without answering', (socket) => void socket.resetAndDestroy(), /^cannot reach <server>\/x: read ECONNRESET$/],
    ['closes half-way through the body', (socket) => {
      setTimeout(() => socket.destroy(), 20);
      return 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"reviews":[';
    }, /^<server>\/x: the answer broke off mid-body \(other side closed\)$/],
    ['closes half-way through the head', (socket) => {
      setTimeout(() => socket.destroy(), 20);
      return 'HTTP/1.1 200 OK\r\nContent-Type: appl';
    }, /^cannot reach <server>\/x: other side closed$/],
  ];
  for (const [failure, act, sentence] of failures) {
    it(`says so in one sentence when the server ${failure}, having asked once`, async () => {
      const server = await rawServer((_, socket) => act(socket));
      const error = await get(`${server.url}/x`, 5000).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, 'the request must fail').toBeInstanceOf(Error);
      expect((error as Error).message.replace(server.url, '<server>')).toMatch(sentence);
      expect(server.requests).toHaveLength(1);
    });
  }

  it('follows a redirect, and a target that then never answers is one it cannot reach', async () => {
    const silent = await rawServer(() => undefined);
    const server = await rawServer((index) =>
      index === 0 ? 'HTTP/1.1 302 Found\r\nLocation: /moved\r\nContent-Length: 0\r\n\r\n' : index === 1 ? withLength(JSON_BODY) : `HTTP/1.1 307 Temporary Redirect\r\nLocation: ${silent.url}/\r\nContent-Length: 0\r\n\r\n`,
    );
    const moved = await get(`${server.url}/old`, 5000);
    expect({ url: moved.url, text: moved.text }).toEqual({ url: `${server.url}/old`, text: JSON_BODY });
    expect(server.requests.map((r) => r.split(' ')[1])).toEqual(['/old', '/moved']);
    await expect(get(`${server.url}/away`, 300)).rejects.toThrow(new RegExp(`^cannot reach ${server.url}/away: no answer within 300 ms$`));
  });

  it('gives an Express answer exactly as node:http reads it', async () => {
    const express = createHttpServer((req, res) => {
      res.setHeader('Set-Cookie', ['a=1', 'b=2']);
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.end(JSON_BODY);
    });
    await new Promise<void>((resolve) => express.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(express.address() as AddressInfo).port}/`;
      const answer = await get(url, 5000);
      expect(answer.text).toBe(JSON_BODY);
      expect(answer.headers?.['set-cookie']).toBe('a=1, b=2');
    } finally {
      await new Promise((resolve) => express.close(resolve));
    }
  });
});

describe('bounds of a body', () => {
  const exchangeError = (url: string, maxBodyBytes: number) =>
    exchange(url, { timeoutMs: 10_000, maxBodyBytes }).then(
      () => undefined,
      (e: unknown) => (e as Error).message,
    );

  it('refuses a Content-Length over the cap before reading the body, in one sentence naming the URL and the cap', async () => {
    const server = await rawServer(() => 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 10000000000\r\n\r\n{"reviews":[');
    expect(await exchangeError(`${server.url}/big`, 64 * 1024)).toBe(`${server.url}/big: the answer is over the 64 KiB cap on a body (--max-body raises it)`);
    await expect(get(`${server.url}/big`, 10_000, {}, new BodyMemo(), undefined, 64 * 1024)).rejects.toThrow(`${server.url}/big: the answer is over the 64 KiB cap on a body (--max-body raises it)`);
  });

  it('stops reading a body without a length at the byte past the cap', async () => {
    const server = await rawServer((_, socket) => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n');
      const chunk = `${(16 * 1024).toString(16)}\r\n${' '.repeat(16 * 1024)}\r\n`;
      const more = () => {
        while (!socket.destroyed && socket.write(chunk));
      };
      socket.on('drain', more);
      more();
      return undefined;
    });
    expect(await exchangeError(`${server.url}/endless`, 64 * 1024)).toBe(`${server.url}/endless: the answer is over the 64 KiB cap on a body (--max-body raises it)`);
  });

  it('inflates a compressed body no further than the cap', async () => {
    // 64 KiB on the wire at most, 8 MiB once inflated: over a cap of 1 MiB only after decompression.
    const inflated = Buffer.alloc(8 * 1024 * 1024, ' ');
    for (const [coding, compress] of [['gzip', gzipSync], ['deflate', deflateSync], ['br', brotliCompressSync]] as const) {
      const server = await rawServer(() => withLength(compress(inflated), [`Content-Encoding: ${coding}`]));
      const sentence = `${server.url}/${coding}: the answer is over the 1 MiB cap on a body (--max-body raises it)`;
      expect(await exchangeError(`${server.url}/${coding}`, 1024 * 1024), coding).toBe(sentence);
      await expect(get(`${server.url}/${coding}`, 10_000, {}, new BodyMemo(), undefined, 1024 * 1024)).rejects.toThrow(sentence);
      // Under a cap it fits, it is read whole.
      expect((await exchange(`${server.url}/${coding}`, { timeoutMs: 10_000, maxBodyBytes: 8 * 1024 * 1024 })).text.length).toBe(inflated.length);
    }
  });

  it('says in one plain sentence that an https URL reaches a server that speaks plain HTTP', async () => {
    // node:http answers a TLS handshake with a plain-HTTP 400, as the mock does.
    const plain = createHttpServer((_, res) => res.end(JSON_BODY));
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    try {
      const origin = `https://127.0.0.1:${(plain.address() as AddressInfo).port}`;
      const url = `${origin}/store/products/reviews`;
      await expect(get(url, 5000)).rejects.toThrow(`cannot reach ${url}: the server at ${origin} does not speak TLS (is it plain http://?)`);
      await expect(exchange(url, 5000)).rejects.toThrow(`cannot reach ${url}: the server at ${origin} does not speak TLS (is it plain http://?)`);
    } finally {
      await new Promise((resolve) => plain.close(resolve));
    }
  });
});
