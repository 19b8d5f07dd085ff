import { Document } from "@junction/documents";
import { beforeAll, describe, expect, it } from "vitest";
import type { PgvectorDocumentStore } from "../src/index.js";
import { embeddingStatement } from "../src/sql/retrieval-sql.js";
import { tableSql } from "../src/sql/schema.js";
import { makeStore, sharedPGlite } from "./support/shared-pglite.js";
import { randomVectors } from "./support/vectors.js";

const texts = [
  "Paris is the capital and largest city of France.",
  "Berlin is the capital of Germany.",
  "The Eiffel Tower is in Paris.",
  "Bananas are rich in potassium.",
];

describe("keyword retrieval", () => {
  let store: PgvectorDocumentStore;
  beforeAll(async () => {
    store = await makeStore();
    await store.writeDocuments(texts.map((content) => new Document({ content })));
  });

  it('"any" answers a natural question that no document contains word for word', async () => {
    const found = await store.keywordRetrieval({ query: "What is the capital of France?" });
    expect(found.map((d) => d.content)).toEqual([texts[0], texts[1]]);
    expect(found[0]!.score).toBeGreaterThan(found[1]!.score!);
  });

  it('"all" is Haystack\'s plainto_tsquery: every word must occur', async () => {
    expect(
      await store.keywordRetrieval({ query: "What is the capital of France?", keywordMatch: "all" }),
    ).toHaveLength(1);
    expect(await store.keywordRetrieval({ query: "capital of Spain", keywordMatch: "all" })).toEqual([]);
  });

  it("applies filters and top_k, and finds nothing for a query of stop words", async () => {
    const found = await store.keywordRetrieval({
      query: "Paris capital",
      topK: 1,
      filters: { field: "content", operator: "!=", value: texts[0] },
    });
    expect(found.map((d) => d.content)).toEqual([texts[1]]);
    expect(await store.keywordRetrieval({ query: "the of and" })).toEqual([]);
    await expect(store.keywordRetrieval({ query: "  " })).rejects.toMatchObject({
      code: "PGVECTOR_INVALID_QUERY",
    });
  });
});

describe("embedding retrieval", () => {
  const vectors = [
    [1, 0, 0],
    [0.8, 0.6, 0],
    [0, 1, 0],
    [-1, 0, -2],
  ];
  const make = async (vectorFunction: "cosine_similarity" | "inner_product" | "l2_distance") => {
    const store = await makeStore({ vectorFunction });
    await store.writeDocuments([
      ...vectors.map((embedding, i) => new Document({ content: `v${i}`, embedding })),
      new Document({ content: "no embedding" }),
    ]);
    return store;
  };

  it("scores as Haystack does for each vector function", async () => {
    const query = [1, 0, 0];
    const cosine = await (await make("cosine_similarity")).embeddingRetrieval({
      queryEmbedding: query,
      topK: 3,
    });
    expect(cosine.map((d) => d.content)).toEqual(["v0", "v1", "v2"]);
    expect(cosine.map((d) => d.score)).toEqual([1, expect.closeTo(0.8, 6), expect.closeTo(0, 6)]);
    const inner = await (await make("inner_product")).embeddingRetrieval({
      queryEmbedding: [2, 0, 0],
      topK: 2,
    });
    expect(inner.map((d) => d.score)).toEqual([2, expect.closeTo(1.6, 6)]);
    const l2 = await (await make("l2_distance")).embeddingRetrieval({ queryEmbedding: query, topK: 4 });
    expect(l2.map((d) => d.content)).toEqual(["v0", "v1", "v2", "v3"]);
    expect(l2[0]!.score).toBe(0);
    expect(l2[2]!.score).toBeCloseTo(Math.SQRT2, 6);
  });

  it("refuses a query embedding of the wrong dimension or with NaN", async () => {
    const store = await make("cosine_similarity");
    await expect(store.embeddingRetrieval({ queryEmbedding: [1, 0] })).rejects.toThrow(
      /dimension 2.*dimension 3/,
    );
    await expect(store.embeddingRetrieval({ queryEmbedding: [1, Number.NaN, 0] })).rejects.toThrow(
      /non-finite/,
    );
  });
});

describe("HNSW", () => {
  const dimension = 8;
  const count = 3000;
  const vectors = randomVectors(count, dimension, 7);
  let store: PgvectorDocumentStore;
  beforeAll(async () => {
    store = await makeStore({
      embeddingDimension: dimension,
      searchStrategy: "hnsw",
      hnswEfSearch: 10,
      hnswIndexCreationKwargs: { m: 8, efConstruction: 32 },
    });
    await store.writeDocuments(
      vectors.map(
        (embedding, i) => new Document({ content: `doc ${i}`, meta: { bucket: i % 50 }, embedding }),
      ),
    );
  });

  it("queries in the indexable form: EXPLAIN shows the HNSW index, and the exact form does not use it", async () => {
    const db = await sharedPGlite();
    const explain = async (statement: { text: string; params: readonly unknown[] }) =>
      db.transaction(async (tx) => {
        await tx.query("SET LOCAL enable_seqscan = off");
        const rows = await tx.query<{ "QUERY PLAN": string }>(`EXPLAIN ${statement.text}`, [
          ...statement.params,
        ]);
        return rows.rows.map((row) => row["QUERY PLAN"]).join("\n");
      });
    const query = {
      embedding: vectors[0]!,
      topK: 10,
      filter: undefined,
      vectorFunction: "cosine_similarity" as const,
    };
    expect(await explain(embeddingStatement(store.config, tableSql(store.config), query))).toMatch(
      /Index Scan using "?t\d+_hnsw/,
    );
    const exact = { ...store.config, searchStrategy: "exact_nearest_neighbor" as const };
    expect(await explain(embeddingStatement(exact, tableSql(exact), query))).not.toMatch(/_hnsw/);
  });

  it("finds the nearest neighbours, and a filtered query still returns top_k (iterative scan)", async () => {
    const nearest = await store.embeddingRetrieval({ queryEmbedding: vectors[42]!, topK: 5 });
    expect(nearest[0]!.content).toBe("doc 42");
    expect(nearest[0]!.score).toBeCloseTo(1, 5);
    // 2% of the documents pass the filter; with ef_search 10 a post-filtered scan would return ~0–1.
    const filtered = await store.embeddingRetrieval({
      queryEmbedding: vectors[42]!,
      topK: 10,
      filters: { field: "meta.bucket", operator: "==", value: 3 },
    });
    expect(filtered).toHaveLength(10);
    expect(filtered.every((d) => d.meta.bucket === 3)).toBe(true);
    const scores = filtered.map((d) => d.score!);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });
});

describe("hybrid retrieval", () => {
  it("fuses keyword and embedding rankings with RRF in one statement", async () => {
    const store = await makeStore();
    await store.writeDocuments([
      new Document({ content: "Paris is the capital of France.", embedding: [0, 1, 0] }),
      new Document({ content: "Lyon is a city in France.", embedding: [1, 0, 0] }),
      new Document({ content: "Cheese from Normandy.", embedding: [0.9, 0.1, 0] }),
      new Document({ content: "Unrelated text.", embedding: [0, 0, 1] }),
    ]);
    const found = await store.hybridRetrieval({
      query: "capital of France",
      queryEmbedding: [1, 0, 0],
      topK: 3,
    });
    // Lyon: keyword rank 1, embedding rank 0; Paris: keyword rank 0, embedding rank 2.
    expect(found.map((d) => d.content)).toEqual([
      "Lyon is a city in France.",
      "Paris is the capital of France.",
      "Cheese from Normandy.",
    ]);
    expect(found[0]!.score).toBeCloseTo(0.5 * (61 / 62) + 0.5, 10);
    expect(found[2]!.score).toBeCloseTo(0.5 * (61 / 62), 10);
    const keywordOnly = await store.hybridRetrieval({
      query: "capital",
      queryEmbedding: [1, 0, 0],
      topK: 1,
      keywordWeight: 1,
    });
    expect(keywordOnly.map((d) => d.content)).toEqual(["Paris is the capital of France."]);
  });
});
