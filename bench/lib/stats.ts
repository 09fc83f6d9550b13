/** Small, exact statistics for the benchmark: medians of repeated runs and percentiles of latencies. */

/** The value at quantile `q` (0..1) of an ascending array, nearest-rank; NaN when empty. */
export function percentile(sortedAscending: ArrayLike<number>, q: number): number {
  const n = sortedAscending.length;
  if (n === 0) return Number.NaN;
  const rank = Math.min(n, Math.max(1, Math.ceil(q * n)));
  return sortedAscending[rank - 1] as number;
}

/** The median of a list (mean of the two middle values for an even count); NaN when empty. */
export function median(values: readonly number[]): number {
  const finite = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  const n = finite.length;
  if (n === 0) return Number.NaN;
  const mid = Math.floor(n / 2);
  return n % 2 === 1 ? (finite[mid] as number) : ((finite[mid - 1] as number) + (finite[mid] as number)) / 2;
}

/** `value / reference`, NaN when either is missing or the reference is 0. */
export function ratio(value: number, reference: number): number {
  if (!Number.isFinite(value) || !Number.isFinite(reference) || reference === 0) return Number.NaN;
  return value / reference;
}
