/** What a listing property is: an id, the rule it checks, where it applies, and how to build it. */
import type fc from 'fast-check';
import type { CheckContext, Target } from './context.ts';
import type { EndpointName, ListingEndpoint } from './endpoints.ts';

/**
 * `spec` rules hold for any implementation; `contract` rules are API.md's [kit] choices that the
 * kit's pacts pin (the records' shape, the 400 for a bad paging parameter), checked by default as
 * `verify` checks them; the other `kit` rules are checked only when strict. With `--dialect
 * alphabite`: `dialect` rules are the published plugins' own, `storefront` rules what a storefront
 * needs of any listing.
 */
export type Rule = 'spec' | 'contract' | 'kit' | 'dialect' | 'storefront';

/** A property that cannot run on this target says why instead (e.g. no wishlist to list items of). */
export interface Skip {
  skip: string;
}

export interface ListingProperty {
  id: string;
  /** The rule, in one sentence. */
  title: string;
  rule: Rule | ((endpoint: ListingEndpoint) => Rule);
  endpoints: readonly EndpointName[];
  /** Walks whole sets: many requests per run, so it gets a tenth of the runs. */
  heavy?: boolean;
  build(ctx: CheckContext, endpoint: ListingEndpoint): Promise<fc.IAsyncProperty<any> | Skip>;
}

export function ruleOf(p: ListingProperty, endpoint: ListingEndpoint): Rule {
  return typeof p.rule === 'function' ? p.rule(endpoint) : p.rule;
}

export const isSkip = (x: unknown): x is Skip => typeof x === 'object' && x !== null && 'skip' in x;

/** The listings a property pages through on an endpoint (one, or several products / wishlists). */
export async function targetsFor(ctx: CheckContext, endpoint: ListingEndpoint): Promise<Target[] | Skip> {
  if (endpoint.pathId === 'product') {
    const { targets, note } = await ctx.productTargets();
    return targets.length ? targets : { skip: note ?? 'no product to list' };
  }
  if (endpoint.pathId === 'wishlist') {
    const { targets, note } = await ctx.wishlistTargets();
    return targets.length ? targets : { skip: note ?? 'no wishlist to list' };
  }
  return [{ endpoint }];
}

/** Each target with its count (from the reference set's first page). */
export async function countedTargets(
  ctx: CheckContext,
  endpoint: ListingEndpoint,
): Promise<Array<{ target: Target; count: number }> | Skip> {
  const targets = await targetsFor(ctx, endpoint);
  if (!Array.isArray(targets)) return targets;
  const out: Array<{ target: Target; count: number }> = [];
  for (const target of targets) out.push({ target, count: (await ctx.reference(target)).count });
  return out;
}
