import { GivenCatalogue } from '../../fixtures/catalogue.ts';
import { DEFAULT_CATALOGUE_MAX_BYTES, DEFAULT_CATALOGUE_MAX_VARIANTS, type CatalogueLimits } from '../../fixtures/catalogue-limits.ts';
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
 * such requests until it is read). A read is bounded as a whole (fixtures/catalogue-limits.ts:
 * products, `--catalogue-max-variants`, `--catalogue-max-bytes`). It is kept for the server's life, and read again for a reseed
 * (which generates over it as it is then) and when `add-item` names a variant it does not have (one
 * created on the backend after the read): then at most once every CATALOGUE_REREAD_MS.
 *
 * The reader (fixtures/medusa-catalogue.ts, with zod) and the kit's bounded HTTP client (client/,
 * undici) are loaded on the first read, so a mock without a backend loads neither.
 */

/** The least time between two reads of the catalogue for a variant it did not have. */
export const CATALOGUE_REREAD_MS = 60_000;
/** How long one page of products may take, when the backend's timeout is not given. */
const DEFAULT_READ_TIMEOUT_MS = 30_000;
/**
 * The most first reads under way at once, each with its own key (requests with the same key share
 * one): a request with yet another key waits for the first of them to end. Each read is bounded by
 * the caps, so what the reads hold together is at most this many catalogues.
 */
export const MAX_CATALOGUE_READS = 4;

/** Reads the catalogue of a backend with a publishable key; `signal` stops the read (it then rejects). */
export type CatalogueReader = (backend: string, key: string, signal?: AbortSignal) => Promise<GivenCatalogue>;

const readerModules = lazily(async () => {
  const [{ fetchMedusaCatalogue, OverBytesError }, { exchange }, { BodyOverCapError }] = await Promise.all([
    import('../../fixtures/medusa-catalogue.ts'),
    import('../../client/exchange.ts'),
    import('../../client/http.ts'),
  ]);
  return { fetchMedusaCatalogue, OverBytesError, exchange, BodyOverCapError };
});

/** How the catalogue reader is bounded: each page's time, and the whole read's caps (default DEFAULT_CATALOGUE_MAX_VARIANTS and _BYTES). */
export interface CatalogueReadOptions extends Partial<CatalogueLimits> {
  timeoutMs?: number;
}

/**
 * The catalogue reader through the kit's HTTP client: each page within `timeoutMs`, the whole read
 * within the caps (a page may take what is left of `maxBytes`). Rejects with an Error of one
 * sentence that names the backend, and for a read past a cap the `serve` option that raises it.
 */
export function backendCatalogueReader(options: CatalogueReadOptions = {}): CatalogueReader {
  const timeoutMs = options.timeoutMs ?? DEFAULT_READ_TIMEOUT_MS;
  const limits = { maxVariants: options.maxVariants ?? DEFAULT_CATALOGUE_MAX_VARIANTS, maxBytes: options.maxBytes ?? DEFAULT_CATALOGUE_MAX_BYTES };
  return async (backend, key, signal) => {
    const { fetchMedusaCatalogue, OverBytesError, exchange, BodyOverCapError } = await readerModules();
    const getJson = async (url: string, headers: Readonly<Record<string, string>>, bounds: { maxBytes: number; signal?: AbortSignal }) => {
      try {
        const answer = await exchange(url, { timeoutMs, maxBodyBytes: bounds.maxBytes, ...(bounds.signal ? { signal: bounds.signal } : {}) }, undefined, { ...headers });
        return { status: answer.status, json: answer.json, bytes: Buffer.byteLength(answer.text) };
      } catch (error) {
        throw error instanceof BodyOverCapError ? new OverBytesError(error.message) : error;
      }
    };
    try {
      const input = await fetchMedusaCatalogue(backend, key, getJson, { ...limits, raisedBy: CATALOGUE_OPTION_NAMES, ...(signal ? { signal } : {}) });
      return new GivenCatalogue(input, backend);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const message = `Cannot read the catalogue of the backend ${backend}: ${reason.replace(/\.$/, '')}`;
      const answer = error instanceof Error && 'answer' in error ? (error.answer as { status: number; json: unknown } | undefined) : undefined;
      const refusal = answer && refusalOf(answer.status, answer.json);
      throw refusal ? new CatalogueRefusedError(message, refusal, { cause: error }) : new Error(message, { cause: error });
    }
  };
}

/** The options that raise the caps, as a sentence names them: `serve`'s, and startMockServer's. */
const CATALOGUE_OPTION_NAMES = {
  variants: '--catalogue-max-variants (catalogueMaxVariants of startMockServer)',
  bytes: '--catalogue-max-bytes (catalogueMaxBytes of startMockServer)',
};

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

const noop = () => undefined;

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
  /** The first reads under way, by key: callers with that key share its read. */
  readonly #reads = new Map<string, { read: Promise<void>; stop: AbortController }>();
  /** Resolved when the catalogue is loaded, by whichever key's read. */
  readonly #whenLoaded: Promise<void>;
  #markLoaded!: () => void;
  #closed = false;
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
    this.#whenLoaded = new Promise((resolve) => (this.#markLoaded = resolve));
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
   * key reads with its own at once (up to MAX_CATALOGUE_READS reads; past that it waits for the
   * first of them to end). Resolves as soon as the catalogue is loaded, by this read or another
   * key's (the others are then stopped). Rejects with one sentence naming the backend when this
   * key's read fails first (CatalogueRefusedError when the backend refused the key); nothing of a
   * failure is kept: the next call reads again.
   */
  load(key: string): Promise<void> {
    if (this.#loaded) return Promise.resolve();
    if (this.#closed) return Promise.reject(new Error(`Cannot read the catalogue of the backend ${this.backend}: the server is closing`));
    const same = this.#reads.get(key);
    if (same) return same.read;
    if (this.#reads.size >= MAX_CATALOGUE_READS) {
      const settled = [...this.#reads.values()].map(({ read }) => read.then(noop, noop));
      return Promise.race([...settled, this.#whenLoaded]).then(() => this.load(key));
    }
    const stop = new AbortController();
    const own = this.#firstRead(key, stop.signal).finally(() => {
      if (this.#reads.get(key)?.stop === stop) this.#reads.delete(key);
    });
    // Loaded by another key's read meanwhile: this one's callers go on at once.
    const read = Promise.race([own, this.#whenLoaded]);
    own.catch(noop);
    this.#reads.set(key, { read, stop });
    return read;
  }

  /** Stops every first read under way (the server closes): their callers are answered the failure. */
  close(): void {
    this.#closed = true;
    for (const { stop } of this.#reads.values()) stop.abort();
  }

  async #firstRead(key: string, signal: AbortSignal): Promise<void> {
    const catalogue = await this.#read(this.backend, key, signal);
    // Another key's read was adopted first: this one's is dropped.
    if (this.#loaded) return;
    const dataset = generateDataset(this.#generation, catalogue);
    const generation = { ...generationOf(dataset.summary), ...(this.#generation.maxItems !== undefined ? { maxItems: this.#generation.maxItems } : {}) };
    this.holder.adoptCatalogue(catalogue, dataset, generation);
    this.#key = key;
    this.#loaded = true;
    this.#markLoaded();
    for (const [other, { stop }] of this.#reads) if (other !== key) stop.abort();
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
