/**
 * What `writeDocuments` does with a document whose id is already stored: `"skip"` keeps the stored one,
 * `"overwrite"` replaces it, `"fail"` throws `DuplicateDocumentError` naming every duplicate id and
 * writes nothing, `"none"` lets the store decide (the in-memory and pgvector stores treat it as `"fail"`,
 * as Haystack's do).
 */
export type DuplicatePolicy = "none" | "skip" | "overwrite" | "fail";

/** Every {@link DuplicatePolicy}, for validation and schemas. */
export const duplicatePolicies = ["none", "skip", "overwrite", "fail"] as const;
