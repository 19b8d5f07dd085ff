import { defineComponent } from "@junction/core";
import { documentEmbedderInputs, documentEmbedderOutputs, embedDocuments } from "@junction/documents";
import { aiSDKDocumentEmbedderParamsSchema } from "./ai-sdk-embedder-params.js";
import { aiSDKEmbedderSerializer } from "./ai-sdk-embedder-serializer.js";
import { embedValues } from "./embed-values.js";
import { effectiveBatchSize } from "./embedding-model.js";

const TYPE = "junction.AISDKDocumentEmbedder";
const LABEL = "AISDKDocumentEmbedder";

/**
 * Embeds documents with any AI SDK embedding model (specification v2, v3 or v4), with the same contract
 * as `OpenAIDocumentEmbedder`: `run({ documents }) → { documents, meta: { model, usage, failed_documents } }`.
 *
 * - Text per document: `prefix + embeddingSeparator.join([...meta values of metaFieldsToEmbed, content])
 *   + suffix`; documents sharing an id are embedded once.
 * - `batchSize` (32) texts per `doEmbed` call, capped by the model's `maxEmbeddingsPerCall`; one call at a
 *   time; an `embedding_progress` event after each; `meta.usage` sums the reported tokens.
 * - A failed call is warned about (document ids and error) and its documents are returned without
 *   embedding and listed in `meta.failed_documents`; with `raiseOnFailure: true` an `EmbeddingError`.
 * - The run's `signal` is each call's `abortSignal`. Saving needs `modelFactory`.
 *
 * @example
 * ```ts
 * import { openai } from "@ai-sdk/openai";
 * const embedder = new AISDKDocumentEmbedder({ model: openai.embedding("text-embedding-3-small"), batchSize: 64 });
 * const { documents } = await embedder.run({ documents });
 * ```
 */
export const AISDKDocumentEmbedder = defineComponent({
  type: TYPE,
  description: "Embeds documents with any AI SDK embedding model.",
  params: aiSDKDocumentEmbedderParamsSchema,
  inputs: documentEmbedderInputs,
  outputs: documentEmbedderOutputs,
  serializer: aiSDKEmbedderSerializer(LABEL),
  run: async ({ documents }, context) => {
    const { params } = context;
    return embedDocuments({
      ...params,
      batchSize: await effectiveBatchSize(params.model, params.batchSize),
      documents,
      model: params.model.modelId,
      componentLabel: LABEL,
      componentType: TYPE,
      context,
      embedBatch: (values, signal) =>
        embedValues({ model: params.model, values, providerOptions: params.providerOptions, signal }),
    });
  },
});

/** An `AISDKDocumentEmbedder` instance. */
export type AISDKDocumentEmbedder = InstanceType<typeof AISDKDocumentEmbedder>;
