/**
 * A pass-through HTTP proxy in front of a server that keeps every exchange (method, target,
 * status, headers, body), so a test can check what a client (the property suite) received
 * without any hook in the client.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ObservedAnswer } from './openapi-validator.ts';

export interface RecordingProxy {
  url: string;
  exchanges: ObservedAnswer[];
  close(): Promise<void>;
}

const headerMap = (headers: IncomingHttpHeaders) => new Map(Object.entries(headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]));

export async function startRecordingProxy(targetUrl: string): Promise<RecordingProxy> {
  const target = new URL(targetUrl);
  const exchanges: ObservedAnswer[] = [];
  const server = createServer((req, res) => {
    const upstream = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        const body = Buffer.concat(chunks);
        exchanges.push({ method: req.method ?? 'GET', target: req.url ?? '/', status: answer.statusCode ?? 0, headers: headerMap(answer.headers), body: body.toString('utf8') });
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        res.end(body);
      });
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exchanges,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
