import type { Dataset, DatasetSummary, GenerateOptions } from '../../fixtures/dataset.ts';
import type { GivenCatalogue } from '../../fixtures/catalogue.ts';
import { DEFAULT_SEED } from '../../fixtures/generate.ts';
import { WriteStore } from '../writes/store.ts';

/**
 * The dataset a running server serves, with how it was generated (what `GET /__admin/config`
 * reports, and what a reseed starts from). Datasets are immutable; changing the data (a reset,
 * a reseed, a provider state) swaps in a whole new one, and `version` grows with every swap so
 * that anything cached from a dataset can tell it is stale.
 *
 * A provider state is a swap that is undone: its setup remembers what was served before it
 * (the dataset and its generation), and its teardown serves exactly that again. Further setups
 * before the teardown (the next interaction's state) keep the first memory.
 */
export class DatasetHolder {
  /**
   * What customers wrote over the dataset (the alphabite dialect's write routes, docs/writes.md). The
   * admin API's dataset changes forget it (mock-server/state/changes.ts); `replace`, `reset` and the
   * provider-state swaps called directly leave it to the caller.
   */
  readonly writes = new WriteStore();
  /**
   * Each customer's own data read from a backend that has the plugins (backend/customer-data.ts), set
   * by process.ts for `serve --backend`: a customer whose data is read is answered from it, not from
   * `current`. A reset forgets it (mock-server/state/changes.ts).
   */
  customerData: { datasetOf(customer: string): Dataset | undefined; forget(): void; readonly active: boolean } | undefined;

  /** The dataset `customer` ('' for a guest) is answered from: their own read from a backend, or `current`. */
  datasetOf(customer: string): Dataset {
    // A provider state is what every request is answered from while it holds.
    if (this.#beforeState) return this.#current;
    return this.customerData?.datasetOf(customer) ?? this.#current;
  }
  #initial: Dataset;
  #initialGeneration: GenerateOptions | undefined;
  #catalogue: GivenCatalogue | undefined;
  #awaitedCatalogue: string | undefined;
  #current: Dataset;
  #generation: GenerateOptions | undefined;
  #version = 0;
  /** What was served before the provider state now installed; undefined when none is. */
  #beforeState: { dataset: Dataset; generation: GenerateOptions | undefined } | undefined;

  /**
   * `initial` is what `reset()` returns to; `initialGeneration` how it was generated (default: as
   * far as its summary tells, for a generated dataset; none for records from a file). `catalogue`:
   * the given catalogue (fixtures/catalogue.ts) `initial` was generated over, which reseeds and
   * provider states generate over too.
   */
  constructor(initial: Dataset, initialGeneration: GenerateOptions | undefined = generationOf(initial.summary), catalogue?: GivenCatalogue) {
    this.#initial = initial;
    this.#initialGeneration = initialGeneration;
    this.#catalogue = catalogue;
    this.#current = initial;
    this.#generation = initialGeneration;
  }

  /** What `reset()` returns to. */
  get initial(): Dataset {
    return this.#initial;
  }

  /** How `initial` was generated (undefined for records). */
  get initialGeneration(): GenerateOptions | undefined {
    return this.#initialGeneration;
  }

  /**
   * The catalogue reseeds and provider states generate over: the one given, or a backend's as
   * last read (mock-server/backend/catalogue.ts); undefined for the generated one.
   */
  get catalogue(): GivenCatalogue | undefined {
    return this.#catalogue;
  }

  /**
   * Where the catalogue will come from while it has not arrived yet (a backend's URL: its catalogue
   * is read with the first publishable key a storefront sends); undefined otherwise. A reseed waits
   * for it (the admin API refuses one meanwhile).
   */
  get awaitedCatalogue(): string | undefined {
    return this.#awaitedCatalogue;
  }

  /** The dataset served now is a stand-in until the catalogue of `from` arrives (`adoptCatalogue`). */
  awaitCatalogue(from: string): void {
    this.#awaitedCatalogue = from;
  }

  /**
   * Reads the catalogue again from where it came from (a backend's: backend/catalogue.ts sets it), so
   * that a reseed generates over the catalogue as it is now; never rejects (a failed read keeps the
   * catalogue read before). Undefined for a catalogue given as data, or none.
   */
  rereadCatalogue: (() => Promise<void>) | undefined;

  /**
   * A newer read of the same catalogue (a backend's, read again): what the next reseed or provider
   * state generates over. The dataset served stays as it is.
   */
  updateCatalogue(catalogue: GivenCatalogue): void {
    this.#catalogue = catalogue;
  }

  /**
   * The catalogue has arrived (a backend's, read on the first request that carried a publishable
   * key), with the dataset generated over it: that dataset is now the initial one, what `reset()`
   * returns to, and it is served at once; inside a provider state it is what the state's teardown
   * serves again.
   */
  adoptCatalogue(catalogue: GivenCatalogue, dataset: Dataset, generation: GenerateOptions): void {
    this.#catalogue = catalogue;
    this.#awaitedCatalogue = undefined;
    this.#initial = dataset;
    this.#initialGeneration = generation;
    if (this.#beforeState) this.#beforeState = { dataset, generation };
    else this.#swap(dataset, generation, undefined);
  }

  get current(): Dataset {
    return this.#current;
  }

  get version(): number {
    return this.#version;
  }

  /** How the dataset being served was generated; undefined for records (a file, a provider state). */
  get generation(): GenerateOptions | undefined {
    return this.#generation;
  }

  /** A provider state is installed (set up and not torn down). */
  get inProviderState(): boolean {
    return this.#beforeState !== undefined;
  }

  /**
   * Swaps in `dataset`, generated with `generation` (when it was). `version` (when given, and
   * above the current one) becomes the new version: the admin API numbers dataset changes in the
   * order they were asked, so that every worker of a cluster reports the same version for the same
   * data. A provider state installed before is over: its teardown will find nothing to restore.
   */
  replace(dataset: Dataset, version?: number, generation?: GenerateOptions): void {
    this.#beforeState = undefined;
    this.#swap(dataset, generation, version);
  }

  /** Back to the dataset the server started with (and out of any provider state). */
  reset(version?: number): void {
    this.replace(this.#initial, version, this.#initialGeneration);
  }

  /** Installs a provider state's dataset, remembering what was served before it (unless a state already is). */
  installState(dataset: Dataset, version?: number): void {
    this.#beforeState ??= { dataset: this.#current, generation: this.#generation };
    this.#swap(dataset, undefined, version);
  }

  /**
   * Tears the provider state down: serves again, exactly, what was served before its setup.
   * Answers false, and changes nothing, when no state is installed.
   */
  restoreState(version?: number): boolean {
    const before = this.#beforeState;
    if (!before) return false;
    this.#beforeState = undefined;
    this.#swap(before.dataset, before.generation, version);
    return true;
  }

  #swap(dataset: Dataset, generation: GenerateOptions | undefined, version: number | undefined): void {
    this.#current = dataset;
    this.#generation = generation;
    this.#version = Math.max(this.#version + 1, version ?? 0);
  }
}

/** The generation options of a generated dataset, as far as its summary tells them (maxItems: the default). */
export function generationOf(summary: DatasetSummary): GenerateOptions | undefined {
  if (summary.source !== 'generated') return undefined;
  return { seed: summary.seed ?? DEFAULT_SEED, reviews: summary.reviews, products: summary.products, wishlists: summary.wishlists };
}
