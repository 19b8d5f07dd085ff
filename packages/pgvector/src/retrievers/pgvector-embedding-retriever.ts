import { defineComponent } from "@junction/core";
import { z } from "zod";
import {
  documentsOutput,
  filterInputs,
  retrieverParamsShape,
  retrieverSerializer,
  runFilters,
} from "./retriever-params.js";

/**
 * Retrieves the documents whose embeddings are nearest to `query_embedding` from a
 * `PgvectorDocumentStore` (Haystack's `PgvectorEmbeddingRetriever`: same sockets and scores). With the
 * store's `"hnsw"` strategy the query uses the HNSW index and, with filters, pgvector's iterative scan,
 * so a filtered query still returns `top_k` documents.
 *
 * @example
 * ```ts
 * const retriever = new PgvectorEmbeddingRetriever({ documentStore: store, topK: 5 });
 * const { documents } = await retriever.run({ query_embedding: embedding });
 * ```
 */
export const PgvectorEmbeddingRetriever = defineComponent({
  type: "junction.PgvectorEmbeddingRetriever",
  description: "Retrieves documents from a PgvectorDocumentStore by embedding similarity.",
  params: z.object({
    ...retrieverParamsShape,
    /** Overrides the store's vector function (an HNSW index serves only the store's). */
    vectorFunction: z.enum(["cosine_similarity", "inner_product", "l2_distance"]).optional(),
  }),
  inputs: {
    query_embedding: z.array(z.number()),
    ...filterInputs,
    vector_function: z.enum(["cosine_similarity", "inner_product", "l2_distance"]).optional(),
  },
  outputs: documentsOutput,
  run: async ({ query_embedding, filters, top_k, vector_function }, { params, signal, logger }) => {
    const documents = await params.documentStore.embeddingRetrieval({
      queryEmbedding: query_embedding,
      filters: runFilters(params.filterPolicy, params.filters, filters, logger),
      topK: top_k ?? params.topK,
      vectorFunction: vector_function ?? params.vectorFunction,
      signal,
    });
    return { documents };
  },
  serializer: retrieverSerializer(),
});

/** A `PgvectorEmbeddingRetriever` instance. */
export type PgvectorEmbeddingRetriever = InstanceType<typeof PgvectorEmbeddingRetriever>;
