import { getDefaultLogger } from "@junction/core";
import type { Document, DuplicatePolicy } from "@junction/documents";
import { type SqlDriver, sql } from "../driver/sql-driver.js";
import { PgvectorStoreError } from "../errors.js";
import { documentRow } from "../sql/rows.js";
import type { TableSql } from "../sql/schema.js";
import type { StoreConfig } from "./config.js";
import { duplicateError, sqlState } from "./store-errors.js";

/** Rows per INSERT statement (7 parameters each, far below Postgres' 65,535). */
const rowsPerStatement = 500;

/** Haystack's upsert (`UPDATE_STATEMENT`): every column from the new row. */
const overwrite = `ON CONFLICT (id) DO UPDATE SET
embedding = EXCLUDED.embedding, content = EXCLUDED.content, blob_data = EXCLUDED.blob_data,
blob_meta = EXCLUDED.blob_meta, blob_mime_type = EXCLUDED.blob_mime_type, meta = EXCLUDED.meta`;

/**
 * The documents to write after settling duplicates inside the batch: `"overwrite"` keeps the last of
 * each id, `"skip"` the first, `"fail"` refuses the batch.
 */
function settleBatch(
  documents: readonly Document[],
  policy: Exclude<DuplicatePolicy, "none">,
  tableName: string,
) {
  const byId = new Map<string, Document>();
  const repeated = new Set<string>();
  for (const document of documents) {
    if (byId.has(document.id)) {
      repeated.add(document.id);
      if (policy === "overwrite") byId.set(document.id, document);
    } else byId.set(document.id, document);
  }
  if (policy === "fail" && repeated.size > 0) throw duplicateError([...repeated], tableName);
  return [...byId.values()];
}

/**
 * Writes one batch in one transaction: every row is checked before anything is sent, duplicates are
 * settled by the policy, and any failure rolls the whole batch back.
 *
 * @returns how many rows were inserted or replaced
 */
export async function writeBatch(
  driver: SqlDriver,
  config: StoreConfig,
  names: TableSql,
  documents: readonly Document[],
  policy: Exclude<DuplicatePolicy, "none">,
  signal: AbortSignal | undefined,
): Promise<number> {
  if (!Array.isArray(documents)) {
    throw new PgvectorStoreError(
      "PGVECTOR_INVALID_DOCUMENT",
      "PgvectorDocumentStore.writeDocuments: expected a list of Documents.",
    );
  }
  const unique = settleBatch(documents, policy, config.tableName);
  const sparse = unique.filter((document) => document.sparseEmbedding !== undefined).length;
  if (sparse > 0) {
    getDefaultLogger().warn(
      `PgvectorDocumentStore.writeDocuments: ${sparse} document(s) have a sparse embedding, which Haystack's pgvector table has no column for; it is not stored (as in Haystack).`,
    );
  }
  const rows = unique.map((document) => documentRow(document, config));
  if (rows.length === 0) return 0;
  const embeddingCast = names.vectorCast;
  const conflict =
    policy === "overwrite" ? overwrite : policy === "skip" ? "ON CONFLICT (id) DO NOTHING" : "";
  try {
    return await driver.transaction(async (session) => {
      if (policy === "fail") {
        const existing = await session.query(
          sql(`SELECT id FROM ${names.table} WHERE id = ANY($1::text[]) ORDER BY id`, [
            unique.map((d) => d.id),
          ]),
        );
        if (existing.length > 0)
          throw duplicateError(
            existing.map((row) => String(row.id)),
            config.tableName,
          );
      }
      let written = 0;
      for (let start = 0; start < rows.length; start += rowsPerStatement) {
        const chunk = rows.slice(start, start + rowsPerStatement);
        const values: string[] = [];
        const params: unknown[] = [];
        for (const row of chunk) {
          const n = params.length;
          values.push(
            `($${n + 1}, $${n + 2}::${embeddingCast}, $${n + 3}, $${n + 4}::bytea, $${n + 5}::jsonb, $${n + 6}, $${n + 7}::jsonb)`,
          );
          params.push(...row);
        }
        const inserted = await session.query(
          sql(
            `INSERT INTO ${names.table} (id, embedding, content, blob_data, blob_meta, blob_mime_type, meta) VALUES ${values.join(", ")} ${conflict} RETURNING id`,
            params,
          ),
        );
        written += inserted.length;
      }
      return written;
    }, signal);
  } catch (error) {
    // A concurrent writer stored the same id between the check and the insert.
    if (sqlState(error) === "23505") {
      const detail = /\(id\)=\((.*)\) already exists/.exec(
        String((error as { detail?: unknown }).detail ?? ""),
      );
      throw duplicateError(
        detail?.[1] === undefined ? unique.map((d) => d.id) : [detail[1]],
        config.tableName,
      );
    }
    throw error;
  }
}
