import type {
  Document,
  DocumentStoreJSON,
  SerializableDocumentStore,
  StoreCallOptions,
  WriteDocumentsOptions,
} from "@junction/documents";
import { registerDocumentStoreType } from "@junction/documents";
import { openPgDriver } from "../driver/pg-driver.js";
import { openPGliteDriver } from "../driver/pglite-driver.js";
import { type SqlDriver, type SqlSession, type SqlStatement, sql } from "../driver/sql-driver.js";
import { PgvectorStoreError } from "../errors.js";
import { type PgvectorFilter, validatePgvectorFilter } from "../filters/pgvector-filter.js";
import {
  countByFilterStatement,
  deleteByFilterStatement,
  updateByFilterStatement,
} from "../sql/by-filter-sql.js";
import { SqlParams } from "../sql/params.js";
import { embeddingStatement, hybridStatement, keywordStatement, whereClause } from "../sql/retrieval-sql.js";
import { jsonProblem, rowDocument } from "../sql/rows.js";
import { type TableSql, tableSql } from "../sql/schema.js";
import type { IterativeScan, KeywordMatch, StoreConfig, VectorFunction } from "./config.js";
import { type PgvectorDocumentStoreOptions, resolveOptions, type StoreTarget } from "./options.js";
import { storeError } from "./store-errors.js";
import { optionsFromJSON, pgvectorStoreType, storeToJSON } from "./store-json.js";
import { type StoreCapabilities, setUpStore } from "./store-setup.js";
import { writeBatch } from "./write-documents.js";

/** Options of {@link PgvectorDocumentStore.embeddingRetrieval}. */
export interface EmbeddingRetrievalOptions extends StoreCallOptions {
  readonly queryEmbedding: readonly number[];
  readonly topK?: number | undefined;
  readonly filters?: PgvectorFilter | undefined;
  /** Overrides the store's vector function (no HNSW index serves another function). */
  readonly vectorFunction?: VectorFunction | undefined;
  /** Overrides `hnswEfSearch` for this query (HNSW only). */
  readonly efSearch?: number | undefined;
  /** Overrides `hnswIterativeScan` for this query (HNSW only). */
  readonly iterativeScan?: IterativeScan | undefined;
}

/** Options of {@link PgvectorDocumentStore.keywordRetrieval}. */
export interface KeywordRetrievalOptions extends StoreCallOptions {
  readonly query: string;
  readonly topK?: number | undefined;
  readonly filters?: PgvectorFilter | undefined;
  /** Overrides the store's keyword match mode. */
  readonly keywordMatch?: KeywordMatch | undefined;
}

/** Options of {@link PgvectorDocumentStore.hybridRetrieval}. */
export interface HybridRetrievalOptions extends StoreCallOptions {
  readonly query: string;
  readonly queryEmbedding: readonly number[];
  readonly topK?: number | undefined;
  readonly filters?: PgvectorFilter | undefined;
  readonly keywordMatch?: KeywordMatch | undefined;
  /** Candidates each side ranks before fusion (default max(4·topK, 40)). */
  readonly candidates?: number | undefined;
  /** Weight of the keyword ranking, 0–1; the embedding ranking gets the rest (default 0.5). */
  readonly keywordWeight?: number | undefined;
}

/** Per-query HNSW settings. */
interface HnswOverrides {
  readonly efSearch?: number | undefined;
  readonly iterativeScan?: IterativeScan | undefined;
}

const iterativeScans: readonly string[] = ["off", "relaxed_order", "strict_order"];

interface Ready {
  readonly driver: SqlDriver;
  readonly capabilities: StoreCapabilities;
}

/**
 * Haystack's `if filters:`: no filter, `null` and `{}` all mean "no filter"; anything else is validated
 * (the core language plus Haystack's pgvector-only operators).
 */
function settleFilter(filters: PgvectorFilter | undefined): PgvectorFilter | undefined {
  if (filters === undefined || filters === null) return undefined;
  if (typeof filters === "object" && !Array.isArray(filters) && Object.keys(filters).length === 0)
    return undefined;
  return validatePgvectorFilter(filters);
}

function checkTopK(topK: number, operation: string): number {
  if (!Number.isInteger(topK) || topK < 1 || topK > 10_000) {
    throw new PgvectorStoreError(
      "PGVECTOR_INVALID_QUERY",
      `PgvectorDocumentStore.${operation}: topK must be an integer from 1 to 10000, got ${String(topK)}.`,
    );
  }
  return topK;
}

/**
 * A document store on Postgres with pgvector: embedded (PGlite, in memory or in `dataDir`) by default,
 * a Postgres server with `connectionString` or `pool`, running the same SQL. Its table is Haystack's
 * (`haystack_documents`: `id, embedding, content, blob_data, blob_meta, blob_mime_type, meta`, the same
 * GIN and HNSW indexes), so a Haystack service and a Junction one can share it.
 *
 * The database is opened and the table created on first use; call `close()` when done (an embedded
 * data directory stays locked until then).
 *
 * @example
 * ```ts
 * const store = new PgvectorDocumentStore({ dataDir: "./data/docs", embeddingDimension: 384 });
 * await store.writeDocuments([new Document({ content: "Paris is the capital of France." })]);
 * const docs = await store.keywordRetrieval({ query: "What is the capital of France?" });
 * await store.close();
 * ```
 */
export class PgvectorDocumentStore implements SerializableDocumentStore {
  /** The settled configuration (defaults applied). */
  readonly config: StoreConfig;
  readonly #target: StoreTarget;
  readonly #names: TableSql;
  #ready: Promise<Ready> | undefined;
  #closed = false;

  /**
   * @param options - where the database is and how the table is laid out (see {@link PgvectorDocumentStoreOptions})
   * @throws PgvectorStoreError (`PGVECTOR_INVALID_OPTIONS`) listing every invalid option
   */
  constructor(options: PgvectorDocumentStoreOptions = {}) {
    const { config, target } = resolveOptions(options);
    this.config = config;
    this.#target = target;
    this.#names = tableSql(config);
  }

  /** Where the store connects (for messages): `PGlite (in memory)`, `Postgres at host:5432`. */
  get target(): StoreTarget {
    return this.#target;
  }

  #open(): Promise<Ready> {
    if (this.#closed) {
      return Promise.reject(
        new PgvectorStoreError(
          "PGVECTOR_CLOSED",
          `PgvectorDocumentStore: the store on table ${this.#names.table} is closed; create a new one.`,
        ),
      );
    }
    if (this.#ready === undefined) {
      const ready = this.#connect();
      this.#ready = ready;
      // A failed start (server down) is retried by the next call instead of being cached.
      ready.catch(() => {
        if (this.#ready === ready) this.#ready = undefined;
      });
    }
    return this.#ready;
  }

  async #connect(): Promise<Ready> {
    const target = this.#target;
    let driver: SqlDriver;
    if (target.kind === "embedded") driver = await openPGliteDriver({ dataDir: target.dataDir });
    else if (target.kind === "pglite") driver = await openPGliteDriver({ pglite: target.pglite });
    else if (target.kind === "pool") driver = openPgDriver({ pool: target.pool });
    else {
      const value =
        typeof target.connectionString === "string"
          ? target.connectionString
          : target.connectionString.resolve();
      if (value === undefined || value === "") {
        throw new PgvectorStoreError(
          "PGVECTOR_CONNECTION_FAILED",
          `PgvectorDocumentStore: the connection string is empty: set the environment variable ${typeof target.connectionString === "string" ? "" : target.connectionString.envVars.map((name) => `"${name}"`).join(" or ")} to postgresql://user:password@host:5432/db.`,
        );
      }
      driver = openPgDriver({ connectionString: value });
    }
    try {
      const capabilities = await driver.transaction(
        (session) => setUpStore(session, this.config, this.#names, driver.description),
        undefined,
      );
      return { driver, capabilities };
    } catch (error) {
      await driver.close().catch(() => undefined);
      throw storeError(error, "setup", `${this.#names.table} (${driver.description})`);
    }
  }

  async #run<T>(
    operation: string,
    signal: AbortSignal | undefined,
    work: (ready: Ready) => Promise<T>,
  ): Promise<T> {
    signal?.throwIfAborted();
    const ready = await this.#open();
    try {
      return await work(ready);
    } catch (error) {
      throw storeError(error, operation, `${this.#names.table} (${ready.driver.description})`, signal);
    }
  }

  async #rows(
    operation: string,
    statement: SqlStatement,
    signal: AbortSignal | undefined,
    hnsw?: HnswOverrides,
  ) {
    return this.#run(operation, signal, async ({ driver, capabilities }) => {
      const rows =
        hnsw !== undefined && this.config.searchStrategy === "hnsw"
          ? await driver.transaction(async (session) => {
              await this.#hnswSettings(session, capabilities, hnsw);
              return session.query(statement);
            }, signal)
          : await driver.query(statement, signal);
      return rows.map(rowDocument);
    });
  }

  /** `SET LOCAL`s of one HNSW query: they end with its transaction, so they never leak into a pooled connection. */
  async #hnswSettings(
    session: SqlSession,
    capabilities: StoreCapabilities,
    overrides: HnswOverrides,
  ): Promise<void> {
    const efSearch = overrides.efSearch ?? this.config.hnswEfSearch;
    if (efSearch !== undefined) {
      if (!Number.isInteger(efSearch) || efSearch < 1 || efSearch > 1000) {
        throw new PgvectorStoreError(
          "PGVECTOR_INVALID_QUERY",
          `PgvectorDocumentStore.embeddingRetrieval: efSearch must be an integer from 1 to 1000, got ${String(efSearch)}.`,
        );
      }
      await session.query(sql("SELECT set_config('hnsw.ef_search', $1, true)", [String(efSearch)]));
    }
    const iterativeScan = overrides.iterativeScan ?? this.config.hnswIterativeScan;
    if (capabilities.iterativeScan && iterativeScans.includes(iterativeScan)) {
      // "relaxed_order" keeps scanning the graph until top_k rows pass the filter (pgvector ≥ 0.8).
      await session.query(sql("SELECT set_config('hnsw.iterative_scan', $1, true)", [iterativeScan]));
    }
  }

  /** Opens the database and creates the table now instead of on first use. */
  async warmUp(options: StoreCallOptions = {}): Promise<void> {
    await this.#run("warmUp", options.signal, async () => undefined);
  }

  /** How many documents the table holds. */
  async countDocuments(options: StoreCallOptions = {}): Promise<number> {
    return this.#run("countDocuments", options.signal, async ({ driver }) => {
      const rows = await driver.query(
        sql(`SELECT count(*)::int AS n FROM ${this.#names.table}`),
        options.signal,
      );
      return Number(rows[0]?.n ?? 0);
    });
  }

  /**
   * The documents matching `filters` (every document without), ordered by id, with Haystack's filter
   * semantics plus `NOT` and nested `meta.a.b` paths, and the operators of Haystack's pgvector store:
   * `like` / `not like`, `array_contains`, `array_overlaps`.
   *
   * @throws FilterError for a malformed filter
   */
  async filterDocuments(filters?: PgvectorFilter, options: StoreCallOptions = {}): Promise<Document[]> {
    const filter = settleFilter(filters);
    const params = new SqlParams();
    const where = whereClause(filter, params, this.config);
    const statement = sql(
      `SELECT ${this.#names.columns} FROM ${this.#names.table}${where === "" ? "" : ` WHERE ${where}`} ORDER BY id`,
      params.values,
    );
    return this.#rows("filterDocuments", statement, options.signal);
  }

  /**
   * Writes documents in one transaction (all or nothing), as Haystack's store does: policy `"none"` is
   * `"fail"`. Embeddings must have the store's dimension and finite values; meta must be JSON without
   * NaN or NUL characters; NUL characters are removed from content (Postgres text cannot hold them).
   *
   * @returns how many documents were written (skipped duplicates are not counted)
   * @throws DuplicateDocumentError (policy `"fail"`) naming the ids already stored
   */
  async writeDocuments(documents: readonly Document[], options: WriteDocumentsOptions = {}): Promise<number> {
    const policy = options.policy === undefined || options.policy === "none" ? "fail" : options.policy;
    return this.#run("writeDocuments", options.signal, ({ driver }) =>
      writeBatch(driver, this.config, this.#names, documents, policy, options.signal),
    );
  }

  /**
   * How many documents match `filters` (Haystack's `count_documents_by_filter`; no filter, `null` or `{}`
   * counts them all).
   *
   * @throws FilterError for a malformed filter
   */
  async countDocumentsByFilter(filters: PgvectorFilter, options: StoreCallOptions = {}): Promise<number> {
    const statement = countByFilterStatement(this.#byFilter(filters));
    return this.#count("countDocumentsByFilter", statement, options.signal);
  }

  /**
   * Deletes the documents matching `filters` and returns how many (Haystack's `delete_by_filter`). As in
   * Haystack, an empty filter (`{}`) deletes every document.
   *
   * @throws FilterError for a malformed filter
   */
  async deleteByFilter(filters: PgvectorFilter, options: StoreCallOptions = {}): Promise<number> {
    const statement = deleteByFilterStatement(this.#byFilter(filters));
    return this.#count("deleteByFilter", statement, options.signal);
  }

  /**
   * Merges `meta` into the meta of the documents matching `filters` (top-level keys replaced) and returns
   * how many changed (Haystack's `update_by_filter`). Ids stay as they were, as in Haystack.
   *
   * @throws PgvectorStoreError (`PGVECTOR_INVALID_QUERY`) when `meta` is empty or not storable JSON
   * @throws FilterError for a malformed filter
   */
  async updateByFilter(
    filters: PgvectorFilter,
    meta: Readonly<Record<string, unknown>>,
    options: StoreCallOptions = {},
  ): Promise<number> {
    if (typeof meta !== "object" || meta === null || Array.isArray(meta) || Object.keys(meta).length === 0) {
      throw new PgvectorStoreError(
        "PGVECTOR_INVALID_QUERY",
        'PgvectorDocumentStore.updateByFilter: meta must be a non-empty object of the keys to set, e.g. { status: "archived" }.',
      );
    }
    const problem = jsonProblem(meta, "meta", 0);
    if (problem !== undefined) {
      throw new PgvectorStoreError(
        "PGVECTOR_INVALID_QUERY",
        `PgvectorDocumentStore.updateByFilter: ${problem}; meta must be JSON that Postgres can store.`,
      );
    }
    const statement = updateByFilterStatement(this.#byFilter(filters), meta);
    return this.#count("updateByFilter", statement, options.signal);
  }

  #byFilter(filters: PgvectorFilter | undefined) {
    return { config: this.config, names: this.#names, filter: settleFilter(filters) };
  }

  async #count(operation: string, statement: SqlStatement, signal: AbortSignal | undefined): Promise<number> {
    return this.#run(operation, signal, async ({ driver }) => {
      const rows = await driver.query(statement, signal);
      return Number(rows[0]?.n ?? 0);
    });
  }

  /** Deletes the documents with these ids; unknown ids are ignored. */
  async deleteDocuments(ids: readonly string[], options: StoreCallOptions = {}): Promise<void> {
    if (ids.length === 0) return;
    await this.#run("deleteDocuments", options.signal, ({ driver }) =>
      driver.query(
        sql(`DELETE FROM ${this.#names.table} WHERE id = ANY($1::text[])`, [[...ids]]),
        options.signal,
      ),
    );
  }

  /** Deletes every document (Haystack's `TRUNCATE`); the table and its indexes stay. */
  async deleteAllDocuments(options: StoreCallOptions = {}): Promise<void> {
    await this.#run("deleteAllDocuments", options.signal, ({ driver }) =>
      driver.query(sql(`TRUNCATE TABLE ${this.#names.table}`), options.signal),
    );
  }

  /**
   * The `topK` documents nearest to `queryEmbedding`, scored as Haystack's store scores them (cosine
   * `1 - distance`, inner product `-distance`, L2 the distance, smallest first). With `"hnsw"` the
   * index is used, `ef_search` is set for this query only, and filtered queries scan iteratively.
   */
  async embeddingRetrieval(options: EmbeddingRetrievalOptions): Promise<Document[]> {
    const { queryEmbedding } = options;
    this.#checkQueryEmbedding(queryEmbedding, "embeddingRetrieval");
    const statement = embeddingStatement(this.config, this.#names, {
      embedding: queryEmbedding,
      topK: checkTopK(options.topK ?? 10, "embeddingRetrieval"),
      filter: settleFilter(options.filters),
      vectorFunction: options.vectorFunction ?? this.config.vectorFunction,
    });
    return this.#rows("embeddingRetrieval", statement, options.signal, {
      efSearch: options.efSearch,
      iterativeScan: options.iterativeScan,
    });
  }

  /**
   * The `topK` documents best matching `query` by `ts_rank_cd` over the GIN-indexed tsvector. Match
   * `"any"` (default) finds documents with any of the query's words; `"all"` is Haystack's
   * `plainto_tsquery` (every word).
   */
  async keywordRetrieval(options: KeywordRetrievalOptions): Promise<Document[]> {
    if (typeof options.query !== "string" || options.query.trim() === "") {
      throw new PgvectorStoreError(
        "PGVECTOR_INVALID_QUERY",
        "PgvectorDocumentStore.keywordRetrieval: the query is empty; give the text to search for.",
      );
    }
    const statement = keywordStatement(this.config, this.#names, {
      query: options.query,
      topK: checkTopK(options.topK ?? 10, "keywordRetrieval"),
      filter: settleFilter(options.filters),
      match: options.keywordMatch ?? this.config.keywordMatch,
    });
    return this.#rows("keywordRetrieval", statement, options.signal);
  }

  /**
   * Keyword and embedding retrieval fused with reciprocal rank fusion in one statement (Haystack's
   * `DocumentJoiner` formula, so a document first in both rankings scores 1).
   */
  async hybridRetrieval(options: HybridRetrievalOptions): Promise<Document[]> {
    this.#checkQueryEmbedding(options.queryEmbedding, "hybridRetrieval");
    const topK = checkTopK(options.topK ?? 10, "hybridRetrieval");
    const keywordWeight = options.keywordWeight ?? 0.5;
    if (!(keywordWeight >= 0 && keywordWeight <= 1)) {
      throw new PgvectorStoreError(
        "PGVECTOR_INVALID_QUERY",
        `PgvectorDocumentStore.hybridRetrieval: keywordWeight must be from 0 to 1, got ${String(keywordWeight)}.`,
      );
    }
    const statement = hybridStatement(this.config, this.#names, {
      query: options.query,
      embedding: options.queryEmbedding,
      topK,
      candidates: checkTopK(options.candidates ?? Math.max(4 * topK, 40), "hybridRetrieval"),
      filter: settleFilter(options.filters),
      match: options.keywordMatch ?? this.config.keywordMatch,
      keywordWeight,
      embeddingWeight: 1 - keywordWeight,
    });
    return this.#rows("hybridRetrieval", statement, options.signal, {});
  }

  #checkQueryEmbedding(embedding: readonly number[], operation: string): void {
    if (this.config.vectorType === "none") {
      throw new PgvectorStoreError(
        "PGVECTOR_INVALID_QUERY",
        `PgvectorDocumentStore.${operation}: this store has vectorType "none" (no pgvector), so it cannot search by embedding. Use a server with pgvector and vectorType "vector".`,
      );
    }
    if (!Array.isArray(embedding) || embedding.length !== this.config.embeddingDimension) {
      throw new PgvectorStoreError(
        "PGVECTOR_INVALID_QUERY",
        `PgvectorDocumentStore.${operation}: the query embedding has dimension ${Array.isArray(embedding) ? embedding.length : "none"}, but the store holds embeddings of dimension ${this.config.embeddingDimension}. Embed the query with the documents' model.`,
      );
    }
    if (!embedding.every((value) => typeof value === "number" && Number.isFinite(value))) {
      throw new PgvectorStoreError(
        "PGVECTOR_INVALID_QUERY",
        `PgvectorDocumentStore.${operation}: the query embedding holds a non-finite value (NaN or Infinity).`,
      );
    }
  }

  /**
   * `{ type: "junction.PgvectorDocumentStore", init_parameters }`, for saved pipelines.
   *
   * @throws SerializationError for a literal connection string (it would save the password) or a pool
   */
  toJSON(): DocumentStoreJSON {
    return storeToJSON(this.config, this.#target);
  }

  /** Builds a store from what {@link PgvectorDocumentStore.toJSON} wrote. */
  static fromJSON(initParameters: Record<string, unknown>): PgvectorDocumentStore {
    return new PgvectorDocumentStore(optionsFromJSON(initParameters));
  }

  /**
   * Closes the database: the PGlite instance and its data directory lock, or the pool the store created
   * (a pool passed in is left open). Later calls fail with `PGVECTOR_CLOSED`.
   */
  async close(): Promise<void> {
    this.#closed = true;
    const ready = this.#ready;
    this.#ready = undefined;
    if (ready === undefined) return;
    const opened = await ready.catch(() => undefined);
    await opened?.driver.close();
  }
}

registerDocumentStoreType({ type: pgvectorStoreType, fromJSON: PgvectorDocumentStore.fromJSON });
