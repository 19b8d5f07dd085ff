import type { ComponentSerializer, Logger } from "@junction/core";
import {
  applyFilterPolicy,
  Document,
  type Filter,
  type FilterPolicy,
  filterPolicies,
  readDocumentStoreParam,
  writeDocumentStoreParam,
} from "@junction/documents";
import { z } from "zod";
import { type PgvectorFilter, pgvectorFilterSchema } from "../filters/pgvector-filter.js";
import { PgvectorDocumentStore } from "../store/pgvector-document-store.js";

/** The `documents` output socket: Haystack's `list[Document]`. */
export const documentsOutput = { documents: z.array(z.instanceof(Document)) };

/**
 * The optional `filters` and `top_k` inputs every pgvector retriever has (Haystack's sockets). Filters
 * may use Haystack's pgvector-only operators (`like`, `not like`, `array_contains`, `array_overlaps`).
 */
export const filterInputs = {
  filters: pgvectorFilterSchema.optional(),
  top_k: z.number().int().positive().optional(),
};

/** The params every pgvector retriever has (Haystack's init parameters, camelCase). */
export const retrieverParamsShape = {
  /** The store to search. */
  documentStore: z.instanceof(PgvectorDocumentStore, {
    message: "documentStore must be a PgvectorDocumentStore (new PgvectorDocumentStore({ ... })).",
  }),
  /** Filters applied to every run (see `filterPolicy`). */
  filters: pgvectorFilterSchema.optional(),
  /** How many documents to return (default 10). */
  topK: z.number().int().positive().max(10_000).default(10),
  /** `"replace"` (runtime filters win) or `"merge"` (AND-combined). */
  filterPolicy: z.enum(filterPolicies).default("replace"),
};

/** The init parameters of a retriever: its store as `{ type, init_parameters }`, the rest as JSON. */
export function retrieverSerializer<
  TParams extends { documentStore: PgvectorDocumentStore; filters?: PgvectorFilter | undefined },
>(): ComponentSerializer<TParams> {
  return {
    toInitParameters: (params, context) => {
      const { documentStore, ...rest } = params;
      return {
        ...(context.serializeValue(rest, []) as Record<string, unknown>),
        documentStore: writeDocumentStoreParam(documentStore, context),
      };
    },
    fromInitParameters: (init, context) => ({
      ...init,
      documentStore: readDocumentStoreParam(init.documentStore, context),
    }),
  };
}

/**
 * The filters of one run under the retriever's policy (`applyFilterPolicy`, which works on the filter's
 * structure, so pgvector-only comparisons merge like any other).
 */
export function runFilters(
  policy: FilterPolicy,
  initFilters: PgvectorFilter | undefined,
  runtimeFilters: PgvectorFilter | undefined,
  logger: Logger,
): PgvectorFilter | undefined {
  return applyFilterPolicy(
    policy,
    initFilters as Filter | undefined,
    runtimeFilters as Filter | undefined,
    logger,
  );
}
