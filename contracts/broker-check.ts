import { describeAnswer, isObject, NoAnswerError } from '../lib/http.ts';
import { exchange } from '../client/exchange.ts';

/**
 * Before Pact fetches a broker's pacts: the broker answers its index with the credentials given, as
 * a Pact Broker does (HAL JSON whose links are the broker's `pb:` relations). Pact itself would say
 * "Failed to load pact" with a page of detail, or count it as a failed interaction; here it is one
 * sentence naming the broker and why, and `verify` exits 2. The pacts themselves are Pact's to fetch.
 */

/** The broker cannot be used: unreachable, refusing the credentials, or not a Pact Broker. */
export class BrokerUnusableError extends Error {}

export interface BrokerAccess {
  url: string;
  token?: string;
  username?: string;
  password?: string;
}

/** The headers Pact sends the broker for these credentials (a token wins, as in Pact). */
export function brokerHeaders(b: BrokerAccess): Record<string, string> {
  if (b.token) return { authorization: `Bearer ${b.token}` };
  if (b.username !== undefined || b.password !== undefined) return { authorization: `Basic ${Buffer.from(`${b.username ?? ''}:${b.password ?? ''}`).toString('base64')}` };
  return {};
}

/** The index of a Pact Broker links its own relations, such as `pb:latest-provider-pacts`. */
function isBrokerIndex(json: unknown): boolean {
  return isObject(json) && isObject(json._links) && Object.keys(json._links).some((rel) => rel.startsWith('pb:'));
}

export async function checkBroker(b: BrokerAccess, timeoutMs: number): Promise<void> {
  const index = `${b.url.replace(/\/+$/, '')}/`;
  let answer;
  try {
    answer = await exchange(index, { timeoutMs, maxBodyBytes: 1024 * 1024 }, undefined, { accept: 'application/hal+json', ...brokerHeaders(b) });
  } catch (error) {
    if (error instanceof NoAnswerError) throw new BrokerUnusableError(`cannot reach the Pact Broker at ${b.url}: ${error.message}`);
    throw error;
  }
  if (answer.status === 401 || answer.status === 403) {
    const given = b.token ? 'the token (--broker-token, PACT_BROKER_TOKEN)' : b.username !== undefined || b.password !== undefined ? 'the user name and password (--broker-username/--broker-password, PACT_BROKER_USERNAME/PACT_BROKER_PASSWORD)' : 'no credentials: it wants --broker-username/--broker-password or --broker-token';
    throw new BrokerUnusableError(`the Pact Broker at ${b.url} refused ${given} (GET ${index} answered ${answer.status})`);
  }
  if (!(answer.status >= 200 && answer.status < 300) || !isBrokerIndex(answer.json)) {
    throw new BrokerUnusableError(`${b.url} does not answer as a Pact Broker: GET ${index} got ${describeAnswer(answer)}, not the broker's index (is --broker-url right?)`);
  }
}
