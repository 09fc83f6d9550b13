import type { Dataset } from '../fixtures/dataset.ts';

/**
 * The dataset a running server serves. Datasets are immutable; changing the data
 * (a reset, a provider state) swaps in a whole new one, and `version` grows with every
 * swap so that anything cached from a dataset can tell it is stale.
 */
export class DatasetHolder {
  #current: Dataset;
  #version = 0;

  /** `initial` is what `reset()` returns to. */
  constructor(readonly initial: Dataset) {
    this.#current = initial;
  }

  get current(): Dataset {
    return this.#current;
  }

  get version(): number {
    return this.#version;
  }

  /**
   * Swaps in `dataset`. `version` (when given, and above the current one) becomes the new
   * version: the admin API numbers dataset changes in the order they were asked, so that
   * every worker of a cluster reports the same version for the same data.
   */
  replace(dataset: Dataset, version?: number): void {
    this.#current = dataset;
    this.#version = Math.max(this.#version + 1, version ?? 0);
  }

  reset(version?: number): void {
    this.replace(this.initial, version);
  }
}
