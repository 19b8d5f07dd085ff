import { ByteStream, Document } from "@junction/documents";
import type { SqlRow } from "../driver/sql-driver.js";
import { PgvectorStoreError } from "../errors.js";
import type { StoreConfig } from "../store/config.js";

function refuse(document: Document, why: string): PgvectorStoreError {
  return new PgvectorStoreError(
    "PGVECTOR_INVALID_DOCUMENT",
    `PgvectorDocumentStore.writeDocuments: document "${document.id.slice(0, 140)}" ${why} Nothing was written.`,
  );
}

/** The first problem that makes a JSON value unstorable in jsonb, or undefined. */
export function jsonProblem(value: unknown, path: string, depth: number): string | undefined {
  if (depth > 100) return `${path} is nested more than 100 levels deep`;
  if (typeof value === "number" && !Number.isFinite(value))
    return `${path} is ${value} (JSON has no NaN or Infinity)`;
  if (typeof value === "string" && value.includes("\u0000"))
    return `${path} holds a NUL character (Postgres text cannot)`;
  if (typeof value === "bigint") return `${path} is a bigint (not JSON)`;
  if (typeof value === "function" || typeof value === "symbol") return `${path} is not JSON data`;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const problem = jsonProblem(value[index], `${path}[${index}]`, depth + 1);
      if (problem !== undefined) return problem;
    }
  } else if (typeof value === "object" && value !== null) {
    if (value instanceof Date) return undefined;
    for (const [key, item] of Object.entries(value)) {
      if (key.includes("\u0000")) return `${path} has a key holding a NUL character`;
      const problem = jsonProblem(item, `${path}.${key}`, depth + 1);
      if (problem !== undefined) return problem;
    }
  }
  return undefined;
}

function embeddingText(document: Document, config: StoreConfig): string | null {
  const embedding = document.embedding;
  if (embedding === undefined) return null;
  if (embedding.length !== config.embeddingDimension) {
    throw refuse(
      document,
      `has an embedding of dimension ${embedding.length}, but the table "${config.tableName}" holds embeddings of dimension ${config.embeddingDimension}. Embed it with the model the store was created for, or set embeddingDimension.`,
    );
  }
  for (let index = 0; index < embedding.length; index++) {
    const value = embedding[index];
    if (typeof value !== "number" || !Number.isFinite(value)) {
      throw refuse(
        document,
        `has a non-finite embedding value (${String(value)} at index ${index}); pgvector stores finite numbers only.`,
      );
    }
  }
  return config.vectorType === "none" ? `{${embedding.join(",")}}` : `[${embedding.join(",")}]`;
}

/**
 * The parameters of one row, as Haystack's `_from_haystack_to_pg_documents` writes it: meta as jsonb,
 * blob bytes, meta and MIME type in their own columns (NULL when empty), NUL characters removed from the
 * content (Postgres text cannot hold them). Refuses what the table cannot hold, naming the document.
 *
 * @returns `[id, embedding, content, blob_data, blob_meta, blob_mime_type, meta]`
 */
export function documentRow(document: Document, config: StoreConfig): unknown[] {
  if (!(document instanceof Document)) {
    throw new PgvectorStoreError(
      "PGVECTOR_INVALID_DOCUMENT",
      "PgvectorDocumentStore.writeDocuments: expected Document instances; build them with new Document({ content, meta }).",
    );
  }
  if (document.id.length > 128 || document.id.includes("\u0000")) {
    throw refuse(
      document,
      "has an id longer than 128 characters or holding a NUL character; the id column is VARCHAR(128).",
    );
  }
  const metaProblem = jsonProblem(document.meta, "meta", 0);
  if (metaProblem !== undefined) throw refuse(document, `cannot be stored: ${metaProblem}.`);
  const blob = document.blob;
  const blobMeta = blob !== undefined && Object.keys(blob.meta).length > 0 ? blob.meta : undefined;
  const blobProblem = blobMeta === undefined ? undefined : jsonProblem(blobMeta, "blob.meta", 0);
  if (blobProblem !== undefined) throw refuse(document, `cannot be stored: ${blobProblem}.`);
  const mimeType = blob?.mimeType;
  if (mimeType !== undefined && (mimeType.length > 255 || mimeType.includes("\u0000"))) {
    throw refuse(document, "has a blob MIME type longer than 255 characters or holding a NUL character.");
  }
  return [
    document.id,
    embeddingText(document, config),
    document.content === undefined ? null : document.content.replaceAll("\u0000", ""),
    blob === undefined ? null : blob.data,
    blobMeta === undefined ? null : JSON.stringify(blobMeta),
    mimeType === undefined || mimeType === "" ? null : mimeType,
    JSON.stringify(document.meta),
  ];
}

/** Reads an embedding as Postgres prints it: `[1,2,3]` (vector, halfvec) or `{1,2,3}` (real[]). */
export function parseEmbedding(value: unknown): number[] | undefined {
  if (value === null || value === undefined) return undefined;
  if (Array.isArray(value)) return value.map(Number);
  const text = String(value).trim();
  const inner = text.slice(1, -1);
  if (inner.trim() === "") return [];
  return inner.split(",").map(Number);
}

function toBytes(value: unknown): Uint8Array | undefined {
  if (value === null || value === undefined) return undefined;
  if (value instanceof Uint8Array) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  return undefined;
}

function parseJsonColumn(value: unknown): Record<string, unknown> | undefined {
  if (value === null || value === undefined) return undefined;
  const parsed = typeof value === "string" ? (JSON.parse(value) as unknown) : value;
  return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
    ? (parsed as Record<string, unknown>)
    : undefined;
}

/**
 * A Document from a row, as Haystack's `_from_pg_to_haystack_documents` reads it: NULL meta is `{}`, a
 * blob only when `blob_data` is non-empty, the stored id kept as is.
 *
 * @param row - the row (columns of {@link TableSql.columns}, and `score` when ranked)
 */
export function rowDocument(row: SqlRow): Document {
  const data = toBytes(row.blob_data);
  const blob =
    data !== undefined && data.length > 0
      ? new ByteStream(data, {
          mimeType: typeof row.blob_mime_type === "string" ? row.blob_mime_type : undefined,
          meta: parseJsonColumn(row.blob_meta) ?? {},
        })
      : undefined;
  const score = row.score === undefined || row.score === null ? undefined : Number(row.score);
  return new Document({
    id: String(row.id),
    content: typeof row.content === "string" ? row.content : undefined,
    blob,
    meta: parseJsonColumn(row.meta) ?? {},
    score,
    embedding: parseEmbedding(row.embedding),
  });
}
