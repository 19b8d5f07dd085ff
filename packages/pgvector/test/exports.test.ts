import * as api from "@junction/pgvector";
import { expect, test } from "vitest";

test("@junction/pgvector exports exactly its public surface", () => {
  expect(Object.keys(api).sort()).toEqual([
    "PgvectorDocumentStore",
    "PgvectorEmbeddingRetriever",
    "PgvectorHybridRetriever",
    "PgvectorKeywordRetriever",
    "PgvectorStoreError",
    "pgvectorFilterSchema",
    "pgvectorOperators",
  ]);
});
