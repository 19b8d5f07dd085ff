import { defineComponent } from "@junction/core";
import { z } from "zod";
import { anyStoreParam, documentListSchema, storeHoldingSerializer } from "../retrievers/store-params.js";
import { duplicatePolicies } from "../stores/duplicate-policy.js";

/**
 * Writes documents into a store (Haystack's `DocumentWriter`) and reports how many were written.
 * `policy` says what happens to documents whose id is already stored: `"none"` (default) lets the store
 * decide (the in-memory and pgvector stores fail, as Haystack's), `"skip"`, `"overwrite"` or `"fail"`.
 * The `policy` input overrides it for one run.
 *
 * @example
 * ```ts
 * const indexing = new Pipeline()
 *   .addComponent("splitter", new DocumentSplitter({ splitBy: "word", splitLength: 200 }))
 *   .addComponent("writer", new DocumentWriter({ documentStore: store, policy: "overwrite" }))
 *   .connect("splitter.documents", "writer.documents");
 * ```
 */
export const DocumentWriter = defineComponent({
  type: "junction.DocumentWriter",
  description: "Writes documents into a document store.",
  params: z.object({
    documentStore: anyStoreParam("DocumentWriter"),
    policy: z.enum(duplicatePolicies).default("none"),
  }),
  inputs: { documents: documentListSchema, policy: z.enum(duplicatePolicies).nullish() },
  outputs: { documents_written: z.number().int() },
  run: async ({ documents, policy }, { params, signal }) => {
    const written = await params.documentStore.writeDocuments(documents, {
      policy: policy ?? params.policy,
      signal,
    });
    return { documents_written: written };
  },
  serializer: storeHoldingSerializer,
});

/** A `DocumentWriter` instance. */
export type DocumentWriter = InstanceType<typeof DocumentWriter>;
