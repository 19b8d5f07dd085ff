import { MemoryLogger, setDefaultLogger, silentLogger } from "@junction/core";
import { afterEach, describe, expect, it } from "vitest";
import {
  Document,
  DocumentStoreConfigError,
  documentStoreFromJSON,
  documentStoreToJSON,
  EmbeddingDimensionError,
  InMemoryDocumentStore,
  RetrievalQueryError,
} from "../src/index.js";

afterEach(() => setDefaultLogger(silentLogger));

const doc = (id: string, content?: string, meta: Record<string, unknown> = {}, embedding?: number[]) =>
  new Document({ id, content, meta, embedding });

describe("InMemoryDocumentStore: writing and reading", () => {
  it("treats policy none as fail, reporting every duplicate id and writing nothing", async () => {
    const store = new InMemoryDocumentStore();
    await store.writeDocuments([doc("a", "one"), doc("b", "two")]);
    const error = await store
      .writeDocuments([doc("c", "three"), doc("a", "x"), doc("b", "y")])
      .catch((e) => e);
    expect(error.ids).toEqual(["a", "b"]);
    expect(await store.countDocuments()).toBe(2);
    expect((await store.filterDocuments()).map((d) => d.content)).toEqual(["one", "two"]);
  });

  it("skip keeps the stored document; overwrite replaces it and moves it to the end (Haystack's order)", async () => {
    const store = new InMemoryDocumentStore();
    await store.writeDocuments([doc("a", "one"), doc("b", "two")]);
    expect(await store.writeDocuments([doc("a", "new"), doc("c", "three")], { policy: "skip" })).toBe(1);
    expect((await store.filterDocuments()).map((d) => d.content)).toEqual(["one", "two", "three"]);
    expect(await store.writeDocuments([doc("a", "new")], { policy: "overwrite" })).toBe(1);
    expect((await store.filterDocuments()).map((d) => d.content)).toEqual(["two", "three", "new"]);
    // InMemoryDocumentStore.write_documents counts every document it does not skip: an id repeated in an
    // overwrite batch is written twice (the last copy stays, at the end) and counted twice.
    expect(
      await store.writeDocuments([doc("b", "two again"), doc("d", "four"), doc("b", "two last")], {
        policy: "overwrite",
      }),
    ).toBe(3);
    expect((await store.filterDocuments()).map((d) => d.content)).toEqual([
      "three",
      "new",
      "four",
      "two last",
    ]);
    // skip: the repeat is skipped and not counted (written_documents -= 1)
    expect(await store.writeDocuments([doc("e", "five"), doc("e", "five again")], { policy: "skip" })).toBe(
      1,
    );
    // The overwritten text is searchable, the old one is gone.
    expect((await store.bm25Retrieval({ query: "new" })).map((d) => d.id)).toEqual(["a"]);
    expect(await store.bm25Retrieval({ query: "one" })).toEqual([]);
  });

  it("filters documents and leaves out embeddings when returnEmbedding is false", async () => {
    const store = new InMemoryDocumentStore({ returnEmbedding: false });
    await store.writeDocuments([
      doc("a", "x", { lang: "en" }, [1, 0]),
      doc("b", "y", { lang: "de" }, [0, 1]),
    ]);
    const found = await store.filterDocuments({ field: "meta.lang", operator: "==", value: "de" });
    expect(found.map((d) => d.id)).toEqual(["b"]);
    expect(found[0]!.embedding).toBeUndefined();
  });

  it("gives every instance its own documents (no process-global sharing)", async () => {
    const first = new InMemoryDocumentStore();
    const second = new InMemoryDocumentStore();
    await first.writeDocuments([doc("a", "x")]);
    expect(await second.countDocuments()).toBe(0);
  });

  it("refuses an embedding of another dimension, naming the document and both dimensions", async () => {
    const store = new InMemoryDocumentStore();
    await store.writeDocuments([doc("a", "x", {}, [1, 2, 3])]);
    const error = await store.writeDocuments([doc("b", "y", {}, [1, 2])]).catch((e) => e);
    expect(error).toBeInstanceOf(EmbeddingDimensionError);
    expect(error.message).toContain('document "b" has an embedding of 2 dimensions');
    expect(error.message).toContain("have 3");
    expect(await store.countDocuments()).toBe(1);
  });

  it("deletes, ignoring unknown ids, and stays consistent after many deletes (index compaction)", async () => {
    const store = new InMemoryDocumentStore();
    const fresh = new InMemoryDocumentStore();
    const all = Array.from({ length: 3000 }, (_, i) =>
      doc(`d${i}`, `alpha w${i % 17} w${i % 5} beta${i % 3}`),
    );
    await store.writeDocuments(all);
    const removed = all.filter((_, i) => i % 3 !== 0).map((d) => d.id);
    await store.deleteDocuments([...removed, "unknown"]);
    // New documents reuse the freed slots.
    const extra = Array.from({ length: 500 }, (_, i) => doc(`e${i}`, `alpha gamma w${i % 17}`));
    await store.writeDocuments(extra);
    await fresh.writeDocuments([...all.filter((_, i) => i % 3 === 0), ...extra]);
    for (const query of ["alpha", "w3 beta0", "gamma w16", "w4"]) {
      const got = await store.bm25Retrieval({ query, topK: 25 });
      const want = await fresh.bm25Retrieval({ query, topK: 25 });
      expect(got.map((d) => [d.id, d.score])).toEqual(want.map((d) => [d.id, d.score]));
    }
    expect(await store.countDocuments()).toBe(1500);
  });

  it("deleteAllDocuments empties the store and its indexes", async () => {
    const store = new InMemoryDocumentStore();
    await store.writeDocuments([doc("a", "x", {}, [1, 0])]);
    await store.deleteAllDocuments();
    expect(await store.countDocuments()).toBe(0);
    expect(await store.bm25Retrieval({ query: "x" })).toEqual([]);
    await store.writeDocuments([doc("b", "y", {}, [1, 2, 3])]); // a new dimension is fine now
    expect(await store.embeddingRetrieval({ queryEmbedding: [1, 0, 0] })).toHaveLength(1);
  });

  it("honours an aborted signal", async () => {
    const store = new InMemoryDocumentStore();
    await expect(store.countDocuments({ signal: AbortSignal.abort() })).rejects.toThrow();
  });
});

describe("InMemoryDocumentStore: BM25", () => {
  it("refuses an empty query and a bad topK", async () => {
    const store = new InMemoryDocumentStore();
    await expect(store.bm25Retrieval({ query: "" })).rejects.toThrowError(RetrievalQueryError);
    await expect(store.bm25Retrieval({ query: "x", topK: -1 })).rejects.toThrowError(/topK/);
  });

  it("applies filters after scoring with the statistics of every document", async () => {
    const store = new InMemoryDocumentStore();
    await store.writeDocuments([
      doc("a", "cat dog", { n: 1 }),
      doc("b", "cat", { n: 2 }),
      doc("c", "dog", { n: 2 }),
    ]);
    const filtered = await store.bm25Retrieval({
      query: "cat",
      filters: { field: "meta.n", operator: "==", value: 2 },
    });
    const unfiltered = await store.bm25Retrieval({ query: "cat" });
    expect(filtered.map((d) => d.id)).toEqual(["b"]);
    expect(filtered[0]!.score).toBe(unfiltered.find((d) => d.id === "b")!.score);
  });

  it("tokenizes with a custom pattern and rejects an invalid one", async () => {
    const store = new InMemoryDocumentStore({ bm25TokenizationRegex: "[a-z]+" });
    await store.writeDocuments([doc("a", "abc123def")]);
    expect(await store.bm25Retrieval({ query: "def" })).toHaveLength(1);
    expect(() => new InMemoryDocumentStore({ bm25TokenizationRegex: "(" })).toThrowError(
      DocumentStoreConfigError,
    );
    expect(() => new InMemoryDocumentStore({ bm25Algorithm: "BM25" as never })).toThrowError(
      /"BM25" is not supported; use "BM25L", "BM25Okapi" or "BM25Plus"/,
    );
  });

  it("skips documents without content and returns copies that keep the id", async () => {
    const store = new InMemoryDocumentStore();
    await store.writeDocuments([doc("a"), doc("b", "hello world")]);
    const [hit] = await store.bm25Retrieval({ query: "hello" });
    expect(hit!.id).toBe("b");
    expect(hit!.score).toBeGreaterThan(0);
    expect((await store.filterDocuments())[1]!.score).toBeUndefined();
  });
});

describe("InMemoryDocumentStore: embedding retrieval", () => {
  const vectors: [string, number[]][] = [
    ["x", [1, 0, 0]],
    ["y", [0, 2, 0]],
    ["xy", [1, 1, 0]],
    ["neg", [-1, 0, 0]],
  ];

  it("ranks by dot product, scales with expit(s/100), and skips documents without embedding", async () => {
    const store = new InMemoryDocumentStore();
    await store.writeDocuments([
      ...vectors.map(([id, e]) => doc(id, id, {}, e)),
      doc("none", "no embedding"),
    ]);
    const found = await store.embeddingRetrieval({ queryEmbedding: [0.5, 1, 0], topK: 10 });
    expect(found.map((d) => [d.id, d.score])).toEqual([
      ["y", 2],
      ["xy", 1.5],
      ["x", 0.5],
      ["neg", -0.5],
    ]);
    expect(found[0]!.embedding).toBeUndefined();
    const scaled = await store.embeddingRetrieval({ queryEmbedding: [0.5, 1, 0], topK: 1, scaleScore: true });
    expect(scaled[0]!.score).toBeCloseTo(1 / (1 + Math.exp(-2 / 100)), 12);
    const withEmbedding = await store.embeddingRetrieval({
      queryEmbedding: [1, 0, 0],
      topK: 1,
      returnEmbedding: true,
    });
    expect(withEmbedding[0]!.embedding).toEqual([1, 0, 0]);
  });

  it("returns scores computed in 64-bit floats, as numpy computes them (not the 32-bit scan's)", async () => {
    // InMemoryDocumentStore._compute_query_embedding_similarity_scores: np.dot over float64 arrays;
    // cosine divides both vectors by their norms first.
    const a = [0.1, 0.2, 0.3];
    const b = [0.3, 0.1, 0.7];
    const query = [0.7, 0.11, 0.13];
    const dot = (x: number[], y: number[]) => x.reduce((sum, value, index) => sum + value * y[index]!, 0);
    const unit = (x: number[]) => x.map((value) => value / Math.sqrt(dot(x, x)));
    const dotStore = new InMemoryDocumentStore();
    await dotStore.writeDocuments([doc("a", "a", {}, a), doc("b", "b", {}, b)]);
    const byDot = await dotStore.embeddingRetrieval({ queryEmbedding: query });
    expect(byDot.map((d) => [d.id, d.score])).toEqual([
      ["b", dot(query, b)],
      ["a", dot(query, a)],
    ]);
    const cosineStore = new InMemoryDocumentStore({ embeddingSimilarityFunction: "cosine" });
    await cosineStore.writeDocuments([
      doc("a", "a", {}, a),
      doc("b", "b", {}, b),
      doc("zero", "z", {}, [0, 0, 0]),
    ]);
    const byCosine = await cosineStore.embeddingRetrieval({ queryEmbedding: query });
    expect(byCosine.map((d) => [d.id, d.score])).toEqual([
      ["b", dot(unit(query), unit(b))],
      ["a", dot(unit(query), unit(a))],
      ["zero", 0],
    ]);
  });

  it("ranks by cosine and scales with (s+1)/2", async () => {
    const store = new InMemoryDocumentStore({ embeddingSimilarityFunction: "cosine" });
    await store.writeDocuments(vectors.map(([id, e]) => doc(id, id, {}, e)));
    const found = await store.embeddingRetrieval({ queryEmbedding: [2, 0, 0], topK: 4, scaleScore: true });
    expect(found.map((d) => d.id)).toEqual(["x", "xy", "y", "neg"]);
    expect(found.map((d) => d.score)).toEqual(
      [1, (Math.SQRT1_2 + 1) / 2, 0.5, 0].map((v) => expect.closeTo(v, 6)),
    );
  });

  it("applies filters and topK", async () => {
    const store = new InMemoryDocumentStore();
    await store.writeDocuments(vectors.map(([id, e], i) => doc(id, id, { even: i % 2 === 0 }, e)));
    const found = await store.embeddingRetrieval({
      queryEmbedding: [1, 1, 0],
      filters: { field: "meta.even", operator: "==", value: true },
      topK: 1,
    });
    expect(found.map((d) => d.id)).toEqual(["xy"]);
  });

  it("reports a query of another dimension, and an empty query", async () => {
    const store = new InMemoryDocumentStore();
    await store.writeDocuments([doc("a", "a", {}, [1, 2, 3])]);
    await expect(store.embeddingRetrieval({ queryEmbedding: [1, 2] })).rejects.toThrowError(
      /the query embedding has 2 dimensions but the stored embeddings have 3/,
    );
    await expect(store.embeddingRetrieval({ queryEmbedding: [] })).rejects.toThrowError(RetrievalQueryError);
  });

  it("warns (as Haystack) when no document has an embedding", async () => {
    const logger = new MemoryLogger();
    setDefaultLogger(logger);
    const store = new InMemoryDocumentStore();
    await store.writeDocuments([doc("a", "text")]);
    expect(await store.embeddingRetrieval({ queryEmbedding: [1, 0] })).toEqual([]);
    expect(logger.records.map((record) => record.message)).toEqual([
      expect.stringContaining("none of the 1 documents has an embedding"),
    ]);
  });

  it("keeps rows consistent across deletes (the last row moves into the hole)", async () => {
    const store = new InMemoryDocumentStore();
    await store.writeDocuments(vectors.map(([id, e]) => doc(id, id, {}, e)));
    await store.deleteDocuments(["x"]);
    const found = await store.embeddingRetrieval({ queryEmbedding: [-1, 0, 0], topK: 10 });
    expect(found.map((d) => [d.id, d.score])).toEqual([
      ["neg", 1],
      ["y", 0],
      ["xy", -1],
    ]);
  });
});

describe("InMemoryDocumentStore: serialization", () => {
  it("writes its configuration (not its documents) and loads back through the registered type", async () => {
    const store = new InMemoryDocumentStore({ bm25Algorithm: "BM25Plus", bm25Parameters: { k1: 1.2 } });
    await store.writeDocuments([doc("a", "x")]);
    const json = documentStoreToJSON(store);
    expect(json).toEqual({
      type: "junction.InMemoryDocumentStore",
      init_parameters: {
        bm25Algorithm: "BM25Plus",
        bm25Parameters: { k1: 1.2 },
        bm25TokenizationRegex: "[\\p{L}\\p{N}_]+",
        embeddingSimilarityFunction: "dot_product",
        returnEmbedding: true,
      },
    });
    const loaded = documentStoreFromJSON(json) as InMemoryDocumentStore;
    expect(loaded.options.bm25Algorithm).toBe("BM25Plus");
    expect(await loaded.countDocuments()).toBe(0);
  });

  it("refuses unknown init parameters (Haystack's index/shared) with the accepted list", () => {
    expect(() =>
      documentStoreFromJSON({ type: "junction.InMemoryDocumentStore", init_parameters: { shared: true } }),
    ).toThrowError(/unknown init parameter "shared"; the parameters are bm25Algorithm/);
  });
});
