import { Document } from "../../document/document.js";
import type { DuplicatePolicy } from "../duplicate-policy.js";
import { DuplicateDocumentError } from "../errors.js";
import type { DocumentTable } from "./document-table.js";
import { EmbeddingDimensionError, EmbeddingValueError } from "./in-memory-errors.js";

/** The documents a write stores, in order, after the duplicate policy and every check. */
export interface WritePlan {
  readonly toWrite: readonly Document[];
  /**
   * What `writeDocuments` reports, counted as Haystack's loop does: every document not skipped, so an id
   * repeated in an `"overwrite"` batch counts each time it is written (Haystack writes it twice).
   */
  readonly written: number;
}

/**
 * Checks a batch before anything is written, so a refused write changes nothing:
 * every element is a `Document`; with `"fail"` (and `"none"`, which this store treats as `"fail"`, as
 * Haystack's) every id already stored or repeated in the batch is reported at once; every embedding has
 * the store's dimension (or the batch's first one when the store holds none).
 *
 * `"skip"` keeps the stored document (and the first of repeated ids in the batch); `"overwrite"` writes
 * the last of repeated ids.
 *
 * @throws DuplicateDocumentError listing every duplicate id; EmbeddingDimensionError naming the document
 *   and both dimensions; EmbeddingValueError for an empty embedding or one holding NaN or Infinity;
 *   TypeError for an element that is not a Document
 */
export function planWrite(
  documents: readonly Document[],
  policy: DuplicatePolicy,
  table: DocumentTable,
  storedDimension: number | undefined,
): WritePlan {
  if (!Array.isArray(documents)) {
    throw new TypeError("InMemoryDocumentStore.writeDocuments: expected a list of Documents.");
  }
  documents.forEach((document, index) => {
    if (!(document instanceof Document)) {
      throw new TypeError(
        `InMemoryDocumentStore.writeDocuments: documents[${index}] is not a Document; create it with new Document({ content, meta }).`,
      );
    }
  });
  const effective = policy === "none" ? "fail" : policy;
  const byId = new Map<string, Document>();
  const duplicates: string[] = [];
  for (const document of documents) {
    const stored = table.slotOf(document.id) !== undefined;
    const repeated = byId.has(document.id);
    if (effective === "fail" && (stored || repeated)) {
      if (!duplicates.includes(document.id)) duplicates.push(document.id);
      continue;
    }
    if (effective === "skip" && (stored || repeated)) continue;
    if (repeated) byId.delete(document.id); // overwrite: the last one wins, at its position
    byId.set(document.id, document);
  }
  if (duplicates.length > 0) {
    const shown = duplicates
      .slice(0, 20)
      .map((id) => JSON.stringify(id))
      .join(", ");
    const more = duplicates.length > 20 ? ` and ${duplicates.length - 20} more` : "";
    throw new DuplicateDocumentError(duplicates, {
      message: `InMemoryDocumentStore.writeDocuments: ${duplicates.length === 1 ? "the id" : `${duplicates.length} ids`} ${shown}${more} ${duplicates.length === 1 ? "is" : "are"} already stored or repeated in the batch (policy "${policy}"${policy === "none" ? ', which this store treats as "fail"' : ""}); nothing was written. Write with policy "skip" to keep the stored documents or "overwrite" to replace them.`,
    });
  }
  const toWrite = [...byId.values()];
  checkDimensions(toWrite, storedDimension);
  return { toWrite, written: effective === "overwrite" ? documents.length : toWrite.length };
}

function checkDimensions(documents: readonly Document[], storedDimension: number | undefined): void {
  let expected = storedDimension;
  let from = "the stored embeddings";
  // The dimension is fixed while the store holds an embedding (even when this batch overwrites them all).
  for (const document of documents) {
    const embedding = document.embedding;
    if (embedding === undefined) continue;
    checkFinite(document.id, embedding);
    if (expected === undefined) {
      expected = embedding.length;
      from = `document "${document.id}" earlier in the batch`;
      continue;
    }
    if (embedding.length !== expected) {
      throw new EmbeddingDimensionError(
        `InMemoryDocumentStore.writeDocuments: document "${document.id}" has an embedding of ${embedding.length} dimensions but ${from} have ${expected}. Embed every document with the same model (or use another store per model). Nothing was written.`,
        { documentId: document.id, expected, actual: embedding.length },
      );
    }
  }
}

function checkFinite(documentId: string, embedding: readonly number[]): void {
  if (embedding.length === 0) {
    throw new EmbeddingValueError(
      `InMemoryDocumentStore.writeDocuments: document "${documentId}" has an empty embedding. Give it an embedding with values, or none (embedding: undefined). Nothing was written.`,
      { documentId, index: -1 },
    );
  }
  for (let index = 0; index < embedding.length; index++) {
    const value = embedding[index] as number;
    if (Number.isFinite(value)) continue;
    throw new EmbeddingValueError(
      `InMemoryDocumentStore.writeDocuments: document "${documentId}" has ${String(value)} at embedding[${index}]; embeddings must hold finite numbers (similarity with NaN or Infinity cannot be ranked). Check the embedding model's output. Nothing was written.`,
      { documentId, index },
    );
  }
}
