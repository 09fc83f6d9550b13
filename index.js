// Entry point for plain Node (no TypeScript loader): loads index.ts through tsx and
// re-exports it. test/package-entry.test.ts checks that the two export the same names.
import { tsImport } from 'tsx/esm/api';

const api = await tsImport('./index.ts', import.meta.url);

export const {
  // lib/paging.ts
  clampedPageNumbers, currentPage, pageLength, pageNumbers, pageSlice, pageStart, reviewsEnvelope, reviewsPageMeta, totalPages, wishlistEnvelope, wishlistPageMeta,
  // lib/api-rules.ts
  DEFAULT_MAX_PAGE_SIZE, MAX_MAX_PAGE_SIZE, MIN_MAX_PAGE_SIZE, assertMaxPageSize, DEFAULT_REVIEW_ORDER, ENDPOINT_NAMES, PATHS, REVIEWS_DEFAULT_LIMIT, REVIEWS_DEFAULT_OFFSET, REVIEW_ORDER_FIELDS, REVIEW_ORDER_VALUES,
  WISHLIST_DEFAULT_SKIP, WISHLIST_DEFAULT_TAKE, formatReviewOrder, parseReviewOrder,
  // fixtures/
  DEFAULT_SEED, DEFAULT_SIZES, SIZE_LIMITS, FixturesError, ReviewTable, WishlistTable, datasetFromRecords, describeDataset, fixturesChunks, generateDataset,
  loadFixturesFile, parseFixtures, writeFixtures,
  // mock-server/
  DatasetHolder, createApp, resolveDataset, startMockServer,
  PROVIDER_STATES_PATH, applyStateChange, pactStateHandlers, providerStatesRouter,
  // contracts/
  StorefrontApiError, StorefrontClient, STATES, STATE_NAMES, given, VerifyConfigError, verifyProviders,
  // properties/
  CannotRunError, PROPERTY_IDS, fullText, jsonReport, junitReport, runListingProperties, summaryText,
} = api;
