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
 * Retrieves documents from a `PgvectorDocumentStore` by keyword and embedding at once, fused with
 * reciprocal rank fusion in one SQL statement (Haystack builds this from two retrievers and a
 * `DocumentJoiner`; the score follows the joiner's formula, so a document first in both rankings
 * scores 1).
 *
 * @example
 * ```ts
 * const retriever = new PgvectorHybridRetriever({ documentStore: store, topK: 5 });
 * const { documents } = await retriever.run({ query, query_embedding });
 * ```
 */
export const PgvectorHybridRetriever = defineComponent({
  type: "junction.PgvectorHybridRetriever",
  description: "Retrieves documents from a PgvectorDocumentStore by keyword and embedding, fused with RRF.",
  params: z.object({
    ...retrieverParamsShape,
    /** Overrides the store's keyword match mode. */
    keywordMatch: z.enum(["any", "all"]).optional(),
    /** Weight of the keyword ranking (0–1); the embedding ranking gets the rest. */
    keywordWeight: z.number().min(0).max(1).default(0.5),
    /** Candidates each side ranks before fusion (default max(4·top_k, 40)). */
    candidates: z.number().int().positive().max(10_000).optional(),
  }),
  inputs: { query: z.string(), query_embedding: z.array(z.number()), ...filterInputs },
  outputs: documentsOutput,
  run: async ({ query, query_embedding, filters, top_k }, { params, signal, logger }) => {
    const documents = await params.documentStore.hybridRetrieval({
      query,
      queryEmbedding: query_embedding,
      filters: runFilters(params.filterPolicy, params.filters, filters, logger),
      topK: top_k ?? params.topK,
      keywordMatch: params.keywordMatch,
      keywordWeight: params.keywordWeight,
      candidates: params.candidates,
      signal,
    });
    return { documents };
  },
  serializer: retrieverSerializer(),
});

/** A `PgvectorHybridRetriever` instance. */
export type PgvectorHybridRetriever = InstanceType<typeof PgvectorHybridRetriever>;
