/**
 * `{}` is no filter at the pgvector retrievers' `filters` socket and params, as it is for the in-memory
 * retrievers: Haystack's `apply_filter_policy` returns `runtime_filters or init_filters`, so an empty
 * dict falls back to the filters the retriever was built with.
 */
import { Document } from "@junction/documents";
import {
  type PgvectorDocumentStore,
  PgvectorKeywordRetriever,
  pgvectorFilterSchema,
} from "@junction/pgvector";
import { beforeAll, expect, it } from "vitest";
import { makeStore } from "./support/shared-pglite.js";

let store: PgvectorDocumentStore;
beforeAll(async () => {
  store = await makeStore();
  await store.writeDocuments([
    new Document({ content: "red apples", meta: { kind: "fruit" } }),
    new Document({ content: "red bricks", meta: { kind: "stone" } }),
  ]);
});

it("the filter schema accepts {} and still refuses a broken filter", () => {
  expect(pgvectorFilterSchema.safeParse({}).success).toBe(true);
  expect(pgvectorFilterSchema.safeParse({ field: "meta.kind", operator: "~=", value: "x" }).success).toBe(
    false,
  );
});

it("{} at run time falls back to the retriever's own filters", async () => {
  const retriever = new PgvectorKeywordRetriever({
    documentStore: store,
    filters: { field: "meta.kind", operator: "==", value: "fruit" },
  });
  const { documents } = await retriever.run({ query: "red", filters: {} });
  expect((documents ?? []).map((document) => document.content)).toEqual(["red apples"]);
});

it("{} as the retriever's own filters means no filter", async () => {
  const retriever = new PgvectorKeywordRetriever({ documentStore: store, filters: {} });
  const { documents } = await retriever.run({ query: "red" });
  expect((documents ?? []).map((document) => document.content).sort()).toEqual(["red apples", "red bricks"]);
});
