import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { MatchersV3, PactV4, SpecificationVersion } from '@pact-foundation/pact';
import { StorefrontClient } from './client.ts';
import { interactionsOf, type ContractInteraction } from './interactions.ts';
import { CONSUMER, PACT_DIR, PROVIDERS, SDK_CONSUMER, type ProviderName } from './names.ts';
import type { SdkInteraction } from './sdk-interactions.ts';
import { sdkInteractionsOf } from './sdk-interactions.ts';
import { JSON_HEADERS } from './templates.ts';

export { PACT_DIR } from './names.ts';

/** The file Pact writes for a consumer/provider pair. */
export function pactFileName(provider: ProviderName, consumer: string = CONSUMER): string {
  return `${consumer}-${provider}.json`;
}

export function pactFilePath(provider: ProviderName, dir = PACT_DIR, consumer: string = CONSUMER): string {
  return join(dir, pactFileName(provider, consumer));
}

/**
 * Runs the consumer side of every interaction of `providers` against Pact's mock
 * server, through the storefront client, and writes the pact files into `dir`.
 * Rejects on the first interaction whose request or check fails. `dir` should be
 * empty: Pact merges into a pact file that already exists.
 */
export async function writePacts(dir: string, providers: readonly ProviderName[] = PROVIDERS): Promise<void> {
  for (const provider of providers) {
    const pact = new PactV4({ consumer: CONSUMER, provider, dir, spec: SpecificationVersion.SPECIFICATION_VERSION_V4, logLevel: 'error' });
    for (const interaction of interactionsOf(provider)) await runInteraction(pact, interaction);
  }
}

/** One interaction: declare it, then let the client make the call against Pact's mock. */
export async function runInteraction(pact: PactV4, interaction: ContractInteraction): Promise<void> {
  await declare(pact, interaction, (url) => interaction.exercise(new StorefrontClient(url)));
}

/** Makes the SDK call of an interaction against `baseUrl` (Pact's mock) and resolves to the answer's body. */
export type SdkCaller = (baseUrl: string, interaction: SdkInteraction) => Promise<unknown>;

/**
 * The SDK storefront's pacts (consumer `alphabite-sdk-storefront`), written into `dir` like
 * writePacts. `caller` makes each call: the real @alphabite/medusa-sdk in the test suite (which
 * proves the pacts hold the SDK's own requests), the same request by `fetch` by default.
 */
export async function writeSdkPacts(dir: string, providers: readonly ProviderName[] = PROVIDERS, caller: SdkCaller = fetchSdkCall): Promise<void> {
  for (const provider of providers) {
    const pact = new PactV4({ consumer: SDK_CONSUMER, provider, dir, spec: SpecificationVersion.SPECIFICATION_VERSION_V4, logLevel: 'error' });
    for (const interaction of sdkInteractionsOf(provider)) {
      // What the storefront reads must be what the contract promises (the examples, matchers resolved).
      await declare(pact, interaction, async (url) => assert.deepStrictEqual(await caller(url, interaction), MatchersV3.reify(interaction.response.body)));
    }
  }
}

/** The request an SDK interaction describes, sent by `fetch` with the example header values. */
export const fetchSdkCall: SdkCaller = async (baseUrl, interaction) => {
  const { path, query, headers } = interaction.request;
  const search = query ? `?${new URLSearchParams(query).toString()}` : '';
  const response = await fetch(`${baseUrl}${path}${search}`, { headers: { accept: 'application/json', ...(MatchersV3.reify(headers) as Record<string, string>) } });
  const text = await response.text();
  if (!response.ok) throw new Error(`${interaction.description}: HTTP ${response.status} ${text.slice(0, 200)}`);
  return JSON.parse(text) as unknown;
};

interface Declared {
  description: string;
  state?: { name: string; params: Record<string, string | number> };
  request: { path: string; query?: Record<string, string>; headers?: Record<string, unknown> };
  response: { status: number; body: Record<string, unknown> };
}

/** Declares an interaction on `pact` and runs `exercise` against Pact's mock server. */
async function declare(pact: PactV4, interaction: Declared, exercise: (mockUrl: string) => Promise<void>): Promise<void> {
  let builder = pact.addInteraction();
  if (interaction.state) builder = builder.given(interaction.state.name, interaction.state.params);
  const { request, response } = interaction;
  await builder
    .uponReceiving(interaction.description)
    .withRequest('GET', request.path, (b) => {
      if (request.query) b.query(request.query);
      if (request.headers) b.headers(request.headers as Parameters<typeof b.headers>[0]);
    })
    .willRespondWith(response.status, (b) => {
      b.headers(JSON_HEADERS as unknown as Parameters<typeof b.headers>[0]).jsonBody(response.body);
    })
    .executeTest(async (mock) => {
      try {
        await exercise(mock.url);
      } catch (error) {
        // A connection that failed before the request reached Pact (a kept-alive socket closed
        // under it, or a busy machine's mock not yet accepting): send it once more. Pact would
        // otherwise report the request as never received, and hide this error.
        if (!isStaleSocket(error)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
        await exercise(mock.url);
      }
      await untilRecorded(pact, mock.port);
    });
}

/** How long to wait for Pact's mock server to record a request it has already answered. */
const RECORDING_WAIT_MS = 2_000;

/**
 * Waits until Pact's mock server counts the interaction as matched, for at most RECORDING_WAIT_MS.
 * Its server sends the answer before it records the match, so on a busy machine the client can
 * read the whole answer while the match is not yet recorded; Pact then reports the request as
 * "expected but not received". Returns at once when the match is there (the usual case); a real
 * mismatch waits the bound out and is then reported by Pact as before.
 */
async function untilRecorded(pact: PactV4, port: number): Promise<void> {
  const core = consumerPactOf(pact);
  for (const deadline = Date.now() + RECORDING_WAIT_MS; !core.mockServerMatchedSuccessfully(port) && Date.now() < deadline; ) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

interface ConsumerPactCore {
  mockServerMatchedSuccessfully(port: number): boolean;
}

/** The pact-core handle PactV4 keeps (`pact`, not in its types); fails loudly if a Pact upgrade moved it. */
function consumerPactOf(pact: PactV4): ConsumerPactCore {
  const core = (pact as unknown as { pact?: Partial<ConsumerPactCore> }).pact;
  if (typeof core?.mockServerMatchedSuccessfully !== 'function') {
    throw new Error('PactV4 no longer keeps its pact-core handle as `pact`: contracts/pacts.ts cannot wait for the mock server to record a match');
  }
  return core as ConsumerPactCore;
}

const STALE_SOCKET_CODES = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE', 'UND_ERR_CLOSED', 'ECONNREFUSED']);

/** Whether `error` (or one of its causes) is a connection closed under a request, before an answer. */
function isStaleSocket(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (STALE_SOCKET_CODES.has(String((e as { code?: unknown }).code))) return true;
  }
  return false;
}
