/**
 * How far a document embedder has got: emitted through the run context's `emit` after every batch, so
 * `Pipeline.stream` yields it as a `chunk` event (`event.chunk`) and `junction run` draws a progress bar.
 *
 * `done` and `total` count input documents (a batch that failed counts as done: it will not be retried).
 *
 * @example
 * ```ts
 * for await (const event of pipeline.stream(inputs)) {
 *   if (event.type === "chunk" && isEmbeddingProgress(event.chunk))
 *     console.log(`${event.componentName}: ${event.chunk.done}/${event.chunk.total}`);
 * }
 * ```
 */
export interface EmbeddingProgress {
  /** Always `"embedding_progress"`. */
  readonly type: "embedding_progress";
  /** Documents handled so far (embedded or failed). */
  readonly done: number;
  /** Documents in the run. */
  readonly total: number;
}

/**
 * True when `value` is an {@link EmbeddingProgress} payload (recognized by shape, so a payload that
 * went through JSON is recognized too).
 *
 * @param value - what a component emitted (a `chunk` event's `chunk`)
 */
export function isEmbeddingProgress(value: unknown): value is EmbeddingProgress {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    record.type === "embedding_progress" &&
    typeof record.done === "number" &&
    typeof record.total === "number"
  );
}
