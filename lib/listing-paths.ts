import type { EndpointName } from './api-rules.ts';

export interface ListingTarget {
  endpoint: EndpointName;
  /** The path id (decoded): the product of 4.2, the wishlist of 4.4. */
  id?: string;
}

/** Which listing a request path is (no query), as the plugins' Express routes match it, or undefined. */
export function listingOfPath(path: string): ListingTarget | undefined {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  const parts = trimmed.split('/');
  if (parts[0] !== '') return undefined;
  let segments: string[];
  try {
    segments = parts.slice(1).map((part) => decodeURIComponent(part));
  } catch {
    return undefined;
  }
  if (segments.some((s) => s === '')) return undefined;
  const fixed = segments.map((s) => s.toLowerCase());
  if (fixed[0] !== 'store') return undefined;
  const [, a, b] = fixed;
  if (segments.length === 3 && a === 'products' && b === 'reviews') return { endpoint: 'reviews' };
  if (segments.length === 2 && a === 'wishlists') return { endpoint: 'wishlists' };
  if (segments.length === 4 && a === 'reviews' && b === 'product') return { endpoint: 'productReviews', id: segments[3]! };
  if (segments.length === 4 && a === 'wishlists' && fixed[3] === 'items') return { endpoint: 'wishlistItems', id: segments[2]! };
  return undefined;
}
