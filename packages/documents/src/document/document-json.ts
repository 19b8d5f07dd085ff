import { ByteStream } from "./byte-stream.js";
import { Document, type DocumentJSON } from "./document.js";
import { SparseEmbedding } from "./sparse-embedding.js";

const fieldNames = new Set(["id", "content", "blob", "meta", "score", "embedding", "sparse_embedding"]);

/** Haystack's `Document.to_dict(flatten=True)`. */
export function documentToJSON(document: Document): DocumentJSON {
  return {
    id: document.id,
    content: document.content ?? null,
    blob: document.blob?.toJSON() ?? null,
    score: document.score ?? null,
    embedding: document.embedding === undefined ? null : [...document.embedding],
    sparse_embedding: document.sparseEmbedding?.toJSON() ?? null,
    ...document.meta,
  };
}

/** Haystack's `Document.from_dict`: reads the flattened and the nested (`meta: {...}`) shapes. */
export function documentFromJSON(json: unknown): Document {
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    throw new TypeError("Document.fromJSON: expected an object (Haystack's Document.to_dict shape).");
  }
  const record = json as Record<string, unknown>;
  const meta: Record<string, unknown> = {};
  if (record.meta !== undefined && record.meta !== null) {
    if (typeof record.meta !== "object" || Array.isArray(record.meta)) {
      throw new TypeError("Document.fromJSON: meta must be an object.");
    }
    Object.assign(meta, record.meta);
  }
  for (const [key, value] of Object.entries(record)) {
    if (!fieldNames.has(key)) meta[key] = value;
  }
  const { id, content, score, embedding } = record;
  if (id !== undefined && id !== null && typeof id !== "string") {
    throw new TypeError("Document.fromJSON: id must be a string.");
  }
  if (content !== undefined && content !== null && typeof content !== "string") {
    throw new TypeError("Document.fromJSON: content must be a string or null.");
  }
  if (score !== undefined && score !== null && typeof score !== "number") {
    throw new TypeError("Document.fromJSON: score must be a number or null.");
  }
  if (embedding !== undefined && embedding !== null) {
    if (!Array.isArray(embedding) || !embedding.every((value) => typeof value === "number")) {
      throw new TypeError("Document.fromJSON: embedding must be a list of numbers or null.");
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
