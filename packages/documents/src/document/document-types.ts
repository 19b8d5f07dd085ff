import { defineNamedType, registerDurableType } from "@junction/core";
import { z } from "zod";
import { ByteStream } from "./byte-stream.js";
import { Document } from "./document.js";
import { SparseEmbedding } from "./sparse-embedding.js";

const byteStreamJSONSchema = {
  type: "object",
  description:
    "Binary data (Haystack's ByteStream.to_dict): { data: [bytes as integers 0-255], meta, mime_type }.",
  properties: {
    data: { type: "array", items: { type: "integer", minimum: 0, maximum: 255 } },
    meta: { type: "object" },
    mime_type: { type: ["string", "null"] },
  },
  required: ["data"],
} as const;

/**
 * The named socket type `"ByteStream"`: sockets declared with it accept {@link ByteStream} instances;
 * run snapshots, journals and served JSON carry it as Haystack's `ByteStream.to_dict` shape.
 *
 * @example
 * ```ts
 * inputs: { sources: z.array(byteStreamSchema) }
 * ```
 */
export const byteStreamSchema = defineNamedType("ByteStream", z.instanceof(ByteStream), {
  fromJSON: (value) => (value instanceof ByteStream ? value : ByteStream.fromJSON(value)),
  wire: {
    jsonSchema: byteStreamJSONSchema,
    decode: (value) => (value instanceof ByteStream ? value : ByteStream.fromJSON(value)),
  },
});

/**
 * The named socket type `"Document"`: sockets declared with it accept {@link Document} instances; run
 * snapshots, journals and served JSON carry a document as Haystack's flattened `Document.to_dict` shape
 * (see `Document.toJSON`), and read it back with `Document.fromJSON` (the id is kept).
 *
 * @example
 * ```ts
 * outputs: { documents: z.array(documentSchema) }
 * ```
 */
export const documentSchema = defineNamedType("Document", z.instanceof(Document), {
  fromJSON: (value) => (value instanceof Document ? value : Document.fromJSON(value)),
  wire: {
    jsonSchema: {
      type: "object",
      description:
        "A document (Haystack's Document.to_dict): { id, content, blob, score, embedding, sparse_embedding } with the metadata keys beside them; any field may be left out (the id is then computed).",
      properties: {
        id: { type: "string" },
        content: { type: ["string", "null"] },
        blob: { anyOf: [byteStreamJSONSchema, { type: "null" }] },
        meta: { type: "object", description: "Metadata; flattened keys beside the fields are metadata too." },
        score: { type: ["number", "null"] },
        embedding: { anyOf: [{ type: "array", items: { type: "number" } }, { type: "null" }] },
        sparse_embedding: {
          anyOf: [
            {
              type: "object",
              properties: {
                indices: { type: "array", items: { type: "integer" } },
                values: { type: "array", items: { type: "number" } },
              },
              required: ["indices", "values"],
            },
            { type: "null" },
          ],
        },
      },
      additionalProperties: true,
    },
    decode: (value) => (value instanceof Document ? value : Document.fromJSON(value)),
  },
});

registerDurableType({
  name: "Document",
  type: Document,
  toJSON: (document) => document.toJSON(),
  fromJSON: (json) => Document.fromJSON(json),
});
registerDurableType({
  name: "ByteStream",
  type: ByteStream,
  toJSON: (stream) => stream.toJSON(),
  fromJSON: (json) => ByteStream.fromJSON(json),
});
registerDurableType({
  name: "SparseEmbedding",
  type: SparseEmbedding,
  toJSON: (embedding) => embedding.toJSON(),
  fromJSON: (json) => SparseEmbedding.fromJSON(json),
});
