import { describe, expect, it } from 'vitest';
import { classifyRefusal } from '../contracts/refusals.ts';
import { alphabiteDialect } from '../lib/dialects/index.ts';

// Which answers mean "the provider refuses every request until you send a key or a token"
// (verify exits 2 with one sentence), and which are the provider's answers to judge (exit 1).

const KEY_MISSING = { type: 'not_allowed', message: 'Publishable API key required in the request header: x-publishable-api-key. You can manage your keys in settings in the dashboard.' };
const KEY_INVALID = { type: 'not_allowed', message: 'A valid publishable key is required to proceed with the request' };

describe('classifyRefusal', () => {
  it('a missing publishable key: says to send one', () => {
    const r = classifyRefusal({ status: 400, json: KEY_MISSING });
    expect(r?.cause).toBe('publishable-key');
    expect(r?.sentence).toMatch(/for a missing publishable key .*; pass --header 'x-publishable-api-key: pk_\.\.\.'$/);
  });

  it('a key that was sent and refused (unknown or revoked): says the given key is not accepted', () => {
    const r = classifyRefusal({ status: 400, json: KEY_INVALID }, { 'X-Publishable-Api-Key': 'pk_wrong' });
    expect(r?.cause).toBe('publishable-key');
    expect(r?.sentence).toMatch(/does not accept the publishable key given with --header .*A valid publishable key is required/);
  });

  it("a missing or bad customer token on 4.3 (Medusa's bare 401) and the guest refusal of 4.4", () => {
    const bare = classifyRefusal({ status: 401, json: { message: 'Unauthorized' } });
    expect(bare?.cause).toBe('customer-token');
    expect(bare?.sentence).toMatch(/for a missing customer token .*pass --header 'authorization: Bearer <token>'/);
    const bad = classifyRefusal({ status: 401, json: { message: 'Unauthorized' } }, { authorization: 'Bearer expired' });
    expect(bad?.sentence).toMatch(/does not accept the bearer token given with --header/);
    expect(classifyRefusal({ status: 401, json: { type: 'unauthorized', message: 'Guest wishlists are now allowed' } })?.cause).toBe('customer-token');
  });

  it("the alphabite dialect's own refusals are recognised (the mock says what Medusa says)", () => {
    const dialect = alphabiteDialect();
    const noKey = dialect.guard({ endpoint: 'reviews', query: [], headers: {} })!;
    expect(classifyRefusal({ status: noKey.status, json: noKey.body })?.cause).toBe('publishable-key');
    const noToken = dialect.guard({ endpoint: 'wishlists', query: [], headers: { 'x-publishable-api-key': 'pk_1' } })!;
    expect(classifyRefusal({ status: noToken.status, json: noToken.body })?.cause).toBe('customer-token');
  });

  it('anything else is the provider answering: a validation error, a 404, a 500, another 401 or 400', () => {
    for (const answer of [
      { status: 400, json: { type: 'invalid_data', message: "Invalid request: Unrecognized fields: 'take'" } },
      { status: 400, json: { type: 'not_allowed', message: 'Something else is not allowed' } },
      { status: 404, json: { type: 'not_found', message: 'Wishlist with id: wl_1 was not found' } },
      { status: 500, json: { type: 'unknown_error', message: 'An unknown error occurred.' } },
      { status: 401, json: { type: 'unauthorized', message: 'Invalid signature' } },
      { status: 403, json: { message: 'Unauthorized' } },
      { status: 200, json: { data: [], count: 0 } },
      { status: 400, json: undefined },
      { status: 401, json: 'Unauthorized' },
    ]) {
      expect(classifyRefusal(answer), JSON.stringify(answer)).toBeUndefined();
    }
  });
});
