import { ComponentError, defineComponent, type Logger } from "@junction/core";
import { z } from "zod";
import type { Document } from "../document/document.js";
import type { Filter } from "../filters/filter-types.js";
import type { DocumentStore } from "../stores/document-store.js";
import { anyStoreParam, documentListSchema, storeHoldingSerializer } from "./store-params.js";

/**
 * Haystack's `merge_documents_text`: the documents' texts in `split_idx_start` order with the overlap
 * between neighbours written once; when a document lacks `split_idx_start`, the texts are concatenated
 * as given.
 *
 * @param documents - neighbouring chunks of one source
 */
export function mergeDocumentsText(documents: readonly Document[]): string {
  if (documents.some((document) => !("split_idx_start" in document.meta))) {
    return documents.map((document) => document.content ?? "").join("");
  }
  const start = (document: Document) => Number(document.meta.split_idx_start);
  const sorted = [...documents].sort((a, b) => start(a) - start(b));
  let merged = "";
  let lastEnd = 0;
  for (const document of sorted) {
    if (document.content === undefined) continue;
    const from = Math.max(start(document), lastEnd);
    // Offsets are string indices, as DocumentSplitter writes them.
    merged += document.content.slice(from - start(document));
    lastEnd = start(document) + document.content.length;
  }
  return merged;
}

const params = z.object({
  documentStore: anyStoreParam("SentenceWindowRetriever"),
  /** Documents to fetch before and after each retrieved one (default 3). */
  windowSize: z.number().int().positive().default(3),
  /** The meta field(s) naming the source document; several fields must all match (default `"source_id"`). */
  sourceIdMetaField: z.union([z.string(), z.array(z.string()).nonempty()]).default("source_id"),
  /** The meta field holding the chunk's position in its source (default `"split_id"`). */
  splitIdMetaField: z.string().default("split_id"),
  /** Fail when a retrieved document lacks those fields (default `true`); otherwise return it alone. */
  raiseOnMissingMetaFields: z.boolean().default(true),
});

type Params = z.output<typeof params>;

interface Window {
  readonly text: string;
  readonly documents: Document[];
}

async function windowOf(
  document: Document,
  windowSize: number,
  options: Params,
  signal: AbortSignal | undefined,
  logger: Logger,
): Promise<Window> {
  const sourceFields =
    typeof options.sourceIdMetaField === "string" ? [options.sourceIdMetaField] : options.sourceIdMetaField;
  const sourceIds = sourceFields.map((field) => document.meta[field]);
  const splitId = document.meta[options.splitIdMetaField];
  if (sourceIds.some((id) => id === undefined || id === null) || splitId === undefined || splitId === null) {
    logger.warn(
      `SentenceWindowRetriever: document "${document.id}" has no ${sourceFields.map((f) => `"${f}"`).join(", ")} or "${options.splitIdMetaField}" meta field; returning it without context.`,
    );
    return { text: document.content ?? "", documents: [document] };
  }
  const splitField = `meta.${options.splitIdMetaField}`;
  const filters: Filter = {
    operator: "AND",
    conditions: [
      { field: splitField, operator: ">=", value: Number(splitId) - windowSize },
      { field: splitField, operator: "<=", value: Number(splitId) + windowSize },
      ...sourceFields.map((field, index) => ({
        field: `meta.${field}`,
        operator: "==" as const,
        value: sourceIds[index],
      })),
    ],
  };
  const store: DocumentStore = options.documentStore;
  const found = await store.filterDocuments(filters, { signal });
  const position = (d: Document) => Number(d.meta[options.splitIdMetaField]);
  return { text: mergeDocumentsText(found), documents: [...found].sort((a, b) => position(a) - position(b)) };
}

/**
 * Adds the neighbouring chunks of each retrieved document (Haystack's `SentenceWindowRetriever`): for a
 * chunk with `meta.source_id` and `meta.split_id`, it fetches the chunks of the same source whose
 * `split_id` is within `windowSize`, and merges their text (overlaps written once, using
 * `split_idx_start`). Put it after a retriever; the chunks come from `DocumentSplitter`.
 *
 * Outputs `context_windows` (one merged text per retrieved document) and `context_documents` (the
 * chunks of every window, each window sorted by `split_id`, one flat list as Haystack's).
 *
 * @example
 * ```ts
 * pipeline.addComponent("window", new SentenceWindowRetriever({ documentStore: store, windowSize: 2 }));
 * pipeline.connect("retriever.documents", "window.retrieved_documents");
 * ```
 */
export const SentenceWindowRetriever = defineComponent({
  type: "junction.SentenceWindowRetriever",
  description: "Adds the neighbouring chunks of each retrieved document as its context window.",
  params,
  inputs: { retrieved_documents: documentListSchema, window_size: z.number().int().nullish() },
  outputs: { context_windows: z.array(z.string()), context_documents: documentListSchema },
  run: async ({ retrieved_documents, window_size }, { params: options, signal, componentName, logger }) => {
    const label =
      componentName === undefined ? "SentenceWindowRetriever" : `SentenceWindowRetriever "${componentName}"`;
    const windowSize = window_size ?? options.windowSize;
    if (windowSize < 1) {
      throw new ComponentError(`${label}: window_size must be at least 1 (got ${windowSize}).`, {
        componentName,
        socket: "window_size",
      });
    }
    if (options.raiseOnMissingMetaFields) {
      const fields = [
        options.splitIdMetaField,
        ...(typeof options.sourceIdMetaField === "string"
          ? [options.sourceIdMetaField]
          : options.sourceIdMetaField),
      ];
      for (const document of retrieved_documents) {
        const missing = fields.find((field) => !(field in document.meta));
        if (missing !== undefined) {
          throw new ComponentError(
            `${label}: retrieved document "${document.id}" has no "${missing}" in its meta. Split documents with DocumentSplitter (it writes source_id and split_id), or set raiseOnMissingMetaFields: false.`,
            { componentName, socket: "retrieved_documents" },
          );
        }
      }
    }
    const windows: Window[] = [];
    for (const document of retrieved_documents) {
      windows.push(await windowOf(document, windowSize, options, signal, logger));
    }
    return {
      context_windows: windows.map((window) => window.text),
      context_documents: windows.flatMap((window) => window.documents),
    };
  },
  serializer: storeHoldingSerializer,
});

/** A `SentenceWindowRetriever` instance. */
export type SentenceWindowRetriever = InstanceType<typeof SentenceWindowRetriever>;
