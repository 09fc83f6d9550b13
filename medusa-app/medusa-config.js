// The Medusa app `npm run test:medusa` runs (scripts/test-medusa.mjs): Medusa 2 with the two published
// plugins at their default options but one (below), no admin, no Redis. The database and secrets come from the
// environment the script sets; nothing here is meant for production. Plain JavaScript, so that the
// Medusa CLI loads it without ts-node or SWC.
const { defineConfig } = require('@medusajs/framework/utils');

const local = 'http://127.0.0.1';

module.exports = defineConfig({
  projectConfig: {
    databaseUrl: process.env.DATABASE_URL,
    http: {
      storeCors: process.env.STORE_CORS ?? local,
      adminCors: process.env.ADMIN_CORS ?? local,
      authCors: process.env.AUTH_CORS ?? local,
      jwtSecret: process.env.JWT_SECRET ?? 'store-listing-kit-test',
      cookieSecret: process.env.COOKIE_SECRET ?? 'store-listing-kit-test',
    },
  },
  admin: { disable: true },
  plugins: [
    { resolve: '@alphabite/medusa-reviews', options: {} },
    // `shareTokenSecret` is the one option set: a deployment that offers wishlist sharing must set it (the
    // plugin signs share tokens with it; without it `POST /store/wishlists/:id/share` always answers 500
    // and `POST /store/wishlists/import` always 401). A fixed test secret, so a test can also sign tokens
    // (expired ones, say) the plugin accepts as its own.
    { resolve: '@alphabite/medusa-wishlist', options: { shareTokenSecret: 'store-listing-kit-share-secret' } },
  ],
});
