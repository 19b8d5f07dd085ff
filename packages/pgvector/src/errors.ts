import { JunctionError, type JunctionErrorFields } from "@junction/core";

/** The codes of {@link PgvectorStoreError}. */
export type PgvectorErrorCode =
  | "PGVECTOR_INVALID_OPTIONS"
  | "PGVECTOR_INVALID_DOCUMENT"
  | "PGVECTOR_INVALID_QUERY"
  | "PGVECTOR_QUERY_FAILED"
  | "PGVECTOR_CONNECTION_FAILED"
  | "PGVECTOR_STORE_LOCKED"
  | "PGVECTOR_CLOSED";

/**
 * What `PgvectorDocumentStore` and its retrievers throw: invalid options, a document the table cannot
 * hold, a query the store refuses, a failed statement, an unreachable server, a data directory another
 * process holds. The message names the store's table and target, says why and how to fix it.
 */
export class PgvectorStoreError extends JunctionError {
  declare readonly code: PgvectorErrorCode;

  /**
   * @param code - the error's code
   * @param message - what failed, why, and how to fix it
   * @param fields - the underlying error (`cause`) and other fields
   */
  constructor(code: PgvectorErrorCode, message: string, fields: JunctionErrorFields = {}) {
    super(code, message, fields);
  }

  /** True for a `PgvectorStoreError`, also across copies of the package. */
  static override isInstance(error: unknown): error is PgvectorStoreError {
    return (
      JunctionError.isInstance(error) && typeof error.code === "string" && error.code.startsWith("PGVECTOR_")
    );
  }
}
