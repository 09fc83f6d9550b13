import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AlphabiteMedusaSdk, reviewsPlugin, wishlistPlugin } from '@alphabite/medusa-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROVIDERS, SDK_CONSUMER } from '../contracts/names.ts';
import { PACT_DIR, pactFilePath, writeSdkPacts, type SdkCaller } from '../contracts/pacts.ts';
import { SDK_EXAMPLE_BEARER, SDK_EXAMPLE_PUBLISHABLE_KEY, sdkInteractionsOf, type SdkInteraction } from '../contracts/sdk-interactions.ts';
import { PROVIDER_STATES_PATH } from '../lib/provider-states.ts';
import { startMockServer, type MockServer } from '../mock-server/server.ts';
import { runCli, type CliRun } from './support/cli-process.ts';

// The pacts of a storefront built on @alphabite/medusa-sdk (consumer alphabite-sdk-storefront):
// generated through the real SDK against Pact's mock (so they hold the SDK's own requests), equal
// to the committed ones (the drift guard), and replayed by `verify --dialect alphabite` against the
// mock speaking the plugins' dialect, where exactly the interactions the plugins break fail.


/** Each interaction's call made by the published SDK, as a storefront makes it (the token only where the wishlists need it). */
const throughTheSdk: SdkCaller = async (baseUrl, interaction) => {
  const sdk = new AlphabiteMedusaSdk(
    { baseUrl, publishableKey: SDK_EXAMPLE_PUBLISHABLE_KEY, auth: { type: 'jwt', jwtTokenStorageMethod: 'nostore' } },
    [reviewsPlugin, wishlistPlugin] as const,
    interaction.provider === 'wishlist' ? { getAuthHeader: () => ({ authorization: SDK_EXAMPLE_BEARER }) } : undefined,
  );
  const input = interaction.call.input as never;
  switch (interaction.call.method) {
    case 'reviews.list':
      return sdk.alphabite.reviews.list(input);
    case 'reviews.listProductReviews':
      return sdk.alphabite.reviews.listProductReviews(input);
    case 'wishlist.list':
      return sdk.alphabite.wishlist.list(input);
    case 'wishlist.listItems':
      return sdk.alphabite.wishlist.listItems(input);
  }
};

function readPactForComparison(file: string): unknown {
  const pact = JSON.parse(readFileSync(file, 'utf8')) as { metadata?: Record<string, unknown> };
  return { ...pact, metadata: { pactSpecification: pact.metadata?.pactSpecification } };
}

type Run = CliRun;
const verifyCli = (args: string[]) => runCli(['verify', ...args], 90_000);

const summaryOf = (run: Run) => run.stdout.slice(run.stdout.indexOf('store-listing-kit verify: summary'));
/** The interactions the summary lists as failing (each mismatch line names its interaction). */
const failingIn = (summary: string) => new Set([...summary.matchAll(/^ {4}- Given .+? - (.+)$/gm)].map((m) => m[1]!));

const HEADERS = ['--header', 'x-publishable-api-key: pk_from_cli', '--header', 'authorization: Bearer token-from-cli'];

let scratch: string;
let alphabite: MockServer;
beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'slk-sdk-pacts-'));
  [alphabite] = await Promise.all([startMockServer({ seed: 1, dialect: 'alphabite' }), writeSdkPacts(scratch, PROVIDERS, throughTheSdk)]);
}, 60_000);
afterAll(async () => {
  rmSync(scratch, { recursive: true, force: true });
  await alphabite?.close();
});

describe('the SDK storefront pacts', () => {
  for (const provider of PROVIDERS) {
    it(`the committed pact with ${provider} is what the SDK sends and reads (else: npm run pacts:update, and commit contracts/pacts)`, () => {
      const fresh = readPactForComparison(pactFilePath(provider, scratch, SDK_CONSUMER));
      expect(fresh, `contracts/pacts/ is stale for ${SDK_CONSUMER}-${provider}: run \`npm run pacts:update\` and commit ${PACT_DIR}`).toEqual(readPactForComparison(pactFilePath(provider, PACT_DIR, SDK_CONSUMER)));
    });
  }

  it("speak the plugins' dialect: limit/offset only, the publishable key everywhere, a bearer token on the wishlists", () => {
    for (const provider of PROVIDERS) {
      const pact = JSON.parse(readFileSync(pactFilePath(provider, PACT_DIR, SDK_CONSUMER), 'utf8')) as {
        consumer: { name: string };
        interactions: Array<{ description: string; request: { query?: Record<string, string[]>; headers?: Record<string, string[]> }; response: { body: { content: Record<string, unknown> } } }>;
      };
      expect(pact.consumer.name).toBe('alphabite-sdk-storefront');
      for (const i of pact.interactions) {
        expect(Object.keys(i.request.query ?? {}).every((k) => ['limit', 'offset', 'include_aggregated_counts'].includes(k)), i.description).toBe(true);
        expect(Object.keys(i.request.headers ?? {}).sort(), i.description).toEqual(provider === 'wishlist' ? ['authorization', 'x-publishable-api-key'] : ['x-publishable-api-key']);
        // The plugins' envelope: records under `data`, the page size and start echoed as take/skip.
        expect(Object.keys(i.response.body.content), i.description).toEqual(expect.arrayContaining(['data', 'count', 'take', 'skip', 'currentPage', 'totalPages']));
      }
    }
  });

  it('name in each description what the storefront needs, and which ones the published plugins break', () => {
    const all: SdkInteraction[] = PROVIDERS.flatMap((p) => sdkInteractionsOf(p));
    expect(new Set(all.map((i) => i.description)).size).toBe(all.length);
    const broken = all.filter((i) => i.brokenBy);
    expect(broken.map((i) => i.call.method)).toEqual(['reviews.list', 'reviews.list', 'reviews.list']);
    for (const i of broken) expect(i.description).toContain('the published plugins break this: 4.1 answers every review and count 0');
  });
});

describe('verify --dialect alphabite', () => {
  it("against the plugins' dialect: passes every interaction the plugins honour, fails exactly those they break, each named (1)", async () => {
    const run = await verifyCli(['--dialect', 'alphabite', '--provider-base-url', alphabite.url, ...HEADERS]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    const summary = summaryOf(run);
    expect(summary).toMatch(/FAIL product-reviews: 3 of \d+ interactions failed/);
    expect(summary).toContain('PASS wishlist');
    const expected = PROVIDERS.flatMap((p) => sdkInteractionsOf(p)).filter((i) => i.brokenBy).map((i) => i.description);
    expect(failingIn(summary)).toEqual(new Set(expected));
    expect(summary).toMatch(/reviews\.list\(\{ limit: 5, offset: 5 \}\).*\n\s+BodyMismatch \$\.count: expected 12, got 0/);
  }, 120_000);

  it("replaces the pact's example key and token with the --header values", async () => {
    const requests: Array<{ url: string; headers: IncomingHttpHeaders }> = [];
    const target = new URL(alphabite.url);
    const proxy: Server = createServer((req, res) => {
      requests.push({ url: req.url ?? '/', headers: req.headers });
      const upstream = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      const run = await verifyCli(['--dialect', 'alphabite', '--provider', 'wishlist', '--provider-base-url', url, '--provider-states-setup-url', `${alphabite.url}${PROVIDER_STATES_PATH}`, ...HEADERS]);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const store = requests.filter((r) => r.url.startsWith('/store/'));
      expect(store.length).toBeGreaterThan(10);
      for (const r of store) expect([r.url, r.headers['x-publishable-api-key'], r.headers.authorization]).toEqual([r.url, 'pk_from_cli', 'Bearer token-from-cli']);
    } finally {
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
  }, 120_000);

  it('without the key: cannot run (2), one sentence saying what to send', async () => {
    const run = await verifyCli(['--dialect', 'alphabite', '--provider-base-url', alphabite.url]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^error: cannot run: the provider refused every request for a missing publishable key .*; pass --header 'x-publishable-api-key: pk_\.\.\.'\n$/);
  });

  it('without --dialect it would replay the spec\'s pacts: against the plugins\' dialect it cannot run (2), and says to add --dialect alphabite', async () => {
    const run = await verifyCli(['--provider-base-url', alphabite.url, '--provider', 'product-reviews', ...HEADERS]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^error: \S+ answers in the alphabite dialect, not spec: .*\(add --dialect alphabite, or point at a server that speaks the spec\)\n$/);
  }, 120_000);
});
