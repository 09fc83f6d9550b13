/**
 * Catalogues (fixtures/catalogue.ts, fixtures/medusa-catalogue.ts): the generated one serves the
 * same bytes as before catalogues could be given; a given one (a Medusa backend's products and
 * variants) is what reviews and wishlist items point at, the same whatever its order; and the
 * walker of `GET /store/products` pages, dedupes, stays bounded and fails in one sentence.
 */
import type { StoreProduct } from '@medusajs/types';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GeneratedCatalogue, GivenCatalogue, type CatalogueInput, type CatalogueProductInput } from '../fixtures/catalogue.ts';
import { describeDataset, generateDataset, type Dataset, type GenerateOptions } from '../fixtures/dataset.ts';
import { SIZE_LIMITS } from '../fixtures/generate.ts';
import { hash32 } from '../fixtures/hash.ts';
import { CATALOGUE_FIELDS, CatalogueFetchError, catalogueUrl, fetchMedusaCatalogue, type GetJson } from '../fixtures/medusa-catalogue.ts';
import { alphabiteDialect } from '../lib/dialects/alphabite.ts';
import { alphabiteRecordSchemas } from '../lib/dialects/alphabite-schemas.ts';
import { strictRecordSchemas, type WishlistItem } from '../lib/records.ts';
import { datasetDigest } from './support/dataset-digest.ts';

/**
 * datasetDigest of default datasets, computed on main at 32c13c4, before catalogues could be given
 * (the generator's private catalogue). The same numbers now say the generated datasets, and so every
 * answer served from them, are byte for byte what they were.
 */
const DIGESTS_BEFORE_CATALOGUES: Array<{ options: GenerateOptions; digest: string }> = [
  { options: {}, digest: 'a6d0c3109493666a89693f228b8ad951cb857a0a45ad747010760d0bc303538f' },
  { options: { seed: 1 }, digest: 'a6d0c3109493666a89693f228b8ad951cb857a0a45ad747010760d0bc303538f' },
  { options: { seed: 7 }, digest: 'fd5505bc31e6360c0ea31382f25360064b3fcfdf8fc79b7f4401201ec85a67b8' },
  { options: { seed: 1, reviews: 40, products: 1, wishlists: 6, maxItems: 3 }, digest: 'aa96f990397da84fae089464e1f78bd1f29f220e44fdf054c9ee588a8e9d278f' },
  { options: { seed: 7, reviews: 5000, products: 200, wishlists: 400, maxItems: 60 }, digest: '2ce12ec1f0d0658e469338d86d6a41f5b388f4282aa6ead1bd13a3b64e73e871' },
  { options: { seed: 1, reviews: 0, products: 2, wishlists: 3, maxItems: 0 }, digest: '491dbd07897f9f72f1631c10b8e7c05c676c0705847ca76e972dd08dd3c0ea47' },
];

/** A small catalogue as Medusa lists it, with the cases that matter: no variant, null title and sku, many variants, a thumbnail or none. */
function shopCatalogue(): CatalogueInput {
  return {
    products: [
      { id: 'prod_01TEE', title: 'Kit Tee', handle: 'kit-tee', thumbnail: 'https://cdn.example.com/tee.png', variants: Array.from({ length: 12 }, (_, v) => ({ id: `variant_01TEE${String(v).padStart(2, '0')}`, title: `Tee ${v}`, sku: `TEE-${v}` })) },
      { id: 'prod_01MUG', title: 'Kit Mug', handle: 'kit-mug', thumbnail: null, variants: [{ id: 'variant_01MUG', title: null, sku: null }] },
      { id: 'prod_01GIFT', title: 'Gift card', handle: 'gift-card', thumbnail: null, variants: [] },
      { id: 'prod_01CAP', title: 'Kit Cap', handle: 'kit-cap', thumbnail: null, variants: [{ id: 'variant_01CAPB', title: 'Blue' }, { id: 'variant_01CAPA', title: 'Red', sku: 'CAP-RED' }] },
      { id: 'prod_01POSTER', title: 'Poster', handle: 'poster', thumbnail: null, variants: null },
    ],
  };
}

const SIZES = { seed: 5, reviews: 400, wishlists: 30, maxItems: 12 } as const;

/** A deterministic shuffle (Fisher-Yates over the kit's hash): a different order per `salt`. */
function shuffled<T>(list: readonly T[], salt: number): T[] {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = hash32(salt, 99, i) % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

function shuffledCatalogue(input: CatalogueInput, salt: number): CatalogueInput {
  return { products: shuffled(input.products, salt).map((p, k) => ({ ...p, variants: p.variants && shuffled(p.variants, salt + k + 1) })) };
}

function everyItem(dataset: Dataset): WishlistItem[] {
  const source = dataset.wishlists.source;
  const items: WishlistItem[] = [];
  for (let w = 0; w < source.count; w++) for (let k = 0; k < source.itemCount(w); k++) items.push(source.item(w, k));
  return items;
}

function everyReviewedProduct(dataset: Dataset): Set<string> {
  const source = dataset.reviews.source;
  const ids = new Set<string>();
  for (let i = 0; i < source.count; i++) ids.add(source.review(i).product_id);
  return ids;
}

/** The variant as the records must show it, from the input. */
function expectedVariants(input: CatalogueInput): Map<string, WishlistItem['product_variant']> {
  const variants = new Map<string, WishlistItem['product_variant']>();
  for (const { id, title, handle, thumbnail, variants: given } of input.products) {
    for (const v of given ?? []) variants.set(v.id, { id: v.id, title: v.title ?? '', sku: v.sku ?? '', product: { id, title, handle, thumbnail } });
  }
  return variants;
}

describe('the generated catalogue', () => {
  it.each(DIGESTS_BEFORE_CATALOGUES)('serves the same bytes as before catalogues could be given: $options', ({ options, digest }) => {
    expect(datasetDigest(generateDataset(options))).toBe(digest);
  });

  it('given back as data (its products and variants), gives the same records', () => {
    const seed = 3;
    const generated = new GeneratedCatalogue(seed, 8);
    const products: CatalogueProductInput[] = Array.from({ length: generated.count }, (_, p) => ({
      ...generated.product(p),
      variants: Array.from({ length: generated.variantCount() }, (_, v) => {
        const { id, title, sku } = generated.variant(p, v);
        return { id, title, sku };
      }),
    }));
    const given = generateDataset({ seed }, shuffledCatalogue({ products }, 4));
    expect(given.summary.catalogue).toEqual({ from: 'given', products: 8, variants: 32 });
    expect(datasetDigest(given, false)).toBe(datasetDigest(generateDataset({ seed, products: 8 }), false));
  });
});

describe('a given catalogue', () => {
  const input = shopCatalogue();
  const dataset = generateDataset(SIZES, input);

  it('gives the same dataset, byte for byte, whatever the order of its products and variants', () => {
    const digest = datasetDigest(dataset);
    for (const salt of [1, 2, 3]) expect(datasetDigest(generateDataset(SIZES, shuffledCatalogue(input, salt)))).toBe(digest);
    expect(datasetDigest(generateDataset(SIZES, new GivenCatalogue(shuffledCatalogue(input, 9))))).toBe(digest);
  });

  it('puts only its own variants in wishlist items, each with its own product, as the input gives them', () => {
    const variants = expectedVariants(input);
    const items = everyItem(dataset);
    expect(items.length).toBeGreaterThan(50);
    for (const item of items) {
      expect(item.product_variant).toEqual(variants.get(item.product_variant_id));
      expect(item.product_variant.id).toBe(item.product_variant_id);
    }
    // Drawn over every product with variants, and over a product's variants.
    expect(new Set(items.map((i) => i.product_variant.product.id))).toEqual(new Set(['prod_01TEE', 'prod_01MUG', 'prod_01CAP']));
    expect(new Set(items.filter((i) => i.product_variant.product.id === 'prod_01TEE').map((i) => i.product_variant_id)).size).toBeGreaterThan(6);
    expect(items.find((i) => i.product_variant_id === 'variant_01MUG')?.product_variant).toEqual({ id: 'variant_01MUG', title: '', sku: '', product: { id: 'prod_01MUG', title: 'Kit Mug', handle: 'kit-mug', thumbnail: null } });
  });

  it('shows the item in the alphabite dialect with its product id, handle and thumbnail', () => {
    const item = everyItem(dataset).find((i) => i.product_variant.product.id === 'prod_01TEE')!;
    const shown = alphabiteDialect().project.item(item);
    expect(alphabiteRecordSchemas.item.safeParse(shown).error).toBeUndefined();
    expect(shown).toEqual({
      id: item.id,
      wishlist_id: item.wishlist_id,
      product_variant_id: item.product_variant_id,
      product_variant: { id: item.product_variant_id, title: item.product_variant.title, product_id: 'prod_01TEE', product: { id: 'prod_01TEE', handle: 'kit-tee', thumbnail: 'https://cdn.example.com/tee.png' } },
    });
  });

  it('has reviews of its products only, products without variants included, and none of the last in id order', () => {
    const reviewed = everyReviewedProduct(dataset);
    // In id order: CAP, GIFT, MUG, POSTER, TEE. The last one gets no review (one empty product page).
    expect(reviewed).toEqual(new Set(['prod_01CAP', 'prod_01GIFT', 'prod_01MUG', 'prod_01POSTER']));
    const source = dataset.reviews.source;
    expect(Array.from({ length: source.productCount }, (_, p) => source.productId(p))).toEqual(['prod_01CAP', 'prod_01GIFT', 'prod_01MUG', 'prod_01POSTER', 'prod_01TEE']);
    expect(source.productIndexOf('prod_01MUG')).toBe(2);
    expect(source.productIndexOf('prod_0000000000A4T9KX2MB7QZ1C')).toBe(-1);
  });

  it('finds each of its variants by id, and no other', () => {
    const source = dataset.wishlists.source;
    for (const [id, variant] of expectedVariants(input)) expect(source.findVariant?.(id)).toEqual(variant);
    const generatedVariant = generateDataset({ seed: SIZES.seed }).wishlists.source.item(0, 0).product_variant_id;
    for (const id of [generatedVariant, 'variant_', 'prod_01TEE', '__proto__', 'constructor']) expect(source.findVariant?.(id)).toBeUndefined();
  });

  it('writes reviews naming products whose ids JSON escapes as JSON.stringify does', () => {
    const odd: CatalogueInput = { products: [{ id: 'prod_"quoted"\\é', title: 't', handle: 'h', thumbnail: null, variants: [] }, { id: 'prod_z', title: 't', handle: 'h', thumbnail: null, variants: [] }] };
    const source = generateDataset({ reviews: 20 }, odd).reviews.source;
    for (let i = 0; i < source.count; i++) {
      const pieces: string[] = [];
      source.writeReviewJson!(i, pieces);
      expect(pieces.join('')).toBe(JSON.stringify(source.review(i)));
    }
    expect(source.review(0).product_id).toBe('prod_"quoted"\\é');
  });

  it('says in its summary where the catalogue came from and how large it is', () => {
    expect(dataset.summary).toMatchObject({ source: 'generated', seed: 5, reviews: 400, products: 5, wishlists: 30, catalogue: { from: 'given', products: 5, variants: 15 } });
    const fromBackend = generateDataset({}, new GivenCatalogue(input, 'http://127.0.0.1:9000'));
    expect(describeDataset(fromBackend.summary)).toMatch(/^seed 1 over the catalogue of http:\/\/127\.0\.0\.1:9000: 300 reviews of 5 products, 45 wishlists holding \d+ items$/);
  });

  it('without variants: reviews, and wishlists without items; without products: no reviews either', () => {
    const noVariants: CatalogueInput = { products: input.products.map((p) => ({ ...p, variants: [] })) };
    const bare = generateDataset(SIZES, noVariants);
    expect(bare.summary).toMatchObject({ reviews: 400, products: 5, wishlists: 30, wishlistItems: 0 });
    expect(everyItem(bare)).toEqual([]);
    expect(bare.wishlists.source.wishlist(0).items_count).toBe(0);
    expect(everyReviewedProduct(bare).size).toBe(4);
    const empty = generateDataset(SIZES, { products: [] });
    expect(empty.summary).toMatchObject({ reviews: 0, products: 0, wishlists: 30, wishlistItems: 0 });
    expect(empty.reviews.source.count).toBe(0);
  });

  it('takes the products of Medusa\'s StoreProduct type as they are', () => {
    const listed: StoreProduct[] = [];
    const accepted: CatalogueInput = { products: listed };
    expect(generateDataset({}, accepted).summary.products).toBe(0);
  });

  it("refuses a 'products' size other than its own, and more products than the mock serves", () => {
    expect(() => generateDataset({ products: 3 }, input)).toThrow(new TypeError("'products' is 3, but with a catalogue the products are the catalogue's 5: leave 'products' out"));
    expect(generateDataset({ products: 5 }, input).summary.products).toBe(5);
    const huge = new GivenCatalogue(input, 'http://big.example');
    Object.defineProperty(huge, 'count', { value: SIZE_LIMITS.products.max + 1 });
    expect(() => generateDataset({}, huge)).toThrow(new TypeError(`the catalogue (http://big.example) has ${SIZE_LIMITS.products.max + 1} products, and the mock serves at most ${SIZE_LIMITS.products.max}`));
  });

  const product = (fields: Record<string, unknown>) => ({ id: 'prod_1', title: 'One', handle: 'one', thumbnail: null, variants: [], ...fields });
  const refusals: Array<{ name: string; products: unknown; message: string }> = [
    { name: 'products not a list', products: { prod_1: {} }, message: 'a catalogue is { products: [...] }, and its products are not an array' },
    { name: 'a product that is not an object', products: [product({}), 'prod_2'], message: 'the catalogue\'s product at index 1: must be an object, got "prod_2"' },
    { name: 'a product id without its prefix', products: [product({ id: 'product_1' })], message: "the catalogue's product product_1: 'id' must be a string id starting with 'prod_', got \"product_1\"" },
    { name: 'a product id with a space', products: [product({ id: 'prod_1 2' })], message: "the catalogue's product prod_1 2: 'id' must be a string id starting with 'prod_', got \"prod_1 2\"" },
    { name: 'a product id that is not a string', products: [product({ id: 7 })], message: "the catalogue's product at index 0: 'id' must be a string id starting with 'prod_', got 7" },
    { name: 'no title', products: [product({ title: undefined })], message: "the catalogue's product prod_1: 'title' must be a string, got nothing" },
    { name: 'a handle that is not a string', products: [product({ handle: null })], message: "the catalogue's product prod_1: 'handle' must be a string, got null" },
    { name: 'no thumbnail', products: [product({ thumbnail: undefined })], message: "the catalogue's product prod_1: 'thumbnail' must be a string or null, got nothing" },
    { name: 'variants not a list', products: [product({ variants: {} })], message: "the catalogue's product prod_1: 'variants' must be an array or null, got {}" },
    { name: 'a variant id without its prefix', products: [product({ variants: [{ id: 'var_1', title: 'S' }] })], message: "the catalogue's product prod_1: variant 0's 'id' must be a string id starting with 'variant_', got \"var_1\"" },
    { name: 'a variant title that is not a string', products: [product({ variants: [{ id: 'variant_1', title: 3 }] })], message: "the catalogue's product prod_1: variant variant_1's 'title' must be a string or null, got 3" },
    { name: 'a sku that is not a string', products: [product({ variants: [{ id: 'variant_1', title: 'S', sku: 10n }] })], message: "the catalogue's product prod_1: variant variant_1's 'sku' must be a string or null, got bigint" },
    { name: 'a product twice', products: [product({}), product({ title: 'Again' })], message: "the catalogue's product prod_1 appears twice" },
    {
      name: 'a variant in two products',
      products: [product({ variants: [{ id: 'variant_1', title: 'S' }] }), product({ id: 'prod_2', variants: [{ id: 'variant_1', title: 'M' }] })],
      message: "the catalogue's product prod_2: variant variant_1 appears twice (also in product prod_1)",
    },
  ];

  it.each(refusals)('is refused with a TypeError naming the product: $name', ({ products, message }) => {
    const given = { products } as unknown as CatalogueInput;
    expect(() => new GivenCatalogue(given)).toThrow(new TypeError(message));
    expect(() => generateDataset({}, given)).toThrow(new TypeError(message));
  });
});

describe('any catalogue, in any order (property)', () => {
  /** A non-empty string without white space, with the characters JSON escapes more often than chance would bring them. */
  const idTail = fc.stringMatching(/^[\S"\\\u00e9\u0001]{1,10}$/);
  const variant = (owner: number) => fc.record({ tail: idTail, title: fc.option(fc.string({ maxLength: 12 })), sku: fc.option(fc.string({ maxLength: 8 }), { nil: undefined }) }).map(({ tail, title, sku }) => ({ id: `variant_${owner}_${tail}`, title, ...(sku === undefined ? {} : { sku }) }));
  const catalogue = fc
    .uniqueArray(fc.record({ tail: idTail, title: fc.string({ maxLength: 20 }), handle: fc.string({ maxLength: 20 }), thumbnail: fc.option(fc.webUrl()), variantCount: fc.nat({ max: 6 }) }), { selector: (p) => p.tail, maxLength: 7 })
    .chain((products) =>
      fc.tuple(...products.map(({ tail, title, handle, thumbnail, variantCount }, owner) => fc.uniqueArray(variant(owner), { selector: (v) => v.id, maxLength: variantCount }).map((variants) => ({ id: `prod_${tail}`, title, handle, thumbnail, variants })))),
    )
    .map((products): CatalogueInput => ({ products }));

  it('gives the same records for the same seed, every record valid by the strict schemas and the alphabite projection', () => {
    fc.assert(
      fc.property(catalogue, fc.integer({ min: 1, max: 10_000 }), fc.nat(), (input, seed, salt) => {
        const options = { seed, reviews: 25, wishlists: 6, maxItems: 4 };
        const dataset = generateDataset(options, input);
        expect(datasetDigest(generateDataset(options, shuffledCatalogue(input, salt)))).toBe(datasetDigest(dataset));
        const products = new Set(input.products.map((p) => p.id));
        const variants = expectedVariants(input);
        const alphabite = alphabiteDialect();
        const reviews = dataset.reviews.source;
        for (let i = 0; i < reviews.count; i++) {
          const review = reviews.review(i);
          expect(strictRecordSchemas.review.safeParse(review).error).toBeUndefined();
          expect(products.has(review.product_id)).toBe(true);
          const pieces: string[] = [];
          reviews.writeReviewJson!(i, pieces);
          expect(pieces.join('')).toBe(JSON.stringify(review));
          expect(alphabiteRecordSchemas.review.safeParse(alphabite.project.review(review)).error).toBeUndefined();
        }
        const wishlists = dataset.wishlists.source;
        for (let w = 0; w < wishlists.count; w++) {
          const wishlist = wishlists.wishlist(w);
          expect(strictRecordSchemas.wishlist.safeParse(wishlist).error).toBeUndefined();
          expect(alphabiteRecordSchemas.wishlist.safeParse(alphabite.project.wishlist(wishlist)).error).toBeUndefined();
          for (const item of wishlist.items) {
            expect(item.product_variant).toEqual(variants.get(item.product_variant_id));
            const shown = alphabite.project.item(item);
            expect(alphabiteRecordSchemas.item.safeParse(shown).error).toBeUndefined();
            expect(Object.keys(shown)).toEqual(Object.keys(alphabiteRecordSchemas.item.shape));
          }
        }
        if (variants.size === 0) expect(dataset.summary.wishlistItems).toBe(0);
        if (products.size === 0) expect(reviews.count).toBe(0);
      }),
      { numRuns: 40 },
    );
  });
});

/**
 * A Medusa backend's `GET /store/products` as a GetJson: the products in id order, paged by the
 * request's limit and offset, with fields it was not asked for (the walker drops them). `change` runs
 * before each answer (the catalogue changing while it is paged).
 */
function fakeMedusa(products: CatalogueProductInput[], options: { key?: string; change?: (request: number) => void } = {}) {
  const requests: Array<{ url: string; headers: Readonly<Record<string, string>> }> = [];
  const getJson: GetJson = async (url, headers) => {
    requests.push({ url, headers });
    options.change?.(requests.length);
    if (headers['x-publishable-api-key'] !== (options.key ?? 'pk_test')) return { status: 400, json: { type: 'not_allowed', message: 'A valid publishable key is required to proceed with the request' } };
    const query = new URL(url).searchParams;
    const limit = Number(query.get('limit'));
    const offset = Number(query.get('offset'));
    const sorted = [...products].sort((a, b) => (a.id < b.id ? -1 : 1));
    const page = sorted.slice(offset, offset + limit).map((p) => ({ ...p, description: 'not asked for', variants: p.variants?.map((v) => ({ ...v, options: [] })) ?? null }));
    return { status: 200, json: { products: page, count: products.length, offset, limit } };
  };
  return { getJson, requests };
}

function manyProducts(n: number): CatalogueProductInput[] {
  return Array.from({ length: n }, (_, i) => ({ id: `prod_${String(i).padStart(5, '0')}`, title: `P${i}`, handle: `p-${i}`, thumbnail: null, variants: [{ id: `variant_${String(i).padStart(5, '0')}`, title: 'One', sku: null }] }));
}

describe("reading a Medusa backend's catalogue (GET /store/products)", () => {
  const base = 'http://127.0.0.1:9000';

  it('asks for pages of 200 in id order with the fields the records show, and the publishable key', async () => {
    const medusa = fakeMedusa(manyProducts(450));
    const catalogue = await fetchMedusaCatalogue(base, 'pk_test', medusa.getJson);
    expect(medusa.requests.map((r) => r.url)).toEqual([0, 200, 400].map((offset) => `${base}/store/products?limit=200&offset=${offset}&order=id&fields=id,title,handle,thumbnail,variants.id,variants.title,variants.sku`));
    expect(medusa.requests[0]!.headers).toEqual({ 'x-publishable-api-key': 'pk_test', accept: 'application/json' });
    expect(catalogue.products.map((p) => p.id)).toEqual(manyProducts(450).map((p) => p.id));
    expect(catalogue.products[0]).toEqual({ id: 'prod_00000', title: 'P0', handle: 'p-0', thumbnail: null, variants: [{ id: 'variant_00000', title: 'One', sku: null }] });
    expect(CATALOGUE_FIELDS.split(',')).toEqual(['id', 'title', 'handle', 'thumbnail', 'variants.id', 'variants.title', 'variants.sku']);
  });

  it.each([
    { products: 0, requests: 1 },
    { products: 3, requests: 1 },
    { products: 200, requests: 1 },
    { products: 400, requests: 2 },
    { products: 401, requests: 3 },
  ])('asks ceil(n / 200) pages, at least one: $products products', async ({ products, requests }) => {
    const medusa = fakeMedusa(manyProducts(products));
    expect((await fetchMedusaCatalogue(base, 'pk_test', medusa.getJson)).products).toHaveLength(products);
    expect(medusa.requests).toHaveLength(requests);
  });

  it('keeps a path of the base URL', () => {
    expect(catalogueUrl('https://shop.example/api/', 400)).toBe(`https://shop.example/api/store/products?limit=200&offset=400&order=id&fields=${CATALOGUE_FIELDS}`);
    expect(() => catalogueUrl('not a url', 0)).toThrow(new TypeError('the backend\'s URL must be an absolute URL like http://localhost:9000, got "not a url"'));
  });

  it('stops at an empty page, even when the count promised more', async () => {
    const answers = [
      { products: manyProducts(200), count: 1000 },
      { products: [], count: 1000 },
    ];
    const urls: string[] = [];
    const catalogue = await fetchMedusaCatalogue(base, 'pk_test', async (url) => {
      urls.push(url);
      return { status: 200, json: answers[urls.length - 1] };
    });
    expect(catalogue.products).toHaveLength(200);
    expect(urls).toHaveLength(2);
  });

  it('keeps a product seen twice once, when the catalogue changes while it is paged', async () => {
    const products = manyProducts(300);
    // Before the second page, a product is created that sorts first: the first page's last product comes again.
    const medusa = fakeMedusa(products, { change: (request) => request === 2 && products.push({ ...manyProducts(1)[0]!, id: 'prod_0', variants: [] }) });
    const catalogue = await fetchMedusaCatalogue(base, 'pk_test', medusa.getJson);
    expect(medusa.requests).toHaveLength(2);
    expect(catalogue.products).toHaveLength(300);
    expect(new Set(catalogue.products.map((p) => p.id)).size).toBe(300);
    expect(() => generateDataset({}, catalogue)).not.toThrow();
  });

  it('refuses a catalogue larger than the mock serves, by its count or by what it sends', async () => {
    const medusa = fakeMedusa(manyProducts(5));
    await expect(fetchMedusaCatalogue(base, 'pk_test', medusa.getJson, { maxProducts: 4 })).rejects.toThrow(
      new CatalogueFetchError(`the backend lists 5 products (GET ${catalogueUrl(base, 0)}), more than the 4 the mock serves`),
    );
    expect(medusa.requests).toHaveLength(1);
    const lying: GetJson = async () => ({ status: 200, json: { products: manyProducts(5), count: 2 } });
    await expect(fetchMedusaCatalogue(base, 'pk_test', lying, { maxProducts: 4 })).rejects.toThrow(/^the backend lists 5 products \(GET http:\/\/127\.0\.0\.1:9000\/store\/products\?limit=200&offset=0&/);
    expect(SIZE_LIMITS.products.max).toBe(1_000_000);
  });

  it('is bounded by the requests a backend that ignores the offset can make it send', async () => {
    let requests = 0;
    const stuck: GetJson = async () => {
      requests += 1;
      return { status: 200, json: { products: manyProducts(200), count: 1000 } };
    };
    expect((await fetchMedusaCatalogue(base, 'pk_test', stuck)).products).toHaveLength(200);
    expect(requests).toBe(5);
  });

  const failures: Array<{ name: string; getJson: GetJson; message: RegExp }> = [
    {
      name: 'a refusal, with Medusa\'s message',
      getJson: fakeMedusa([], { key: 'pk_other' }).getJson,
      message: /^the backend answered GET http:\/\/127\.0\.0\.1:9000\/store\/products\?limit=200&offset=0&order=id&fields=\S+ with status 400 \(A valid publishable key is required to proceed with the request\), not 200 and a page of products$/,
    },
    { name: 'a 502 with no body', getJson: async () => ({ status: 502, json: undefined }), message: /^the backend answered GET http:\/\/\S+ with status 502, not 200 and a page of products$/ },
    { name: 'not a page of products', getJson: async () => ({ status: 200, json: { items: [] } }), message: /^the backend's answer to GET http:\/\/\S+ is not a page of products: field 'products': .+$/ },
    {
      name: 'a variant id without its prefix',
      getJson: async () => ({ status: 200, json: { products: [{ id: 'prod_1', title: 'T', handle: 't', thumbnail: null, variants: [{ id: 'var_1', title: 'S', sku: null }] }], count: 1 } }),
      message: /^the backend's answer to GET http:\/\/\S+ is not a page of products: field 'products\.0\.variants\.0\.id': must be a string id starting with 'variant_' \(got "var_1"\)$/,
    },
    { name: 'HTML', getJson: async () => ({ status: 200, json: undefined }), message: /^the backend's answer to GET http:\/\/\S+ is not a page of products: .+$/ },
    {
      name: 'a connection that fails',
      getJson: async () => {
        throw new Error('connect ECONNREFUSED 127.0.0.1:9000\n    at somewhere');
      },
      message: /^the catalogue could not be read from GET http:\/\/\S+: connect ECONNREFUSED 127\.0\.0\.1:9000 at somewhere$/,
    },
  ];

  it.each(failures)('fails in one sentence naming the URL: $name', async ({ getJson, message }) => {
    const failure = await fetchMedusaCatalogue(base, 'pk_test', getJson).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(CatalogueFetchError);
    expect((failure as Error).message).toMatch(message);
    expect((failure as Error).message).not.toContain('\n');
  });

  it('needs a publishable key', async () => {
    await expect(fetchMedusaCatalogue(base, '', fakeMedusa([]).getJson)).rejects.toThrow(TypeError);
  });

  it('reads what a generated dataset then shows: the backend\'s products and variants', async () => {
    const input = shopCatalogue();
    const medusa = fakeMedusa([...input.products]);
    const dataset = generateDataset(SIZES, new GivenCatalogue(await fetchMedusaCatalogue(base, 'pk_test', medusa.getJson), base));
    expect(datasetDigest(dataset, false)).toBe(datasetDigest(generateDataset(SIZES, input), false));
    expect(dataset.summary.catalogue).toEqual({ from: base, products: 5, variants: 15 });
  });
});
