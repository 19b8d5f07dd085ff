import { DeserializationError } from "@junction/core";
import { ByteStream } from "./byte-stream.js";
import { Document, type DocumentJSON } from "./document.js";
import { SparseEmbedding } from "./sparse-embedding.js";

/**
 * The names `to_dict` / `from_dict` treat as document fields: the fields, `meta`, and the Haystack 1.x
 * names (`content_type`, `id_hash_keys`, `dataframe`) that `from_dict` drops.
 */
const fieldNames = new Set([
  "id",
  "content",
  "blob",
  "meta",
  "score",
  "embedding",
  "sparse_embedding",
  "content_type",
  "id_hash_keys",
  "dataframe",
]);

/**
 * Haystack's `Document.to_dict(flatten=True)`: the meta keys first, then `id, content, blob, score,
 * embedding, sparse_embedding` (each present, `null` when unset), then — only when some meta key has
 * a field's name (`id`, `content`, `meta`, `content_type`, ...) — those keys nested under `meta`.
 */
export function documentToJSON(document: Document): DocumentJSON {
  const flattened: Record<string, unknown> = {};
  const colliding: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(document.meta)) {
    if (fieldNames.has(key)) colliding[key] = value;
    else flattened[key] = value;
  }
  const json: Record<string, unknown> = {
    ...flattened,
    id: document.id,
    content: document.content ?? null,
    blob: document.blob?.toJSON() ?? null,
    score: document.score ?? null,
    embedding: document.embedding === undefined ? null : [...document.embedding],
    sparse_embedding: document.sparseEmbedding?.toJSON() ?? null,
  };
  if (Object.keys(colliding).length > 0) json.meta = colliding;
  return json as DocumentJSON;
}

/**
 * Haystack's `Document.from_dict`: reads the flattened and the nested (`meta: {...}`) shapes. Keys that
 * are not field names are meta; a nested `meta` object is merged first and flattened keys win; the
 * Haystack 1.x fields `content_type`, `id_hash_keys` and `dataframe` are dropped; a missing or empty
 * `id` is computed.
 */
export function documentFromJSON(json: unknown): Document {
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    throw new DeserializationError(
      "Document.fromJSON: expected an object (Haystack's Document.to_dict shape).",
    );
  }
  const record = json as Record<string, unknown>;
  const meta: Record<string, unknown> = {};
  if (record.meta !== undefined && record.meta !== null) {
    if (typeof record.meta !== "object" || Array.isArray(record.meta)) {
      throw new DeserializationError("Document.fromJSON: meta must be an object.");
    }
    for (const [key, value] of Object.entries(record.meta)) setOwn(meta, key, value);
  }
  for (const [key, value] of Object.entries(record)) {
    if (!fieldNames.has(key)) setOwn(meta, key, value);
  }
  const { id, content, score, embedding } = record;
  if (id !== undefined && id !== null && typeof id !== "string") {
    throw new DeserializationError("Document.fromJSON: id must be a string.");
  }
  if (content !== undefined && content !== null && typeof content !== "string") {
    throw new DeserializationError("Document.fromJSON: content must be a string or null.");
  }
  if (score !== undefined && score !== null && typeof score !== "number") {
    throw new DeserializationError("Document.fromJSON: score must be a number or null.");
  }
  if (embedding !== undefined && embedding !== null) {
    if (!Array.isArray(embedding) || !embedding.every((value) => typeof value === "number")) {
      throw new DeserializationError("Document.fromJSON: embedding must be a list of numbers or null.");
    }
  }
  return new Document({
    id: id ?? undefined,
    content: content ?? undefined,
    blob: record.blob === undefined || record.blob === null ? undefined : ByteStream.fromJSON(record.blob),
    meta,
    score: score ?? undefined,
    embedding: (embedding as number[] | null | undefined) ?? undefined,
    sparseEmbedding:
      record.sparse_embedding === undefined || record.sparse_embedding === null
        ? undefined
        : SparseEmbedding.fromJSON(record.sparse_embedding),
  });
}

/** Sets an own property, even one named `__proto__` (a JSON key must never change the prototype). */
function setOwn(record: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
}
