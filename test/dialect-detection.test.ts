/**
 * Which dialect a server speaks is told by the paging it honours and its envelope's keys, never by
 * its page numbers, which are what `check` and `verify` judge (issue 35; lib/dialects/detect.ts).
 * A spec server that clamps `nextPage`/`prevPage` as the published plugins do (the very bug the kit
 * exists to catch) was told "answers in the alphabite dialect ... add --dialect alphabite", exit 2.
 *
 * - Every deliberately broken spec provider of the kit (test/support/reference-server.ts, the
 *   check's; test/support/pact-broken-providers.ts, the pacts') is judged by the spec's rules at
 *   `check`'s probe and `verify`'s preflight, never named the other dialect; the pacts' ones fail
 *   `verify` (exit 1), and the reference ones fail `check` in test/properties.test.ts.
 * - The plugins' dialect (the alphabite mock, a small server in it, each of its broken ones, one
 *   lenient about `skip`/`take`) is named under the spec's rules (exit 2), and the spec's (the mock,
 *   one lenient about `limit`/`offset`) under `--dialect alphabite`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preflight, ProviderDialectError, verifyProviders, type VerifyOptions } from '../contracts/verify.ts';
import { detectOtherDialect, type ListingAnswer } from '../lib/dialects/detect.ts';
import { PROVIDER_STATES_PATH } from '../lib/provider-states.ts';
import type { CheckOptions } from '../properties/options.ts';
import { CannotRunError, runListingProperties } from '../properties/runner.ts';
import { startMockServer, type MockServer } from '../mock-server/server.ts';
import { ALPHABITE_BUGS, startAlphabiteReferenceServer, type AlphabiteBugName } from './support/alphabite-reference-server.ts';
import { runCli } from './support/cli-process.ts';
import { BREAKAGES, REQUEST_BREAKAGES, startBrokenProvider, type Envelope, type RequestBreakage } from './support/pact-broken-providers.ts';
import { BUGS, startReferenceServer, type BugName } from './support/reference-server.ts';

const HEADERS = { 'x-publishable-api-key': 'pk_test', authorization: 'Bearer token' };

/** `check`'s verdict before any property: 'judged', or the sentence it cannot run with. */
async function checkProbe(options: CheckOptions): Promise<string> {
  return runListingProperties({ seed: 1, runs: 1, ...options }).then(
    () => 'judged',
    (error: unknown) => {
      if (error instanceof CannotRunError) return error.message;
      throw error;
    },
  );
}

/** `verify`'s preflight of the listings: 'judged', or the sentence naming the dialect. */
async function verifyPreflight(options: VerifyOptions): Promise<string> {
  return preflight(options).then(
    () => 'judged',
    (error: unknown) => {
      if (error instanceof ProviderDialectError) return error.message;
      throw error;
    },
  );
}

const SPEAKS_ALPHABITE = /^\S+ answers in the alphabite dialect, not spec: .* \(add --dialect alphabite, or point at a server that speaks the spec\)$/;
const SPEAKS_SPEC = /^\S+ answers in the spec dialect, not alphabite: .* \(drop --dialect alphabite, or point at a backend with the published plugins\)$/;

describe("the kit's broken spec providers are judged by the spec's rules, never named the other dialect", () => {
  for (const [name, bug] of Object.entries(BUGS) as Array<[BugName, (typeof BUGS)[BugName]]>) {
    it(`reference server, ${name}: check's probe and verify's preflight`, async () => {
      const server = await startReferenceServer({ bug: name });
      try {
        expect(await checkProbe({ baseUrl: server.url, strict: bug.strict, properties: [bug.caughtBy[0]] })).toBe('judged');
        expect(await verifyPreflight({ providerBaseUrl: server.url })).toBe('judged');
      } finally {
        await server.close();
      }
    });
  }

  const pactBroken: Array<[string, { rewrite?: (body: Envelope) => Envelope; request?: RequestBreakage }]> = [
    ...Object.entries(BREAKAGES).map(([name, rewrite]): [string, { rewrite: (body: Envelope) => Envelope }] => [name, { rewrite }]),
    ...Object.entries(REQUEST_BREAKAGES).map(([name, request]): [string, { request: RequestBreakage }] => [name, { request }]),
  ];
  for (const [name, { rewrite, request }] of pactBroken) {
    it(`pact-broken provider, ${name}: check's probe judges it, verify fails it (exit 1)`, async () => {
      const provider = await startBrokenProvider(rewrite ?? ((b) => b), request ? { request } : {});
      try {
        expect(await checkProbe({ baseUrl: provider.url, properties: ['envelope-shape'] })).toBe('judged');
        const results = await verifyProviders({ providerBaseUrl: provider.url, providerStatesSetupUrl: `${provider.url}${PROVIDER_STATES_PATH}`, logLevel: 'error' });
        expect(results.every((r) => r.ok)).toBe(false);
      } finally {
        await provider.close();
      }
    }, 120_000);
  }
});

describe("the issue's case: a spec server whose nextPage/prevPage are the plugins' clamped ones", () => {
  it('check and verify exit 1, naming the page numbers, not 2 naming a dialect', async () => {
    const [provider, reference] = await Promise.all([startBrokenProvider(BREAKAGES.clampedNextPrev), startReferenceServer({ bug: 'plugins-page-numbers' })]);
    try {
      const [checked, verified, checkedReference] = await Promise.all([
        runCli(['check', '--base-url', provider.url, '--seed', '1', '--runs', '5']),
        runCli(['verify', '--provider-base-url', provider.url]),
        runCli(['check', '--base-url', reference.url, '--seed', '1', '--runs', '5', '--properties', 'next-and-prev-page']),
      ]);
      for (const run of [checked, verified, checkedReference]) {
        expect([run.code, run.stderr]).toEqual([1, '']);
        expect(run.stdout).not.toMatch(/dialect alphabite|answers in the/);
      }
      expect(checked.stdout).toMatch(/^FAIL +next-and-prev-page/m);
      expect(checkedReference.stdout).toMatch(/^FAIL +next-and-prev-page/m);
      expect(verified.stdout).toMatch(/\$\.(nextPage|prevPage)/);
    } finally {
      await Promise.all([provider.close(), reference.close()]);
    }
  }, 180_000);
});

describe('a server of the other dialect is named (exit 2), both ways', () => {
  let spec: MockServer;
  let alphabite: MockServer;
  beforeAll(async () => {
    [spec, alphabite] = await Promise.all([startMockServer({ seed: 1 }), startMockServer({ seed: 1, dialect: 'alphabite' })]);
  });
  afterAll(() => Promise.all([spec?.close(), alphabite?.close()]));

  it("the alphabite mock under the spec's rules, every listing; the spec mock under --dialect alphabite", async () => {
    for (const endpoints of [['reviews'], ['wishlists'], ['wishlistItems']] as const) {
      expect(await checkProbe({ baseUrl: alphabite.url, headers: HEADERS, endpoints: [...endpoints] })).toMatch(SPEAKS_ALPHABITE);
      expect(await checkProbe({ baseUrl: spec.url, dialect: 'alphabite', endpoints: [...endpoints] })).toMatch(SPEAKS_SPEC);
    }
    for (const provider of ['product-reviews', 'wishlist'] as const) {
      expect(await verifyPreflight({ providerBaseUrl: alphabite.url, headers: HEADERS, providers: [provider] })).toMatch(SPEAKS_ALPHABITE);
      expect(await verifyPreflight({ providerBaseUrl: spec.url, dialect: 'alphabite', providers: [provider] })).toMatch(SPEAKS_SPEC);
    }
  });

  for (const name of [undefined, ...Object.keys(ALPHABITE_BUGS)] as Array<AlphabiteBugName | undefined>) {
    it(`a small server in the plugins' dialect${name ? `, broken: ${name}` : ''}: named under the spec's rules, judged under its own`, async () => {
      const server = await startAlphabiteReferenceServer(name ? { bug: name } : {});
      try {
        expect(await checkProbe({ baseUrl: server.url, headers: HEADERS })).toMatch(SPEAKS_ALPHABITE);
        expect(await checkProbe({ baseUrl: server.url, headers: HEADERS, endpoints: ['wishlists'] })).toMatch(SPEAKS_ALPHABITE);
        expect(await verifyPreflight({ providerBaseUrl: server.url, headers: HEADERS })).toMatch(SPEAKS_ALPHABITE);
        expect(await checkProbe({ baseUrl: server.url, headers: HEADERS, dialect: 'alphabite' })).toBe('judged');
        expect(await verifyPreflight({ providerBaseUrl: server.url, headers: HEADERS, dialect: 'alphabite' })).toBe('judged');
      } finally {
        await server.close();
      }
    });
  }

  it('a server lenient about the other paging is told by the paging it honours: its page size ignored, the other one honoured', async () => {
    // The plugins' dialect that ignores skip/take instead of refusing them; the spec's that ignores limit/offset.
    const lenientPlugins = await startBrokenProvider((b) => b, { dialect: 'alphabite', request: { query: (_path, params) => ['skip', 'take'].forEach((k) => params.delete(k)) } });
    const lenientSpec = await startReferenceServer({ bug: 'lenient-query' });
    try {
      const plugins = lenientPlugins.url;
      // Only a customer with several wishlists shows a page size ignored (one asked, several answered); each customer sees
      // their own, one each here, but under a provider state every wishlist of the state is the asker's.
      const state = await fetch(`${plugins}${PROVIDER_STATES_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ state: 'wishlists exist', params: { count: 5 } }) });
      expect(state.status, await state.text()).toBe(200);
      expect(await checkProbe({ baseUrl: plugins, headers: HEADERS, endpoints: ['wishlists'] })).toMatch(
        new RegExp(`^${plugins} answers in the alphabite dialect, not spec: GET ${plugins}/store/wishlists\\?take=1 answered \\d+ records where 1 was asked for and GET ${plugins}/store/wishlists\\?limit=1 answered 1: it pages with the plugins' limit, not take \\(add --dialect alphabite, or point at a server that speaks the spec\\)$`),
      );
      expect(await verifyPreflight({ providerBaseUrl: plugins, headers: HEADERS, providers: ['wishlist'] })).toMatch(SPEAKS_ALPHABITE);
      expect(await checkProbe({ baseUrl: lenientSpec.url, dialect: 'alphabite', endpoints: ['wishlists'] })).toMatch(
        /answered \d+ records where 1 was asked for and GET \S+\/store\/wishlists\?take=1 answered 1: it pages with the spec's take, not limit \(drop --dialect alphabite/,
      );
      expect(await verifyPreflight({ providerBaseUrl: lenientSpec.url, dialect: 'alphabite', providers: ['wishlist'] })).toMatch(SPEAKS_SPEC);
      // Each under its own rules: judged.
      expect(await checkProbe({ baseUrl: plugins, headers: HEADERS, dialect: 'alphabite', endpoints: ['wishlists'] })).toBe('judged');
      expect(await checkProbe({ baseUrl: lenientSpec.url, endpoints: ['wishlists'] })).toBe('judged');
    } finally {
      await Promise.all([lenientPlugins.close(), lenientSpec.close()]);
    }
  });
});

describe('detectOtherDialect reads keys and record counts, never page numbers', () => {
  const answer = (json: unknown, status = 200): ListingAnswer => ({ url: 'http://x/store/wishlists?take=100', status, json });
  const detect = async (first: ListingAnswer, asked: 'spec' | 'alphabite' = 'spec', endpoint: 'reviews' | 'wishlists' = 'wishlists') => {
    const asks: string[] = [];
    const found = await detectOtherDialect({ base: 'http://x', asked, endpoint, first, size: 100, askAgain: async (query) => (asks.push(new URLSearchParams(query).toString()), answer({ data: [1], skip: 0, take: 1 })) });
    return { found: found?.sentence, asks };
  };

  it('any page numbers, the plugins\' clamped ones, absent ones, nonsense: no mismatch, nothing more asked for a page of at most one record', async () => {
    for (const numbers of [{ nextPage: 1, prevPage: 1, totalPages: 1, currentPage: 1, count: 0 }, {}, { nextPage: 'x', prevPage: null, totalPages: -3 }]) {
      expect(await detect(answer({ data: [], skip: 0, take: 100, ...numbers }))).toEqual({ found: undefined, asks: [] });
      expect(await detect(answer({ reviews: [{}], limit: 100, offset: 0, ...numbers }), 'spec', 'reviews')).toEqual({ found: undefined, asks: [] });
    }
  });

  it('a page far larger than any default page (a server that ignores every page size) asks for no more such pages', async () => {
    const huge = answer({ data: Array.from({ length: 1001 }, (_, i) => i), skip: 0, take: 100 });
    expect(await detect(huge)).toEqual({ found: undefined, asks: [] });
  });
});
