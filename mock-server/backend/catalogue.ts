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
      const message = `Cannot read the catalogue of the backend ${backend}: ${reason.replace(/\.$/, '')}`;
      const answer = error instanceof Error && 'answer' in error ? (error.answer as { status: number; json: unknown } | undefined) : undefined;
      const refusal = answer && refusalOf(answer.status, answer.json);
      throw refusal ? new CatalogueRefusedError(message, refusal, { cause: error }) : new Error(message, { cause: error });
    }
  };
}

/** The most bytes of a backend's refusal passed on to the client (Medusa's are about a hundred). */
export const MAX_REFUSAL_BYTES = 16 * 1024;

/** A backend's refusal of the catalogue read, as the client is answered with it: its status and its JSON body. */
export interface CatalogueRefusal {
  status: number;
  /** The backend's JSON body, serialized (at most MAX_REFUSAL_BYTES). */
  body: string;
}

/**
 * The backend refused the read for its request, the way it would refuse the client's own request
 * without the mock (a publishable key it does not take: Medusa's 400 `not_allowed`, or a 401 or
 * 403 of a gateway): a 4xx, but a 404 (nothing at that URL: a wrong `--backend`), with a JSON
 * object of at most MAX_REFUSAL_BYTES. Anything else is the backend's failure, not the client's.
 */
export function refusalOf(status: number, json: unknown): CatalogueRefusal | undefined {
  if (status < 400 || status > 499 || status === 404) return undefined;
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
  const body = JSON.stringify(json);
  return Buffer.byteLength(body) <= MAX_REFUSAL_BYTES ? { status, body } : undefined;
}

/** The catalogue read was refused for the key it was made with (`refusal`): the client gets that answer. */
export class CatalogueRefusedError extends Error {
  constructor(
    message: string,
    readonly refusal: CatalogueRefusal,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
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
  /** The read under way, and the key it is made with: callers with that key share it. */
  #loading: { key: string; read: Promise<void> } | undefined;
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
   * dataset from then on). Callers with the same key meanwhile share the one read; one with another
   * key waits for it and, when it failed (perhaps for its key), reads with its own. Once it is
   * loaded, resolves at once. Rejects with one sentence naming the backend (CatalogueRefusedError
   * when the backend refused the key); nothing of a failure is kept: the next call reads again.
   */
  load(key: string): Promise<void> {
    if (this.#loaded) return Promise.resolve();
    const loading = this.#loading;
    if (loading === undefined) {
      const read = this.#firstRead(key).finally(() => {
        if (this.#loading?.read === read) this.#loading = undefined;
      });
      this.#loading = { key, read };
      return read;
    }
    if (loading.key === key) return loading.read;
    // Another key's read is under way: it may be refused for its key, not for this one; then this one reads.
    return loading.read.then(
      () => undefined,
      () => this.load(key),
    );
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
