import { join } from 'node:path';
import { PactV4, SpecificationVersion } from '@pact-foundation/pact';
import { StorefrontClient } from './client.ts';
import { interactionsOf, type ContractInteraction } from './interactions.ts';
import { CONSUMER, PACT_DIR, PROVIDERS, type ProviderName } from './names.ts';
import { JSON_HEADERS } from './templates.ts';

export { PACT_DIR } from './names.ts';

/** The file Pact writes for a consumer/provider pair. */
export function pactFileName(provider: ProviderName): string {
  return `${CONSUMER}-${provider}.json`;
}

export function pactFilePath(provider: ProviderName, dir = PACT_DIR): string {
  return join(dir, pactFileName(provider));
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
  let builder = pact.addInteraction();
  if (interaction.state) builder = builder.given(interaction.state.name, interaction.state.params);
  const { request, response } = interaction;
  await builder
    .uponReceiving(interaction.description)
    .withRequest('GET', request.path, (b) => {
      if (request.query) b.query(request.query);
    })
    .willRespondWith(response.status, (b) => {
      b.headers(JSON_HEADERS).jsonBody(response.body);
    })
    .executeTest(async (mock) => interaction.exercise(new StorefrontClient(mock.url)));
}
