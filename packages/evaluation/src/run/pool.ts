/**
 * Runs `task(index)` for every index in `0..count-1`, at most `concurrency` at a time, in index order
 * of starting. Stops starting new tasks once `signal` aborts or a task rejects, waits for the running
 * ones to settle (so nothing is left running), then rejects with the first rejection.
 */
export async function runPool(
  count: number,
  concurrency: number,
  task: (index: number) => Promise<void>,
  signal: AbortSignal | undefined,
): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (next < count && !failed) {
      signal?.throwIfAborted();
      const index = next;
      next += 1;
      try {
        await task(index);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  const workers = Math.max(1, Math.min(concurrency, count));
  const settled = await Promise.allSettled(Array.from({ length: workers }, worker));
  signal?.throwIfAborted();
  const rejected = settled.find((result) => result.status === "rejected");
  if (rejected !== undefined) throw rejected.reason;
}
