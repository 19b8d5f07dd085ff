import { z } from "zod";
import { documentSchema } from "../document/document-types.js";

/**
 * The sockets and shared params of Junction's embedders, so every embedder adapter (OpenAI, the AI SDK,
 * ...) has the same contract: text embedders `run({ text }) → { embedding, meta }`, document embedders
 * `run({ documents }) → { documents, meta }`, as in Haystack.
 */

const documentListSchema = z.array(documentSchema);

/** Token usage of an embedding call, in OpenAI's names. */
export const embeddingUsageSchema = z.object({
  /** Tokens in the texts sent. */
  prompt_tokens: z.number(),
  /** Tokens billed (equal to `prompt_tokens` for embeddings). */
  total_tokens: z.number(),
});

/** Token usage of an embedding call (`prompt_tokens`, `total_tokens`). */
export type EmbeddingUsage = z.output<typeof embeddingUsageSchema>;

/** The `meta` output of a text embedder: the model that answered and the tokens used. */
export const textEmbedderMetaSchema = z.object({
  /** The model that computed the embedding (as the provider names it). */
  model: z.string(),
  /** Tokens used. */
  usage: embeddingUsageSchema,
});

/** The `meta` output of a text embedder. */
export type TextEmbedderMeta = z.output<typeof textEmbedderMetaSchema>;

/** The `meta` output of a document embedder: model, summed usage and the documents left without embedding. */
export const documentEmbedderMetaSchema = textEmbedderMetaSchema.extend({
  /** Ids of the documents whose batch failed (returned without embedding); empty when all succeeded. */
  failed_documents: z.array(z.string()),
});

/** The `meta` output of a document embedder. */
export type DocumentEmbedderMeta = z.output<typeof documentEmbedderMetaSchema>;

/**
 * The input sockets of a text embedder: `text`, a string. The schema's error message points to the
 * document embedder, the usual fix when a list of documents was sent.
 *
 * @param componentLabel - the text embedder's name, e.g. `"OpenAITextEmbedder"`
 * @param documentEmbedderLabel - its document embedder, e.g. `"OpenAIDocumentEmbedder"`
 */
export function textEmbedderInputs(componentLabel: string, documentEmbedderLabel: string) {
  return {
    text: z.string({
      error: `${componentLabel} expects a string as \`text\`; to embed a list of documents, use ${documentEmbedderLabel}.`,
    }),
  };
}

/** The output sockets of a text embedder. */
export const textEmbedderOutputs = {
  /** The embedding of the text. */
  embedding: z.array(z.number()),
  /** The model and the tokens used. */
  meta: textEmbedderMetaSchema,
};

/** The input sockets of a document embedder: `documents`. */
export const documentEmbedderInputs = {
  /** The documents to embed. */
  documents: documentListSchema,
};

/** The output sockets of a document embedder. */
export const documentEmbedderOutputs = {
  /** The documents, in input order and with unchanged ids, each with its embedding (unless its batch failed). */
  documents: documentListSchema,
  /** Model, summed usage and the ids of documents left without embedding. */
  meta: documentEmbedderMetaSchema,
};

/** The params every text embedder shares (spread into its params schema). */
export const textEmbedderParamsShape = {
  /** Put before the text (some models want an instruction such as `"query: "`). */
  prefix: z.string().default(""),
  /** Put after the text. */
  suffix: z.string().default(""),
};

/** The params every document embedder shares (spread into its params schema). */
export const documentEmbedderParamsShape = {
  ...textEmbedderParamsShape,
  /** Documents per request (default 32, as Haystack). */
  batchSize: z.number().int().positive().default(32),
  /** Meta fields whose values are embedded before the content (missing and null values are skipped). */
  metaFieldsToEmbed: z.array(z.string()).default([]),
  /** Joins the meta values and the content (default `"\n"`). */
  embeddingSeparator: z.string().default("\n"),
  /**
   * Throw an `EmbeddingError` when a batch fails, instead of warning and returning its documents without
   * embeddings (listed in `meta.failed_documents`). Default false, as Haystack.
   */
  raiseOnFailure: z.boolean().default(false),
};
