import { RunInterruptedError } from "@junction/core";

/** Runs and returns the interrupt error (fails when the run did not interrupt). */
export async function interruptOf(promise: Promise<unknown>): Promise<RunInterruptedError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof RunInterruptedError) return error;
    throw error;
  }
  throw new Error("expected the run to interrupt");
}
