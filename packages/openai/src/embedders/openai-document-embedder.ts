import { defineComponent } from "@junction/core";
import { documentEmbedderInputs, documentEmbedderOutputs, embedDocuments } from "@junction/documents";
import { createClient, type ResolvedClient } from "../create-client.js";
import { createEmbeddings } from "./create-embeddings.js";
import { openAIDocumentEmbedderParamsSchema } from "./openai-embedder-params.js";

const TYPE = "junction.OpenAIDocumentEmbedder";
const LABEL = "OpenAIDocumentEmbedder";

interface ClientHolder {
  current: ResolvedClient | undefined;
}

/**
 * Embeds documents with an OpenAI embedding model, or any OpenAI-compatible server, as Haystack's
 * `OpenAIDocumentEmbedder`: `run({ documents }) → { documents, meta: { model, usage, failed_documents } }`.
 *
 * - Each document's text is `prefix + embeddingSeparator.join([...meta values of metaFieldsToEmbed,
 *   content]) + suffix` (missing and null meta values skipped; no content counts as `""`); documents that
 *   share an id are embedded once.
 * - Texts go `batchSize` (32) per request, one request at a time; each document comes back in input order
 *   with its embedding and the same id (`doc.with({ embedding })`); `meta.usage` sums the requests.
 * - After every batch it emits `{ type: "embedding_progress", done, total }` (a `chunk` event of
 *   `Pipeline.stream`; `junction run` draws it as a progress bar).
 * - A failed batch (after `maxRetries`) is never dropped silently: by default a warning through the run's
 *   logger names its document ids and the error, and they are returned without embedding and listed in
 *   `meta.failed_documents`; with `raiseOnFailure: true` an `EmbeddingError` names the batch.
 * - Aborting the run's `signal` cancels the request in flight and rejects with the signal's reason.
 *
 * @example
 * ```ts
 * const embedder = new OpenAIDocumentEmbedder({ model: "text-embedding-3-small", metaFieldsToEmbed: ["title"] });
 * const { documents, meta } = await embedder.run({ documents: [new Document({ content: "Paris is in France." })] });
 * ```
 */
export const OpenAIDocumentEmbedder = defineComponent({
  type: TYPE,
  description: "Embeds documents with an OpenAI embedding model or any OpenAI-compatible server.",
  params: openAIDocumentEmbedderParamsSchema,
  inputs: documentEmbedderInputs,
  outputs: documentEmbedderOutputs,
  setup: (): ClientHolder => ({ current: undefined }),
  warmUp: ({ params, resources }) => {
    resources.current ??= createClient({ ...params, componentLabel: LABEL });
  },
  close: ({ resources }) => {
    resources.current = undefined;
  },
  run: async ({ documents }, context) => {
    const { params, resources } = context;
    resources.current ??= createClient({ ...params, componentLabel: LABEL });
    const resolved = resources.current;
    return embedDocuments({
      ...params,
      documents,
      componentLabel: LABEL,
      componentType: TYPE,
      context,
      embedBatch: (input, signal) =>
        createEmbeddings({
          resolved,
          model: params.model,
          dimensions: params.dimensions,
          input,
          signal,
          componentLabel: LABEL,
        }),
    });
  },
});

/** An `OpenAIDocumentEmbedder` instance. */
export type OpenAIDocumentEmbedder = InstanceType<typeof OpenAIDocumentEmbedder>;
