/**
 * `@junction/documents/testing`: the conformance suite every `DocumentStore` runs
 * ({@link describeDocumentStore}) and its fixture documents. Needs vitest (an optional peer dependency).
 */

export { conformanceDocumentIds, conformanceDocuments } from "./conformance-documents.js";
export type { DocumentStoreSuiteOptions } from "./describe-document-store.js";
export { describeDocumentStore } from "./describe-document-store.js";
export type { FilterCase, InvalidFilterCase } from "./filter-cases.js";
export { filterCases, invalidFilterCases } from "./filter-cases.js";
