import { JunctionError } from "@junction/core";

/** Options of {@link DuplicateDocumentError}. */
export interface DuplicateDocumentErrorOptions {
  /** A message naming the store (the default names only the ids). */
  readonly message?: string | undefined;
  /** The underlying error (a unique-key violation from a database). */
  readonly cause?: unknown;
}

const listedIds = 20;

/**
 * `writeDocuments` with policy `"fail"` (or `"none"` in stores that treat it as `"fail"`) found
 * documents whose ids are already stored, or repeated within the batch. Nothing of the batch was
 * written. Haystack raises `DuplicateDocumentError` in the same case.
 *
 * @example
 * ```ts
 * try { await store.writeDocuments(docs, { policy: "fail" }); } catch (error) {
 *   if (error instanceof DuplicateDocumentError) console.log(error.ids);
 * }
 * ```
 */
export class DuplicateDocumentError extends JunctionError {
  /** Every duplicate id, in the order of the batch. */
  readonly ids: readonly string[];

  /**
   * @param ids - every duplicate id
   * @param options - a message naming the store, the cause
   */
  constructor(ids: readonly string[], options: DuplicateDocumentErrorOptions = {}) {
    super("DUPLICATE_DOCUMENT", options.message ?? defaultMessage(ids), { cause: options.cause });
    this.ids = [...ids];
  }
}

function defaultMessage(ids: readonly string[]): string {
  const shown = ids
    .slice(0, listedIds)
    .map((id) => JSON.stringify(id))
    .join(", ");
  const more = ids.length > listedIds ? ` and ${ids.length - listedIds} more` : "";
  const what = ids.length === 1 ? "a document with id" : `${ids.length} documents with ids`;
  return `writeDocuments: ${what} ${shown}${more} already stored; nothing was written. Write with policy "skip" to keep the stored documents or "overwrite" to replace them.`;
}
