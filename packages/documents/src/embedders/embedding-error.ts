import { JunctionError, type JunctionErrorFields } from "@junction/core";

/** Structured fields of an {@link EmbeddingError}. */
export interface EmbeddingErrorFields extends JunctionErrorFields {
  /** The ids of the documents in the batch that failed. */
  readonly documentIds: readonly string[];
  /** The failed batch's number (1-based). */
  readonly batch: number;
  /** How many batches the run had. */
  readonly batchCount: number;
}

/**
 * A document embedder's batch failed and the embedder was told to stop (`raiseOnFailure: true`). The
 * message names the batch and its documents; `cause` is the provider's error (for example an
 * `OpenAIApiError` with the HTTP status).
 *
 * @example
 * ```ts
 * try { await embedder.run({ documents }); } catch (error) {
 *   if (EmbeddingError.isInstance(error)) console.log(error.batch, error.documentIds);
 * }
 * ```
 */
export class EmbeddingError extends JunctionError {
  /** The ids of the documents in the failed batch. */
  readonly documentIds: readonly string[];
  /** The failed batch's number (1-based). */
  readonly batch: number;
  /** How many batches the run had. */
  readonly batchCount: number;

  /** @param message - which batch failed, why, and how to go on @param fields - the batch and its documents */
  constructor(message: string, fields: EmbeddingErrorFields) {
    super("EMBEDDING_FAILED", message, fields);
    this.documentIds = fields.documentIds;
    this.batch = fields.batch;
    this.batchCount = fields.batchCount;
  }

  /** True for an `EmbeddingError`, even one created by another copy of this package. */
  static override isInstance(value: unknown): value is EmbeddingError {
    return JunctionError.isInstance(value) && value.code === "EMBEDDING_FAILED";
  }
}
