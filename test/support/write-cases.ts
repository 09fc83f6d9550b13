import { createHmac } from 'node:crypto';

/**
 * The write routes of @alphabite/medusa-wishlist 0.7.4 and @alphabite/medusa-reviews 0.7.2 (and the
 * reads around them), as a table of requests run in a fixed sequence from a defined starting state, and a
 * normaliser that replaces generated ids and times by stable placeholders, so that two backends' answers
 * can be compared byte for byte (modulo ids and times). notes/alphabite-writes.md explains each answer.
 *
 * The starting state (`WriteWorld`): two customers, alice and bob, who have no wishlists and no reviews; a
 * sales channel; three variants; a product with no approved reviews; the wishlist plugin's share token
 * secret. The sequence creates what it needs (saving generated ids and share tokens under names that later
 * paths and bodies use as `{name}`), and removes the wishlists and reviews it wrote, so the backend is as
 * before. test/medusa/write-answers.medusa.test.ts records the
 * real backend's answers into test/medusa/write-answers.json.
 */

export type Actor = 'alice' | 'bob' | 'guest' | 'bogus';
export type KeyUse = 'valid' | 'missing' | 'wrong';
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface WriteCase {
  /** Unique, says what the request is. */
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path with `{placeholders}`: world values (`sc`, `v0`..`v2`, `product`) or ids saved by earlier cases. */
  path: string;
  /** Whose bearer token goes in `Authorization` (guest: none; bogus: `Bearer not-a-jwt`). */
  actor: Actor;
  /** The publishable key sent (default: the valid one). */
  key?: KeyUse;
  /** A JSON body (placeholders resolved in strings), sent as application/json. */
  body?: Json;
  /** A body sent as is, with this content type (non-JSON, malformed, huge). */
  raw?: { contentType: string; text: string };
  /** A body `{ share_token }` with a token the runner signs (HS256 unless said; see `SignedToken`). */
  signedToken?: SignedToken;
  /** Save the answer's `id` under this name. */
  save?: string;
  /** Save the answer's `share_token` under this name. */
  saveToken?: string;
  /** Save the ids of the answer's `items` (after `anyItemOrder`'s sort) as `{name0}`, `{name1}`, ... */
  saveItems?: string;
  /**
   * The answer's `items` (or a page's `data`) come in no fixed order (the import creates a copy's items
   * concurrently, notes/alphabite-writes.md 1.10): sort them by variant before normalising.
   */
  anyItemOrder?: boolean;
}

/** A share token as the wishlist plugin signs them (`{wishlist_id, iat, exp}`), or one it should refuse. */
export interface SignedToken {
  /** The saved id (or world value) whose `wishlist_id` it carries; none: no `wishlist_id` claim. */
  wishlist?: string;
  /** Signed with the world's `shareTokenSecret` (default) or with another secret. */
  secret?: 'world' | 'other';
  alg?: 'HS256' | 'HS512';
  /** Its `exp` an hour ago (default: 7 days ahead, as the plugin's). */
  expired?: boolean;
}

/** What the sequence needs from the backend under test. */
export interface WriteWorld {
  baseUrl: string;
  publishableKey: string;
  salesChannelId: string;
  /** Three variants of the catalog (the answers show their titles and products). */
  variantIds: [string, string, string];
  /** A product with no approved reviews. */
  productId: string;
  /** The wishlist plugin's `shareTokenSecret` option: the cases sign tokens with it (an expired one, say). */
  shareTokenSecret: string;
  customers: Record<'alice' | 'bob', { id: string; token: string; first_name: string; last_name: string }>;
}

export interface WriteAnswer {
  name: string;
  request: string;
  status: number;
  /** json: a JSON body; empty: no body (the plugins' `res.status(500).end()`); html / text: anything else. */
  kind: 'json' | 'empty' | 'html' | 'text';
  body: Json;
}

const json = (value: Json) => JSON.stringify(value);
/** Over express's 100 kB JSON limit (every write route but POST /store/reviews, which takes 10 MB). */
const OVER_100_KB = 'x'.repeat(150_000);
const UNDER_10_MB = 'y'.repeat(200_000);

const W = '/store/wishlists';
const R = '/store/reviews';

export const WRITE_CASES: readonly WriteCase[] = [
  // ---- settings, key ----
  { name: 'settings', method: 'GET', path: `${W}/settings`, actor: 'guest' },
  { name: 'settings without a publishable key', method: 'GET', path: `${W}/settings`, actor: 'guest', key: 'missing' },
  { name: 'settings with an unknown publishable key', method: 'GET', path: `${W}/settings`, actor: 'guest', key: 'wrong' },
  { name: 'alice lists her wishlists: none yet', method: 'GET', path: W, actor: 'alice' },
  { name: 'a guest lists wishlists', method: 'GET', path: W, actor: 'guest' },
  { name: 'a bogus token lists wishlists', method: 'GET', path: W, actor: 'bogus' },

  // ---- create ----
  { name: 'a guest creates a wishlist', method: 'POST', path: W, actor: 'guest', body: { name: 'Guest list', sales_channel_id: '{sc}' } },
  { name: 'a bogus token creates a wishlist', method: 'POST', path: W, actor: 'bogus', body: { name: 'Bogus list', sales_channel_id: '{sc}' } },
  { name: 'a guest creates a wishlist with a bad body', method: 'POST', path: W, actor: 'guest', body: { name: 1 } },
  { name: 'create without sales_channel_id', method: 'POST', path: W, actor: 'alice', body: { name: 'No channel' } },
  { name: 'create with a number for name', method: 'POST', path: W, actor: 'alice', body: { name: 5, sales_channel_id: '{sc}' } },
  { name: 'create with null for name', method: 'POST', path: W, actor: 'alice', body: { name: null, sales_channel_id: '{sc}' } },
  { name: 'create with unknown fields', method: 'POST', path: W, actor: 'alice', body: { name: 'x', sales_channel_id: '{sc}', customer_id: 'cus_someone', foo: 1 } },
  { name: 'create with an empty object', method: 'POST', path: W, actor: 'alice', body: {} },
  { name: 'create with a JSON array', method: 'POST', path: W, actor: 'alice', raw: { contentType: 'application/json', text: '[1,2]' } },
  { name: 'create with text/plain', method: 'POST', path: W, actor: 'alice', raw: { contentType: 'text/plain', text: json({ name: 'x', sales_channel_id: 'sc_x' }) } },
  { name: 'create with malformed JSON', method: 'POST', path: W, actor: 'alice', raw: { contentType: 'application/json', text: '{"name":' } },
  { name: 'create with a 150 kB body', method: 'POST', path: W, actor: 'alice', body: { name: OVER_100_KB, sales_channel_id: '{sc}' } },
  { name: 'create without a publishable key', method: 'POST', path: W, actor: 'alice', key: 'missing', body: { name: 'x', sales_channel_id: '{sc}' } },
  { name: 'alice creates "Favourites"', method: 'POST', path: W, actor: 'alice', body: { name: 'Favourites', sales_channel_id: '{sc}' }, save: 'wl' },
  { name: 'alice creates a wishlist without a name', method: 'POST', path: W, actor: 'alice', body: { sales_channel_id: '{sc}' }, save: 'wl2' },
  { name: 'bob creates "Bob\'s"', method: 'POST', path: W, actor: 'bob', body: { name: "Bob's", sales_channel_id: '{sc}' }, save: 'bwl' },
  { name: 'alice lists her two wishlists', method: 'GET', path: W, actor: 'alice' },

  // ---- add-item ----
  { name: 'a guest adds an item', method: 'POST', path: `${W}/{wl}/add-item`, actor: 'guest', body: { product_variant_id: '{v0}' } },
  { name: 'add-item without product_variant_id', method: 'POST', path: `${W}/{wl}/add-item`, actor: 'alice', body: {} },
  { name: 'add-item with a number', method: 'POST', path: `${W}/{wl}/add-item`, actor: 'alice', body: { product_variant_id: 7 } },
  { name: 'add-item with an unknown query parameter', method: 'POST', path: `${W}/{wl}/add-item?foo=1`, actor: 'alice', body: { product_variant_id: '{v0}' } },
  { name: 'alice adds the first variant', method: 'POST', path: `${W}/{wl}/add-item`, actor: 'alice', body: { product_variant_id: '{v0}' }, save: 'item0' },
  { name: 'alice adds the second variant', method: 'POST', path: `${W}/{wl}/add-item`, actor: 'alice', body: { product_variant_id: '{v1}' }, save: 'item1' },
  { name: 'alice adds the third variant', method: 'POST', path: `${W}/{wl}/add-item`, actor: 'alice', body: { product_variant_id: '{v2}' }, save: 'item2' },
  { name: 'alice adds the first variant again', method: 'POST', path: `${W}/{wl}/add-item`, actor: 'alice', body: { product_variant_id: '{v0}' } },
  { name: 'alice adds an unknown variant', method: 'POST', path: `${W}/{wl}/add-item`, actor: 'alice', body: { product_variant_id: 'variant_unknown' } },
  { name: 'bob adds to alice\'s wishlist', method: 'POST', path: `${W}/{wl}/add-item`, actor: 'bob', body: { product_variant_id: '{v0}' } },
  { name: 'alice adds to an unknown wishlist', method: 'POST', path: `${W}/wl_unknown/add-item`, actor: 'alice', body: { product_variant_id: '{v0}' } },

  // ---- reads of one wishlist ----
  { name: 'alice lists the three items', method: 'GET', path: `${W}/{wl}/items`, actor: 'alice' },
  { name: 'a guest lists the items', method: 'GET', path: `${W}/{wl}/items`, actor: 'guest' },
  { name: 'bob lists alice\'s items', method: 'GET', path: `${W}/{wl}/items`, actor: 'bob' },
  { name: 'bob lists the items of alice\'s empty wishlist', method: 'GET', path: `${W}/{wl2}/items`, actor: 'bob' },
  { name: 'alice lists the items of an unknown wishlist', method: 'GET', path: `${W}/wl_unknown/items`, actor: 'alice' },
  { name: 'alice retrieves her wishlist', method: 'GET', path: `${W}/{wl}`, actor: 'alice' },
  { name: 'a guest retrieves it', method: 'GET', path: `${W}/{wl}`, actor: 'guest' },
  { name: 'bob retrieves it', method: 'GET', path: `${W}/{wl}`, actor: 'bob' },
  { name: 'alice retrieves an unknown wishlist', method: 'GET', path: `${W}/wl_unknown`, actor: 'alice' },
  { name: 'alice counts her items', method: 'GET', path: `${W}/total-items-count`, actor: 'alice' },
  { name: 'alice counts the items of her wishlist', method: 'GET', path: `${W}/total-items-count?wishlist_id={wl}`, actor: 'alice' },
  { name: 'bob counts the items of alice\'s wishlist', method: 'GET', path: `${W}/total-items-count?wishlist_id={wl}`, actor: 'bob' },
  { name: 'bob counts his items', method: 'GET', path: `${W}/total-items-count`, actor: 'bob' },
  { name: 'a guest counts items', method: 'GET', path: `${W}/total-items-count`, actor: 'guest' },
  { name: 'a guest counts the items of alice\'s wishlist', method: 'GET', path: `${W}/total-items-count?wishlist_id={wl}`, actor: 'guest' },
  { name: 'total-items-count with an unknown query parameter', method: 'GET', path: `${W}/total-items-count?foo=1`, actor: 'alice' },

  // ---- update ----
  { name: 'alice renames her wishlist', method: 'PUT', path: `${W}/{wl}`, actor: 'alice', body: { name: 'Birthday' } },
  { name: 'a guest renames it', method: 'PUT', path: `${W}/{wl}`, actor: 'guest', body: { name: 'x' } },
  { name: 'a bogus token renames it', method: 'PUT', path: `${W}/{wl}`, actor: 'bogus', body: { name: 'x' } },
  { name: 'rename with sales_channel_id', method: 'PUT', path: `${W}/{wl}`, actor: 'alice', body: { sales_channel_id: '{sc}' } },
  { name: 'rename to null', method: 'PUT', path: `${W}/{wl}`, actor: 'alice', body: { name: null } },
  { name: 'rename an unknown wishlist', method: 'PUT', path: `${W}/wl_unknown`, actor: 'alice', body: { name: 'x' } },
  { name: 'bob renames alice\'s other wishlist (no ownership check)', method: 'PUT', path: `${W}/{wl2}`, actor: 'bob', body: { name: 'Renamed by bob' } },

  // ---- remove an item ----
  { name: 'a guest removes an item', method: 'DELETE', path: `${W}/{wl}/items/{item1}`, actor: 'guest' },
  { name: 'bob removes an item of alice\'s wishlist', method: 'DELETE', path: `${W}/{wl}/items/{item1}`, actor: 'bob' },
  { name: 'alice removes the second item', method: 'DELETE', path: `${W}/{wl}/items/{item1}`, actor: 'alice' },
  { name: 'alice removes it again', method: 'DELETE', path: `${W}/{wl}/items/{item1}`, actor: 'alice' },
  { name: 'alice removes an unknown item', method: 'DELETE', path: `${W}/{wl}/items/wli_unknown`, actor: 'alice' },
  { name: 'alice lists the two items left', method: 'GET', path: `${W}/{wl}/items`, actor: 'alice' },
  { name: 'bob adds an item to his wishlist', method: 'POST', path: `${W}/{bwl}/add-item`, actor: 'bob', body: { product_variant_id: '{v0}' }, save: 'bitem' },
  { name: 'alice removes bob\'s item through an unknown wishlist (deleted by item id alone)', method: 'DELETE', path: `${W}/wl_unknown/items/{bitem}`, actor: 'alice' },
  { name: 'bob\'s wishlist has lost its item', method: 'GET', path: `${W}/{bwl}/items`, actor: 'bob' },

  // ---- share, import (a copy per import, notes/alphabite-writes.md 1.9, 1.10) ----
  { name: 'a guest shares', method: 'POST', path: `${W}/{wl}/share`, actor: 'guest' },
  { name: 'alice shares her wishlist', method: 'POST', path: `${W}/{wl}/share`, actor: 'alice', saveToken: 'token' },
  { name: 'alice shares it with a body (ignored)', method: 'POST', path: `${W}/{wl}/share`, actor: 'alice', body: { foo: 1 } },
  { name: 'alice shares bob\'s wishlist (no ownership check)', method: 'POST', path: `${W}/{bwl}/share`, actor: 'alice', saveToken: 'bobsToken' },
  { name: 'alice shares an unknown wishlist (no existence check)', method: 'POST', path: `${W}/wl_unknown/share`, actor: 'alice', saveToken: 'unknownToken' },
  { name: 'a guest imports', method: 'POST', path: `${W}/import`, actor: 'guest', body: { share_token: 'anything' } },
  { name: 'a guest imports alice\'s token', method: 'POST', path: `${W}/import`, actor: 'guest', body: { share_token: '{token}' } },
  { name: 'import without share_token', method: 'POST', path: `${W}/import`, actor: 'bob', body: {} },
  { name: 'import with an empty share_token', method: 'POST', path: `${W}/import`, actor: 'bob', body: { share_token: '' } },
  { name: 'import with a number', method: 'POST', path: `${W}/import`, actor: 'bob', body: { share_token: 5 } },
  { name: 'import with an unknown field', method: 'POST', path: `${W}/import`, actor: 'bob', body: { share_token: '{token}', foo: 1 } },
  { name: 'import with a token that is no JWT', method: 'POST', path: `${W}/import`, actor: 'bob', body: { share_token: 'not-a-share-token' } },
  { name: 'import with a token signed with another secret', method: 'POST', path: `${W}/import`, actor: 'bob', signedToken: { wishlist: 'wl', secret: 'other' } },
  { name: 'import with an expired token', method: 'POST', path: `${W}/import`, actor: 'bob', signedToken: { wishlist: 'wl', expired: true } },
  { name: 'import with a token without wishlist_id', method: 'POST', path: `${W}/import`, actor: 'bob', signedToken: {} },
  { name: 'import with a token for an unknown wishlist', method: 'POST', path: `${W}/import`, actor: 'bob', body: { share_token: '{unknownToken}' } },
  { name: 'bob imports alice\'s wishlist: a copy of its two live items', method: 'POST', path: `${W}/import`, actor: 'bob', body: { share_token: '{token}' }, save: 'copy', saveItems: 'copyItem', anyItemOrder: true },
  { name: 'bob sees the copy last among his wishlists', method: 'GET', path: W, actor: 'bob' },
  { name: 'bob lists the copy\'s items', method: 'GET', path: `${W}/{copy}/items`, actor: 'bob', anyItemOrder: true },
  { name: 'bob retrieves the copy', method: 'GET', path: `${W}/{copy}`, actor: 'bob', anyItemOrder: true },
  { name: 'alice\'s wishlist is unchanged', method: 'GET', path: `${W}/{wl}/items`, actor: 'alice' },
  { name: 'bob imports it again: a second copy', method: 'POST', path: `${W}/import`, actor: 'bob', body: { share_token: '{token}' }, save: 'copy2', saveItems: 'copy2Item', anyItemOrder: true },
  { name: 'alice imports her own token: a copy too', method: 'POST', path: `${W}/import`, actor: 'alice', body: { share_token: '{token}' }, save: 'ownCopy', saveItems: 'ownCopyItem', anyItemOrder: true },
  { name: 'alice imports bob\'s empty wishlist with the token she made', method: 'POST', path: `${W}/import`, actor: 'alice', body: { share_token: '{bobsToken}' }, save: 'bobsCopy' },
  { name: 'bob imports an HS512 token signed with the secret', method: 'POST', path: `${W}/import`, actor: 'bob', signedToken: { wishlist: 'bwl', alg: 'HS512' }, save: 'hsCopy' },
  { name: 'bob has four wishlists: his own and three copies', method: 'GET', path: W, actor: 'bob' },
  { name: 'alice shares the copy of bob\'s wishlist', method: 'POST', path: `${W}/{bobsCopy}/share`, actor: 'alice', saveToken: 'deletedToken' },
  { name: 'alice deletes that copy', method: 'DELETE', path: `${W}/{bobsCopy}`, actor: 'alice' },
  { name: 'alice shares the deleted copy', method: 'POST', path: `${W}/{bobsCopy}/share`, actor: 'alice' },
  { name: 'bob imports the token of the deleted copy', method: 'POST', path: `${W}/import`, actor: 'bob', body: { share_token: '{deletedToken}' } },
  // the copies go again (items first: a wishlist that holds items cannot be deleted)
  { name: 'bob removes the first item of the copy', method: 'DELETE', path: `${W}/{copy}/items/{copyItem0}`, actor: 'bob' },
  { name: 'bob removes the second item of the copy', method: 'DELETE', path: `${W}/{copy}/items/{copyItem1}`, actor: 'bob' },
  { name: 'bob deletes the copy', method: 'DELETE', path: `${W}/{copy}`, actor: 'bob' },
  { name: 'bob removes the first item of the second copy', method: 'DELETE', path: `${W}/{copy2}/items/{copy2Item0}`, actor: 'bob' },
  { name: 'bob removes the second item of the second copy', method: 'DELETE', path: `${W}/{copy2}/items/{copy2Item1}`, actor: 'bob' },
  { name: 'bob deletes the second copy', method: 'DELETE', path: `${W}/{copy2}`, actor: 'bob' },
  { name: 'bob deletes the HS512 copy', method: 'DELETE', path: `${W}/{hsCopy}`, actor: 'bob' },
  { name: 'alice removes the first item of her own copy', method: 'DELETE', path: `${W}/{ownCopy}/items/{ownCopyItem0}`, actor: 'alice' },
  { name: 'alice removes the second item of her own copy', method: 'DELETE', path: `${W}/{ownCopy}/items/{ownCopyItem1}`, actor: 'alice' },
  { name: 'alice deletes her own copy', method: 'DELETE', path: `${W}/{ownCopy}`, actor: 'alice' },
  { name: 'bob has his wishlist back alone', method: 'GET', path: W, actor: 'bob' },

  // ---- transfer ----
  { name: 'a guest transfers', method: 'POST', path: `${W}/{wl}/transfer`, actor: 'guest' },
  { name: 'alice transfers an unknown wishlist', method: 'POST', path: `${W}/wl_unknown/transfer`, actor: 'alice' },
  { name: 'alice transfers her own wishlist', method: 'POST', path: `${W}/{wl}/transfer`, actor: 'alice' },
  { name: 'bob transfers alice\'s other wishlist to himself (no ownership check)', method: 'POST', path: `${W}/{wl2}/transfer`, actor: 'bob' },
  { name: 'alice has one wishlist left', method: 'GET', path: W, actor: 'alice' },
  { name: 'bob has two', method: 'GET', path: W, actor: 'bob' },

  // ---- delete ----
  { name: 'a guest deletes a wishlist', method: 'DELETE', path: `${W}/{wl}`, actor: 'guest' },
  { name: 'alice deletes an unknown wishlist', method: 'DELETE', path: `${W}/wl_unknown`, actor: 'alice' },
  { name: 'bob deletes the wishlist he took', method: 'DELETE', path: `${W}/{wl2}`, actor: 'bob' },
  { name: 'bob deletes it again', method: 'DELETE', path: `${W}/{wl2}`, actor: 'bob' },
  { name: 'bob deletes his own', method: 'DELETE', path: `${W}/{bwl}`, actor: 'bob' },
  { name: 'alice deletes hers, which holds two items (the cascade fails)', method: 'DELETE', path: `${W}/{wl}`, actor: 'alice' },
  { name: 'alice still has it', method: 'GET', path: W, actor: 'alice' },
  { name: 'alice still counts two items', method: 'GET', path: `${W}/total-items-count`, actor: 'alice' },
  { name: 'alice removes the first item', method: 'DELETE', path: `${W}/{wl}/items/{item0}`, actor: 'alice' },
  { name: 'alice removes the third item', method: 'DELETE', path: `${W}/{wl}/items/{item2}`, actor: 'alice' },
  { name: 'alice deletes her emptied wishlist', method: 'DELETE', path: `${W}/{wl}`, actor: 'alice' },
  { name: 'alice has no wishlist', method: 'GET', path: W, actor: 'alice' },
  { name: 'alice counts no items', method: 'GET', path: `${W}/total-items-count`, actor: 'alice' },

  // ---- reviews ----
  { name: 'a guest writes a review', method: 'POST', path: R, actor: 'guest', body: { product_id: '{product}', rating: 4, content: 'x' } },
  { name: 'a bogus token writes a review', method: 'POST', path: R, actor: 'bogus', body: { product_id: '{product}', rating: 4, content: 'x' } },
  { name: 'a review with an empty object', method: 'POST', path: R, actor: 'alice', body: {} },
  { name: 'a review without rating', method: 'POST', path: R, actor: 'alice', body: { product_id: '{product}', content: 'x' } },
  { name: 'a review without content', method: 'POST', path: R, actor: 'alice', body: { product_id: '{product}', rating: 3 } },
  { name: 'a review rated 0', method: 'POST', path: R, actor: 'alice', body: { product_id: '{product}', rating: 0, content: 'x' } },
  { name: 'a review rated 0.4 (rounds to 0)', method: 'POST', path: R, actor: 'alice', body: { product_id: '{product}', rating: 0.4, content: 'x' } },
  { name: 'a review rated 6', method: 'POST', path: R, actor: 'alice', body: { product_id: '{product}', rating: 6, content: 'x' } },
  { name: 'a review rated "abc"', method: 'POST', path: R, actor: 'alice', body: { product_id: '{product}', rating: 'abc', content: 'x' } },
  { name: 'a review with a status', method: 'POST', path: R, actor: 'alice', body: { product_id: '{product}', rating: 5, content: 'x', status: 'approved' } },
  { name: 'a review with a string for image_urls', method: 'POST', path: R, actor: 'alice', body: { product_id: '{product}', rating: 5, content: 'x', image_urls: 'a.png' } },
  { name: 'a review with a number for product_id', method: 'POST', path: R, actor: 'alice', body: { product_id: 1, rating: 5, content: 'x' } },
  { name: 'a review sent as text/plain', method: 'POST', path: R, actor: 'alice', raw: { contentType: 'text/plain', text: json({ product_id: 'p', rating: 5, content: 'x' }) } },
  { name: 'a review without a publishable key', method: 'POST', path: R, actor: 'alice', key: 'missing', body: { product_id: '{product}', rating: 5, content: 'x' } },
  { name: 'alice writes a review', method: 'POST', path: R, actor: 'alice', body: { product_id: '{product}', rating: 4, title: 'Fits well', content: 'Good cap.', image_urls: ['https://example.test/a.png'] }, save: 'rev1' },
  { name: 'alice writes a second review of it, rated "2.6"', method: 'POST', path: R, actor: 'alice', body: { product_id: '{product}', rating: '2.6', content: 'Second thoughts.' }, save: 'rev2' },
  { name: 'alice writes a 200 kB review (the route takes 10 MB)', method: 'POST', path: R, actor: 'alice', body: { product_id: '{product}', rating: 5, content: UNDER_10_MB }, save: 'rev3' },
  { name: 'alice lists her reviews', method: 'GET', path: '/store/products/reviews?my_reviews_only=true', actor: 'alice' },
  { name: 'bob lists his reviews', method: 'GET', path: '/store/products/reviews?my_reviews_only=true', actor: 'bob' },
  { name: 'alice lists her reviews of the product', method: 'GET', path: '/store/reviews/product/{product}?my_reviews_only=true', actor: 'alice' },
  { name: 'the aggregate counts only approved reviews', method: 'GET', path: '/store/reviews/product/{product}/aggregate-counts', actor: 'guest' },
  { name: 'the aggregate ignores unknown query parameters', method: 'GET', path: '/store/reviews/product/{product}/aggregate-counts?foo=1', actor: 'guest' },
  { name: 'the aggregate of an unknown product', method: 'GET', path: '/store/reviews/product/prod_unknown/aggregate-counts', actor: 'guest' },
  { name: 'the aggregate without a publishable key', method: 'GET', path: '/store/reviews/product/{product}/aggregate-counts', actor: 'guest', key: 'missing' },
  { name: 'a guest deletes a review', method: 'DELETE', path: `${R}/{rev1}`, actor: 'guest' },
  { name: 'a bogus token deletes a review', method: 'DELETE', path: `${R}/{rev1}`, actor: 'bogus' },
  { name: 'bob deletes alice\'s review', method: 'DELETE', path: `${R}/{rev1}`, actor: 'bob' },
  { name: 'alice deletes an unknown review', method: 'DELETE', path: `${R}/rev_unknown`, actor: 'alice' },
  { name: 'alice deletes her first review', method: 'DELETE', path: `${R}/{rev1}`, actor: 'alice' },
  { name: 'alice deletes it again', method: 'DELETE', path: `${R}/{rev1}`, actor: 'alice' },
  { name: 'alice deletes her second review', method: 'DELETE', path: `${R}/{rev2}`, actor: 'alice' },
  { name: 'alice deletes her third review', method: 'DELETE', path: `${R}/{rev3}`, actor: 'alice' },
  { name: 'alice has no review left', method: 'GET', path: '/store/products/reviews?my_reviews_only=true', actor: 'alice' },

  // ---- upload (not emulated: only the key check, which does not count against the plugin's rate limit) ----
  { name: 'an image upload without a publishable key', method: 'POST', path: `${R}/files/images/upload`, actor: 'guest', key: 'missing' },
];

export const PUBLISHABLE_KEY_HEADER = 'x-publishable-api-key';
const WRONG_KEY = 'pk_0000000000000000000000000000000000000000000000000000000000000000';
const BOGUS_TOKEN = 'not-a-jwt';

/** Replaces `{name}` by the world's values and the ids saved so far; an unknown name is a mistake in the table. */
function resolve(text: string, values: Map<string, string>): string {
  return text.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = values.get(name);
    if (value === undefined) throw new Error(`write case placeholder {${name}} has no value yet`);
    return value;
  });
}

function resolveJson(value: Json, values: Map<string, string>): Json {
  if (typeof value === 'string') return resolve(value, values);
  if (Array.isArray(value)) return value.map((v) => resolveJson(v, values));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveJson(v, values)]));
  return value;
}

function worldValues(world: WriteWorld): Map<string, string> {
  return new Map([
    ['sc', world.salesChannelId],
    ['product', world.productId],
    ...world.variantIds.map((id, i) => [`v${i}`, id] as [string, string]),
  ]);
}

/** The token a `SignedToken` describes, signed as jsonwebtoken signs (header `{alg, typ}`, claims in this order). */
export function signShareToken(spec: SignedToken, world: Pick<WriteWorld, 'shareTokenSecret'>, values: Map<string, string>): string {
  const alg = spec.alg ?? 'HS256';
  const now = Math.floor(Date.now() / 1000);
  const iat = spec.expired ? now - 3600 - SHARE_TOKEN_LIFETIME : now;
  const claims = { ...(spec.wishlist === undefined ? {} : { wishlist_id: resolve(`{${spec.wishlist}}`, values) }), iat, exp: iat + SHARE_TOKEN_LIFETIME };
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${part({ alg, typ: 'JWT' })}.${part(claims)}`;
  const secret = spec.secret === 'other' ? OTHER_SECRET : world.shareTokenSecret;
  return `${unsigned}.${createHmac(alg === 'HS256' ? 'sha256' : 'sha512', secret).update(unsigned).digest('base64url')}`;
}

/** The plugin's `expiresIn: "7d"`. */
const SHARE_TOKEN_LIFETIME = 7 * 24 * 3600;
const OTHER_SECRET = 'not-the-share-token-secret';

function describeSignedToken(spec: SignedToken): string {
  const claims = spec.wishlist === undefined ? 'no wishlist_id' : `wishlist_id {${spec.wishlist}}`;
  return `<${spec.alg ?? 'HS256'} token, ${claims}, ${spec.secret === 'other' ? 'another secret' : "the world's secret"}${spec.expired ? ', expired' : ''}>`;
}

export function describeRequest(c: WriteCase): string {
  const key = c.key && c.key !== 'valid' ? ` key:${c.key}` : '';
  const shown = c.signedToken ? { share_token: describeSignedToken(c.signedToken) } : c.body;
  const body = c.raw ? ` ${c.raw.contentType} ${c.raw.text.length > 80 ? `<${c.raw.text.length} chars>` : c.raw.text}` : shown === undefined ? '' : ` ${truncateLong(json(shown))}`;
  return `${c.method} ${c.path} as ${c.actor}${key}${body}`;
}

const truncateLong = (text: string) => text.replace(/(x{40,}|y{40,})/g, (run) => `<${run[0]}×${run.length}>`);

/** The HTTP request of one case: its URL and fetch options (placeholders resolved, tokens signed). */
export function caseRequest(world: WriteWorld, c: WriteCase, values: Map<string, string>): { url: string; init: RequestInit } {
  const headers: Record<string, string> = {};
  if (c.key !== 'missing') headers[PUBLISHABLE_KEY_HEADER] = c.key === 'wrong' ? WRONG_KEY : world.publishableKey;
  if (c.actor === 'alice' || c.actor === 'bob') headers.authorization = `Bearer ${world.customers[c.actor].token}`;
  if (c.actor === 'bogus') headers.authorization = `Bearer ${BOGUS_TOKEN}`;
  let body: string | undefined;
  if (c.raw) {
    headers['content-type'] = c.raw.contentType;
    body = c.raw.text;
  } else if (c.signedToken) {
    headers['content-type'] = 'application/json';
    body = json({ share_token: signShareToken(c.signedToken, world, values) });
  } else if (c.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = json(resolveJson(c.body, values));
  }
  return { url: `${world.baseUrl}${resolve(c.path, values)}`, init: { method: c.method, headers, ...(body === undefined ? {} : { body }) } };
}

/** Sends one case; answers the status, the kind of body and the body (parsed when JSON). */
export async function sendCase(world: WriteWorld, c: WriteCase, values: Map<string, string>): Promise<{ status: number; kind: WriteAnswer['kind']; body: Json }> {
  const { url, init } = caseRequest(world, c, values);
  const res = await fetch(url, init);
  const text = await res.text();
  const type = res.headers.get('content-type') ?? '';
  if (text === '') return { status: res.status, kind: 'empty', body: '' };
  if (type.includes('json')) return { status: res.status, kind: 'json', body: JSON.parse(text) as Json };
  return { status: res.status, kind: type.includes('html') ? 'html' : 'text', body: text.slice(0, 200) };
}

/** The world's values (`{sc}`, `{v0}`, ...), to which a run adds the ids and tokens its cases save. */
export function caseValues(world: WriteWorld): Map<string, string> {
  return worldValues(world);
}

/** Saves what a case asks to save of its answer (`save`, `saveToken`, `saveItems`) into `values`; throws when the answer lacks it. */
export function saveFromAnswer(c: WriteCase, answer: { status: number; body: Json }, values: Map<string, string>): void {
  const fail = (what: string) => new Error(`write case "${c.name}" should have answered ${what}; it answered ${answer.status} ${truncateLong(json(answer.body)).slice(0, 300)}`);
  const top = answer.body && typeof answer.body === 'object' && !Array.isArray(answer.body) ? answer.body : {};
  if (c.save) {
    if (typeof top.id !== 'string') throw fail(`an id to save as {${c.save}}`);
    values.set(c.save, top.id);
  }
  if (c.saveToken) {
    if (typeof top.share_token !== 'string') throw fail(`a share_token to save as {${c.saveToken}}`);
    values.set(c.saveToken, top.share_token);
  }
  if (c.saveItems) {
    const ids = Array.isArray(top.items) ? top.items.map((item) => (item && typeof item === 'object' && !Array.isArray(item) ? item.id : undefined)) : [];
    if (ids.length === 0 || ids.some((id) => typeof id !== 'string')) throw fail(`items whose ids to save as {${c.saveItems}0}...`);
    ids.forEach((id, i) => values.set(`${c.saveItems}${i}`, id as string));
  }
}

/** Runs the table in order against one backend; the answers are normalised (see `WriteNormaliser`). */
export async function runWriteCases(world: WriteWorld, cases: readonly WriteCase[] = WRITE_CASES): Promise<WriteAnswer[]> {
  const values = worldValues(world);
  const normaliser = new WriteNormaliser(world);
  const answers: WriteAnswer[] = [];
  for (const c of cases) {
    const answer = await sendCase(world, c, values);
    if (c.anyItemOrder) answer.body = sortItemsByVariant(answer.body, world.variantIds);
    saveFromAnswer(c, answer, values);
    answers.push({ name: c.name, request: describeRequest(c), status: answer.status, kind: answer.kind, body: normaliser.normalise(answer.body) });
  }
  return answers;
}

/**
 * An answer's `items` (a wishlist) or `data` (a page of items) sorted by their variant's place in
 * `variantIds` (others last, in their order), for answers whose item order is not fixed (the copies an
 * import makes; notes/alphabite-writes.md 1.10). Anything else is returned as it is.
 */
export function sortItemsByVariant(body: Json, variantIds: readonly string[]): Json {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const rank = (item: Json) => {
    const variant = item && typeof item === 'object' && !Array.isArray(item) ? item.product_variant_id : undefined;
    const at = typeof variant === 'string' ? variantIds.indexOf(variant) : -1;
    return at === -1 ? variantIds.length : at;
  };
  const sorted = { ...body };
  for (const key of ['items', 'data'] as const) {
    const list = sorted[key];
    if (Array.isArray(list)) sorted[key] = [...list].sort((a, b) => rank(a) - rank(b));
  }
  return sorted;
}

const ULID_ID = /\b([a-z]+)_([0-9A-HJKMNP-TV-Z]{26})\b/g;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
/** Longer strings are shown by their length (and first letter), so a golden file stays small. */
const LONG = 1000;

/**
 * Makes two backends' answers comparable: the world's ids become their names (`<sc>`, `<v0>`,
 * `<product>`, `<customer:alice>`), every other generated id (`prefix_` + ULID, also inside strings)
 * `<prefix:n>` numbered by first appearance, ISO times `<time>`, JWTs `<jwt>`, the customers' names
 * `<alice.first_name>`..., strings over 1000 characters `<string:length>`. Object key order is kept.
 * One normaliser per transcript, so the numbering runs across its answers.
 */
export class WriteNormaliser {
  readonly #known = new Map<string, string>();
  readonly #names = new Map<string, string>();
  readonly #counters = new Map<string, number>();

  constructor(world: Pick<WriteWorld, 'salesChannelId' | 'productId' | 'variantIds' | 'customers'>) {
    this.#known.set(world.salesChannelId, '<sc>');
    this.#known.set(world.productId, '<product>');
    world.variantIds.forEach((id, i) => this.#known.set(id, `<v${i}>`));
    for (const [who, customer] of Object.entries(world.customers)) {
      this.#known.set(customer.id, `<customer:${who}>`);
      this.#names.set(`first_name\u0000${customer.first_name}`, `<${who}.first_name>`);
      this.#names.set(`last_name\u0000${customer.last_name}`, `<${who}.last_name>`);
    }
  }

  normalise(value: Json, key = ''): Json {
    if (typeof value === 'string') return this.#string(value, key);
    if (Array.isArray(value)) return value.map((v) => this.normalise(v));
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.normalise(v, k)]));
    return value;
  }

  #string(text: string, key: string): string {
    const name = this.#names.get(`${key}\u0000${text}`);
    if (name) return name;
    if (ISO_TIME.test(text)) return '<time>';
    if (JWT.test(text) && text.startsWith('eyJ')) return '<jwt>';
    if (text.length > LONG) return `<string:${text.length}:${text[0]}>`;
    return text.replace(ULID_ID, (id, prefix: string) => this.#id(id, prefix));
  }

  #id(id: string, prefix: string): string {
    const known = this.#known.get(id);
    if (known) return known;
    const n = (this.#counters.get(prefix) ?? 0) + 1;
    this.#counters.set(prefix, n);
    const placeholder = `<${prefix}:${n}>`;
    this.#known.set(id, placeholder);
    return placeholder;
  }
}
