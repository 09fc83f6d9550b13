/**
 * Optional dataset variation through the provider-state door of the contracts (issue 4): when the
 * target answers `POST /__admin/provider-states`, the suite installs small datasets that sit on the
 * edges (empty, one record, a page exactly full, one more than a page) and runs the properties of
 * the endpoint concerned on each. It changes the target's data, so it runs only when asked
 * (`--vary-dataset`), and tears every state down afterwards.
 */
import { PROVIDER_STATES_PATH, STATES } from '../lib/provider-states.ts';
import { REVIEWS_DEFAULT_LIMIT, WISHLIST_DEFAULT_TAKE } from '../lib/api-rules.ts';
import type { EndpointName } from './endpoints.ts';

export { PROVIDER_STATES_PATH };

export interface DatasetVariant {
  /** Shown with each result and accepted by --dataset, e.g. `reviews exist {"count":20}`. */
  label: string;
  state: string;
  params: Record<string, string | number>;
  endpoint: EndpointName;
  productIds?: string[];
  wishlistIds?: string[];
}

/** The probe ids the states are installed under (valid for the contracts' id rule). */
export const PROBE_PRODUCT = 'prod_01PROPERTYPROBE';
export const PROBE_WISHLIST = 'wl_01PROPERTYPROBE';

function variant(state: string, params: Record<string, string | number>, endpoint: EndpointName, ids: Partial<DatasetVariant> = {}): DatasetVariant {
  return { label: `${state} ${JSON.stringify(params)}`, state, params, endpoint, ...ids };
}

/** Empty, one record, a default page exactly full, and one more, for each listing. */
export function datasetVariants(): DatasetVariant[] {
  const sizes = (page: number) => [0, 1, page, page + 1];
  return [
    ...sizes(REVIEWS_DEFAULT_LIMIT).map((count) => variant(STATES.reviewsExist.name, { count }, 'reviews')),
    ...[0, 1, REVIEWS_DEFAULT_LIMIT].map((count) =>
      variant(STATES.productHasReviews.name, { product_id: PROBE_PRODUCT, count }, 'productReviews', { productIds: [PROBE_PRODUCT] }),
    ),
    ...sizes(WISHLIST_DEFAULT_TAKE).map((count) => variant(STATES.wishlistsExist.name, { count }, 'wishlists')),
    ...sizes(WISHLIST_DEFAULT_TAKE).map((count) =>
      variant(STATES.wishlistHasItems.name, { wishlist_id: PROBE_WISHLIST, count }, 'wishlistItems', { wishlistIds: [PROBE_WISHLIST] }),
    ),
  ];
}
