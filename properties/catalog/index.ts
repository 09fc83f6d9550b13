/** Every property of the suite, in the order they run and are reported. */
import type { CheckDialect } from '../options.ts';
import type { ListingProperty } from '../property.ts';
import { ALPHABITE_PROPERTIES } from './alphabite.ts';
import { countIndependent, currentPageProp, defaultsProp, deterministic, echoParams, envelopeShape, nextPrevProp, pageLengthProp, totalPagesProp } from './arithmetic.ts';
import { orderProp, pageContents, productReviews, walkOnce } from './sets.ts';
import { badPaging, recordShape } from './contract.ts';
import { badParameters, unknownIds } from './strict.ts';
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
  recordShape,
  badPaging,
  unknownIds,
  badParameters,
];

export const PROPERTY_IDS = PROPERTIES.map((p) => p.id);

/** The properties of `check --dialect alphabite` (catalog/alphabite.ts). */
export { ALPHABITE_PROPERTIES };
export const ALPHABITE_PROPERTY_IDS = ALPHABITE_PROPERTIES.map((p) => p.id);

/** The catalog a dialect is judged by. */
export const propertiesOf = (dialect: CheckDialect): readonly ListingProperty[] => (dialect === 'alphabite' ? ALPHABITE_PROPERTIES : PROPERTIES);
