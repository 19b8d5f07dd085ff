import { type SqlStatement, sql } from "../driver/sql-driver.js";
import type { StoreConfig } from "../store/config.js";
import { vectorOperators } from "../store/config.js";
import { languageLiteral, quoteIdentifier } from "./identifiers.js";

/** The quoted names and fixed SQL fragments of one store's table. */
export interface TableSql {
  /** `"schema"."table"`. */
  readonly table: string;
  /** `'english'`. */
  readonly language: string;
  /** `to_tsvector('english', content)`: the same expression as the GIN index, so queries can use it. */
  readonly tsvector: string;
  /** `vector`, `halfvec` or `real[]`: the cast of a query embedding. */
  readonly vectorCast: string;
  /** The columns a document is read from. */
  readonly columns: string;
  /** The same columns of the table aliased `t`. */
  readonly aliasedColumns: string;
}

function documentColumns(prefix: string): string {
  return `${prefix}id, ${prefix}embedding::text AS embedding, ${prefix}content, ${prefix}blob_data, ${prefix}blob_meta, ${prefix}blob_mime_type, ${prefix}meta`;
}

/** Checks the names of a configuration and builds its SQL fragments. */
export function tableSql(config: StoreConfig): TableSql {
  const table = `${quoteIdentifier(config.schemaName, "schemaName")}.${quoteIdentifier(config.tableName, "tableName")}`;
  quoteIdentifier(config.hnswIndexName, "hnswIndexName");
  quoteIdentifier(config.keywordIndexName, "keywordIndexName");
  const language = languageLiteral(config.language);
  return {
    table,
    language,
    tsvector: `to_tsvector(${language}, content)`,
    vectorCast: config.vectorType === "none" ? "real[]" : config.vectorType,
    columns: documentColumns(""),
    aliasedColumns: documentColumns("t."),
  };
}

/** Haystack's table, column for column (`CREATE_TABLE_STATEMENT` of haystack-core-integrations' pgvector). */
export function createTableStatement(config: StoreConfig, names: TableSql): SqlStatement {
  const embedding =
    config.vectorType === "none" ? "real[]" : `${config.vectorType}(${config.embeddingDimension})`;
  return sql(`CREATE TABLE ${names.table} (
id VARCHAR(128) PRIMARY KEY,
embedding ${embedding},
content TEXT,
blob_data BYTEA,
blob_meta JSONB,
blob_mime_type VARCHAR(255),
meta JSONB)`);
}

/** Haystack's keyword index: GIN over `to_tsvector(language, content)`. */
export function createKeywordIndexStatement(config: StoreConfig, names: TableSql): SqlStatement {
  return sql(
    `CREATE INDEX ${quoteIdentifier(config.keywordIndexName, "keywordIndexName")} ON ${names.table} USING GIN (${names.tsvector})`,
  );
}

/** Haystack's `DROP INDEX IF EXISTS schema.index` for `hnswRecreateIndexIfExists`. */
export function dropHnswIndexStatement(config: StoreConfig): SqlStatement {
  return sql(
    `DROP INDEX IF EXISTS ${quoteIdentifier(config.schemaName, "schemaName")}.${quoteIdentifier(config.hnswIndexName, "hnswIndexName")}`,
  );
}

/** Haystack's HNSW index: `USING hnsw (embedding vector_<op>_ops) WITH (m, ef_construction)`. */
export function createHnswIndexStatement(config: StoreConfig, names: TableSql): SqlStatement {
  const ops = `${config.vectorType}_${vectorOperators[config.vectorFunction].ops}`;
  const settings: string[] = [];
  const { m, efConstruction } = config.hnswIndexCreationKwargs;
  if (m !== undefined) settings.push(`m = ${m}`);
  if (efConstruction !== undefined) settings.push(`ef_construction = ${efConstruction}`);
  const withClause = settings.length === 0 ? "" : ` WITH (${settings.join(", ")})`;
  return sql(
    `CREATE INDEX ${quoteIdentifier(config.hnswIndexName, "hnswIndexName")} ON ${names.table} USING hnsw (embedding ${ops})${withClause}`,
  );
}

/** Whether an index exists on the table (Haystack's check, by schema, table and index name). */
export function indexExistsStatement(config: StoreConfig, indexName: string): SqlStatement {
  return sql("SELECT 1 FROM pg_indexes WHERE schemaname = $1 AND tablename = $2 AND indexname = $3", [
    config.schemaName,
    config.tableName,
    indexName,
  ]);
}

/** Whether the table exists. */
export function tableExistsStatement(config: StoreConfig): SqlStatement {
  return sql("SELECT 1 FROM pg_tables WHERE schemaname = $1 AND tablename = $2", [
    config.schemaName,
    config.tableName,
  ]);
}
