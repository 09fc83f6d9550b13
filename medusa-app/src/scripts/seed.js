/**
 * `medusa exec ./src/scripts/seed.js <output.json>`: what the storefront routes cannot create: three
 * sales channels with a publishable key each, products with variants, an admin user (as `medusa user`
 * makes one: it moderates reviews through the reviews plugin's admin route), and the wishlist plugin's
 * setting that lets a customer keep several wishlists (an admin setting; the listing routes do not
 * read it).
 * Customers, reviews and wishlists are created afterwards through the plugins' own store routes
 * (scripts/test-medusa.mjs). Writes what it created to <output.json>.
 */
const { writeFileSync } = require('node:fs');
const { Modules, ProductStatus } = require('@medusajs/framework/utils');
const { createApiKeysWorkflow, createProductsWorkflow, createSalesChannelsWorkflow, createUsersWorkflow, linkSalesChannelsToApiKeyWorkflow } = require('@medusajs/medusa/core-flows');

const ADMIN = { email: 'admin@store-listing-kit.test', password: 'admin-password' };

/** Products and how many variants each has: the first holds enough variants for a paged wishlist. */
const PRODUCTS = [
  { handle: 'kit-tee', title: 'Kit Tee', variants: 30 },
  { handle: 'kit-mug', title: 'Kit Mug', variants: 3 },
  { handle: 'kit-cap', title: 'Kit Cap', variants: 2 },
];
/**
 * The catalogue of the third storefront, the one the provider states draw on
 * (STORE_LISTING_KIT_STATES_SALES_CHANNEL, scripts/test-medusa.mjs): 10 variants, fewer than the
 * largest state needs (`wishlist has items { count: 25 }`), so the states' drafts are made on every run.
 */
const STATES_PRODUCTS = [
  { handle: 'states-shirt', title: 'States Shirt', variants: 7 },
  { handle: 'states-sock', title: 'States Sock', variants: 3 },
];
/** The name of the provider states' sales channel (the route finds it by name). */
const STATES_CHANNEL = 'States storefront';

/** @param {import('@medusajs/framework/types').ExecArgs} exec */
async function seed({ container, args }) {
  const output = args[0];
  if (!output) throw new Error('usage: medusa exec ./src/scripts/seed.js <output.json>');

  const { result: channels } = await createSalesChannelsWorkflow(container).run({
    input: { salesChannelsData: [{ name: 'Kit storefront' }] },
  });
  const channel = channels[0];

  const { result: keys } = await createApiKeysWorkflow(container).run({
    input: { api_keys: [{ title: 'Kit storefront', type: 'publishable', created_by: '' }] },
  });
  const key = keys[0];
  await linkSalesChannelsToApiKeyWorkflow(container).run({ input: { id: key.id, add: [channel.id] } });

  // A second storefront (its own channel and key), to ask whether the listings care which channel a
  // wishlist belongs to.
  const { result: otherChannels } = await createSalesChannelsWorkflow(container).run({
    input: { salesChannelsData: [{ name: 'Other storefront' }] },
  });
  const { result: otherKeys } = await createApiKeysWorkflow(container).run({
    input: { api_keys: [{ title: 'Other storefront', type: 'publishable', created_by: '' }] },
  });
  await linkSalesChannelsToApiKeyWorkflow(container).run({ input: { id: otherKeys[0].id, add: [otherChannels[0].id] } });

  // The provider states' storefront: its own channel, key and small catalogue.
  const { result: statesChannels } = await createSalesChannelsWorkflow(container).run({
    input: { salesChannelsData: [{ name: STATES_CHANNEL }] },
  });
  const { result: statesKeys } = await createApiKeysWorkflow(container).run({
    input: { api_keys: [{ title: STATES_CHANNEL, type: 'publishable', created_by: '' }] },
  });
  await linkSalesChannelsToApiKeyWorkflow(container).run({ input: { id: statesKeys[0].id, add: [statesChannels[0].id] } });

  const products = await createProducts(container, PRODUCTS, channel.id);
  const statesProducts = await createProducts(container, STATES_PRODUCTS, statesChannels[0].id);

  const { result: users } = await createUsersWorkflow(container).run({ input: { users: [{ email: ADMIN.email }] } });
  const auth = container.resolve(Modules.AUTH);
  const { authIdentity, error } = await auth.register('emailpass', { body: ADMIN });
  if (error) throw new Error(`admin user: ${error}`);
  await auth.updateAuthIdentities({ id: authIdentity.id, app_metadata: { user_id: users[0].id } });

  // The plugin's admin setting (POST /admin/wishlists/settings does the same), so one customer can
  // hold enough wishlists to page through 4.3.
  await container.resolve('wishlist').updateSettings({ allow_multiple_wishlists: true });

  const facts = {
    publishableKey: key.token,
    otherPublishableKey: otherKeys[0].token,
    salesChannelId: channel.id,
    admin: ADMIN,
    products: products.map(productFacts),
    states: { salesChannel: STATES_CHANNEL, salesChannelId: statesChannels[0].id, publishableKey: statesKeys[0].token, products: statesProducts.map(productFacts) },
  };
  writeFileSync(output, `${JSON.stringify(facts, null, 2)}\n`);
}

const productFacts = (p) => ({ id: p.id, handle: p.handle, variantIds: (p.variants ?? []).map((v) => v.id).sort() });

/** Published products, each with one option whose every value is a variant, in one sales channel. */
async function createProducts(container, specs, salesChannelId) {
  const { result } = await createProductsWorkflow(container).run({
    input: {
      products: specs.map((p) => {
        const sizes = Array.from({ length: p.variants }, (_, i) => `v${String(i + 1).padStart(2, '0')}`);
        return {
          title: p.title,
          handle: p.handle,
          status: ProductStatus.PUBLISHED,
          options: [{ title: 'Variant', values: sizes }],
          variants: sizes.map((size) => ({
            title: `${p.title} ${size}`,
            sku: `${p.handle}-${size}`,
            options: { Variant: size },
            manage_inventory: false,
            prices: [{ amount: 10, currency_code: 'usd' }],
          })),
          sales_channels: [{ id: salesChannelId }],
        };
      }),
    },
  });
  return result;
}

module.exports = { default: seed };
