import { defineComponent } from "@junction/core";
import { z } from "zod";
import { applyFilterPolicy } from "../filters/filter-policy.js";
import { retrieverInputsShape, retrieverParamsShape } from "./retriever-options.js";
import { documentListSchema, inMemoryStoreParam, storeHoldingSerializer } from "./store-params.js";

/**
 * Retrieves the documents of an `InMemoryDocumentStore` whose embeddings are most similar to a query
 * embedding (exact search; Haystack's `InMemoryEmbeddingRetriever`). Connect a text embedder's
 * `embedding` to `query_embedding`. Documents come back without their embeddings unless
 * `returnEmbedding` (or the `return_embedding` input) is true.
 *
 * @example
 * ```ts
 * const retriever = new InMemoryEmbeddingRetriever({ documentStore: store, topK: 3 });
 * pipeline.connect("embedder.embedding", "retriever.query_embedding");
 * ```
 */
export const InMemoryEmbeddingRetriever = defineComponent({
  type: "junction.InMemoryEmbeddingRetriever",
  description: "Retrieves the documents of an in-memory store most similar to a query embedding.",
  params: z.object({
    documentStore: inMemoryStoreParam("InMemoryEmbeddingRetriever"),
    ...retrieverParamsShape,
    /** Return the documents' embeddings (default `false`, as Haystack). */
    returnEmbedding: z.boolean().default(false),
  }),
  inputs: {
    query_embedding: z.array(z.number()),
    ...retrieverInputsShape,
    /** Overrides the `returnEmbedding` param for this run. */
    return_embedding: z.boolean().nullish(),
  },
  outputs: { documents: documentListSchema },
  run: async ({ query_embedding, filters, top_k, scale_score, return_embedding }, context) => {
    const { params } = context;
    const documents = await params.documentStore.embeddingRetrieval({
      queryEmbedding: query_embedding,
      filters: applyFilterPolicy(params.filterPolicy, params.filters, filters, context.logger),
      topK: top_k ?? params.topK,
      scaleScore: scale_score ?? params.scaleScore,
      returnEmbedding: return_embedding ?? params.returnEmbedding,
      signal: context.signal,
    });
    return { documents };
  },
  serializer: storeHoldingSerializer,
});

/** An `InMemoryEmbeddingRetriever` instance. */
export type InMemoryEmbeddingRetriever = InstanceType<typeof InMemoryEmbeddingRetriever>;
