import { isObject } from '../lib/http.ts';

/**
 * Medusa's refusals of a request that lacks what the store routes need before anything else: a
 * publishable API key on every `/store` route, a customer's bearer token on the wishlist routes
 * (docs/dialects.md, rows 1, 19 and 20). A provider that answers every request so is not breaking
 * the contract: the verification cannot run until the user sends the key or the token.
 */

export type RefusalCause = 'publishable-key' | 'customer-token';

export interface AccessRefusal {
  cause: RefusalCause;
  /** What to send, in one sentence (without a leading "cannot run"). */
  sentence: string;
}

const KEY_HEADER = 'x-publishable-api-key';

/** The answer of a request the provider refused, as much of it as the classification reads. */
export interface RefusedAnswer {
  status: number;
  /** The parsed JSON body, if any. */
  json: unknown;
}

/**
 * Whether `answer` is Medusa refusing a request for its publishable key or its customer token, and
 * if so what to send; `headers` are the ones the request carried, which
 * tell a missing key or token from a bad one. Anything else (a validation error, a 404, a 500) is
 * undefined: that is the provider's answer to judge.
 */
export function classifyRefusal(answer: RefusedAnswer, headers: Readonly<Record<string, string>> = {}): AccessRefusal | undefined {
  const sent = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  const body = isObject(answer.json) ? answer.json : undefined;
  if (!body || typeof body.message !== 'string') return undefined;
  const message = body.message;
  // ensure-publishable-api-key: 400 not_allowed, for a missing key and for an unknown or revoked one.
  if (answer.status === 400 && body.type === 'not_allowed' && /publishable (api )?key/i.test(message)) {
    const given = Boolean(sent[KEY_HEADER]);
    return {
      cause: 'publishable-key',
      sentence: given
        ? `the provider refused every request: it does not accept the publishable key given with --header (${answer.status}: ${message}); pass a key of the store's sales channel, --header '${KEY_HEADER}: pk_...'`
        : `the provider refused every request for a missing publishable key (${answer.status}: ${message}); pass --header '${KEY_HEADER}: pk_...'`,
    };
  }
  // authenticate("customer", ["bearer"]) on 4.3: 401 {"message":"Unauthorized"}; the guest check of 4.4: 401 unauthorized.
  const unauthorized = answer.status === 401 && (message === 'Unauthorized' || (body.type === 'unauthorized' && /guest/i.test(message)));
  if (unauthorized) {
    const given = /^Bearer\s+\S/i.test(sent.authorization ?? '');
    return {
      cause: 'customer-token',
      sentence: given
        ? `the provider refused every wishlist request: it does not accept the bearer token given with --header (${answer.status}: ${message}); pass a valid customer's token, --header 'authorization: Bearer <token>'`
        : `the provider refused every wishlist request for a missing customer token (${answer.status}: ${message}); pass --header 'authorization: Bearer <token>' with a customer's token`,
    };
  }
  return undefined;
}
