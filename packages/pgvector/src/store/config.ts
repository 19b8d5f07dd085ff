/** How embeddings are compared: the score is `1 - cosine distance`, `-(negative inner product)` or the L2 distance. */
export type VectorFunction = "cosine_similarity" | "inner_product" | "l2_distance";

/** `"exact_nearest_neighbor"` scans every embedding; `"hnsw"` creates and uses an HNSW index. */
export type SearchStrategy = "exact_nearest_neighbor" | "hnsw";

/**
 * The embedding column's type: `"vector"` (pgvector, float4), `"halfvec"` (pgvector ≥ 0.7, float2, up
 * to 4,000 dimensions), or `"none"` for a Postgres without pgvector (embeddings kept as `real[]`,
 * keyword search and filters only).
 */
export type VectorType = "vector" | "halfvec" | "none";

/** `"any"` finds documents holding any of the query's words; `"all"` only those holding all (Haystack). */
export type KeywordMatch = "any" | "all";

/**
 * pgvector's `hnsw.iterative_scan` (≥ 0.8): `"relaxed_order"` (default) keeps scanning the index until
 * `top_k` rows pass the filter (the store re-sorts them), `"strict_order"` keeps exact order, `"off"` is
 * a plain post-filtered scan that can return fewer than `top_k`.
 */
export type IterativeScan = "relaxed_order" | "strict_order" | "off";

/** HNSW build parameters (pgvector's `m` and `ef_construction`). */
export interface HnswIndexCreationKwargs {
  /** Connections per node (pgvector default 16). */
  readonly m?: number | undefined;
  /** Candidate list size while building (pgvector default 64). */
  readonly efConstruction?: number | undefined;
}

/** The store's settled configuration (defaults applied, names checked). */
export interface StoreConfig {
  readonly schemaName: string;
  readonly tableName: string;
  readonly embeddingDimension: number;
  readonly vectorType: VectorType;
  readonly vectorFunction: VectorFunction;
  readonly searchStrategy: SearchStrategy;
  readonly hnswIndexCreationKwargs: HnswIndexCreationKwargs;
  readonly hnswIndexName: string;
  readonly hnswRecreateIndexIfExists: boolean;
  readonly hnswEfSearch: number | undefined;
  readonly hnswIterativeScan: IterativeScan;
  readonly keywordIndexName: string;
  readonly language: string;
  readonly keywordMatch: KeywordMatch;
  readonly recreateTable: boolean;
  readonly createExtension: boolean;
}

/** The operator and HNSW operator class of each vector function. */
export const vectorOperators: Readonly<
  Record<VectorFunction, { readonly operator: string; readonly ops: string }>
> = {
  cosine_similarity: { operator: "<=>", ops: "cosine_ops" },
  inner_product: { operator: "<#>", ops: "ip_ops" },
  l2_distance: { operator: "<->", ops: "l2_ops" },
};
