/**
 * Benchmark statistics (pure): percentiles of latency samples and rates.
 * Latencies are in milliseconds everywhere in the bench.
 */

/**
 * The `p`-th percentile of `samples` by the nearest-rank method: the
 * smallest sample such that at least `p` percent of the samples are at or
 * below it. Nearest rank never invents a value between two samples, so a
 * p99 of 100 samples is the 99th smallest sample, an honest "1 in 100 was
 * slower than this".
 * @param samples any order (not modified)
 * @param p percentile in (0, 100]
 * @returns NaN for an empty sample
 * @throws RangeError when `p` is outside (0, 100]
 */
export function percentile(samples: readonly number[], p: number): number {
  if (!(p > 0 && p <= 100)) throw new RangeError(`percentile must be in (0, 100], got ${p}`);
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.max(0, rank - 1)]!;
}

/** Summary of a latency sample (milliseconds). */
export interface LatencySummary {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

/** Count, p50/p90/p99 (nearest rank), max and mean of `samples` (milliseconds); NaN fields when empty. */
export function summarize(samples: readonly number[]): LatencySummary {
  if (samples.length === 0) {
    return { count: 0, p50: Number.NaN, p90: Number.NaN, p99: Number.NaN, max: Number.NaN, mean: Number.NaN };
  }
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
  let sum = 0;
  for (const s of sorted) sum += s;
  return { count: sorted.length, p50: at(50), p90: at(90), p99: at(99), max: sorted[sorted.length - 1]!, mean: sum / sorted.length };
}

/**
 * Events per second over a wall-clock window.
 * @param count events completed in the window
 * @param elapsedMs window length in milliseconds
 * @returns NaN for an empty window
 */
export function ratePerSecond(count: number, elapsedMs: number): number {
  return elapsedMs > 0 ? (count * 1000) / elapsedMs : Number.NaN;
}

/** `a / b`, or NaN when `b` is 0 (a ratio of nothing is not zero). */
export function ratio(a: number, b: number): number {
  return b === 0 ? Number.NaN : a / b;
}
