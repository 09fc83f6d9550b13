/**
 * HTTP over a bare TCP socket, so that odd bytes reach the server exactly as written
 * (fetch and node:http would normalise or refuse them first).
 */
import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Map<string, string>;
  body: string;
  /** Everything received, for messages. */
  raw: string;
}

export interface RawRequest {
  method: string;
  /** The request target, as a latin1 string (each char one byte). */
  target: string;
  headers?: [string, string][];
  body?: string;
}

/** Serialises a request: `Host` and `Connection: close` unless given; latin1 bytes. */
export function requestBytes(request: RawRequest, hostHeader = 'localhost'): Buffer {
  const headers = request.headers ?? [];
  const names = new Set(headers.map(([name]) => name.toLowerCase()));
  const lines = [`${request.method} ${request.target} HTTP/1.1`];
  if (!names.has('host') && hostHeader) lines.push(`Host: ${hostHeader}`);
  if (!names.has('connection')) lines.push('Connection: close');
  for (const [name, value] of headers) lines.push(`${name}: ${value}`);
  if (request.body !== undefined) lines.push(`Content-Length: ${Buffer.byteLength(request.body, 'latin1')}`);
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n${request.body ?? ''}`, 'latin1');
}

/** Sends bytes, reads until the server closes (or the answer is complete), fails after `timeoutMs`. */
export function sendRaw(port: number, bytes: Buffer, timeoutMs = 5000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let done = false;
    const finish = (error?: Error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const raw = Buffer.concat(chunks).toString('latin1');
      if (error && !raw) return reject(error);
      const parsed = parseResponse(raw);
      if (!parsed) return reject(new Error(`no complete HTTP answer (${error?.message ?? 'closed'}): ${JSON.stringify(raw.slice(0, 300))}`));
      resolve(parsed);
    };
    const timer = setTimeout(() => finish(new Error(`no answer within ${timeoutMs} ms (a hang)`)), timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      const parsed = parseResponse(Buffer.concat(chunks).toString('latin1'));
      if (parsed && parsed.complete) finish();
    });
    socket.on('end', () => finish());
    socket.on('close', () => finish());
    socket.on('error', (error) => finish(error));
    socket.write(bytes);
  });
}

function parseResponse(raw: string): (RawResponse & { complete: boolean }) | undefined {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine, ...headerLines] = raw.slice(0, end).split('\r\n');
  const match = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '');
  if (!match) return undefined;
  const headers = new Map<string, string>();
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const bodyBytes = Buffer.from(raw.slice(end + 4), 'latin1');
  const length = headers.get('content-length');
  const complete = length !== undefined && bodyBytes.length >= Number(length);
  const body = (length !== undefined ? bodyBytes.subarray(0, Number(length)) : bodyBytes).toString('utf8');
  return { status: Number(match[1]), headers, body, raw: raw.slice(0, 2000), complete };
}
