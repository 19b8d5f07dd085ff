/**
 * The measurement harness: warm-up, then repeated runs that alternate the systems, medians.
 */

/** One system's implementation of a workload: runs it once and returns a figure (µs, ms, ...). */
export type Trial = () => Promise<number>;

/** Options of {@link compare}. */
export interface CompareOptions {
  /** Untimed runs of each system before measuring. */
  readonly warmup: number;
  /** Timed runs of each system; the systems alternate run by run. */
  readonly repeats: number;
}

/** The median of a non-empty list. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * Runs every system `warmup` times, then `repeats` rounds in which each system runs once, in an order
 * that rotates every round (so no system always runs right after garbage from another); returns the
 * median figure of each system.
 */
export async function compare(
  trials: Readonly<Record<string, Trial>>,
  options: CompareOptions,
): Promise<Record<string, number>> {
  const names = Object.keys(trials);
  for (let round = 0; round < options.warmup; round += 1) {
    for (const name of names) await trials[name]!();
  }
  const figures: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < options.repeats; round += 1) {
    const order = names.map((_, index) => names[(index + round) % names.length]!);
    for (const name of order) figures[name]!.push(await trials[name]!());
  }
  return Object.fromEntries(names.map((name) => [name, median(figures[name]!)]));
}

/** Milliseconds elapsed since `start` (from `performance.now()`). */
export function elapsedMs(start: number): number {
  return performance.now() - start;
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Samples the process's resident set size while `run` executes; returns the peak growth in MiB. */
export async function peakRssGrowthMiB<T>(run: () => Promise<T>): Promise<{ result: T; peakMiB: number }> {
  globalThis.gc?.();
  const base = process.memoryUsage.rss();
  let peak = base;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 5);
  try {
    const result = await run();
    peak = Math.max(peak, process.memoryUsage.rss());
    return { result, peakMiB: (peak - base) / (1024 * 1024) };
  } finally {
    clearInterval(timer);
  }
}
