import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/**
 * A backend written byte by byte on `net` (issue 35), for what node:http will not send: answers
 * framed wrongly (a Content-Length shorter or longer than the body, bad chunking, a broken head),
 * cut or reset mid-body, and a keep-alive that ends as a real server's does. Requests are read as
 * heads only (the tests send no bodies), one at a time per connection.
 *
 * What it answers, by the request target's query:
 * - `?h=<id>`: the script registered under that id (`script()`): its pieces, each written after its
 *   delay, then the connection kept, ended (FIN) or reset (RST);
 * - anything else: a well-formed 200, `{"ok":true,"url":<target>}`, with `keepAliveHint` as its
 *   `Keep-Alive` header when given.
 *
 * Idle connections, after a well-formed answer: closed at `closeIdleAfterMs` (as a server's
 * keep-alive timeout does), and a request that arrives after `crossIdleAfterMs` idle is met with
 * the close instead of an answer (`crossed`): the request and the server's close crossed on the
 * wire, which is what a client of a server that closes at its timeout meets, made certain.
 */
export interface ScriptPiece {
  bytes: Buffer;
  delayMs: number;
}

export interface Script {
  pieces: ScriptPiece[];
  then: 'keep' | 'end' | 'reset';
}

export interface RawBackendOptions {
  keepAliveHint?: string;
  closeIdleAfterMs?: number;
  crossIdleAfterMs?: number;
}

export interface RawBackend {
  readonly url: string;
  /** Connections accepted since start. */
  readonly connections: number;
  /** Requests met with a close, as the connection had been idle past `crossIdleAfterMs`. */
  readonly crossed: number;
  /** Request lines received (`GET /x HTTP/1.1`), in order, crossed ones included. */
  readonly requests: string[];
  script(id: string, script: Script): void;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function okBody(target: string): string {
  return JSON.stringify({ ok: true, url: target });
}

export async function startRawBackend(options: RawBackendOptions = {}): Promise<RawBackend> {
  let connections = 0;
  let crossed = 0;
  const requests: string[] = [];
  const scripts = new Map<string, Script>();
  const sockets = new Set<Socket>();

  const serve = (socket: Socket) => {
    connections++;
    sockets.add(socket);
    socket.on('error', () => {});
    socket.once('close', () => sockets.delete(socket));
    let buffered = Buffer.alloc(0);
    let busy = false;
    let answered = 0;
    let idleSince = performance.now();
    let idleTimer: NodeJS.Timeout | undefined;
    const idle = () => {
      idleSince = performance.now();
      if (options.closeIdleAfterMs !== undefined) idleTimer = setTimeout(() => socket.destroy(), options.closeIdleAfterMs);
    };
    const next = async (): Promise<void> => {
      if (busy) return;
      const end = buffered.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = buffered.subarray(0, end).toString('latin1');
      buffered = buffered.subarray(end + 4);
      busy = true;
      clearTimeout(idleTimer);
      const line = head.split('\r\n')[0] ?? '';
      requests.push(line);
      if (options.crossIdleAfterMs !== undefined && answered > 0 && performance.now() - idleSince >= options.crossIdleAfterMs) {
        crossed++;
        return void socket.destroy();
      }
      const target = line.split(' ')[1] ?? '/';
      const id = new URL(target, 'http://backend').searchParams.get('h');
      const script = id === null ? undefined : scripts.get(id);
      if (script) {
        for (const piece of script.pieces) {
          if (piece.delayMs > 0) await sleep(piece.delayMs);
          if (socket.destroyed) return;
          socket.write(piece.bytes);
        }
        if (script.then === 'end') return void socket.end();
        if (script.then === 'reset') return void (await sleep(1), socket.resetAndDestroy());
      } else {
        const body = okBody(target);
        const hint = options.keepAliveHint === undefined ? '' : `Keep-Alive: ${options.keepAliveHint}\r\n`;
        socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${hint}\r\n${line.startsWith('HEAD ') ? '' : body}`);
      }
      busy = false;
      answered++;
      idle();
      return next();
    };
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      void next();
    });
  };

  const server: Server = createServer(serve);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get connections() {
      return connections;
    },
    get crossed() {
      return crossed;
    },
    requests,
    script(id, script) {
      scripts.set(id, script);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
