/**
 * The provider states of the kit's vocabulary (lib/provider-states.ts) on a Medusa 2 app with the
 * published plugins (@alphabite/medusa-reviews, @alphabite/medusa-wishlist), made through their
 * module services: the records are the plugins' own rows, tied to the app's real products,
 * variants, customers and sales channel. Each setup records how to undo itself; a teardown (or the
 * next setup) undoes it: rows it created are deleted, rows it hid (soft-deleted, so that "exactly
 * N" holds) are restored.
 *
 * Any catalogue will do, an empty one too: what a state needs and the catalogue lacks (variants for
 * a wishlist, a product for reviews) is made as one draft product (FILLER_HANDLE) with as many
 * variants as are missing. A draft in no sales channel is listed by no store route (Medusa's
 * /store/products shows published products of the key's channels), while the plugins' listings,
 * which read variants and products through Medusa's query, show it as they show any other. The
 * teardown deletes it; a filler left by a run that never tore down (the app restarted) is deleted
 * by the next setup.
 *
 * No import of @medusajs packages: the services are taken from the request's container
 * (`req.scope.resolve(name)`), typed by the few methods used here.
 */
import { STATES, type StateKey, type StateParams } from '../lib/provider-states.ts';

type Row = { id: string; deleted_at?: string | Date | null };
type ListConfig = { select?: string[]; take?: number; order?: Record<string, 'ASC' | 'DESC'>; withDeleted?: boolean };

/** The methods of the plugins' and Medusa's module services that the states use (MedusaService's generated CRUD). */
export interface ReviewModuleService {
  listReviews(filters: Record<string, unknown>, config?: ListConfig): Promise<Row[]>;
  createReviews(data: Array<Record<string, unknown>>): Promise<Row[]>;
  softDeleteReviews(ids: string[]): Promise<unknown>;
  restoreReviews(ids: string[]): Promise<unknown>;
  deleteReviews(ids: string[]): Promise<unknown>;
}
export interface WishlistModuleService {
  listWishlists(filters: Record<string, unknown>, config?: ListConfig): Promise<Row[]>;
  createWishlists(data: Array<Record<string, unknown>>): Promise<Row[]>;
  softDeleteWishlists(ids: string[]): Promise<unknown>;
  restoreWishlists(ids: string[]): Promise<unknown>;
  deleteWishlists(ids: string[]): Promise<unknown>;
  listWishlistItems(filters: Record<string, unknown>, config?: ListConfig): Promise<Row[]>;
  createWishlistItems(data: Array<Record<string, unknown>>): Promise<Row[]>;
  deleteWishlistItems(ids: string[]): Promise<unknown>;
}
export interface ProductModuleService {
  listProducts(filters: Record<string, unknown>, config?: ListConfig): Promise<Row[]>;
  listProductVariants(filters: Record<string, unknown>, config?: ListConfig): Promise<Array<Row & { product_id: string }>>;
  createProducts(data: Array<Record<string, unknown>>): Promise<Row[]>;
  deleteProducts(ids: string[]): Promise<unknown>;
  restoreProducts(ids: string[]): Promise<unknown>;
  softDeleteProducts(ids: string[]): Promise<unknown>;
}
export interface CustomerModuleService {
  listCustomers(filters: Record<string, unknown>, config?: ListConfig): Promise<Row[]>;
}
export interface SalesChannelModuleService {
  listSalesChannels(filters: Record<string, unknown>, config?: ListConfig): Promise<Row[]>;
}
/** Medusa's query (`ContainerRegistrationKeys.QUERY`): here only to read the product-sales channel link. */
export interface QueryService {
  graph(config: { entity: string; fields: string[]; filters?: Record<string, unknown>; pagination?: { take?: number; skip?: number } }): Promise<{ data: Array<Record<string, unknown>> }>;
}

/** The container of a Medusa request (`req.scope`), as far as the states use it. */
export interface ServiceResolver {
  resolve(name: string): unknown;
}

/** Module names in Medusa's container: the plugins' (`REVIEW_MODULE`, `WISHLIST_MODULE`) and Medusa's `Modules.*`. */
export const MODULE_NAMES = { review: 'review', wishlist: 'wishlist', product: 'product', customer: 'customer', salesChannel: 'sales_channel', query: 'query' } as const;

/** A state that cannot be set up on this app (missing data or configuration): its message says what to do. */
export class StateSetupError extends Error {}

/** How many items each wishlist of `wishlists exist` holds ("a few"). */
export const ITEMS_PER_WISHLIST = 3;

/** The handle of the draft product the states make when the catalogue lacks variants or products. */
export const FILLER_HANDLE = 'store-listing-kit-filler';
/** The filler's one option: each variant is one of its values. */
const FILLER_OPTION = 'Store-listing-kit filler';
/** How many of the sales channel's products the states read (reviews spread over them; variants come from them). */
const CHANNEL_PRODUCTS_READ = 200;

export interface StatesConfig {
  /** The customer who owns the wishlists (and writes the reviews): an id (`cus_...`) or an email. */
  customer?: string;
  /**
   * The sales channel (an id `sc_...` or a name) of the wishlists, whose products are the catalogue
   * the states draw on. None: the first channel, and the whole catalogue.
   */
  salesChannel?: string;
}

/** Sets up the states of the vocabulary on one app, and undoes them. */
export class MedusaProviderStates {
  /** Undo steps of the states set up and not yet torn down, run last first. */
  private readonly undo: Array<() => Promise<unknown>> = [];
  /** Variants made by this instance's filler (0 when the catalogue had enough). */
  private made = 0;

  constructor(
    private readonly scope: ServiceResolver,
    private readonly config: StatesConfig = {},
  ) {}

  private service<T>(name: string): T {
    try {
      return this.scope.resolve(name) as T;
    } catch {
      throw new StateSetupError(`the Medusa container has no '${name}' module (are @alphabite/medusa-reviews and @alphabite/medusa-wishlist in medusa-config's plugins?)`);
    }
  }
  private get reviews() {
    return this.service<ReviewModuleService>(MODULE_NAMES.review);
  }
  private get wishlists() {
    return this.service<WishlistModuleService>(MODULE_NAMES.wishlist);
  }
  private get products() {
    return this.service<ProductModuleService>(MODULE_NAMES.product);
  }

  /** Undoes every state set up so far (the last first); the app is as it was before them. */
  async teardown(): Promise<void> {
    let failure: unknown;
    while (this.undo.length > 0) {
      try {
        await this.undo.pop()!();
      } catch (error) {
        // the other steps still run: what they restore is not lost with this one
        failure ??= error;
      }
    }
    if (failure !== undefined) throw failure;
  }

  /** Undoes the previous state, if any, and sets up `key`; answers what it made. */
  async setup<K extends StateKey>(key: K, params: StateParams<K>): Promise<Record<string, unknown>> {
    await this.teardown();
    await this.deleteLeftoverFiller();
    this.made = 0;
    try {
      return await this.apply(key, params);
    } catch (error) {
      // what was done before the failure is undone at once: a half state is no state
      await this.teardown();
      throw error;
    }
  }

  private async apply(key: StateKey, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    switch (key) {
      case 'reviewsExist': {
        const hidden = await this.hideReviews({});
        const created = await this.createReviews(params.count as number);
        return { reviews: created.length, hidden };
      }
      case 'noReviewsExist':
        return { reviews: 0, hidden: await this.hideReviews({}) };
      case 'productHasReviews': {
        const productId = params.product_id as string;
        await this.ensureProduct(productId);
        const hidden = await this.hideReviews({ product_id: productId });
        const created = await this.createReviews(params.count as number, productId);
        return { reviews: created.length, hidden };
      }
      case 'wishlistsExist': {
        const count = params.count as number;
        const [customerId, salesChannelId] = [await this.customerId(true), await this.salesChannelId()];
        const variants = await this.variants(count === 0 ? 0 : ITEMS_PER_WISHLIST);
        const hidden = await this.hideWishlists();
        const created = await this.createWishlists(
          Array.from({ length: count }, (_, i) => ({ name: `Contract wishlist ${i + 1}`, customer_id: customerId, sales_channel_id: salesChannelId })),
        );
        await this.createItems(created.flatMap((w) => variants.map((v) => ({ wishlist_id: w.id, product_variant_id: v.id, product_id: v.product_id }))));
        return { wishlists: created.length, hidden, ...this.drafts() };
      }
      case 'noWishlistsExist':
        return { wishlists: 0, hidden: await this.hideWishlists() };
      case 'wishlistHasItems': {
        const wishlistId = params.wishlist_id as string;
        const count = params.count as number;
        const [customerId, salesChannelId] = [await this.customerId(true), await this.salesChannelId()];
        const variants = await this.variants(count);
        // The contract's wishlist id belongs to the contracts: a row left by an interrupted run goes.
        const leftover = await this.wishlists.listWishlists({ id: wishlistId }, { select: ['id'], withDeleted: true });
        if (leftover.length > 0) await this.deleteWishlists([wishlistId]);
        await this.createWishlists([{ id: wishlistId, name: 'Contract wishlist', customer_id: customerId, sales_channel_id: salesChannelId }]);
        await this.createItems(variants.map((v) => ({ wishlist_id: wishlistId, product_variant_id: v.id, product_id: v.product_id })));
        return { items: variants.length, ...this.drafts() };
      }
    }
  }

  /** What an answer says of the draft variants made (nothing when none were). */
  private drafts(): { draftVariants?: number } {
    return this.made > 0 ? { draftVariants: this.made } : {};
  }

  /** Soft-deletes the reviews matching `filters` (restored on teardown); answers how many. */
  private async hideReviews(filters: Record<string, unknown>): Promise<number> {
    const ids = (await this.reviews.listReviews(filters, { select: ['id'] })).map((r) => r.id);
    if (ids.length === 0) return 0;
    await this.reviews.softDeleteReviews(ids);
    this.undo.push(() => this.reviews.restoreReviews(ids));
    return ids.length;
  }

  /** `count` approved reviews by the customer, of `productId` or spread over the app's products (deleted on teardown). */
  private async createReviews(count: number, productId?: string): Promise<Row[]> {
    if (count === 0) return [];
    let productIds = productId ? [productId] : await this.catalogueProductIds(50);
    if (productIds.length === 0) productIds = [(await this.filler(0)).productId];
    const customerId = await this.customerId(false);
    const created = await this.reviews.createReviews(
      Array.from({ length: count }, (_, i) => ({
        product_id: productIds[i % productIds.length],
        customer_id: customerId,
        rating: (i % 5) + 1,
        title: `Contract review ${i + 1}`,
        content: 'Written by the store-listing-kit provider states; deleted on teardown.',
        status: 'approved',
        image_urls: [],
        is_verified_purchase: false,
      })),
    );
    const ids = created.map((r) => r.id);
    this.undo.push(() => this.reviews.deleteReviews(ids));
    return created;
  }

  /** The product a state names exists (a draft product with that id is made when it does not; deleted on teardown). */
  private async ensureProduct(id: string): Promise<void> {
    const [found] = await this.products.listProducts({ id }, { select: ['id', 'deleted_at'], withDeleted: true });
    if (!found) {
      await this.products.createProducts([{ id, title: 'Contract product', handle: `store-listing-kit-${id.toLowerCase().replace(/_/g, '-')}`, status: 'draft' }]);
      this.undo.push(() => this.products.deleteProducts([id]));
    } else if (found.deleted_at) {
      await this.products.restoreProducts([id]);
      this.undo.push(() => this.products.softDeleteProducts([id]));
    }
  }

  /** Soft-deletes every wishlist, with its items (restored on teardown); answers how many. */
  private async hideWishlists(): Promise<number> {
    const ids = (await this.wishlists.listWishlists({}, { select: ['id'] })).map((w) => w.id);
    if (ids.length === 0) return 0;
    await this.wishlists.softDeleteWishlists(ids);
    this.undo.push(() => this.wishlists.restoreWishlists(ids));
    return ids.length;
  }

  private async createWishlists(data: Array<Record<string, unknown>>): Promise<Row[]> {
    if (data.length === 0) return [];
    const created = await this.wishlists.createWishlists(data);
    const ids = created.map((w) => w.id);
    this.undo.push(() => this.deleteWishlists(ids));
    return created;
  }

  private async createItems(data: Array<Record<string, unknown>>): Promise<void> {
    if (data.length > 0) await this.wishlists.createWishlistItems(data);
  }

  /** Deletes wishlists for good, their items first (the service refuses to delete a wishlist that still has items). */
  private async deleteWishlists(ids: string[]): Promise<void> {
    const items = (await this.wishlists.listWishlistItems({ wishlist_id: ids }, { select: ['id'], withDeleted: true })).map((i) => i.id);
    if (items.length > 0) await this.wishlists.deleteWishlistItems(items);
    await this.wishlists.deleteWishlists(ids);
  }

  /**
   * `count` distinct product variants (a wishlist holds a variant once): the catalogue's first by id,
   * and as many of a draft filler's as the catalogue lacks.
   */
  private async variants(count: number): Promise<Array<Row & { product_id: string }>> {
    if (count === 0) return [];
    const productIds = this.config.salesChannel ? await this.catalogueProductIds(CHANNEL_PRODUCTS_READ) : undefined;
    const found = productIds?.length === 0 ? [] : await this.products.listProductVariants(productIds ? { product_id: productIds } : {}, { select: ['id', 'product_id'], take: count, order: { id: 'ASC' } });
    if (found.length >= count) return found;
    return [...found, ...(await this.filler(count - found.length)).variants];
  }

  /** A draft product in no sales channel, with `variants` variants (deleted on teardown, its variants with it). */
  private async filler(variants: number): Promise<{ productId: string; variants: Array<Row & { product_id: string }> }> {
    const values = Array.from({ length: variants }, (_, i) => `v${String(i + 1).padStart(3, '0')}`);
    const [product] = await this.products.createProducts([
      {
        title: 'Store-listing-kit filler (draft: shoppers never see it)',
        handle: FILLER_HANDLE,
        status: 'draft',
        description: 'Made by the store-listing-kit provider states for the variants the catalogue lacks; deleted on teardown.',
        ...(variants > 0 ? { options: [{ title: FILLER_OPTION, values }], variants: values.map((v) => ({ title: `Filler ${v}`, options: { [FILLER_OPTION]: v }, manage_inventory: false })) } : {}),
      },
    ]);
    const productId = product!.id;
    this.undo.push(() => this.products.deleteProducts([productId]));
    this.made += variants;
    const made = variants === 0 ? [] : await this.products.listProductVariants({ product_id: productId }, { select: ['id', 'product_id'], take: variants, order: { id: 'ASC' } });
    return { productId, variants: made };
  }

  /**
   * A filler left by a setup that was never torn down (the app restarted in between) is deleted, with
   * the wishlist items that point at its variants: what a state makes is gone by the next one.
   */
  private async deleteLeftoverFiller(): Promise<void> {
    const leftovers = (await this.products.listProducts({ handle: FILLER_HANDLE }, { select: ['id'], withDeleted: true })).map((p) => p.id);
    if (leftovers.length === 0) return;
    const variantIds = (await this.products.listProductVariants({ product_id: leftovers }, { select: ['id', 'product_id'], withDeleted: true })).map((v) => v.id);
    if (variantIds.length > 0) {
      const items = (await this.wishlists.listWishlistItems({ product_variant_id: variantIds }, { select: ['id'], withDeleted: true })).map((i) => i.id);
      if (items.length > 0) await this.wishlists.deleteWishlistItems(items);
    }
    await this.products.deleteProducts(leftovers);
  }

  /**
   * The ids of the catalogue's products the states draw on, at most `take`, the first by id: the
   * configured sales channel's (through Medusa's product-sales channel link), else the app's.
   */
  private async catalogueProductIds(take: number): Promise<string[]> {
    if (!this.config.salesChannel) return (await this.products.listProducts({}, { select: ['id'], take, order: { id: 'ASC' } })).map((p) => p.id);
    const channelId = await this.salesChannelId();
    const query = this.service<QueryService>(MODULE_NAMES.query);
    const { data } = await query.graph({ entity: 'product_sales_channel', fields: ['product_id'], filters: { sales_channel_id: channelId }, pagination: { take: CHANNEL_PRODUCTS_READ } });
    const linked = [...new Set(data.map((link) => link.product_id).filter((id): id is string => typeof id === 'string'))];
    if (linked.length === 0) return [];
    // deleted products keep no link; the product module has the last word on what exists
    return (await this.products.listProducts({ id: linked }, { select: ['id'], take, order: { id: 'ASC' } })).map((p) => p.id);
  }

  /** The configured customer; without one, the first customer (reviews only: a wishlist must be the token's customer's). */
  private async customerId(forWishlists: boolean): Promise<string> {
    const customers = this.service<CustomerModuleService>(MODULE_NAMES.customer);
    const wanted = this.config.customer;
    if (!wanted) {
      if (forWishlists) throw new StateSetupError(`the wishlist states need the customer whose token verify sends: set ${CUSTOMER_ENV} to that customer's id or email`);
      const [first] = await customers.listCustomers({}, { select: ['id'], take: 1, order: { created_at: 'ASC' } });
      if (!first) throw new StateSetupError(`the app has no customer to write the reviews: create one, and set ${CUSTOMER_ENV} to its id or email`);
      return first.id;
    }
    const [found] = await customers.listCustomers(wanted.startsWith('cus_') ? { id: wanted } : { email: wanted }, { select: ['id'], take: 1 });
    if (!found) throw new StateSetupError(`${CUSTOMER_ENV} names no customer of the app: '${wanted}'`);
    return found.id;
  }

  /** The configured sales channel; without one, the first. */
  private async salesChannelId(): Promise<string> {
    const channels = this.service<SalesChannelModuleService>(MODULE_NAMES.salesChannel);
    const wanted = this.config.salesChannel;
    if (wanted) {
      const [found] = await channels.listSalesChannels(wanted.startsWith('sc_') ? { id: wanted } : { name: wanted }, { select: ['id'], take: 1 });
      if (!found) throw new StateSetupError(`${SALES_CHANNEL_ENV} names no sales channel of the app: '${wanted}'`);
      return found.id;
    }
    const [first] = await channels.listSalesChannels({}, { select: ['id'], take: 1, order: { created_at: 'ASC' } });
    if (!first) throw new StateSetupError('the app has no sales channel for the wishlists: create one');
    return first.id;
  }
}

/** Switches the route on (`1` or `true`); off, it answers 404. */
export const ENABLE_ENV = 'STORE_LISTING_KIT_PROVIDER_STATES';
/** The customer (id or email) whose bearer token `verify --header` sends: the wishlists are theirs. */
export const CUSTOMER_ENV = 'STORE_LISTING_KIT_STATES_CUSTOMER';
/** The sales channel (id or name) of the wishlists, whose products the states draw on (default: the first channel, the whole catalogue). */
export const SALES_CHANNEL_ENV = 'STORE_LISTING_KIT_STATES_SALES_CHANNEL';

export const STATE_KEYS = Object.keys(STATES) as StateKey[];
