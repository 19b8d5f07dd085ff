import { RunInterruptedError } from "../run/errors.js";
import type { PipelineEvent } from "../run/events.js";
import type { PipelineRunOptions } from "./options.js";
import type { ExecuteResult } from "./scheduler.js";

/**
 * A single-consumer queue between the run (which pushes events) and the `for await` loop that reads
 * them. The run never waits for the consumer; the consumer waits for the next event or the end.
 */
export class EventChannel<T> {
  readonly #items: T[] = [];
  #waiting: ((result: IteratorResult<T>) => void) | undefined;
  #failWaiting: ((error: unknown) => void) | undefined;
  #closed = false;
  #error: { error: unknown } | undefined;

  /** Adds an event. */
  push(item: T): void {
    if (this.#closed) return;
    const waiting = this.#waiting;
    if (waiting !== undefined) {
      this.#clearWaiting();
      waiting({ value: item, done: false });
    } else this.#items.push(item);
  }

  /** Ends the stream after the queued events. */
  close(): void {
    this.#closed = true;
    const waiting = this.#waiting;
    if (waiting !== undefined && this.#items.length === 0) {
      this.#clearWaiting();
      waiting({ value: undefined, done: true });
    }
  }

  /** Ends the stream with an error after the queued events. */
  fail(error: unknown): void {
    this.#error = { error };
    this.#closed = true;
    const failWaiting = this.#failWaiting;
    if (failWaiting !== undefined && this.#items.length === 0) {
      this.#clearWaiting();
      failWaiting(error);
    }
  }

  /** The next event, or the end. */
  next(): Promise<IteratorResult<T>> {
    const item = this.#items.shift();
    if (item !== undefined) return Promise.resolve({ value: item, done: false });
    if (this.#error !== undefined) return Promise.reject(this.#error.error);
    if (this.#closed) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => {
      this.#waiting = resolve;
      this.#failWaiting = reject;
    });
  }

  #clearWaiting(): void {
    this.#waiting = undefined;
    this.#failWaiting = undefined;
  }
}

/**
 * Runs `start` and yields its events, then `run_end` (or `interrupt` and `run_end` when the run pauses).
 * Leaving the loop early aborts the run and waits for it to settle.
 */
export async function* streamRun(
  options: PipelineRunOptions,
  start: (
    options: PipelineRunOptions,
    sink: (event: PipelineEvent) => void,
  ) => Promise<ExecuteResult & { readonly runId?: string | undefined }>,
): AsyncGenerator<PipelineEvent> {
  const channel = new EventChannel<PipelineEvent>();
  // One controller for both causes: the caller's signal is forwarded by a listener (removed at the
  // end) rather than combined with AbortSignal.any, which costs tens of µs per run in Node.
  const abandon = new AbortController();
  const outer = options.signal;
  const forward = (): void => abandon.abort(outer?.reason);
  if (outer?.aborted === true) forward();
  else outer?.addEventListener("abort", forward, { once: true });
  const signal = abandon.signal;
  let finished = false;
  const done = start({ ...options, signal }, (event) => channel.push(event)).then(
    (result) => {
      finished = true;
      const runId = result.runId ?? options.runId;
      channel.push({
        type: "run_end",
        status: "completed",
        outputs: result.outputs,
        neverRan: result.neverRan,
        ...(runId === undefined ? {} : { runId }),
      });
      channel.close();
    },
    (error: unknown) => {
      finished = true;
      if (error instanceof RunInterruptedError) {
        const { runId, interrupts, snapshot } = error;
        channel.push({ type: "interrupt", runId, interrupts, snapshot });
        channel.push({ type: "run_end", status: "interrupted", outputs: {}, neverRan: [], runId });
        channel.close();
      } else channel.fail(error);
    },
  );
  try {
    for (;;) {
      const next = await channel.next();
      if (next.done) return;
      yield next.value;
    }
  } finally {
    outer?.removeEventListener("abort", forward);
    if (!finished) abandon.abort(new DOMException("The pipeline stream was abandoned.", "AbortError"));
    await done;
  }
}
