import type { SqlSession } from "../driver/sql-driver.js";
import { sql } from "../driver/sql-driver.js";
import { PgvectorStoreError } from "../errors.js";
import {
  createHnswIndexStatement,
  createKeywordIndexStatement,
  createTableStatement,
  dropHnswIndexStatement,
  indexExistsStatement,
  type TableSql,
  tableExistsStatement,
} from "../sql/schema.js";
import type { StoreConfig } from "./config.js";

/** What setup found out about the database. */
export interface StoreCapabilities {
  /** The pgvector version (`"0.8.7"`), or undefined without pgvector. */
  readonly pgvectorVersion: string | undefined;
  /** pgvector ≥ 0.8: `hnsw.iterative_scan` keeps filtered HNSW queries filling `top_k`. */
  readonly iterativeScan: boolean;
}

function versionAtLeast(version: string, major: number, minor: number): boolean {
  const [a = 0, b = 0] = version.split(".").map(Number);
  return a > major || (a === major && b >= minor);
}

async function ensureExtension(
  session: SqlSession,
  config: StoreConfig,
  where: string,
): Promise<string | undefined> {
  const version = async () =>
    (await session.query(sql("SELECT extversion FROM pg_extension WHERE extname = 'vector'")))[0]
      ?.extversion as string | undefined;
  let found = await version();
  if (found === undefined && config.vectorType !== "none") {
    if (!config.createExtension) {
      throw new PgvectorStoreError(
        "PGVECTOR_CONNECTION_FAILED",
        `PgvectorDocumentStore: the pgvector extension is not installed in the database at ${where}. Run "CREATE EXTENSION vector" as a privileged user, or set createExtension: true.`,
      );
    }
    try {
      await session.query(sql("CREATE EXTENSION IF NOT EXISTS vector"));
    } catch (error) {
      throw new PgvectorStoreError(
        "PGVECTOR_CONNECTION_FAILED",
        `PgvectorDocumentStore: cannot create the pgvector extension at ${where}: ${error instanceof Error ? error.message : String(error)}. Install pgvector on the server (https://github.com/pgvector/pgvector#installation) or ask its administrator to run "CREATE EXTENSION vector"; for keyword search without pgvector set vectorType: "none".`,
        { cause: error },
      );
    }
    found = await version();
  }
  return found;
}

async function checkEmbeddingColumn(
  session: SqlSession,
  config: StoreConfig,
  names: TableSql,
): Promise<void> {
  const rows = await session.query(
    sql(
      "SELECT format_type(atttypid, atttypmod) AS type FROM pg_attribute WHERE attrelid = $1::regclass AND attname = 'embedding' AND NOT attisdropped",
      [names.table],
    ),
  );
  const type = rows[0]?.type as string | undefined;
  const expected =
    config.vectorType === "none" ? "real[]" : `${config.vectorType}(${config.embeddingDimension})`;
  if (type !== undefined && type !== expected) {
    throw new PgvectorStoreError(
      "PGVECTOR_INVALID_OPTIONS",
      `PgvectorDocumentStore: the existing table ${names.table} has an embedding column of type ${type}, but the store was created for ${expected}. Set embeddingDimension and vectorType to match the table, or use another tableName (recreateTable: true drops the table and its documents).`,
    );
  }
}

/**
 * Creates what is missing, as Haystack's `_initialize_table` does: the pgvector extension, the table,
 * its GIN keyword index and (for `"hnsw"`) its HNSW index; with `recreateTable` the table is dropped
 * first, with `hnswRecreateIndexIfExists` an existing HNSW index is rebuilt. Runs in one transaction under an advisory lock, so two stores starting at once on one server
 * do not race to create the same table.
 */
export async function setUpStore(
  session: SqlSession,
  config: StoreConfig,
  names: TableSql,
  where: string,
): Promise<StoreCapabilities> {
  const pgvectorVersion = await ensureExtension(session, config, where);
  await session.query(
    sql("SELECT pg_advisory_xact_lock(hashtext($1))", [`junction.pgvector:${names.table}`]),
  );
  let exists = (await session.query(tableExistsStatement(config))).length > 0;
  if (exists && config.recreateTable) {
    await session.query(sql(`DROP TABLE ${names.table}`));
    exists = false;
  }
  if (exists) await checkEmbeddingColumn(session, config, names);
  else await session.query(createTableStatement(config, names));
  if ((await session.query(indexExistsStatement(config, config.keywordIndexName))).length === 0) {
    await session.query(createKeywordIndexStatement(config, names));
  }
  if (config.searchStrategy === "hnsw") {
    if (config.vectorType === "none") {
      throw new PgvectorStoreError(
        "PGVECTOR_INVALID_OPTIONS",
        'PgvectorDocumentStore: searchStrategy "hnsw" needs pgvector; vectorType "none" has no vector index. Use vectorType "vector" on a server with pgvector.',
      );
    }
    const hnswExists = (await session.query(indexExistsStatement(config, config.hnswIndexName))).length > 0;
    if (hnswExists && config.hnswRecreateIndexIfExists) await session.query(dropHnswIndexStatement(config));
    if (!hnswExists || config.hnswRecreateIndexIfExists) {
      await session.query(createHnswIndexStatement(config, names));
    }
  }
  return {
    pgvectorVersion,
    iterativeScan: pgvectorVersion !== undefined && versionAtLeast(pgvectorVersion, 0, 8),
  };
}
