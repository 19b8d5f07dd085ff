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
  /** The documents matching `filters` (all documents when there is no filter), in a stable order. */
  filterDocuments(filters?: Filter | undefined, options?: StoreCallOptions): Promise<Document[]>;
  /** Writes documents; resolves to how many were written (skipped duplicates are not counted). */
  writeDocuments(documents: readonly Document[], options?: WriteDocumentsOptions): Promise<number>;
  /** Deletes the documents with these ids; unknown ids are ignored. */
  deleteDocuments(ids: readonly string[], options?: StoreCallOptions): Promise<void>;
  /** Deletes every document. */
  deleteAllDocuments(options?: StoreCallOptions): Promise<void>;
}
