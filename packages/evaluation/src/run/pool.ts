/**
 * Runs `task(index)` for every index in `0..count-1`, at most `concurrency` at a time, in index order
 * of starting. Stops starting new tasks once `signal` aborts; rejects with the first task rejection.
 */
export async function runPool(
  count: number,
  concurrency: number,
  task: (index: number) => Promise<void>,
  signal: AbortSignal | undefined,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      signal?.throwIfAborted();
      const index = next;
      next += 1;
      await task(index);
    }
  };
  const workers = Math.max(1, Math.min(concurrency, count));
  await Promise.all(Array.from({ length: workers }, worker));
  signal?.throwIfAborted();
}
