import { createHash } from "node:crypto";
import type { Document } from "./document.js";

/**
 * PLACEHOLDER (to be made exact): Haystack's id is the sha256 hex of
 * `f"{content or None}{None}{blob.data!r}{mime_type}{meta_json}{embedding}{sparse.to_dict() or ''}"`
 * with Python's formatting. This version hashes a JSON form and is NOT yet Haystack-compatible.
 */
export function computeDocumentId(document: Document): string {
  return createHash("sha256")
    .update(
      JSON.stringify([
        document.content ?? null,
        document.blob === undefined ? null : Array.from(document.blob.data),
        document.blob?.mimeType ?? null,
        document.meta,
        document.embedding ?? null,
        document.sparseEmbedding?.toJSON() ?? null,
      ]),
    )
    .digest("hex");
}
