import { type SqlStatement, sql } from "../driver/sql-driver.js";
import type { PgvectorFilter } from "../filters/pgvector-filter.js";
import type { KeywordMatch, StoreConfig, VectorFunction } from "../store/config.js";
import { vectorOperators } from "../store/config.js";
import { filterToSql } from "./filter-sql.js";
import { SqlParams } from "./params.js";
import type { TableSql } from "./schema.js";

/** The jsonb form of the embedding column, for filters on `embedding`. */
export function embeddingJsonb(config: StoreConfig): string {
  return config.vectorType === "none"
    ? "to_jsonb(embedding)"
    : "(CASE WHEN embedding IS NULL THEN NULL ELSE to_jsonb(embedding::real[]) END)";
}

/** ` WHERE …` for a filter (empty without one), its parameters added to `params`. */
export function whereClause(
  filter: PgvectorFilter | undefined,
  params: SqlParams,
  config: StoreConfig,
): string {
  return filter === undefined ? "" : filterToSql(filter, params, { embedding: embeddingJsonb(config) });
}

/**
 * The tsquery of a keyword query. `"all"` is Haystack's `plainto_tsquery` (every word must occur).
 * `"any"` ORs the query's words through `websearch_to_tsquery` ("capital or france"), which drops stop
 * words and stems each word with the same configuration, so a natural question matches the documents
 * that share any of its words, ranked by `ts_rank_cd`.
 */
export function tsquery(query: string, match: KeywordMatch, names: TableSql, params: SqlParams): string {
  if (match === "all") return `plainto_tsquery(${names.language}, ${params.add(query, "text")})`;
  const words = (query.match(/[\p{L}\p{N}_]+/gu) ?? []).filter((word) => word.toLowerCase() !== "or");
  return `websearch_to_tsquery(${names.language}, ${params.add(words.join(" or "), "text")})`;
}

/** Options of the keyword statement. */
export interface KeywordQuery {
  readonly query: string;
  readonly topK: number;
  readonly filter: PgvectorFilter | undefined;
  readonly match: KeywordMatch;
}

/** Haystack's keyword query (`ts_rank_cd` over the GIN-indexed tsvector), in the chosen match mode. */
export function keywordStatement(config: StoreConfig, names: TableSql, query: KeywordQuery): SqlStatement {
  const params = new SqlParams();
  const tsq = tsquery(query.query, query.match, names, params);
  const filter = whereClause(query.filter, params, config);
  const text = `SELECT ${names.columns}, ts_rank_cd(${names.tsvector}, query)::float8 AS score
FROM ${names.table}, ${tsq} query
WHERE ${names.tsvector} @@ query${filter === "" ? "" : ` AND ${filter}`}
ORDER BY score DESC, id LIMIT ${params.add(query.topK, "int")}`;
  return sql(text, params.values);
}

/** Options of the embedding statement. */
export interface EmbeddingQuery {
  readonly embedding: readonly number[];
  readonly topK: number;
  readonly filter: PgvectorFilter | undefined;
  readonly vectorFunction: VectorFunction;
}

/** The score of a distance, as Haystack reports it: `1 - d` (cosine), `-d` (inner product), `d` (L2). */
function scoreOf(distance: string, vectorFunction: VectorFunction): string {
  if (vectorFunction === "cosine_similarity") return `(1 - ${distance})`;
  if (vectorFunction === "inner_product") return `(${distance} * -1)`;
  return distance;
}

/** `[1,2,3]` (or `{1,2,3}` for `real[]`). */
export function vectorLiteral(embedding: readonly number[], config: StoreConfig): string {
  return config.vectorType === "none" ? `{${embedding.join(",")}}` : `[${embedding.join(",")}]`;
}

/**
 * Nearest neighbours. With HNSW the inner query is written in the form the index serves —
 * `ORDER BY embedding <op> $1 LIMIT k` — and the outer query re-sorts the (possibly relaxed-order)
 * iterative-scan results by distance. Exact search orders by the score, which no index serves, so it is
 * a true scan whatever indexes exist.
 */
export function embeddingStatement(
  config: StoreConfig,
  names: TableSql,
  query: EmbeddingQuery,
): SqlStatement {
  const params = new SqlParams();
  const vector = params.add(vectorLiteral(query.embedding, config), names.vectorCast);
  const filter = whereClause(query.filter, params, config);
  const where = `WHERE embedding IS NOT NULL${filter === "" ? "" : ` AND ${filter}`}`;
  const limit = params.add(query.topK, "int");
  const distance = `(embedding ${vectorOperators[query.vectorFunction].operator} ${vector})`;
  const direction = query.vectorFunction === "l2_distance" ? "ASC" : "DESC";
  if (config.searchStrategy === "hnsw" && query.vectorFunction === config.vectorFunction) {
    const text = `WITH nearest AS MATERIALIZED (
SELECT ${names.columns}, ${distance}::float8 AS distance FROM ${names.table} ${where}
ORDER BY embedding ${vectorOperators[query.vectorFunction].operator} ${vector} LIMIT ${limit})
SELECT *, ${scoreOf("distance", query.vectorFunction)} AS score FROM nearest ORDER BY distance, id`;
    return sql(text, params.values);
  }
  const text = `SELECT ${names.columns}, ${scoreOf(distance, query.vectorFunction)}::float8 AS score
FROM ${names.table} ${where}
ORDER BY score ${direction}, id LIMIT ${limit}`;
  return sql(text, params.values);
}

/** Options of the hybrid statement. */
export interface HybridQuery {
  readonly query: string;
  readonly embedding: readonly number[];
  readonly topK: number;
  /** How many candidates each side ranks before fusion. */
  readonly candidates: number;
  readonly filter: PgvectorFilter | undefined;
  readonly match: KeywordMatch;
  /** Weights of the keyword and embedding rankings (sum 1). */
  readonly keywordWeight: number;
  readonly embeddingWeight: number;
}

/**
 * Keyword and embedding retrieval fused with reciprocal rank fusion in one statement, with Haystack's
 * `DocumentJoiner` formula: score = Σ wᵢ · 61 / (61 + rankᵢ), rank 0-based, so a document first in both
 * lists scores 1. The filter is compiled once and applies to both sides.
 */
export function hybridStatement(config: StoreConfig, names: TableSql, query: HybridQuery): SqlStatement {
  const params = new SqlParams();
  const tsq = tsquery(query.query, query.match, names, params);
  const vector = params.add(vectorLiteral(query.embedding, config), names.vectorCast);
  const filter = whereClause(query.filter, params, config);
  const and = filter === "" ? "" : ` AND ${filter}`;
  const candidates = params.add(query.candidates, "int");
  const operator = vectorOperators[config.vectorFunction].operator;
  const hnsw = config.searchStrategy === "hnsw";
  const vectorOrder = hnsw
    ? `embedding ${operator} ${vector}`
    : `${scoreOf(`(embedding ${operator} ${vector})`, config.vectorFunction)} ${config.vectorFunction === "l2_distance" ? "ASC" : "DESC"}, id`;
  const text = `WITH keyword AS MATERIALIZED (
  SELECT id, row_number() OVER (ORDER BY score DESC, id) - 1 AS rank FROM (
    SELECT id, ts_rank_cd(${names.tsvector}, query) AS score FROM ${names.table}, ${tsq} query
    WHERE ${names.tsvector} @@ query${and} ORDER BY score DESC, id LIMIT ${candidates}) ranked),
semantic AS MATERIALIZED (
  SELECT id, row_number() OVER (ORDER BY distance, id) - 1 AS rank FROM (
    SELECT id, (embedding ${operator} ${vector}) AS distance FROM ${names.table}
    WHERE embedding IS NOT NULL${and} ORDER BY ${vectorOrder} LIMIT ${candidates}) nearest)
SELECT ${names.aliasedColumns},
  (COALESCE(${params.add(query.keywordWeight, "float8")} * 61.0 / (61 + keyword.rank), 0)
   + COALESCE(${params.add(query.embeddingWeight, "float8")} * 61.0 / (61 + semantic.rank), 0))::float8 AS score
FROM (SELECT id FROM keyword UNION SELECT id FROM semantic) found
JOIN ${names.table} t ON t.id = found.id
LEFT JOIN keyword ON keyword.id = t.id
LEFT JOIN semantic ON semantic.id = t.id
ORDER BY score DESC, t.id LIMIT ${params.add(query.topK, "int")}`;
  return sql(text, params.values);
}
