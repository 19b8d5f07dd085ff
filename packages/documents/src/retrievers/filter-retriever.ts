import { defineComponent } from "@junction/core";
import { z } from "zod";
import { filterSchema } from "../filters/filter-schema.js";
import { anyStoreParam, documentListSchema, storeHoldingSerializer } from "./store-params.js";

/**
 * Returns every document of a store that matches a filter (Haystack's `FilterRetriever`): the run's
 * `filters` when given (and not `{}`), otherwise the init `filters`, otherwise all documents. Works with
 * any store.
 *
 * @example
 * ```ts
 * const retriever = new FilterRetriever({ documentStore: store, filters: { field: "meta.lang", operator: "==", value: "en" } });
 * await retriever.run({ filters: { field: "meta.lang", operator: "==", value: "de" } });
 * ```
 */
export const FilterRetriever = defineComponent({
  type: "junction.FilterRetriever",
  description: "Returns the documents of a store that match a filter.",
  params: z.object({ documentStore: anyStoreParam("FilterRetriever"), filters: filterSchema.nullish() }),
  inputs: { filters: filterSchema.nullish() },
  outputs: { documents: documentListSchema },
  run: async ({ filters }, { params, signal }) => {
    // Haystack's `filters or self.filters`: an empty run-time filter ({}) falls back to the init filters.
    const runtime =
      filters !== undefined && filters !== null && Object.keys(filters).length > 0 ? filters : undefined;
    const documents = await params.documentStore.filterDocuments(runtime ?? params.filters ?? undefined, {
      signal,
    });
    return { documents };
  },
  serializer: storeHoldingSerializer,
});

/** A `FilterRetriever` instance. */
export type FilterRetriever = InstanceType<typeof FilterRetriever>;
