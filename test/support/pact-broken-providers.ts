import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { pactStateHandlers } from '../../mock-server/state/provider-states.ts';
import { startMockServer } from '../../mock-server/server.ts';

/**
 * Providers that differ from the contract in one deliberate way: a small Express app in
 * front of the kit's own mock server, which rewrites each JSON envelope on its way back.
 * All else (records, states, errors) is the mock's, so a failed verification can only
 * be the rewrite's doing.
 */

export type Envelope = Record<string, unknown>;

export interface BrokenProvider {
  url: string;
  stateHandlers: ReturnType<typeof pactStateHandlers>;
  close(): Promise<void>;
}

const isEnvelope = (body: unknown): body is Envelope => typeof body === 'object' && body !== null && 'totalPages' in body;

/** The ways to break the contract the drift guard must catch. */
export const BREAKAGES = {
  /** `totalPages` answered as `total_pages`. */
  renamedKey: (body: Envelope) => {
    const { totalPages, ...rest } = body;
    return { ...rest, total_pages: totalPages };
  },
  /** `count` answered as a string ("12" instead of 12). */
  countAsString: (body: Envelope) => ({ ...body, count: String(body.count) }),
  /** The reviews envelope without `prevPage` (it must be there, `null` when there is none). */
  missingPrevPage: (body: Envelope) => {
    const { prevPage: _dropped, ...rest } = body;
    return rest;
  },
  /** The reviews envelope echoing `limit` 20 whatever was asked (the contract asks for 5). */
  limitAlways20: (body: Envelope) => ('limit' in body ? { ...body, limit: 20 } : body),
  /** A listing's last record dropped (count and page numbers as they were): a bug a baseline must not hide. */
  dropsLastRecord: (body: Envelope) => {
    const key = Array.isArray(body.reviews) ? 'reviews' : 'data';
    const records = body[key];
    return Array.isArray(records) && records.length ? { ...body, [key]: records.slice(0, -1) } : body;
  },
  /** Record ids without their prefix (`01ABC...` for `rev_01ABC...`): every record of every page breaks the same rule. */
  idsWithoutPrefix: (body: Envelope) => {
    const key = Array.isArray(body.reviews) ? 'reviews' : 'data';
    const records = body[key];
    if (!Array.isArray(records)) return body;
    return { ...body, [key]: records.map((r: unknown) => (typeof r === 'object' && r !== null && typeof (r as Envelope).id === 'string' ? { ...(r as Envelope), id: ((r as Envelope).id as string).replace(/^[a-z]+_/, '') } : r)) };
  },
  /** The wishlist envelope without `skip` and `take`. */
  skipTakeNotEchoed: (body: Envelope) => {
    const { skip: _skip, take: _take, ...rest } = body;
    return rest;
  },
} satisfies Record<string, (body: Envelope) => Envelope>;

/** Several breakages at once, applied in order. */
export const together =
  (...rewrites: Array<(body: Envelope) => Envelope>) =>
  (body: Envelope): Envelope =>
    rewrites.reduce((b, rewrite) => rewrite(b), body);

/** Request headers not passed on to the mock (the proxy's own connection's). */
const HOP_BY_HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'accept-encoding']);

const passedOn = (headers: Record<string, string | string[] | undefined>) =>
  Object.fromEntries(Object.entries(headers).filter((e): e is [string, string] => typeof e[1] === 'string' && !HOP_BY_HOP.has(e[0])));

/** `dialect`: the mock's (default spec); the alphabite one wants a publishable key and a bearer token, passed on. */
export async function startBrokenProvider(rewrite: (body: Envelope) => Envelope, options: { dialect?: 'spec' | 'alphabite' } = {}): Promise<BrokenProvider> {
  const backing = await startMockServer({ seed: 1, ...(options.dialect ? { dialect: options.dialect } : {}) });
  const app = express();
  app.use(express.raw({ type: () => true, limit: '1mb' }));
  // Every request goes to the real mock; a JSON envelope comes back rewritten, anything else as it was.
  app.use(async (req, res) => {
    const upstream = await fetch(`${backing.url}${req.originalUrl}`, {
      method: req.method,
      headers: { ...(options.dialect === 'alphabite' ? passedOn(req.headers) : {}), 'content-type': req.get('content-type') ?? 'application/json' },
      ...(req.method === 'GET' || req.method === 'HEAD' ? {} : { body: new Uint8Array(req.body as Buffer) }),
    });
    const text = await upstream.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    res.status(upstream.status).type(upstream.headers.get('content-type') ?? 'application/json');
    res.send(isEnvelope(body) ? JSON.stringify(rewrite(body)) : text);
  });
  const server: Server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stateHandlers: pactStateHandlers(backing.dataset),
    close: async () => {
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeIdleConnections();
      });
      await backing.close();
    },
  };
}
