/**
 * A storefront's wishlist and review buttons, through @alphabite/medusa-sdk 0.7.11, against any backend that
 * speaks the plugins' dialect: alice creates a wishlist, adds three variants, lists them, removes one, lists
 * again, shares it, and bob opens the shared link as a "shared with me" page would (imports the token, then
 * lists the imported wishlist's items); she writes a review, sees it in her own listing, bob does not see it in his, she deletes
 * it, and it is gone. Every step's result (or the SDK's error: status and message) goes into a transcript,
 * normalised by write-cases.ts's `WriteNormaliser`, so two backends' transcripts can be compared.
 * test/medusa/storefront-write-flow.medusa.test.ts runs it against the real plugins and keeps the transcript
 * in test/medusa/storefront-write-flow.json.
 */
import { AlphabiteMedusaSdk, reviewsPlugin, wishlistPlugin } from '@alphabite/medusa-sdk';
import { sortItemsByVariant, WriteNormaliser, type Json, type WriteWorld } from './write-cases.ts';

export interface FlowStep {
  step: string;
  /** What the SDK method resolved to, normalised; absent when it threw. */
  result?: Json;
  /** The SDK's error (js-sdk's FetchError: the HTTP status and the body's message, or the status text). */
  error?: { status: number | null; message: string };
}

/** The ids the flow produced (raw, not normalised), for the caller's own checks. */
export interface FlowIds {
  wishlistId: string;
  itemIds: string[];
  /** bob's copy of the shared wishlist (absent when sharing or importing failed). */
  importedWishlistId?: string;
  reviewId: string;
}

const AUTH = { type: 'jwt', jwtTokenStorageMethod: 'nostore' } as const;

function sdkAs(world: WriteWorld, token: string) {
  return new AlphabiteMedusaSdk({ baseUrl: world.baseUrl, publishableKey: world.publishableKey, auth: AUTH }, [reviewsPlugin, wishlistPlugin] as const, {
    getAuthHeader: () => ({ authorization: `Bearer ${token}` }),
  });
}

const asJson = (value: unknown) => JSON.parse(JSON.stringify(value ?? null)) as Json;

export async function runStorefrontWriteFlow(world: WriteWorld): Promise<{ transcript: FlowStep[]; ids: FlowIds }> {
  const alice = sdkAs(world, world.customers.alice.token).alphabite;
  const bob = sdkAs(world, world.customers.bob.token).alphabite;
  const normaliser = new WriteNormaliser(world);
  const transcript: FlowStep[] = [];

  /**
   * Runs one step; an error is part of the transcript, not the end of the flow. `anyItemOrder`: the
   * result's items come in no fixed order (an imported copy's), so they are sorted by variant first.
   */
  async function step<T>(name: string, call: () => Promise<T>, anyItemOrder = false): Promise<T | undefined> {
    try {
      const result = await call();
      const json = asJson(result);
      transcript.push({ step: name, result: normaliser.normalise(anyItemOrder ? sortItemsByVariant(json, world.variantIds) : json) });
      return result;
    } catch (error) {
      const { status, message } = error as { status?: unknown; message?: unknown };
      transcript.push({ step: name, error: { status: typeof status === 'number' ? status : null, message: String(message) } });
      return undefined;
    }
  }
  const need = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`storefront flow: ${what} failed, see the transcript: ${JSON.stringify(transcript.at(-1))}`);
    return value;
  };

  const created = need(await step('alice creates a wishlist', () => alice.wishlist.create({ name: 'Summer', sales_channel_id: world.salesChannelId })), 'creating the wishlist');
  const wishlistId = created.id;
  const itemIds: string[] = [];
  for (const [i, variant] of world.variantIds.entries()) {
    const item = need(await step(`alice adds variant ${i}`, () => alice.wishlist.addItem({ id: wishlistId, product_variant_id: variant })), `adding variant ${i}`);
    itemIds.push(item.id);
  }
  await step('alice lists the items', () => alice.wishlist.listItems({ id: wishlistId }));
  await step('alice removes the second item', () => alice.wishlist.removeItem({ id: wishlistId, wishlist_item_id: itemIds[1]! }));
  await step('alice lists the items again', () => alice.wishlist.listItems({ id: wishlistId }));
  const shared = await step('alice shares the wishlist', () => alice.wishlist.share({ id: wishlistId }));
  // the "shared with me" page: the link carries the token; opening it imports a copy, then shows its items
  const imported = shared && (await step('bob imports the shared wishlist', () => bob.wishlist.import({ share_token: shared.share_token }), true));
  if (imported) await step('bob lists the items of the imported wishlist', () => bob.wishlist.listItems({ id: imported.id }), true);

  const review = need(
    await step('alice writes a review', () => alice.reviews.create({ product_id: world.productId, rating: 5, title: 'Love it', content: 'Exactly as pictured.', image_urls: [] })),
    'writing the review',
  );
  await step('alice lists her reviews', () => alice.reviews.list({ my_reviews_only: true }));
  await step('bob lists his reviews', () => bob.reviews.list({ my_reviews_only: true }));
  await step('alice deletes the review', () => alice.reviews.delete({ id: review.id }));
  await step('alice lists her reviews again', () => alice.reviews.list({ my_reviews_only: true }));
  return { transcript, ids: { wishlistId, itemIds, reviewId: review.id, ...(imported ? { importedWishlistId: imported.id } : {}) } };
}
