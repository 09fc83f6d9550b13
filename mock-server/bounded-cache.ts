/**
 * A memo with a memory bound and O(1) work per call: two generations of Maps. New entries
 * go to the young generation; when it holds more than `budget` bytes it becomes the old
 * one (the previous old one is dropped). A hit in the old generation is moved back to the
 * young one, so what is asked for often stays. At most about 2 × budget bytes are held.
 */
export class BoundedCache<K, V> {
  #young = new Map<K, V>();
  #old = new Map<K, V>();
  #youngBytes = 0;

  /** `sizeOf` tells the bytes a value holds (approximately: a string's length will do). */
  constructor(
    readonly budget: number,
    readonly sizeOf: (value: V) => number,
  ) {}

  get(key: K): V | undefined {
    const young = this.#young.get(key);
    if (young !== undefined) return young;
    const old = this.#old.get(key);
    if (old !== undefined) {
      this.#old.delete(key);
      this.set(key, old);
    }
    return old;
  }

  set(key: K, value: V): void {
    this.#young.set(key, value);
    this.#youngBytes += this.sizeOf(value) + 64;
    if (this.#youngBytes > this.budget) {
      this.#old = this.#young;
      this.#young = new Map();
      this.#youngBytes = 0;
    }
  }

  /** The value for `key`, made by `make` (and kept) when it is not held. */
  getOrMake(key: K, make: () => V): V {
    let value = this.get(key);
    if (value === undefined) {
      value = make();
      this.set(key, value);
    }
    return value;
  }

  get size(): number {
    return this.#young.size + this.#old.size;
  }
}
