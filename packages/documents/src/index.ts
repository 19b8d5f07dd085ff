export { DocumentCleaner, unicodeNormalizationForms } from "./cleaners/document-cleaner.js";
export type { ByteStreamJSON, ByteStreamOptions } from "./document/byte-stream.js";
export { ByteStream } from "./document/byte-stream.js";
export type { DocumentInit, DocumentJSON } from "./document/document.js";
export { Document } from "./document/document.js";
export { byteStreamSchema, documentSchema } from "./document/document-types.js";
export type { SparseEmbeddingJSON } from "./document/sparse-embedding.js";
export { SparseEmbedding } from "./document/sparse-embedding.js";
export type {
  EmbedBatchResult,
  EmbedDocumentsOptions,
  EmbedRunContext,
} from "./embedders/embed-documents.js";
export { embedDocuments } from "./embedders/embed-documents.js";
export type {
  DocumentEmbedderMeta,
  EmbeddingUsage,
  TextEmbedderMeta,
} from "./embedders/embedder-sockets.js";
export {
  documentEmbedderInputs,
  documentEmbedderMetaSchema,
  documentEmbedderOutputs,
  documentEmbedderParamsShape,
  embeddingUsageSchema,
  textEmbedderInputs,
  textEmbedderMetaSchema,
  textEmbedderOutputs,
  textEmbedderParamsShape,
} from "./embedders/embedder-sockets.js";
export type { EmbeddingErrorFields } from "./embedders/embedding-error.js";
export { EmbeddingError } from "./embedders/embedding-error.js";
export type { EmbeddingProgress } from "./embedders/progress.js";
export { isEmbeddingProgress } from "./embedders/progress.js";
export type { TextComposition } from "./embedders/texts-to-embed.js";
export { metaValueText, textsToEmbed } from "./embedders/texts-to-embed.js";
export type { FilterPredicate, FilterTarget } from "./filters/document-matches-filter.js";
export { compileFilter, documentMatchesFilter } from "./filters/document-matches-filter.js";
export type { FilterErrorFields } from "./filters/filter-error.js";
export { FilterError } from "./filters/filter-error.js";
export type { FilterPolicy } from "./filters/filter-policy.js";
export { applyFilterPolicy, filterPolicies } from "./filters/filter-policy.js";
export { filterJSONSchema, filterSchema } from "./filters/filter-schema.js";
export type {
  ComparisonFilter,
  ComparisonOperator,
  Filter,
  LogicalFilter,
  LogicalOperator,
} from "./filters/filter-types.js";
export {
  byteStreamFilterFields,
  comparisonOperators,
  documentFilterFields,
  filterIssues,
  logicalOperators,
  maxFilterDepth,
  validateFilter,
} from "./filters/validate-filter.js";
export { DocumentJoiner } from "./joiners/document-joiner.js";
export type { JoinMode } from "./joiners/join-modes.js";
export { joinModes } from "./joiners/join-modes.js";
export { LostInTheMiddleRanker } from "./rankers/lost-in-the-middle-ranker.js";
export { MetaFieldRanker } from "./rankers/meta-field-ranker.js";
export type { MetaValueType } from "./rankers/meta-values.js";
export { metaValueTypes } from "./rankers/meta-values.js";
export { FilterRetriever } from "./retrievers/filter-retriever.js";
export { InMemoryBM25Retriever } from "./retrievers/in-memory-bm25-retriever.js";
export { InMemoryEmbeddingRetriever } from "./retrievers/in-memory-embedding-retriever.js";
export { mergeDocumentsText, SentenceWindowRetriever } from "./retrievers/sentence-window-retriever.js";
export type { SplitOverlap } from "./splitters/chunk-documents.js";
export { DocumentSplitter } from "./splitters/document-splitter.js";
export type { SplittingFunction } from "./splitters/document-splitter-serializer.js";
export {
  defaultRecursiveSeparators,
  RecursiveDocumentSplitter,
} from "./splitters/recursive-document-splitter.js";
export type { RecursiveSplitUnit } from "./splitters/recursive-units.js";
export { recursiveSplitUnits } from "./splitters/recursive-units.js";
export type { SplitBy } from "./splitters/split-units.js";
export { splitByUnits } from "./splitters/split-units.js";
export type { DocumentStore, StoreCallOptions, WriteDocumentsOptions } from "./stores/document-store.js";
export type { DuplicatePolicy } from "./stores/duplicate-policy.js";
export { duplicatePolicies } from "./stores/duplicate-policy.js";
export type { DuplicateDocumentErrorOptions } from "./stores/errors.js";
export { DuplicateDocumentError } from "./stores/errors.js";
export type {
  Bm25RetrievalOptions,
  EmbeddingRetrievalOptions,
} from "./stores/in-memory/in-memory-document-store.js";
export { InMemoryDocumentStore } from "./stores/in-memory/in-memory-document-store.js";
export {
  DocumentStoreConfigError,
  EmbeddingDimensionError,
  EmbeddingValueError,
  RetrievalQueryError,
  StoreFileError,
} from "./stores/in-memory/in-memory-errors.js";
export type {
  Bm25Algorithm,
  Bm25Parameters,
  EmbeddingSimilarityFunction,
  InMemoryDocumentStoreOptions,
  ResolvedStoreOptions,
} from "./stores/in-memory/in-memory-options.js";
export { bm25Algorithms } from "./stores/in-memory/in-memory-options.js";
export type {
  DocumentStoreJSON,
  DocumentStoreType,
  SerializableDocumentStore,
} from "./stores/store-serialization.js";
export {
  documentStoreFromJSON,
  documentStoreToJSON,
  documentStoreTypes,
  isSerializableDocumentStore,
  readDocumentStoreParam,
  registerDocumentStoreType,
  writeDocumentStoreParam,
} from "./stores/store-serialization.js";
export { DocumentWriter } from "./writers/document-writer.js";
