/** Throws the signal's reason (an `AbortError` by default) when it is aborted. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  signal?.throwIfAborted();
}
