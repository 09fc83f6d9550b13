/**
 * The published clients against a real Medusa 2 backend with @alphabite/medusa-reviews 0.7.2 and
 * @alphabite/medusa-wishlist 0.7.4 (`npm run test:medusa`): the same flows, with the same assertions,
 * as test/real-clients.test.ts runs against `serve --dialect alphabite`. Only the data differs: here
 * it is what scripts/medusa-store-seed.mjs created through the plugins' routes.
 */
import { describe, it } from 'vitest';
import { medusaFacts, shopperBackend } from '../support/medusa-backend.ts';
import { allReviewsIgnorePaging, everyListMethodAnswers, infiniteListNeverEnds, refusesWhatThePluginsRefuse, walksVisitEveryRecordOnce } from '../support/real-client-flows.ts';

const backend = shopperBackend(medusaFacts());

describe('@alphabite/medusa-sdk against the running plugins', () => {
  it('every list method answers 200 with the plugins\' envelope', async () => {
    await everyListMethodAnswers(backend);
  });

  it('4.1 ignores paging, as the plugin does: one call lists every review once, whatever limit/offset say', async () => {
    await allReviewsIgnorePaging(backend);
  });

  it('walking 4.2, 4.3 and 4.4 by limit/offset visits every record once', async () => {
    await walksVisitEveryRecordOnce(backend);
  });

  it('refuses what the plugins refuse: no publishable key, no customer token on 4.3', async () => {
    await refusesWhatThePluginsRefuse(backend);
  });
});

describe('an infinite list (@tanstack/query-core) by nextPage, against the running plugins', () => {
  it('nextPage never runs out, so the list repeats its last page until the storefront stops it', async () => {
    await infiniteListNeverEnds(backend);
  });
});
