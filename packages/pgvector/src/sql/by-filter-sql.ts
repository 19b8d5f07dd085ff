import { type SqlStatement, sql } from "../driver/sql-driver.js";
import type { PgvectorFilter } from "../filters/pgvector-filter.js";
import type { StoreConfig } from "../store/config.js";
import { SqlParams } from "./params.js";
import { whereClause } from "./retrieval-sql.js";
import type { TableSql } from "./schema.js";

/** What a by-filter statement acts on: the table, and the rows matching a filter (every row without). */
interface Target {
  readonly config: StoreConfig;
  readonly names: TableSql;
  readonly filter: PgvectorFilter | undefined;
}

function where(target: Target, params: SqlParams): string {
  const clause = whereClause(target.filter, params, target.config);
  return clause === "" ? "" : ` WHERE ${clause}`;
}

/** Haystack's `count_documents_by_filter`: `SELECT COUNT(*) … WHERE <filter>`, as `n`. */
export function countByFilterStatement(target: Target): SqlStatement {
  const params = new SqlParams();
  return sql(`SELECT count(*)::int AS n FROM ${target.names.table}${where(target, params)}`, params.values);
}

/** Haystack's `delete_by_filter`: deletes the matching rows; `n` is how many. */
export function deleteByFilterStatement(target: Target): SqlStatement {
  const params = new SqlParams();
  const text = `WITH deleted AS (DELETE FROM ${target.names.table}${where(target, params)} RETURNING 1)
SELECT count(*)::int AS n FROM deleted`;
  return sql(text, params.values);
}

/**
 * Haystack's `update_by_filter`: merges `meta` into the matching rows' meta (top-level keys replaced,
 * `COALESCE(meta, '{}') || $1`); `n` is how many rows changed. Ids are not recomputed, as in Haystack.
 */
export function updateByFilterStatement(
  target: Target,
  meta: Readonly<Record<string, unknown>>,
): SqlStatement {
  const params = new SqlParams();
  const patch = params.add(JSON.stringify(meta), "jsonb");
  const text = `WITH updated AS (UPDATE ${target.names.table} SET meta = COALESCE(meta, '{}'::jsonb) || ${patch}${where(target, params)} RETURNING 1)
SELECT count(*)::int AS n FROM updated`;
  return sql(text, params.values);
}
