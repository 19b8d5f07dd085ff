import { createHash } from "node:crypto";
import type { Document } from "./document.js";
import { pythonBytesRepr, pythonFloatListRepr, pythonJsonDumps, pythonNumberRepr } from "./python-format.js";

/**
 * The text Haystack hashes for a document id (`haystack/dataclasses/document.py`, `_create_id`):
 * `f"{text}{None}{blob!r}{mime_type}{meta}{embedding}{sparse_embedding}"` where `text` is the content
 * or `None` (an empty content counts as `None`), `blob!r` is Python's bytes repr, `mime_type` is the
 * blob's (`None` without a blob or without a type), `meta` is `json.dumps(meta, sort_keys=True,
 * default=str)` or `{}`, `embedding` is Python's list repr (or `None`) and `sparse_embedding` is the
 * repr of `{'indices': [...], 'values': [...]}` (or nothing). The score and the blob's meta are not part
 * of it.
 */
export function documentIdText(document: Document): string {
  const text = document.content === undefined || document.content === "" ? "None" : document.content;
  const blob = document.blob === undefined ? "None" : pythonBytesRepr(document.blob.data);
  const mimeType = document.blob?.mimeType ?? "None";
  const meta = Object.keys(document.meta).length === 0 ? "{}" : pythonJsonDumps(document.meta);
  const embedding = document.embedding === undefined ? "None" : pythonFloatListRepr(document.embedding);
  const sparse = document.sparseEmbedding;
  const sparseText =
    sparse === undefined
      ? ""
      : `{'indices': [${sparse.indices.map(pythonNumberRepr).join(", ")}], 'values': ${pythonFloatListRepr(sparse.values)}}`;
  return `${text}None${blob}${mimeType}${meta}${embedding}${sparseText}`;
}

/**
 * The id Haystack gives the same document: the sha256 hex digest of {@link documentIdText} in UTF-8.
 * Equal for a Junction and a Haystack document with the same fields, within the limits of JavaScript
 * numbers (an integral meta value within ±2^53 counts as a Python `int`, so a Python float `1.0` in
 * meta hashes differently; use a `bigint` for larger integers). See docs/documents.md.
 *
 * @param document - the document (its `id` is not read)
 * @returns 64 lowercase hex characters
 */
export function computeDocumentId(document: Document): string {
  return createHash("sha256").update(documentIdText(document), "utf8").digest("hex");
}
