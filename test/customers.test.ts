/** lib/customers.ts: who is asking, by bearer token (a JWT's actor_id, or the token) or session cookie. */
import { describe, expect, it } from 'vitest';
import { bearerToken, customerOf, jwtActorId, sessionCookie } from '../lib/customers.ts';

const jwt = (payload: unknown) => `eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.c2lnbmF0dXJl`;

describe('customerOf', () => {
  it("a Medusa token is the customer it names (the JWT's actor_id), whatever its signature", () => {
    expect(customerOf({ authorization: `Bearer ${jwt({ actor_id: 'cus_01JABC', actor_type: 'customer' })}` })).toEqual({ id: 'cus_01JABC', via: 'bearer' });
    expect(jwtActorId(jwt({ actor_id: 'cus_ü' }))).toBeUndefined();
    expect(jwtActorId(jwt({ actor_id: 7 }))).toBeUndefined();
    expect(jwtActorId('a.%%%.c')).toBeUndefined();
  });

  it('any other token is a customer of its own: the same token the same customer, two tokens two', () => {
    const a = customerOf({ authorization: 'Bearer suite-a' });
    expect(a).toEqual({ id: expect.stringMatching(/^cus_mock_[0-9a-f]{16}$/), via: 'bearer' });
    expect(customerOf({ authorization: 'bearer suite-a' })).toEqual(a);
    expect(customerOf({ authorization: 'Bearer suite-b' })!.id).not.toBe(a!.id);
  });

  it('a session cookie when there is no bearer token; nobody without either', () => {
    const s = customerOf({ cookie: 'theme=dark; connect.sid=s%3Aabc.def' });
    expect(s).toEqual({ id: expect.stringMatching(/^cus_mock_/), via: 'session' });
    expect(customerOf({ authorization: 'Bearer x', cookie: 'connect.sid=s%3Aabc.def' })!.via).toBe('bearer');
    expect(customerOf({ authorization: 'Bearer s%3Aabc.def' })!.id).not.toBe(s!.id);
    expect(customerOf({})).toBeUndefined();
    expect(customerOf({ authorization: 'Basic abc', cookie: 'other=1' })).toBeUndefined();
  });

  it('reads the header forms Node gives', () => {
    expect(bearerToken(['Bearer t1', 'Bearer t2'])).toBe('t1');
    expect(bearerToken('Bearer two words')).toBeUndefined();
    expect(sessionCookie('connect.sid=; x=1')).toBeUndefined();
  });
});
