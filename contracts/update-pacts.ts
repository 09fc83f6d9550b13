import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONSUMER, PROVIDERS, SDK_CONSUMER } from './names.ts';
import { PACT_DIR, pactFileName, writePacts, writeSdkPacts } from './pacts.ts';

/**
 * `npm run pacts:update`: regenerates the committed pact files from contracts/interactions.ts
 * (the spec storefront) and contracts/sdk-interactions.ts (the storefront on @alphabite/medusa-sdk).
 * The pacts are written to a fresh directory first (Pact merges into existing files), then
 * replace the committed ones; commit the result.
 */
process.env.PACT_DO_NOT_TRACK ??= 'true';

const scratch = mkdtempSync(join(tmpdir(), 'store-listing-kit-pacts-'));
try {
  await writePacts(scratch);
  await writeSdkPacts(scratch);
  mkdirSync(PACT_DIR, { recursive: true });
  for (const name of readdirSync(PACT_DIR)) if (name.endsWith('.json')) rmSync(join(PACT_DIR, name));
  const names = [CONSUMER, SDK_CONSUMER].flatMap((consumer) => PROVIDERS.map((provider) => pactFileName(provider, consumer)));
  for (const name of names) copyFileSync(join(scratch, name), join(PACT_DIR, name));
  process.stdout.write(`wrote ${names.map((name) => join(PACT_DIR, name)).join(', ')}\n`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
