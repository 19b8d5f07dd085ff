import { expressionView } from "@junction/core";
import type { ByteStream } from "./byte-stream.js";
import { computeDocumentId } from "./document-id.js";
import { documentFromJSON, documentToJSON } from "./document-json.js";
import type { SparseEmbedding } from "./sparse-embedding.js";

/** What a {@link Document} is made from; every field is optional. */
export interface DocumentInit {
  /** The id; computed from the other fields (as Haystack computes it) when left out. */
  readonly id?: string | undefined;
  /** The text. */
  readonly content?: string | undefined;
  /** Binary data (a PDF, an image) instead of or besides the text. */
  readonly blob?: ByteStream | undefined;
  /** Metadata; nested objects are allowed (`meta.a.b` in filters). */
  readonly meta?: Record<string, unknown> | undefined;
  /** The relevance score a retriever or ranker gave it. */
  readonly score?: number | undefined;
  /** The dense embedding. */
  readonly embedding?: readonly number[] | undefined;
  /** The sparse embedding. */
  readonly sparseEmbedding?: SparseEmbedding | undefined;
}

/** Haystack's flattened `Document.to_dict()` shape (meta keys beside the fields when `flatten`). */
export type DocumentJSON = Readonly<Record<string, unknown>> & {
  readonly id: string;
  readonly content: string | null;
};

/**
 * A piece of text or data with metadata: what stores hold, retrievers return and prompts render.
 * Mirrors Haystack's `Document`, including how its id is computed, so the same document gets the same
 * id in a Haystack service and a Junction one.
 *
 * @example
 * ```ts
 * const doc = new Document({ content: "Paris is the capital of France.", meta: { lang: "en" } });
 * doc.id; // sha256 hex, equal to Haystack's Document(content=..., meta=...).id
 * ```
 */
export class Document {
  /** The id (sha256 hex unless given). */
  readonly id: string;
  /** The text, if any. */
  readonly content: string | undefined;
  /** Binary data, if any. */
  readonly blob: ByteStream | undefined;
  /** Metadata. */
  readonly meta: Record<string, unknown>;
  /** The relevance score a retriever or ranker gave it, if any. */
  readonly score: number | undefined;
  /** The dense embedding, if any. */
  readonly embedding: readonly number[] | undefined;
  /** The sparse embedding, if any. */
  readonly sparseEmbedding: SparseEmbedding | undefined;

  constructor(init: DocumentInit = {}) {
    checkInit(init);
    this.content = init.content;
    this.blob = init.blob;
    this.meta = init.meta ?? {};
    this.score = init.score;
    this.embedding = init.embedding;
    this.sparseEmbedding = init.sparseEmbedding;
    this.id = init.id !== undefined && init.id !== "" ? init.id : computeDocumentId(this);
  }

  /**
   * A copy with some fields replaced. The id is kept unless `id` is given (as Haystack's
   * `dataclasses.replace` keeps it), so a scored or embedded copy is still the same document.
   */
  with(changes: DocumentInit): Document {
    return new Document({
      id: changes.id ?? this.id,
      content: "content" in changes ? changes.content : this.content,
      blob: "blob" in changes ? changes.blob : this.blob,
      meta: changes.meta ?? this.meta,
      score: "score" in changes ? changes.score : this.score,
      embedding: "embedding" in changes ? changes.embedding : this.embedding,
      sparseEmbedding: "sparseEmbedding" in changes ? changes.sparseEmbedding : this.sparseEmbedding,
    });
  }

  /**
   * How router expressions (CEL) and prompt templates (Liquid) see a document:
   * `{ id, content, meta, score, embedding, blob, sparse_embedding }` with `null` for unset fields, so
   * `{{ doc.meta.url }}` and `documents[0].meta.lang == "en"` read as in Haystack's Jinja templates.
   * The flattened {@link Document.toJSON} shape is only the storage and wire form.
   */
  [expressionView](): Record<string, unknown> {
    return {
      id: this.id,
      content: this.content ?? null,
      meta: this.meta,
      score: this.score ?? null,
      embedding: this.embedding ?? null,
      blob: this.blob ?? null,
      sparse_embedding: this.sparseEmbedding?.toJSON() ?? null,
    };
  }

  /** Haystack's `to_dict(flatten=True)` shape: meta keys are written beside the fields. */
  toJSON(): DocumentJSON {
    return documentToJSON(this);
  }

  /** Reads Haystack's `to_dict` shape, flattened or not (see {@link Document.toJSON}). */
  static fromJSON(json: unknown): Document {
    return documentFromJSON(json);
  }
}

const initKeys = new Set(["id", "content", "blob", "meta", "score", "embedding", "sparseEmbedding"]);

/** Haystack spellings and old field names, with what to write instead. */
const initHints: Readonly<Record<string, string>> = {
  sparse_embedding: "sparseEmbedding",
  text: "content",
  page_content: "content",
  metadata: "meta",
};

/** Refuses what would silently make an empty document: a string, or a misspelt field. */
function checkInit(init: unknown): void {
  if (typeof init !== "object" || init === null || Array.isArray(init)) {
    throw new TypeError(
      `new Document(...) takes an object such as { content: "…", meta: { … } }; got ${init === null ? "null" : Array.isArray(init) ? "a list" : `a ${typeof init}`}.`,
    );
  }
  for (const key in init) {
    if (initKeys.has(key)) continue;
    const hint = Object.hasOwn(initHints, key) ? ` Write ${initHints[key]} instead.` : "";
    throw new TypeError(
      `new Document(...): unknown field "${key}"; the fields are ${[...initKeys].join(", ")} (put anything else in meta).${hint}`,
    );
  }
}
