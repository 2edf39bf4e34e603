/** The figures of a set of timings (or any numbers): count, extremes, mean and the usual percentiles. */
export interface Summary {
  readonly n: number;
  readonly min: number;
  readonly max: number;
  readonly mean: number;
  readonly p50: number;
  readonly p95: number;
}

/**
 * The p-th percentile (0 to 100) of `samples`, interpolating linearly between the two nearest ranks (the
 * definition of numpy's default and of Excel's PERCENTILE.INC): p0 is the minimum, p100 the maximum, p50 the
 * median. The samples need not be sorted; they are not changed.
 */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) throw new RangeError('percentile of no samples');
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile must be from 0 to 100, not ${p}`);
  if (samples.some((x) => !Number.isFinite(x))) throw new RangeError('percentile of a sample that is not finite');
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const below = Math.floor(rank);
  const above = Math.min(below + 1, sorted.length - 1);
  const lo = sorted[below]!;
  const hi = sorted[above]!;
  return lo + (hi - lo) * (rank - below);
}

export function median(samples: readonly number[]): number {
  return percentile(samples, 50);
}

export function summarize(samples: readonly number[]): Summary {
  if (samples.length === 0) throw new RangeError('summary of no samples');
  return {
    n: samples.length,
    min: Math.min(...samples),
    max: Math.max(...samples),
    mean: samples.reduce((sum, x) => sum + x, 0) / samples.length,
    p50: percentile(samples, 50),
    p95: percentile(samples, 95),
  };
}

/** A figure as reported: milliseconds and megabytes to two decimals, so the JSON stays readable. */
export function round2(x: number): number {
  return Math.round(x * 100) / 100;
}
