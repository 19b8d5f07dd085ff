import type { Document } from "../document/document.js";
import type { Filter } from "../filters/filter-types.js";
import type { DuplicatePolicy } from "./duplicate-policy.js";

/** Options of {@link DocumentStore.writeDocuments}. */
export interface WriteDocumentsOptions {
  /** What to do with documents whose id is already stored (default `"none"`: the store decides). */
  readonly policy?: DuplicatePolicy | undefined;
  /** Cancels the write. */
  readonly signal?: AbortSignal | undefined;
}

/** Options of the reading methods of a {@link DocumentStore}. */
export interface StoreCallOptions {
  /** Cancels the call. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * The contract every document store implements (Haystack's `DocumentStore` protocol, async only).
 * `describeDocumentStore` in `@junction/documents/testing` checks a store against it.
 */
export interface DocumentStore {
  /** How many documents the store holds. */
  countDocuments(options?: StoreCallOptions): Promise<number>;
  /**
   * The documents matching `filters`, in a stable order; every document when `filters` is `undefined`
   * or an empty object (Haystack's `filters={}`).
   *
   * @throws FilterError when the filter is malformed (see `validateFilter`) or a comparison cannot be
   *   made (ordering a stored string that is not an ISO date)
   */
  filterDocuments(filters?: Filter | undefined, options?: StoreCallOptions): Promise<Document[]>;
  /**
   * Writes documents; resolves to how many were written (skipped duplicates are not counted).
   *
   * @throws DuplicateDocumentError with policy `"fail"` (and `"none"` in stores that treat it as
   *   `"fail"`) when an id is already stored or repeated in the batch; nothing of the batch is written
   */
  writeDocuments(documents: readonly Document[], options?: WriteDocumentsOptions): Promise<number>;
  /** Deletes the documents with these ids; unknown ids are ignored. */
  deleteDocuments(ids: readonly string[], options?: StoreCallOptions): Promise<void>;
  /** Deletes every document. */
  deleteAllDocuments(options?: StoreCallOptions): Promise<void>;
}
