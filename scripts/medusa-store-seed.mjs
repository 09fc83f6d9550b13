// The data `npm run test:medusa` lists, created as a storefront creates it: through the running
// backend's store routes (Medusa's customer auth, the plugins' POST /store/reviews, POST
// /store/wishlists and POST /store/wishlists/:id/add-item), then moderated as an admin does (the reviews
// plugin's POST /admin/reviews/status; one variant in a wishlist is then deleted with Medusa's admin
// route). medusa-app/src/scripts/seed.js has made the publishable keys, the products and the admin
// user before. Answers the facts the tests read.

/** Ratings of the reviews of the first product, in the order written: ties on purpose. */
const TEE_RATINGS = [5, 4, 3, 4, 5, 2, 4, 1, 5, 3, 4, 4, 5, 2, 3, 5, 4, 1, 3, 5, 4, 2, 5, 4, 3];
const MUG_RATINGS = [4, 4, 2, 5];
/** Reviews of the first product (by position) that stay pending, and the one rejected; all others are approved. */
const TEE_PENDING = [2, 9, 17];
const TEE_REJECTED = [20];
const CUSTOMERS = ['shopper', 'ada', 'bo', 'cy'];
/** The shopper's wishlists (the first two with items); two other customers have one each. */
const SHOPPER_WISHLISTS = 12;
const FULL_WISHLIST_ITEMS = 25;

/**
 * @param {string} baseUrl
 * @param {{ publishableKey: string, salesChannelId: string, admin: { email: string, password: string }, products: Array<{ id: string, handle: string, variantIds: string[] }> }} catalog
 */
export async function seedThroughStoreRoutes(baseUrl, catalog) {
  /** @param {string} method @param {string} path @param {{ token?: string, body?: unknown }} [options] */
  const call = async (method, path, { token, body } = {}) => {
    const headers = { 'x-publishable-api-key': catalog.publishableKey, 'content-type': 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await fetch(`${baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300) || '(empty body)'}`);
    return text ? JSON.parse(text) : undefined;
  };

  const customers = [];
  for (const name of CUSTOMERS) {
    const email = `${name}@store-listing-kit.test`;
    const password = `${name}-password`;
    const { token: registration } = await call('POST', '/auth/customer/emailpass/register', { body: { email, password } });
    const { customer } = await call('POST', '/store/customers', { token: registration, body: { email, first_name: name[0].toUpperCase() + name.slice(1), last_name: 'Kit' } });
    const { token } = await call('POST', '/auth/customer/emailpass', { body: { email, password } });
    customers.push({ id: customer.id, email, token });
  }

  const [tee, mug, cap] = catalog.products;
  const reviews = [];
  const review = async (product, rating, i) => {
    const author = customers[i % customers.length];
    const created = await call('POST', '/store/reviews', {
      token: author.token,
      body: { product_id: product.id, rating, title: `${product.handle} review ${i + 1}`, content: `Review ${i + 1} of ${product.handle}, ${rating} stars.` },
    });
    reviews.push({ id: created.id, product_id: product.id, rating, customer_id: author.id, status: created.status });
  };
  for (const [i, rating] of TEE_RATINGS.entries()) await review(tee, rating, i);
  for (const [i, rating] of MUG_RATINGS.entries()) await review(mug, rating, i);

  const { token: adminToken } = await call('POST', '/auth/user/emailpass', { body: catalog.admin });
  const moderate = async (ids, status) => {
    await call('POST', '/admin/reviews/status', { token: adminToken, body: { ids, status } });
    for (const r of reviews) if (ids.includes(r.id)) r.status = status;
  };
  const teeReviews = reviews.filter((r) => r.product_id === tee.id);
  const keep = new Set([...TEE_PENDING, ...TEE_REJECTED]);
  await moderate(reviews.filter((r) => !teeReviews.includes(r) || !keep.has(teeReviews.indexOf(r))).map((r) => r.id), 'approved');
  await moderate(TEE_REJECTED.map((i) => teeReviews[i].id), 'rejected');

  const wishlists = [];
  /** @param {{ id: string, token: string }} owner @param {string} name @param {string[]} variantIds */
  const wishlist = async (owner, name, variantIds) => {
    const created = await call('POST', '/store/wishlists', { token: owner.token, body: { name, sales_channel_id: catalog.salesChannelId } });
    const itemIds = [];
    for (const variant of variantIds) {
      const item = await call('POST', `/store/wishlists/${created.id}/add-item`, { token: owner.token, body: { product_variant_id: variant } });
      itemIds.push(item.id);
    }
    wishlists.push({ id: created.id, customer_id: owner.id, itemIds });
  };
  const shopper = customers[0];
  for (let i = 0; i < SHOPPER_WISHLISTS; i++) {
    const items = i === 0 ? tee.variantIds.slice(0, FULL_WISHLIST_ITEMS) : i === 1 ? mug.variantIds : [];
    await wishlist(shopper, `List ${String(i + 1).padStart(2, '0')}`, items);
  }
  await wishlist(customers[1], 'Not the shopper\'s', cap.variantIds);
  // A wishlist whose only item's variant the admin then deletes (the last variant of the first product,
  // in no other wishlist).
  const deletedVariantId = tee.variantIds.at(-1);
  await wishlist(customers[3], 'Deleted variant', [deletedVariantId]);
  await call('DELETE', `/admin/products/${tee.id}/variants/${deletedVariantId}`, { token: adminToken });

  return { baseUrl, ...catalog, customers, reviews, wishlists, deletedVariantId };
}
