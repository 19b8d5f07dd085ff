import type { ComponentSerializer } from "@junction/core";
import { z } from "zod";
import { documentSchema } from "../document/document-types.js";
import type { DocumentStore } from "../stores/document-store.js";
import { InMemoryDocumentStore } from "../stores/in-memory/in-memory-document-store.js";
import { readDocumentStoreParam, writeDocumentStoreParam } from "../stores/store-serialization.js";

/** The socket type of a list of documents (retrievers' and the writer's `documents`). */
export const documentListSchema = z.array(documentSchema);

function className(value: unknown): string {
  if (typeof value !== "object" || value === null) return value === null ? "null" : typeof value;
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === "string" && name !== "" ? name : "an object";
}

const storeMethods = ["countDocuments", "filterDocuments", "writeDocuments", "deleteDocuments"] as const;

/** True when `value` has the methods of the {@link DocumentStore} contract. */
export function isDocumentStore(value: unknown): value is DocumentStore {
  return (
    typeof value === "object" &&
    value !== null &&
    storeMethods.every((method) => typeof (value as Record<string, unknown>)[method] === "function")
  );
}

/**
 * The `documentStore` param of a component that needs an `InMemoryDocumentStore` (the in-memory
 * retrievers). Another store is refused with a message naming the component and the fix.
 *
 * @param component - the component's class name, for the message
 */
export function inMemoryStoreParam(component: string) {
  return z.custom<InMemoryDocumentStore>((value) => InMemoryDocumentStore.isInstance(value), {
    error: (issue) =>
      `${component} needs an InMemoryDocumentStore, got ${className(issue.input)}. Create it with new InMemoryDocumentStore(), or use the retriever made for your store (PgvectorDocumentStore: PgvectorKeywordRetriever / PgvectorEmbeddingRetriever).`,
  });
}

/**
 * The `documentStore` param of a component that works with any {@link DocumentStore}.
 *
 * @param component - the component's class name, for the message
 */
export function anyStoreParam(component: string) {
  return z.custom<DocumentStore>(isDocumentStore, {
    error: (issue) =>
      `${component} needs a document store (an object with ${storeMethods.join(", ")}), got ${className(issue.input)}.`,
  });
}

/**
 * The serializer of a component holding a `documentStore`: the store is written as
 * `{ type, init_parameters }` through the registered store types (see `registerDocumentStoreType`), every
 * other param as JSON.
 */
export const storeHoldingSerializer: ComponentSerializer<{ documentStore: DocumentStore }> = {
  toInitParameters(params, context) {
    const { documentStore, ...rest } = params;
    return { documentStore: writeDocumentStoreParam(documentStore, context), ...rest };
  },
  fromInitParameters(initParameters, context) {
    const out: Record<string, unknown> = { ...initParameters };
    if (initParameters.documentStore !== undefined) {
      out.documentStore = readDocumentStoreParam(initParameters.documentStore, context);
    }
    return out;
  },
};
