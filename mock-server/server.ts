import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { DEFAULT_MAX_PAGE_SIZE } from '../lib/api-rules.ts';
import { generateDataset, loadFixturesFile, type Dataset, type GenerateOptions } from '../fixtures/index.ts';
import { createApp } from './app.ts';
import { DatasetHolder } from './dataset-holder.ts';

export interface MockServerOptions extends GenerateOptions {
  /** Port to listen on; 0 (the default here) picks a free one. The CLI defaults to 9000. */
  port?: number;
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
  /** Serve this fixtures file instead of generating data (seed and sizes are then not used). */
  fixtures?: string;
  /** Serve this dataset instead of generating one. */
  dataset?: Dataset;
  /** The largest `limit` / `take` accepted (default 1000). */
  maxPageSize?: number;
  /** Origins allowed by CORS; default any. */
  corsOrigin?: string | string[];
}

export interface MockServer {
  /** Base URL, e.g. http://127.0.0.1:9000 (no trailing slash). */
  readonly url: string;
  readonly port: number;
  readonly host: string;
  /** The data being served; `replace` / `reset` change it for every client. */
  readonly dataset: DatasetHolder;
  readonly app: Express;
  readonly server: Server;
  /** Stops listening, ends idle keep-alive connections, resolves when closed. */
  close(): Promise<void>;
}

/** The dataset the options ask for: a given one, a fixtures file, or generated from the seed. */
export async function resolveDataset(options: MockServerOptions): Promise<Dataset> {
  if (options.dataset) return options.dataset;
  if (options.fixtures) return loadFixturesFile(options.fixtures);
  return generateDataset(options);
}

/** Starts the mock server in-process: `const mock = await startMockServer({ seed: 7 }); ...; await mock.close()`. */
export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const holder = new DatasetHolder(await resolveDataset(options));
  const app = createApp(holder, {
    maxPageSize: options.maxPageSize ?? DEFAULT_MAX_PAGE_SIZE,
    ...(options.corsOrigin !== undefined ? { corsOrigin: options.corsOrigin } : {}),
  });
  const server = createServer(app);
  const host = options.host ?? '127.0.0.1';
  await listen(server, options.port ?? 0, host);
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    host,
    dataset: holder,
    app,
    server,
    close: () => closeServer(server),
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') reject(new Error(`Port ${port} on ${host} is already in use: stop what uses it, or choose another with --port (0 picks a free one)`));
      else if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') reject(new Error(`Cannot listen on host ${host}: ${error.code}`));
      else if (error.code === 'EACCES') reject(new Error(`Not allowed to listen on port ${port} of ${host} (EACCES)`));
      else reject(error);
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeIdleConnections();
  });
}
