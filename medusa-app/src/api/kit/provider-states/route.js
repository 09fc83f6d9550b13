// POST /kit/provider-states: the kit's provider states (lib/provider-states.ts) through the plugins'
// module services, for `verify --provider-states-setup-url <app>/kit/provider-states`. Answers 404
// unless STORE_LISTING_KIT_PROVIDER_STATES=1 (scripts/test-medusa.mjs sets it); the wishlists
// belong to STORE_LISTING_KIT_STATES_CUSTOMER. In a TypeScript app this file is
// `src/api/kit/provider-states/route.ts`: `export { POST } from 'store-listing-kit/medusa'`.
// (JavaScript here: the Medusa CLI loads it without ts-node.)
exports.POST = require('store-listing-kit/medusa').POST;
