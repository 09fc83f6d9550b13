import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROVIDERS } from './interactions.ts';
import { PACT_DIR, pactFileName, writePacts } from './pacts.ts';

/**
 * `npm run pacts:update`: regenerates the committed pact files from contracts/interactions.ts.
 * The pacts are written to a fresh directory first (Pact merges into existing files), then
 * replace the committed ones; commit the result.
 */
process.env.PACT_DO_NOT_TRACK ??= 'true';

const scratch = mkdtempSync(join(tmpdir(), 'store-listing-kit-pacts-'));
try {
  await writePacts(scratch);
  mkdirSync(PACT_DIR, { recursive: true });
  for (const name of readdirSync(PACT_DIR)) if (name.endsWith('.json')) rmSync(join(PACT_DIR, name));
  for (const provider of PROVIDERS) copyFileSync(join(scratch, pactFileName(provider)), join(PACT_DIR, pactFileName(provider)));
  process.stdout.write(`wrote ${PROVIDERS.map((p) => join(PACT_DIR, pactFileName(p))).join(', ')}\n`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
