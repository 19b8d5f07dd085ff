import { createHash } from "node:crypto";
import { defineNamedType } from "@junction/core";
import { z } from "zod";

/**
 * Test stand-ins for the reference's `Document`, `ByteStream` and `GeneratedAnswer` dataclasses, which
 * Junction does not ship. Ids are computed exactly like the reference's `Document._create_id`, so the
 * hashes that appear in the reference's expected values match.
 */

/** JSON as Python's `json.dumps(value, sort_keys=True)` writes it (ASCII only is enough here). */
function pythonSortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonSortedJson).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}: ${pythonSortedJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(", ")}}`;
  }
  return JSON.stringify(value);
}

/** The reference's document id: sha256 over content, (no) blob, and sorted meta. */
export function referenceDocumentId(content: string | undefined, meta: Record<string, unknown>): string {
  const metaJson = Object.keys(meta).length > 0 ? pythonSortedJson(meta) : "{}";
  const data = `${content === undefined || content === "" ? "None" : content}NoneNoneNone${metaJson}None`;
  return createHash("sha256").update(data, "utf8").digest("hex");
}

/** What {@link doc} accepts. */
export interface DocumentFields {
  id?: string;
  content?: string | undefined;
  meta?: Record<string, unknown>;
  score?: number | undefined;
}

/** A document: content, metadata, an id and an optional retrieval score. */
export class Document {
  id: string;
  content: string | undefined;
  meta: Record<string, unknown>;
  score: number | undefined;

  constructor(fields: DocumentFields) {
    this.content = fields.content;
    this.meta = fields.meta ?? {};
    this.score = fields.score;
    this.id = fields.id ?? referenceDocumentId(fields.content, this.meta);
  }
}

/** Creates a {@link Document}; `id` defaults to the reference's hash of content and meta. */
export function doc(fields: DocumentFields): Document {
  return new Document(fields);
}

/** Socket type of one document. */
export const documentSchema = defineNamedType("conformance.Document", z.instanceof(Document));
/** Socket type of a list of documents. */
export const documentListSchema = z.array(documentSchema);

/** Raw file content with a MIME type. */
export class ByteStream {
  constructor(
    readonly data: string,
    readonly mimeType: string,
    readonly meta: Record<string, unknown> = {},
  ) {}
}

/** Socket type of one byte stream. */
export const byteStreamSchema = defineNamedType("conformance.ByteStream", z.instanceof(ByteStream));

/** What {@link answer} accepts. */
export interface GeneratedAnswerFields {
  data: string;
  query: string;
  documents: Document[];
  meta?: Record<string, unknown>;
}

/** An answer produced from a generator's reply. */
export class GeneratedAnswer {
  data: string;
  query: string;
  documents: Document[];
  meta: Record<string, unknown>;

  constructor(fields: GeneratedAnswerFields) {
    this.data = fields.data;
    this.query = fields.query;
    this.documents = fields.documents;
    this.meta = fields.meta ?? {};
  }
}

/** Creates a {@link GeneratedAnswer}. */
export function answer(fields: GeneratedAnswerFields): GeneratedAnswer {
  return new GeneratedAnswer(fields);
}

/** Socket type of one generated answer. */
export const generatedAnswerSchema = defineNamedType(
  "conformance.GeneratedAnswer",
  z.instanceof(GeneratedAnswer),
);
