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
 * Retrieves the documents best matching `query` from a `PgvectorDocumentStore`, ranked by Postgres'
 * `ts_rank_cd` over the GIN-indexed tsvector (Haystack's `PgvectorKeywordRetriever`: same sockets and
 * scores). With `keywordMatch: "any"` (the store's default) a natural question finds the documents
 * sharing any of its words; `"all"` is Haystack's behaviour (every word must occur).
 *
 * @example
 * ```ts
 * const retriever = new PgvectorKeywordRetriever({ documentStore: store });
 * const { documents } = await retriever.run({ query: "What is the capital of France?" });
 * ```
 */
export const PgvectorKeywordRetriever = defineComponent({
  type: "junction.PgvectorKeywordRetriever",
  description: "Retrieves documents from a PgvectorDocumentStore by keyword (full-text) search.",
  params: z.object({
    ...retrieverParamsShape,
    /** Overrides the store's keyword match mode. */
    keywordMatch: z.enum(["any", "all"]).optional(),
  }),
  inputs: { query: z.string(), ...filterInputs },
  outputs: documentsOutput,
  run: async ({ query, filters, top_k }, { params, signal, logger }) => {
    const documents = await params.documentStore.keywordRetrieval({
      query,
      filters: runFilters(params.filterPolicy, params.filters, filters, logger),
      topK: top_k ?? params.topK,
      keywordMatch: params.keywordMatch,
      signal,
    });
    return { documents };
  },
  serializer: retrieverSerializer(),
});

/** A `PgvectorKeywordRetriever` instance. */
export type PgvectorKeywordRetriever = InstanceType<typeof PgvectorKeywordRetriever>;
