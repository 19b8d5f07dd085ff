import { JunctionError } from "@junction/core";

/** A store was configured wrongly (an unknown algorithm, a bad parameter, an invalid token pattern). */
export class DocumentStoreConfigError extends JunctionError {
  /** @param message - what is wrong and how to fix it */
  constructor(message: string) {
    super("DOCUMENT_STORE_CONFIG_ERROR", message);
  }
}

/** A retrieval query is unusable: an empty query, an empty query embedding, a bad `topK`. */
export class RetrievalQueryError extends JunctionError {
  /** @param message - what is wrong and how to fix it @param componentName - the retriever, when one asked */
  constructor(message: string, componentName?: string) {
    super("RETRIEVAL_QUERY_ERROR", message, { componentName });
  }
}

/**
 * Two embeddings that must be compared have different dimensions: a query and the stored documents, or
 * a document being written and those already stored (usually two embedding models were mixed).
 */
export class EmbeddingDimensionError extends JunctionError {
  /** The document whose embedding does not fit, or `undefined` for the query. */
  readonly documentId: string | undefined;
  /** The dimension of the stored embeddings. */
  readonly expected: number;
  /** The dimension found. */
  readonly actual: number;

  /** @param message - names the document (or query) and both dimensions @param fields - the ids and dimensions */
  constructor(
    message: string,
    fields: { documentId?: string | undefined; expected: number; actual: number },
  ) {
    super("EMBEDDING_DIMENSION_MISMATCH", message);
    this.documentId = fields.documentId;
    this.expected = fields.expected;
    this.actual = fields.actual;
  }
}

/**
 * A document's embedding holds a value that is not a finite number (`NaN`, `Infinity`), or is empty.
 * Similarity with such an embedding is `NaN`, which has no rank, so the store refuses it when written
 * (usually a broken embedding model or a division by zero while normalizing).
 */
export class EmbeddingValueError extends JunctionError {
  /** The document whose embedding is refused. */
  readonly documentId: string;
  /** The position of the first value that is not finite (`-1` for an empty embedding). */
  readonly index: number;

  /** @param message - names the document, the position and the value @param fields - the id and position */
  constructor(message: string, fields: { documentId: string; index: number }) {
    super("EMBEDDING_NOT_FINITE", message);
    this.documentId = fields.documentId;
    this.index = fields.index;
  }
}

/** A store file could not be read or written (missing, not JSON, not a store file, an I/O failure). */
export class StoreFileError extends JunctionError {
  /** The file concerned. */
  readonly path: string;

  /** @param message - names the file, why, and how to fix it @param path - the file @param cause - the underlying error */
  constructor(message: string, path: string, cause?: unknown) {
    super("STORE_FILE_ERROR", message, { cause });
    this.path = path;
  }
}
