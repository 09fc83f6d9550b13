import { readdirSync, statSync } from 'node:fs';
import { readRegularText } from '../files/input-file.ts';
import { join } from 'node:path';
import { CONSUMER } from './names.ts';
import { CONSUMER_NAME_PATTERN, type ProviderName } from '../lib/pact-file.ts';

/**
 * A folder of pact files, read without Pact (its native core stays out of `verify`'s option
 * checks): which pacts it holds, of which consumers, and the one sentence for a pact it lacks.
 */

/** The verification cannot run: bad options, no pact, or a provider that does not answer (exit 2). */
export class VerifyConfigError extends Error {}

/** A pact file of the folder, by the names in it. */
export interface PactInDir {
  file: string;
  provider?: string;
  consumer?: string;
}

/** Every pact file in `dir` (`*.json`, sorted), with its provider and consumer; files that are not JSON left out. */
export function pactsIn(dir: string): PactInDir[] {
  let names: string[];
  try {
    if (!statSync(dir).isDirectory()) throw new VerifyConfigError(`--pact-dir ${dir} is not a directory`);
    names = readdirSync(dir).filter((n) => n.endsWith('.json')).sort();
  } catch (error) {
    if (error instanceof VerifyConfigError) throw error;
    throw new VerifyConfigError(`cannot read the pact directory ${dir}: ${(error as Error).message}`);
  }
  return names.flatMap((name) => {
    const file = join(dir, name);
    try {
      const pact = JSON.parse(readRegularText(file)) as { provider?: { name?: unknown }; consumer?: { name?: unknown } };
      const named = (value: unknown) => (typeof value === 'string' ? value : undefined);
      return [{ file, provider: named(pact?.provider?.name), consumer: named(pact?.consumer?.name) }];
    } catch {
      return [];
    }
  });
}

/** The pact files in `dir` whose consumer is `consumer` (default: the spec's storefront) and whose provider is `provider`. */
export function pactFilesFor(dir: string, provider: ProviderName, consumer: string = CONSUMER): string[] {
  return pactsIn(dir)
    .filter((p) => p.provider === provider && p.consumer === consumer)
    .map((p) => p.file);
}

/** The consumers with a pact in `dir` (with `provider`, when given), sorted, each once. */
export function consumersIn(dir: string, provider?: ProviderName): string[] {
  const names = pactsIn(dir)
    .filter((p) => p.consumer !== undefined && (provider === undefined || p.provider === provider))
    .map((p) => p.consumer!);
  return [...new Set(names)].sort();
}

/**
 * A consumer name read from a pact file, to print: as it is when it is a name `serve --pact-consumer`
 * takes, else as a JSON string of at most 100 characters (a newline or an escape code in a file's
 * name stays on its line).
 */
export const consumerShown = (name: string): string => (CONSUMER_NAME_PATTERN.test(name) ? name : JSON.stringify(name.length > 100 ? `${name.slice(0, 100)}...` : name));

/** The most consumers a sentence lists. */
const MAX_LISTED = 10;

const quoted = (names: readonly string[]) => {
  const each = names.slice(0, MAX_LISTED).map((n) => `'${consumerShown(n)}'`);
  if (names.length > MAX_LISTED) return `${each.join(', ')} and ${names.length - MAX_LISTED} more`;
  return each.length > 1 ? `${each.slice(0, -1).join(', ')} and ${each.at(-1)}` : each.join('');
};

/**
 * "no pact of 'nobody' in ./pacts: the consumers with pacts there are 'my-shop' and 'storefront'":
 * a pact `dir` lacks (`what`: "of 'nobody'", "between 'nobody' and 'wishlist'"), and those it has
 * (with `provider`, when given).
 */
export function noPactSentence(dir: string, what: string, provider?: ProviderName): string {
  const withProvider = provider ? ` with '${provider}'` : '';
  const listed = (present: readonly string[], how: string) => `the ${present.length === 1 ? 'consumer' : 'consumers'} with pacts${how} there ${present.length === 1 ? 'is' : 'are'} ${quoted(present)}`;
  const present = consumersIn(dir, provider);
  if (present.length) return `no pact ${what} in ${dir}: ${listed(present, withProvider)}`;
  const others = provider ? consumersIn(dir) : [];
  return `no pact ${what} in ${dir}: there is no pact${withProvider} there${others.length ? `; ${listed(others, '')}` : ''}`;
}
