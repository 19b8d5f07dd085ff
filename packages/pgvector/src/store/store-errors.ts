import { DuplicateDocumentError, FilterError } from "@junction/documents";
import { PgvectorStoreError } from "../errors.js";
import { filterErrorMarker } from "../sql/filter-sql.js";

/** The SQLSTATE of a database error, if any. */
export function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

/** `DuplicateDocumentError` naming the ids (Haystack raises it for policy "fail"). */
export function duplicateError(ids: readonly string[], tableName: string): DuplicateDocumentError {
  return new DuplicateDocumentError(ids, {
    message: `PgvectorDocumentStore.writeDocuments: ${ids.length === 1 ? "a document" : `${ids.length} documents`} with id ${ids
      .slice(0, 5)
      .map((id) => JSON.stringify(id))
      .join(
        ", ",
      )}${ids.length > 5 ? ", …" : ""} already in table "${tableName}"; nothing was written. Write with policy "skip" or "overwrite" to keep or replace them.`,
  });
}

/**
 * Turns a failure of `operation` into the error a user can act on: a filter the data cannot satisfy
 * becomes a FilterError; an abort stays the abort; Junction errors pass; anything else becomes a
 * PgvectorStoreError naming the operation, the table and the database.
 */
export function storeError(error: unknown, operation: string, where: string, signal?: AbortSignal): unknown {
  if (signal?.aborted && error === signal.reason) return error;
  if (error instanceof Error && error.name === "AbortError") return error;
  if (PgvectorStoreError.isInstance(error) || error instanceof FilterError) return error;
  if ((error as { code?: unknown })?.code === "DUPLICATE_DOCUMENT") return error;
  const message = error instanceof Error ? error.message : String(error);
  const marker = message.indexOf(filterErrorMarker);
  if (marker !== -1) {
    const detail = message
      .slice(marker + filterErrorMarker.length)
      .replace(/"$/, "")
      .trim();
    return new FilterError(`Filter: ${detail}`, { cause: error });
  }
  const state = sqlState(error);
  let advice = "";
  if (state === "54000") {
    advice =
      " A document is too large for the keyword index (a tsvector holds at most 1 MB); split it with a DocumentSplitter.";
  } else if (state === "42P01") {
    advice = " The table was dropped while the store was open; create a new store.";
  }
  return new PgvectorStoreError(
    "PGVECTOR_QUERY_FAILED",
    `PgvectorDocumentStore.${operation} on ${where} failed: ${message}${state === undefined ? "" : ` (SQLSTATE ${state})`}.${advice}`,
    { cause: error },
  );
}
