import type { Dataset } from '../fixtures/index.ts';

/**
 * The dataset a running server serves. Datasets are immutable; changing the data
 * (a reset, a provider state) swaps in a whole new one, and `version` counts the swaps
 * so that anything cached from a dataset can tell it is stale.
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

  replace(dataset: Dataset): void {
    this.#current = dataset;
    this.#version++;
  }

  reset(): void {
    this.replace(this.initial);
  }
}
