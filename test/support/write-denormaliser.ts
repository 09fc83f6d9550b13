/**
 * The inverse of `WriteNormaliser` (write-cases.ts): puts plausible values back where the golden
 * answers of test/medusa/write-answers.json hold placeholders, so that they can be validated
 * against schemas that check the values' shapes (the OpenAPI document). `<wl:1>` becomes a
 * `wl_` + 26-character ULID, `<time>` an ISO time, `<jwt>` a JWT-shaped string, `<sc>`,
 * `<v0>`, `<product>`, `<customer:alice>` and `<alice.first_name>` the values of `DENORMAL_WORLD`,
 * `<string:200000:y>` 200000 times `y`. The same placeholder gives the same value throughout,
 * so normalising the result with a `WriteNormaliser` over `DENORMAL_WORLD` gives back the input.
 */
import type { Json, WriteWorld } from './write-cases.ts';

/** Crockford's base32, as ULIDs write it. */
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A ULID-shaped 26 characters: a fixed time part (2026), then `n` in base 32. */
export function ulidOf(n: number): string {
  let tail = '';
  for (let rest = n; rest > 0; rest = Math.floor(rest / 32)) tail = CROCKFORD[rest % 32]! + tail;
  return `01KBW2M8XA${tail.padStart(16, '0')}`;
}

/** The world the de-normalised answers speak of: ids shaped like the real backend's. */
export const DENORMAL_WORLD: Pick<WriteWorld, 'salesChannelId' | 'productId' | 'variantIds' | 'customers'> = {
  salesChannelId: `sc_${ulidOf(1)}`,
  productId: `prod_${ulidOf(1000)}`,
  variantIds: [`variant_${ulidOf(1)}`, `variant_${ulidOf(2)}`, `variant_${ulidOf(3)}`],
  customers: {
    alice: { id: `cus_${ulidOf(1)}`, token: 'alice-token', first_name: 'Alice', last_name: 'Writer' },
    bob: { id: `cus_${ulidOf(2)}`, token: 'bob-token', first_name: 'Bob', last_name: 'Reader' },
  },
};

const TIME = '2026-11-23T19:23:37.258Z';
const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** An HS256 JWT as the wishlist plugin's `share` signs it (the signature is not a real one). */
const JWT = `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url({ wishlist_id: `wl_${ulidOf(1)}`, iat: 1795461817, exp: 1796066617 })}.${Buffer.from('not a real signature').toString('base64url')}`;

function valueOf(placeholder: string): string | undefined {
  const world = DENORMAL_WORLD;
  if (placeholder === 'time') return TIME;
  if (placeholder === 'jwt') return JWT;
  if (placeholder === 'sc') return world.salesChannelId;
  if (placeholder === 'product') return world.productId;
  const variant = /^v(\d)$/.exec(placeholder);
  if (variant) return world.variantIds[Number(variant[1])];
  const customer = /^customer:(alice|bob)$/.exec(placeholder);
  if (customer) return world.customers[customer[1] as 'alice' | 'bob'].id;
  const name = /^(alice|bob)\.(first_name|last_name)$/.exec(placeholder);
  if (name) return world.customers[name[1] as 'alice' | 'bob'][name[2] as 'first_name' | 'last_name'];
  const long = /^string:(\d+):(.)$/.exec(placeholder);
  if (long) return long[2]!.repeat(Number(long[1]));
  // `<wl:1>`: numbered from 100 on, apart from the world's ids.
  const id = /^([a-z]+):(\d+)$/.exec(placeholder);
  if (id) return `${id[1]}_${ulidOf(100 + Number(id[2]))}`;
  return undefined;
}

/** Replaces every placeholder in strings (also inside a longer string); an unknown placeholder is a mistake. */
export function denormalise(value: Json): Json {
  if (typeof value === 'string') {
    return value.replace(/<([^<>\s]+)>/g, (whole, placeholder: string) => {
      const replaced = valueOf(placeholder);
      if (replaced === undefined) throw new Error(`no value for the placeholder ${whole}`);
      return replaced;
    });
  }
  if (Array.isArray(value)) return value.map(denormalise);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, denormalise(v)]));
  return value;
}
