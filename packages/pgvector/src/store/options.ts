import { formatIssues, type Issue, Secret } from "@junction/core";
import type pg from "pg";
import { z } from "zod";
import type { PGliteDatabase } from "../driver/pglite-database.js";
import { PgvectorStoreError } from "../errors.js";
import type {
  HnswIndexCreationKwargs,
  IterativeScan,
  KeywordMatch,
  SearchStrategy,
  StoreConfig,
  VectorFunction,
  VectorType,
} from "./config.js";

/** Options of `PgvectorDocumentStore` (Haystack's `PgvectorDocumentStore` parameters, camelCase). */
export interface PgvectorDocumentStoreOptions {
  /**
   * A Postgres server with pgvector: `postgresql://user:password@host:5432/db`. Pass it as
   * `Secret.fromEnvVar("PG_CONN_STR")` so a saved pipeline names the variable, never the password.
   */
  readonly connectionString?: Secret | string | undefined;
  /**
   * An open PGlite database (with the pgvector extension loaded) to use instead of opening one: several
   * stores (tables) can share it. It is not closed by `close()` and not locked; not serializable.
   */
  readonly pglite?: PGliteDatabase | undefined;
  /** A `pg` pool to use instead of a connection string (not ended by `close()`; not serializable). */
  readonly pool?: pg.Pool | undefined;
  /**
   * The embedded database's directory (PGlite), locked while the store is open. Leave out (or use
   * `"memory://"`) for an in-memory database that is gone when the store closes.
   */
  readonly dataDir?: string | undefined;
  /** The schema the table lives in (default `"public"`; it must exist). */
  readonly schemaName?: string | undefined;
  /** The table (default `"haystack_documents"`, Haystack's). */
  readonly tableName?: string | undefined;
  /** The embeddings' dimension (default 768). */
  readonly embeddingDimension?: number | undefined;
  /** The embedding column's type (default `"vector"`). */
  readonly vectorType?: VectorType | undefined;
  /** How embeddings are compared (default `"cosine_similarity"`). */
  readonly vectorFunction?: VectorFunction | undefined;
  /** Exact scan or HNSW index (default `"exact_nearest_neighbor"`). */
  readonly searchStrategy?: SearchStrategy | undefined;
  /** HNSW build parameters `{ m, efConstruction }`. */
  readonly hnswIndexCreationKwargs?: HnswIndexCreationKwargs | undefined;
  /** The HNSW index's name (default `"haystack_hnsw_index"`). */
  readonly hnswIndexName?: string | undefined;
  /**
   * Drop and rebuild the HNSW index on first use when it already exists (default false: an existing
   * index is kept, even if it was built with other `hnswIndexCreationKwargs`), as Haystack's
   * `hnsw_recreate_index_if_exists`.
   */
  readonly hnswRecreateIndexIfExists?: boolean | undefined;
  /** `hnsw.ef_search` for queries (pgvector default 40); set per query with `SET LOCAL`. */
  readonly hnswEfSearch?: number | undefined;
  /** pgvector's iterative scan for filtered HNSW queries (default `"relaxed_order"`). */
  readonly hnswIterativeScan?: IterativeScan | undefined;
  /** The keyword (GIN) index's name (default `"haystack_keyword_index"`). */
  readonly keywordIndexName?: string | undefined;
  /** The text search configuration (default `"english"`). */
  readonly language?: string | undefined;
  /** Keyword match mode of the keyword and hybrid retrievers (default `"any"`). */
  readonly keywordMatch?: KeywordMatch | undefined;
  /** Drop and create the table on first use (default false). */
  readonly recreateTable?: boolean | undefined;
  /** Run `CREATE EXTENSION IF NOT EXISTS vector` when pgvector is missing (default true). */
  readonly createExtension?: boolean | undefined;
}

const positiveInt = z.number().int().positive();

const configSchema = z.object({
  schemaName: z.string().default("public"),
  tableName: z.string().default("haystack_documents"),
  embeddingDimension: positiveInt.max(16_000).default(768),
  vectorType: z.enum(["vector", "halfvec", "none"]).default("vector"),
  vectorFunction: z.enum(["cosine_similarity", "inner_product", "l2_distance"]).default("cosine_similarity"),
  searchStrategy: z.enum(["exact_nearest_neighbor", "hnsw"]).default("exact_nearest_neighbor"),
  hnswIndexCreationKwargs: z
    .object({
      m: positiveInt.min(2).max(100).optional(),
      efConstruction: positiveInt.min(4).max(1000).optional(),
    })
    .strict()
    .default({}),
  hnswIndexName: z.string().default("haystack_hnsw_index"),
  hnswRecreateIndexIfExists: z.boolean().default(false),
  hnswEfSearch: positiveInt.max(1000).optional(),
  hnswIterativeScan: z.enum(["relaxed_order", "strict_order", "off"]).default("relaxed_order"),
  keywordIndexName: z.string().default("haystack_keyword_index"),
  language: z.string().default("english"),
  keywordMatch: z.enum(["any", "all"]).default("any"),
  recreateTable: z.boolean().default(false),
  createExtension: z.boolean().default(true),
});

/** Where the store connects. */
export type StoreTarget =
  | { readonly kind: "embedded"; readonly dataDir: string | undefined }
  | { readonly kind: "server"; readonly connectionString: Secret | string }
  | { readonly kind: "pool"; readonly pool: pg.Pool }
  | { readonly kind: "pglite"; readonly pglite: PGliteDatabase };

/**
 * Checks the options (every problem at once) and settles the defaults.
 *
 * @throws PgvectorStoreError (`PGVECTOR_INVALID_OPTIONS`) listing every problem
 */
export function resolveOptions(options: PgvectorDocumentStoreOptions): {
  config: StoreConfig;
  target: StoreTarget;
} {
  const { connectionString, pool, dataDir, pglite, ...rest } = options;
  const defined = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined));
  const issues: Issue[] = [];
  const parsed = configSchema.safeParse(defined);
  if (!parsed.success) {
    for (const issue of parsed.error.issues)
      issues.push({
        path: issue.path.map((part) => (typeof part === "symbol" ? String(part) : part)),
        message: issue.message,
      });
  }
  const targets = [connectionString, pool, dataDir, pglite].filter((value) => value !== undefined).length;
  if (targets > 1) {
    issues.push({ path: [], message: "give at most one of connectionString, pool, pglite and dataDir." });
  }
  if (
    connectionString !== undefined &&
    typeof connectionString !== "string" &&
    !Secret.isInstance(connectionString)
  ) {
    issues.push({
      path: ["connectionString"],
      message: 'must be a Secret (Secret.fromEnvVar("PG_CONN_STR")) or a string.',
    });
  }
  if (dataDir !== undefined && (typeof dataDir !== "string" || dataDir === "")) {
    issues.push({ path: ["dataDir"], message: 'must be a non-empty directory path (or "memory://").' });
  }
  if (!parsed.success || issues.length > 0) {
    throw new PgvectorStoreError(
      "PGVECTOR_INVALID_OPTIONS",
      `new PgvectorDocumentStore(...): invalid options:\n${formatIssues(issues)}`,
      { issues },
    );
  }
  const config: StoreConfig = {
    ...parsed.data,
    hnswEfSearch: parsed.data.hnswEfSearch,
    hnswIndexCreationKwargs: parsed.data.hnswIndexCreationKwargs,
  };
  const target: StoreTarget =
    pool !== undefined
      ? { kind: "pool", pool }
      : pglite !== undefined
        ? { kind: "pglite", pglite }
        : connectionString !== undefined
          ? { kind: "server", connectionString }
          : { kind: "embedded", dataDir };
  return { config, target };
}
