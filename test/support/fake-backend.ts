import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A backend written for the overlay's tests (`serve --backend`, test/backend-overlay.test.ts): node:http on
 * port 0, counting its connections and the requests it got. What it answers, by path:
 * - `/status/<code>`: that status, no body (204, 304...);
 * - `/redirect`: 302 with `Location: /elsewhere?from=redirect` and a body;
 * - `/cookies`: two `Set-Cookie` headers;
 * - `/stream` (or any path ending so): a chunked answer, `chunk-1;` at once and `chunk-2.` once the test calls `release()`;
 * - `/silent`: no answer until `release()` (for the 504);
 * - `/die` (or any path ending so): a head and part of a body, then the connection is cut;
 * - `/auth/...`: `{"token":"tok_secret"}`, its path read as a WHATWG reader reads it (`new URL`: dot
 *   segments resolved, any case), as a backend behind such a router or proxy would;
 * - anything else: an echo, `application/json` `{ method, url, headers (raw), bodyBytes, sha256, body }`
 *   (`body`: the text of a body of at most 64 KiB).
 */
export interface Hit {
  method: string;
  url: string;
}

export interface FakeBackend {
  readonly url: string;
  readonly port: number;
  /** Connections accepted since start. */
  readonly connections: number;
  /** Requests received since start, in order. */
  readonly hits: Hit[];
  /** Answers whose connection closed before they were complete (the client, through the mock, went away). */
  readonly cut: number;
  /** Lets every held answer (`/stream`, `/silent`) go on. */
  release(): void;
  close(): Promise<void>;
}

export const AUTH_TOKEN_BODY = '{"token":"tok_secret"}';

export async function startFakeBackend(): Promise<FakeBackend> {
  let connections = 0;
  let cut = 0;
  const hits: Hit[] = [];
  let waiting: Array<() => void> = [];
  const held = () => new Promise<void>((resolve) => waiting.push(resolve));
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    hits.push({ method: req.method ?? '', url: req.url ?? '' });
    res.once('close', () => {
      if (!res.writableFinished) cut++;
    });
    void answer(req, res, held).catch(() => res.destroy());
  });
  server.on('connection', (socket: Socket) => {
    connections++;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    get connections() {
      return connections;
    },
    get cut() {
      return cut;
    },
    hits,
    release() {
      const now = waiting;
      waiting = [];
      for (const go of now) go();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const go of waiting) go();
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

async function answer(req: IncomingMessage, res: ServerResponse, held: () => Promise<void>): Promise<void> {
  const path = (req.url ?? '/').split('?')[0] as string;
  const status = /^\/status\/([0-9]{3})$/.exec(path);
  const body = await readAll(req);
  if (status) {
    res.writeHead(Number(status[1]), { 'X-Backend': 'fake' });
    return void res.end();
  }
  if (path === '/redirect') {
    res.writeHead(302, { Location: '/elsewhere?from=redirect', 'Content-Type': 'text/plain' });
    return void res.end('Found. Redirecting to /elsewhere?from=redirect');
  }
  if (path === '/cookies') {
    res.writeHead(200, [
      ['Set-Cookie', 'connect.sid=s%3Aabc; Path=/; HttpOnly'],
      ['Set-Cookie', 'theme=dark; Path=/'],
      ['Content-Type', 'application/json'],
    ].flat());
    return void res.end('{"ok":true}');
  }
  if (path === '/stream' || path.endsWith('/stream')) {
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.write('chunk-1;');
    await held();
    return void res.end('chunk-2.');
  }
  if (path === '/silent') {
    await held();
    return void res.end('late');
  }
  if (path === '/die' || path.endsWith('/die')) {
    res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': '1000' });
    res.write('part of a body');
    setTimeout(() => res.socket?.destroy(), 20);
    return;
  }
  if (new URL(req.url ?? '/', 'http://backend.test').pathname.toLowerCase().startsWith('/auth/')) {
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
    return void res.end(AUTH_TOKEN_BODY);
  }
  const echo = JSON.stringify({
    method: req.method,
    url: req.url,
    headers: req.rawHeaders,
    bodyBytes: body.length,
    sha256: body.sha256,
    body: body.text,
  });
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'X-Backend': 'fake' });
  res.end(echo);
}

/** The request body's length and sha256, and its text when at most 64 KiB. */
async function readAll(req: IncomingMessage): Promise<{ length: number; sha256: string; text: string | null }> {
  const hash = createHash('sha256');
  const kept: Buffer[] = [];
  let length = 0;
  for await (const chunk of req) {
    hash.update(chunk as Buffer);
    length += (chunk as Buffer).length;
    if (length <= 64 * 1024) kept.push(chunk as Buffer);
  }
  return { length, sha256: hash.digest('hex'), text: length <= 64 * 1024 ? Buffer.concat(kept).toString('utf8') : null };
}
