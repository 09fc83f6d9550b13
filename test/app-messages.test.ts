/**
 * Requests and responses are made on the Express app's own prototypes (front/app-messages.ts),
 * so that Express moves none of them onto another prototype (issue 27, "the uncached page is back":
 * moving every fresh request and response made V8's young collection keep about 10 KB of each
 * request alive past its end; the random uncached page at a million reviews spent a fifth of its
 * CPU in the collector, docs/benchmarks.md). These checks count prototype moves, not time.
 */
import { IncomingMessage, ServerResponse, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../mock-server/index.ts';
import { appMessages } from '../mock-server/front/app-messages.ts';

/** Runs `during` while counting the calls of Object.setPrototypeOf that change an object's prototype. */
async function countMoves(during: () => Promise<void>): Promise<{ moved: number; kept: number }> {
  const original = Object.setPrototypeOf;
  const counts = { moved: 0, kept: 0 };
  Object.setPrototypeOf = function (target: object, proto: object | null) {
    if (target instanceof IncomingMessage || target instanceof ServerResponse) {
      if (Object.getPrototypeOf(target) === proto) counts.kept++;
      else counts.moved++;
    }
    return original(target, proto);
  } as typeof Object.setPrototypeOf;
  try {
    await during();
  } finally {
    Object.setPrototypeOf = original;
  }
  return counts;
}

/** The prototypes of the request and response objects the server made, as its 'request' event sees them. */
function prototypesSeen(server: Server): { request: object | null; response: object | null }[] {
  const seen: { request: object | null; response: object | null }[] = [];
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => seen.push({ request: Object.getPrototypeOf(req), response: Object.getPrototypeOf(res) }));
  return seen;
}

describe('the objects of a request', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ seed: 5, reviews: 300, products: 4, wishlists: 3, fastPath: false });
  });
  afterAll(async () => {
    await mock.close();
  });

  it('are made on the app’s prototypes, and are still Node’s requests and responses', async () => {
    const seen = prototypesSeen(mock.server);
    const res = await fetch(`${mock.url}/store/products/reviews?limit=3&offset=7`);
    expect(res.status).toBe(200);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.request).toBe(mock.app.request);
    expect(seen[0]!.response).toBe(mock.app.response);
    const body = (await res.json()) as { reviews: unknown[]; count: number };
    expect(body.reviews).toHaveLength(3);
    expect(body.count).toBe(300);
  });

  it('are moved onto no other prototype by Express: listings, refusals, unknown routes, admin reads, preflights and writes', async () => {
    const counts = await countMoves(async () => {
      for (const [path, init] of [
        ['/store/products/reviews?limit=5&offset=290&order=-rating', {}],
        ['/store/wishlists?take=2&skip=1', {}],
        ['/store/products/reviews?limit=-1', {}],
        ['/no/such/route', {}],
        ['/__admin/journal?limit=2', {}],
        ['/store/products/reviews', { method: 'OPTIONS', headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'GET' } }],
        ['/__admin/reset', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }],
      ] as const) {
        const res = await fetch(`${mock.url}${path}`, init as RequestInit);
        await res.arrayBuffer();
        expect(res.status, path).toBeLessThan(500);
      }
    });
    // Express still asks (twice a request); each time the object is on that prototype already.
    expect(counts.kept).toBeGreaterThanOrEqual(14);
    expect(counts.moved).toBe(0);
  });
});

describe('appMessages', () => {
  it('puts its prototypes in front of the app’s, so Express’s methods stay within reach, once per app', () => {
    const request = Object.create(IncomingMessage.prototype, { get: { value: () => 'express get' } }) as object;
    const response = Object.create(ServerResponse.prototype, { send: { value: () => 'express send' } }) as object;
    const app = { request, response };
    const made = appMessages(app);
    expect(Object.getPrototypeOf(app.request)).toBe(request);
    expect(Object.getPrototypeOf(app.response)).toBe(response);
    expect(appMessages(app)).toBe(made);
    expect(Object.getPrototypeOf(app.request)).toBe(request);
    const Req = made.IncomingMessage as unknown as new (socket: unknown) => IncomingMessage & { get(): string };
    const req = new Req(null);
    expect(Object.getPrototypeOf(req)).toBe(app.request);
    expect(req).toBeInstanceOf(IncomingMessage);
    expect(req.get()).toBe('express get');
    expect(req.headers).toEqual({});
    const Res = made.ServerResponse as unknown as new (req: IncomingMessage) => ServerResponse & { send(): string };
    const res = new Res(req);
    expect(Object.getPrototypeOf(res)).toBe(app.response);
    expect(res).toBeInstanceOf(ServerResponse);
    expect(res.send()).toBe('express send');
    expect(res.statusCode).toBe(200);
  });
});
