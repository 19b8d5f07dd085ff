export type { PGliteDatabase, PGliteQueryResult } from "./driver/pglite-database.js";
export type { PgvectorErrorCode } from "./errors.js";
export { PgvectorStoreError } from "./errors.js";
export type {
  PgvectorComparisonFilter,
  PgvectorFilter,
  PgvectorOperator,
} from "./filters/pgvector-filter.js";
export { pgvectorFilterSchema, pgvectorOperators } from "./filters/pgvector-filter.js";
export { PgvectorEmbeddingRetriever } from "./retrievers/pgvector-embedding-retriever.js";
export { PgvectorHybridRetriever } from "./retrievers/pgvector-hybrid-retriever.js";
export { PgvectorKeywordRetriever } from "./retrievers/pgvector-keyword-retriever.js";
export type {
  HnswIndexCreationKwargs,
  IterativeScan,
  KeywordMatch,
  SearchStrategy,
  StoreConfig,
  VectorFunction,
  VectorType,
} from "./store/config.js";
export type { PgvectorDocumentStoreOptions, StoreTarget } from "./store/options.js";
export type {
  EmbeddingRetrievalOptions,
  HybridRetrievalOptions,
  KeywordRetrievalOptions,
} from "./store/pgvector-document-store.js";
export { PgvectorDocumentStore } from "./store/pgvector-document-store.js";
