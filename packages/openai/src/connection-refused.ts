import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Connection refused is not worth retrying: nothing listens at the address, and it answers at once, so
 * the SDK's retries (with backoff, ~13 s at the default budget) only delay a clear error. The client's
 * `fetch` notices a refusal and aborts the call that made it (found through async context), so the SDK
 * stops instead of retrying; the caller then reports that the server is not reachable.
 */

const currentCall = new AsyncLocalStorage<AbortController>();

/** True when `error` (or a cause or aggregated error inside it) is a refused TCP connection. */
export function isConnectionRefused(error: unknown, depth = 0): boolean {
  if (typeof error !== "object" || error === null || depth > 5) return false;
  const record = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (record.code === "ECONNREFUSED") return true;
  if (Array.isArray(record.errors) && record.errors.some((inner) => isConnectionRefused(inner, depth + 1))) {
    return true;
  }
  return isConnectionRefused(record.cause, depth + 1);
}

/** The `fetch` given to the SDK: the global one, aborting the current call when the connection is refused. */
export const refusalAwareFetch: typeof fetch = async (input, init) => {
  try {
    return await globalThis.fetch(input, init);
  } catch (error) {
    if (isConnectionRefused(error)) currentCall.getStore()?.abort(error);
    throw error;
  }
};

/**
 * Runs one SDK call with a signal that is aborted when its connection is refused.
 *
 * @param signal - the caller's signal (combined with the refusal signal given to `call`)
 * @param call - the SDK call
 * @throws ConnectionRefused when the server refused the connection
 */
export async function withRefusalStop<T>(
  signal: AbortSignal | undefined,
  call: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const refusal = new AbortController();
  const combined = signal === undefined ? refusal.signal : AbortSignal.any([signal, refusal.signal]);
  try {
    return await currentCall.run(refusal, () => call(combined));
  } catch (error) {
    if (refusal.signal.aborted && signal?.aborted !== true)
      throw new ConnectionRefused(refusal.signal.reason);
    throw error;
  }
}

/** Thrown by {@link withRefusalStop} when the server refused the connection. */
export class ConnectionRefused extends Error {
  /** @param refusal - the fetch error that carried ECONNREFUSED */
  constructor(readonly refusal: unknown) {
    super("connection refused");
  }
}
