import type { Document } from "@junction/documents";
import { z } from "zod";

/**
 * Which field of a `Document` the document evaluators compare: `"content"`, `"id"`, or `"meta."`
 * followed by a key path (`"meta.file_id"`, `"meta.source.url"`), as in Haystack.
 */
export type DocumentComparisonField = "content" | "id" | `meta.${string}`;

/** The params schema of `documentComparisonField` (default `"content"`). */
export const documentComparisonFieldSchema = z
  .string()
  .refine((value) => value === "content" || value === "id" || /^meta\..+/.test(value), {
    message: 'must be "content", "id" or "meta.<key>" (for example "meta.file_id").',
  })
  .default("content") as unknown as z.ZodDefault<z.ZodType<DocumentComparisonField>>;

/**
 * The value a document is compared by, or `undefined` when it has none (no content, or a missing meta
 * key): such documents never match, as Haystack skips `None`.
 */
export function comparisonValue(document: Document, field: DocumentComparisonField): unknown {
  if (field === "content") return document.content;
  if (field === "id") return document.id;
  let value: unknown = document.meta;
  for (const part of field.slice(5).split(".")) {
    if (typeof value !== "object" || value === null || Array.isArray(value) || !Object.hasOwn(value, part))
      return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value ?? undefined;
}

/**
 * A key under which equal comparison values meet in a `Map`/`Set`: primitives as themselves, objects
 * and arrays by their JSON text (Python compares them by value).
 */
export function comparisonKey(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  return `\u0000json:${JSON.stringify(value)}`;
}

/** The comparison keys of `documents`, in order, `undefined` where a document has no value. */
export function comparisonKeys(
  documents: readonly Document[],
  field: DocumentComparisonField,
): (unknown | undefined)[] {
  return documents.map((document) => {
    const value = comparisonValue(document, field);
    return value === undefined ? undefined : comparisonKey(value);
  });
}
