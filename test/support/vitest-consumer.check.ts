// A team's own vitest file using the property suite's helper: run by test/properties-vitest.test.ts
// in a child vitest (test/support/vitest-consumer.config.ts) against the server in LISTING_TARGET.
import { describeListingProperties } from '../../properties/vitest.ts';

describeListingProperties('target under test', {
  baseUrl: () => process.env.LISTING_TARGET ?? 'http://127.0.0.1:9',
  seed: 9,
  runs: 10,
  endpoints: ['reviews', 'wishlists'],
  properties: ['envelope-shape', 'next-and-prev-page', 'page-length'],
});
