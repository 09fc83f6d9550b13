/** Every property of the suite, in the order they run and are reported. */
import type { ListingProperty } from '../property.ts';
import { countIndependent, currentPageProp, defaultsProp, deterministic, echoParams, envelopeShape, nextPrevProp, pageLengthProp, totalPagesProp } from './arithmetic.ts';
import { orderProp, pageContents, productReviews, walkOnce } from './sets.ts';
import { badParameters, recordShape, unknownIds } from './strict.ts';
import { itemsIdQuery, wishlistFieldsStable, wishlistItemsAgree } from './wishlists.ts';

export const PROPERTIES: readonly ListingProperty[] = [
  envelopeShape,
  countIndependent,
  echoParams,
  pageLengthProp,
  totalPagesProp,
  currentPageProp,
  nextPrevProp,
  defaultsProp,
  deterministic,
  pageContents,
  walkOnce,
  orderProp,
  productReviews,
  wishlistFieldsStable,
  wishlistItemsAgree,
  itemsIdQuery,
  badParameters,
  unknownIds,
  recordShape,
];

export const PROPERTY_IDS = PROPERTIES.map((p) => p.id);
