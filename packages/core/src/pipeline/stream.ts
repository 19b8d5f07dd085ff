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
