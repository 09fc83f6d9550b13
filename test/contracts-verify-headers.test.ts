import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROVIDER_STATES_PATH } from '../lib/provider-states.ts';
import { startMockServer, type MockServer } from '../mock-server/server.ts';
import { runCli, type CliRun } from './support/cli-process.ts';

// `verify --header`: the headers reach the provider with every replayed request, and a provider
// that refuses every request for its publishable key or customer token is "cannot run" (2), with
// one sentence saying what to send, not 32 StatusMismatch lines and a broken contract (1).


type Run = CliRun;
const verifyCli = (args: string[]) => runCli(['verify', ...args], 90_000);

/** A pass-through proxy that keeps the headers of every request it forwards. */
async function startHeaderRecorder(targetUrl: string): Promise<{ url: string; requests: Array<{ url: string; headers: IncomingHttpHeaders }>; close(): Promise<void> }> {
  const target = new URL(targetUrl);
  const requests: Array<{ url: string; headers: IncomingHttpHeaders }> = [];
  const server: Server = createServer((req, res) => {
    requests.push({ url: req.url ?? '/', headers: req.headers });
    const upstream = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

let spec: MockServer;
let alphabite: MockServer;
beforeAll(async () => {
  [spec, alphabite] = await Promise.all([startMockServer({ seed: 1 }), startMockServer({ seed: 1, dialect: 'alphabite' })]);
});
afterAll(async () => {
  await Promise.all([spec?.close(), alphabite?.close()]);
});

describe('verify --header', () => {
  it('sends each header with every replayed request (and the spec mock, which needs none, still passes)', async () => {
    const recorder = await startHeaderRecorder(spec.url);
    try {
      const run = await verifyCli([
        '--provider-base-url', recorder.url,
        '--provider-states-setup-url', `${spec.url}${PROVIDER_STATES_PATH}`,
        '--header', 'x-publishable-api-key: pk_from_cli',
        '--header', 'Authorization: Bearer token-from-cli',
      ]);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const store = recorder.requests.filter((r) => r.url.startsWith('/store/'));
      // The check before the replay, and Pact's replay of every interaction of both pacts.
      expect(store.length).toBeGreaterThan(30);
      for (const r of store) expect([r.url, r.headers['x-publishable-api-key'], r.headers.authorization]).toEqual([r.url, 'pk_from_cli', 'Bearer token-from-cli']);
    } finally {
      await recorder.close();
    }
  });

  it('refuses a header that is not name: value (2)', async () => {
    const run = await verifyCli(['--provider-base-url', spec.url, '--header', 'no colon here']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/a header is 'name: value', got 'no colon here'/);
  });
});

describe('a provider that refuses every request for its key or token: cannot run (2), one sentence', () => {
  it('no publishable key, with the default dialect: the dialect named first, then the key (not the key, and the dialect only on a second run)', async () => {
    const run = await verifyCli(['--provider-base-url', alphabite.url]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(
      /^error: cannot run: \S+ asks for a publishable key, as Medusa's store routes do and the listing spec's do not: if it runs the published @alphabite plugins, add --dialect alphabite; and the provider refused every request for a missing publishable key \(400: Publishable API key required.*\); pass --header 'x-publishable-api-key: pk_\.\.\.'\n$/,
    );
  });

  it('no publishable key, with --dialect alphabite: only the key to send', async () => {
    const run = await verifyCli(['--provider-base-url', alphabite.url, '--dialect', 'alphabite']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^error: cannot run: the provider refused every request for a missing publishable key \(400: Publishable API key required.*\); pass --header 'x-publishable-api-key: pk_\.\.\.'\n$/);
  });

  it('a key but no customer token, for the wishlists', async () => {
    const run = await verifyCli(['--provider-base-url', alphabite.url, '--dialect', 'alphabite', '--header', 'x-publishable-api-key: pk_test']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^error: cannot run: the provider refused every wishlist request for a missing customer token \(401: Unauthorized\); pass --header 'authorization: Bearer <token>' with a customer's token\n$/);
  });

  it('with the key and the token, the spec\'s pacts cannot run against the plugins\' dialect (2): it says so, and which dialect the provider speaks', async () => {
    const run = await verifyCli(['--provider-base-url', alphabite.url, '--provider', 'wishlist', '--header', 'x-publishable-api-key: pk_test', '--header', 'authorization: Bearer t']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    // Row 3 of docs/dialects.md: skip/take are unrecognised fields; limit/offset answer the plugins' envelope.
    expect(run.stderr).toBe(
      `error: ${alphabite.url} answers in the alphabite dialect, not spec: GET ${alphabite.url}/store/wishlists?take=1 answered 400 (Invalid request: Unrecognized fields: 'take') and GET ${alphabite.url}/store/wishlists?limit=1 answered the plugins' envelope {data,take,skip,count,nextPage,currentPage,prevPage,totalPages} (add --dialect alphabite, or point at a server that speaks the spec)\n`,
    );
  });
});
