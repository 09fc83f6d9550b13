/**
 * Customers as the tests name them to the mock: a bearer token shaped as Medusa's customer tokens (a
 * JWT naming `actor_id`, which lib/customers.ts reads unverified), and a customer a dataset names as a
 * wishlist's `customer_id`, who sees exactly the wishlists naming them (docs/writes.md, "Whose
 * wishlists"): their ids come from the dataset itself, not from the rule under test.
 */
import type { Dataset } from '../../fixtures/dataset.ts';

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A bearer token shaped as Medusa's customer tokens (HS256 JWT with `actor_id`); the signature is not checked by the mock. */
export const customerToken = (id: string) =>
  `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url({ actor_id: id, actor_type: 'customer', auth_identity_id: `authid_${id.slice(4)}`, iat: 1795000000, exp: 1795086400 })}.c2lnbmF0dXJl`;

export interface NamedCustomer {
  /** Their id: the `customer_id` the dataset names. */
  id: string;
  /** Their `Authorization` header value (`Bearer <JWT>`). */
  authorization: string;
  /** The dataset positions of the wishlists naming them, in id order. */
  wishlists: number[];
  /** Those wishlists' ids. */
  wishlistIds: string[];
}

/** The customer named by the first wishlist (in id order) that has a customer and passes `where`; throws when none does. */
export function namedCustomer(dataset: Dataset, where: (w: number) => boolean = () => true): NamedCustomer {
  const { source, count } = dataset.wishlists;
  for (let w = 0; w < count; w++) {
    const id = source.wishlist(w, false).customer_id;
    if (id === null || !where(w)) continue;
    const wishlists = Array.from({ length: count }, (_, v) => v).filter((v) => source.wishlist(v, false).customer_id === id);
    return { id, authorization: `Bearer ${customerToken(id)}`, wishlists, wishlistIds: wishlists.map((v) => source.wishlist(v, false).id) };
  }
  throw new Error('no wishlist of the dataset names a customer that fits');
}
