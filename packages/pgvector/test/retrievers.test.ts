import { Pipeline, Secret } from "@junction/core";
import { Document, documentStoreFromJSON } from "@junction/documents";
import { beforeAll, describe, expect, it } from "vitest";
import {
  PgvectorDocumentStore,
  PgvectorEmbeddingRetriever,
  PgvectorHybridRetriever,
  PgvectorKeywordRetriever,
} from "../src/index.js";
import { makeStore } from "./support/shared-pglite.js";

describe("pgvector retrievers", () => {
  let store: PgvectorDocumentStore;
  beforeAll(async () => {
    store = await makeStore();
    await store.writeDocuments([
      new Document({
        content: "Paris is the capital of France.",
        meta: { lang: "en" },
        embedding: [1, 0, 0],
      }),
      new Document({
        content: "Paris est la capitale de la France.",
        meta: { lang: "fr" },
        embedding: [0.9, 0.1, 0],
      }),
      new Document({ content: "Bananas are yellow.", meta: { lang: "en" }, embedding: [0, 0, 1] }),
    ]);
  });

  it("run in a pipeline with Haystack's sockets, init filters and the filter policy", async () => {
    const pipeline = new Pipeline()
      .addComponent(
        "keyword",
        new PgvectorKeywordRetriever({
          documentStore: store,
          filters: { field: "meta.lang", operator: "==", value: "en" },
        }),
      )
      .addComponent("embedding", new PgvectorEmbeddingRetriever({ documentStore: store, topK: 1 }));
    const result = await pipeline.run({
      keyword: { query: "capital of France?" },
      embedding: {
        query_embedding: [0.9, 0.1, 0],
        filters: { field: "meta.lang", operator: "==", value: "en" },
      },
    });
    const outputs = result as unknown as Record<string, { documents: Document[] }>;
    expect(outputs.keyword?.documents.map((d) => d.content)).toEqual(["Paris is the capital of France."]);
    expect(outputs.embedding?.documents.map((d) => d.content)).toEqual(["Paris is the capital of France."]);

    const merged = new PgvectorKeywordRetriever({
      documentStore: store,
      filters: { field: "meta.lang", operator: "==", value: "fr" },
      filterPolicy: "merge",
    });
    const { documents } = await merged.run({
      query: "Paris",
      filters: { field: "content", operator: "!=", value: "x" },
    });
    expect(documents?.map((d) => d.meta.lang)).toEqual(["fr"]);
  });

  it("hybrid retriever fuses both rankings", async () => {
    const retriever = new PgvectorHybridRetriever({ documentStore: store, topK: 2 });
    const { documents } = await retriever.run({ query: "capital of France", query_embedding: [1, 0, 0] });
    expect(documents?.[0]?.content).toBe("Paris is the capital of France.");
    expect(documents?.[0]?.score).toBeCloseTo(1, 10);
  });

  it("pass the run's AbortSignal to the store", async () => {
    const retriever = new PgvectorKeywordRetriever({ documentStore: store });
    const controller = new AbortController();
    controller.abort(new Error("cancelled by the user"));
    await expect(retriever.run({ query: "Paris" }, { signal: controller.signal })).rejects.toThrow(
      /cancelled by the user/,
    );
  });
});

describe("serialization", () => {
  it("writes the store with its connection string as an environment-variable Secret, and loads it back", () => {
    const store = new PgvectorDocumentStore({
      connectionString: Secret.fromEnvVar("PG_CONN_STR"),
      tableName: "docs",
      embeddingDimension: 384,
      searchStrategy: "hnsw",
      hnswEfSearch: 80,
    });
    const json = store.toJSON();
    expect(json).toMatchObject({
      type: "junction.PgvectorDocumentStore",
      init_parameters: {
        connectionString: { type: "env_var", env_vars: ["PG_CONN_STR"], strict: true },
        tableName: "docs",
        embeddingDimension: 384,
        keywordMatch: "any",
        hnswEfSearch: 80,
      },
    });
    expect(JSON.stringify(json)).not.toMatch(/postgres(ql)?:\/\//);
    const loaded = documentStoreFromJSON(JSON.parse(JSON.stringify(json))) as PgvectorDocumentStore;
    expect(loaded).toBeInstanceOf(PgvectorDocumentStore);
    expect(loaded.config).toEqual(store.config);
  });

  it("refuses to save a literal connection string (it would write the password) or a pool", () => {
    const literal = new PgvectorDocumentStore({ connectionString: "postgresql://app:s3cret@db:5432/app" });
    expect(() => literal.toJSON()).toThrow(/Secret\.fromEnvVar/);
    expect(() => literal.toJSON()).not.toThrow(/s3cret/);
  });

  it("saves and loads a pipeline holding retrievers that share one store", () => {
    const store = new PgvectorDocumentStore({ dataDir: "./data/docs", embeddingDimension: 3 });
    const pipeline = new Pipeline()
      .addComponent(
        "keyword",
        new PgvectorKeywordRetriever({ documentStore: store, topK: 3, keywordMatch: "all" }),
      )
      .addComponent("embedding", new PgvectorEmbeddingRetriever({ documentStore: store }));
    const doc = pipeline.toJSON();
    const keyword = doc.components.keyword as { type: string; init_parameters: Record<string, unknown> };
    expect(keyword.type).toBe("junction.PgvectorKeywordRetriever");
    expect(keyword.init_parameters.documentStore).toMatchObject({
      type: "junction.PgvectorDocumentStore",
      init_parameters: { dataDir: "./data/docs", embeddingDimension: 3 },
    });
    const loaded = Pipeline.fromJSON(JSON.parse(JSON.stringify(doc)));
    const components = loaded.toJSON().components;
    expect(components.keyword).toEqual(doc.components.keyword);
    expect(components.embedding).toEqual(doc.components.embedding);
  });
});
