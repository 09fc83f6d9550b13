import { GivenCatalogue } from '../../fixtures/catalogue.ts';
import { generateDataset, type GenerateOptions } from '../../fixtures/dataset.ts';
import { generationOf, type DatasetHolder } from '../dataset/holder.ts';
import { lazily } from '../helpers/lazy.ts';
import { silentLogger, type Logger } from '../helpers/logging.ts';
import { variantJson } from '../writes/seed.ts';
import type { VariantJson } from '../writes/types.ts';

/**
 * The catalogue of a Medusa backend (`serve --backend`, alphabite dialect): its products and
 * variants, read from its store API (`GET /store/products`, fixtures/medusa-catalogue.ts) with a
 * publishable key, are what the mock's reviews and wishlist items point at.
 *
 * The catalogue is read once, with `--publishable-key` before the server listens, or else with the
 * key of the first request to the plugins' routes that carries one (backend/catalogue-gate.ts holds
 * such requests until it is read). It is kept for the server's life, and read again for a reseed
 * (which generates over it as it is then) and when `add-item` names a variant it does not have (one
 * created on the backend after the read): then at most once every CATALOGUE_REREAD_MS.
 *
 * The reader (fixtures/medusa-catalogue.ts, with zod) and the kit's bounded HTTP client (client/,
 * undici) are loaded on the first read, so a mock without a backend loads neither.
 */

/** The least time between two reads of the catalogue for a variant it did not have. */
export const CATALOGUE_REREAD_MS = 60_000;
/** The most bytes one page of products may take (200 products with their variants take far less). */
export const CATALOGUE_PAGE_MAX_BYTES = 16 * 1024 * 1024;
/** How long one page of products may take, when the backend's timeout is not given. */
const DEFAULT_READ_TIMEOUT_MS = 30_000;

/** Reads the catalogue of a backend with a publishable key. */
export type CatalogueReader = (backend: string, key: string) => Promise<GivenCatalogue>;

const readerModules = lazily(async () => {
  const [{ fetchMedusaCatalogue }, { exchange }] = await Promise.all([import('../../fixtures/medusa-catalogue.ts'), import('../../client/exchange.ts')]);
  return { fetchMedusaCatalogue, exchange };
});

/**
 * The catalogue reader through the kit's HTTP client: each page within `timeoutMs` and
 * CATALOGUE_PAGE_MAX_BYTES. Rejects with an Error of one sentence that names the backend.
 */
export function backendCatalogueReader(timeoutMs = DEFAULT_READ_TIMEOUT_MS): CatalogueReader {
  return async (backend, key) => {
    const { fetchMedusaCatalogue, exchange } = await readerModules();
    const getJson = async (url: string, headers: Readonly<Record<string, string>>) => {
      const answer = await exchange(url, { timeoutMs, maxBodyBytes: CATALOGUE_PAGE_MAX_BYTES }, undefined, { ...headers });
      return { status: answer.status, json: answer.json };
    };
    try {
      return new GivenCatalogue(await fetchMedusaCatalogue(backend, key, getJson), backend);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`Cannot read the catalogue of the backend ${backend}: ${reason.replace(/\.$/, '')}`, { cause: error });
    }
  };
}

export interface BackendCatalogueOptions {
  /** The seed and sizes of the dataset generated over the catalogue (its `products` are the catalogue's). */
  generation: Omit<GenerateOptions, 'products'>;
  /** How the catalogue is read (default: backendCatalogueReader()). */
  read?: CatalogueReader;
  logger?: Logger;
  /** The clock of the re-read's rate limit (epoch ms). */
  now?: () => number;
}

/** One backend's catalogue for one server: read on demand, generated over, read again for unknown variants. */
export class BackendCatalogue {
  readonly #read: CatalogueReader;
  readonly #logger: Logger;
  readonly #now: () => number;
  readonly #generation: BackendCatalogueOptions['generation'];
  #loaded = false;
  #loading: Promise<void> | undefined;
  /** The key the catalogue was read with: a re-read uses it. */
  #key: string | undefined;
  #rereading: Promise<void> | undefined;
  #lastReread = Number.NEGATIVE_INFINITY;

  constructor(
    readonly holder: DatasetHolder,
    readonly backend: string,
    options: BackendCatalogueOptions,
  ) {
    this.#read = options.read ?? backendCatalogueReader();
    this.#logger = options.logger ?? silentLogger;
    this.#now = options.now ?? Date.now;
    this.#generation = options.generation;
    holder.awaitCatalogue(backend);
    holder.rereadCatalogue = () => (this.#key === undefined ? Promise.resolve() : this.#reread(this.#key));
  }

  /** The catalogue has been read and the dataset generated over it is served. */
  get loaded(): boolean {
    return this.#loaded;
  }

  /**
   * Reads the catalogue with `key` and serves the dataset generated over it (the holder's initial
   * dataset from then on). Callers meanwhile share the one read; once it is loaded, resolves at
   * once. Rejects with one sentence naming the backend; the next call reads again.
   */
  load(key: string): Promise<void> {
    if (this.#loaded) return Promise.resolve();
    return (this.#loading ??= this.#firstRead(key).finally(() => (this.#loading = undefined)));
  }

  async #firstRead(key: string): Promise<void> {
    const catalogue = await this.#read(this.backend, key);
    const dataset = generateDataset(this.#generation, catalogue);
    const generation = { ...generationOf(dataset.summary), ...(this.#generation.maxItems !== undefined ? { maxItems: this.#generation.maxItems } : {}) };
    this.holder.adoptCatalogue(catalogue, dataset, generation);
    this.#key = key;
    this.#loaded = true;
    this.#logger.info({ backend: this.backend, products: catalogue.count, variants: catalogue.variantTotal }, 'catalogue read from the backend');
  }

  /**
   * A variant the dataset served does not know (add-item's lookup after the seed's): found in the
   * catalogue as last read, or else in the catalogue read again, unless it was read again less than
   * CATALOGUE_REREAD_MS ago. Undefined when it is still unknown, or the read failed (logged).
   */
  async findVariant(id: string): Promise<VariantJson | undefined> {
    const known = this.holder.catalogue?.findVariant(id);
    if (known) return variantJson(known);
    if (this.#key === undefined) return undefined;
    if (!this.#rereading) {
      if (this.#now() - this.#lastReread < CATALOGUE_REREAD_MS) return undefined;
      this.#lastReread = this.#now();
      this.#rereading = this.#reread(this.#key).finally(() => (this.#rereading = undefined));
    }
    await this.#rereading;
    const found = this.holder.catalogue?.findVariant(id);
    return found && variantJson(found);
  }

  async #reread(key: string): Promise<void> {
    try {
      const catalogue = await this.#read(this.backend, key);
      this.holder.updateCatalogue(catalogue);
      this.#logger.info({ backend: this.backend, products: catalogue.count, variants: catalogue.variantTotal }, 'catalogue read again from the backend');
    } catch (error) {
      this.#logger.warn({ backend: this.backend, err: error }, 'the catalogue could not be read again; the one read before is kept');
    }
  }
}
