import { defineComponent } from "@junction/core";
import { z } from "zod";
import { applyFilterPolicy } from "../filters/filter-policy.js";
import { RetrievalQueryError } from "../stores/in-memory/in-memory-errors.js";
import { retrieverInputsShape, retrieverParamsShape } from "./retriever-options.js";
import { documentListSchema, inMemoryStoreParam, storeHoldingSerializer } from "./store-params.js";

/**
 * Retrieves the documents of an `InMemoryDocumentStore` that best match a text query by BM25 (Haystack's
 * `InMemoryBM25Retriever`). Scores equal Haystack's; documents sharing no word with the query are not
 * returned. Run-time `filters` combine with the init `filters` by `filterPolicy`.
 *
 * @example
 * ```ts
 * const store = new InMemoryDocumentStore();
 * await store.writeDocuments([new Document({ content: "Python is a popular programming language" })]);
 * const retriever = new InMemoryBM25Retriever({ documentStore: store, topK: 5 });
 * const { documents } = await retriever.run({ query: "programming language" });
 * ```
 */
export const InMemoryBM25Retriever = defineComponent({
  type: "junction.InMemoryBM25Retriever",
  description: "Retrieves the documents of an in-memory store that best match a query, by BM25.",
  params: z.object({ documentStore: inMemoryStoreParam("InMemoryBM25Retriever"), ...retrieverParamsShape }),
  inputs: { query: z.string(), ...retrieverInputsShape },
  outputs: { documents: documentListSchema },
  run: async ({ query, filters, top_k, scale_score }, { params, signal, componentName, logger }) => {
    if (query === "") {
      const label =
        componentName === undefined ? "InMemoryBM25Retriever" : `InMemoryBM25Retriever "${componentName}"`;
      throw new RetrievalQueryError(
        `${label}: the query is empty. Send a non-empty "query" (a question or keywords).`,
        componentName,
      );
    }
    const documents = await params.documentStore.bm25Retrieval({
      query,
      filters: applyFilterPolicy(params.filterPolicy, params.filters, filters, logger),
      topK: top_k ?? params.topK,
      scaleScore: scale_score ?? params.scaleScore,
      signal,
    });
    return { documents };
  },
  serializer: storeHoldingSerializer,
});

/** An `InMemoryBM25Retriever` instance. */
export type InMemoryBM25Retriever = InstanceType<typeof InMemoryBM25Retriever>;
