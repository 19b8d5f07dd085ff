import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

setFlagsFromString("--expose-gc");
/** A full garbage collection (exposed through a fresh context, so the bench needs no node flag). */
export const collectGarbage = runInNewContext("gc") as () => void;

/** Bytes held on the heap and in array buffers (typed arrays live outside the JS heap). */
export function heldBytes(): number {
  collectGarbage();
  collectGarbage();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

/** The value at quantile `q` (0–1) of a list (nearest rank). */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[index]!;
}
