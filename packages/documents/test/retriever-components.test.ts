import { join } from "node:path";
import {
  ComponentError,
  DeserializationError,
  defaultRegistry,
  MemoryLogger,
  Pipeline,
  SerializationError,
  setDefaultLogger,
  silentLogger,
} from "@junction/core";
import { afterEach, describe, expect, it } from "vitest";
import { useTempDirs } from "../../../test/support/temp-dirs.js";
import {
  Document,
  DocumentJoiner,
  DocumentSplitter,
  type DocumentStore,
  DocumentWriter,
  type Filter,
  FilterRetriever,
  InMemoryBM25Retriever,
  InMemoryDocumentStore,
  InMemoryEmbeddingRetriever,
  RetrievalQueryError,
  SentenceWindowRetriever,
} from "../src/index.js";

const tempDir = useTempDirs("retrievers");
afterEach(() => setDefaultLogger(silentLogger));

async function storeWith(documents: Document[], options = {}) {
  const store = new InMemoryDocumentStore(options);
  await store.writeDocuments(documents);
  return store;
}

const corpus = () => [
  new Document({
    id: "py",
    content: "Python is a popular programming language",
    meta: { lang: "en" },
    embedding: [1, 0],
  }),
  new Document({
    id: "de",
    content: "Python ist eine beliebte Programmiersprache",
    meta: { lang: "de" },
    embedding: [0.9, 0.1],
  }),
  new Document({
    id: "ts",
    content: "TypeScript adds types to JavaScript",
    meta: { lang: "en" },
    embedding: [0, 1],
  }),
];

describe("InMemoryBM25Retriever", () => {
  it("retrieves by BM25 with the init topK, overridden by top_k", async () => {
    const retriever = new InMemoryBM25Retriever({ documentStore: await storeWith(corpus()), topK: 1 });
    expect((await retriever.run({ query: "python language" })).documents!.map((d) => d.id)).toEqual(["py"]);
    const both = await retriever.run({ query: "python", top_k: 5 });
    expect(both.documents!.map((d) => d.id).sort()).toEqual(["de", "py"]);
    const scaled = await retriever.run({ query: "python", scale_score: true });
    expect(scaled.documents![0]!.score).toBeGreaterThan(0.5);
    expect(scaled.documents![0]!.score).toBeLessThan(1);
  });

  it("replaces the init filters with run filters by default, and merges them with filterPolicy merge", async () => {
    const store = await storeWith(corpus());
    const en = { field: "meta.lang", operator: "==", value: "en" } as const;
    const de = { field: "meta.lang", operator: "==", value: "de" } as const;
    const replace = new InMemoryBM25Retriever({ documentStore: store, filters: en });
    expect((await replace.run({ query: "python" })).documents!.map((d) => d.id)).toEqual(["py"]);
    expect((await replace.run({ query: "python", filters: de })).documents!.map((d) => d.id)).toEqual(["de"]);
    const merge = new InMemoryBM25Retriever({ documentStore: store, filters: en, filterPolicy: "merge" });
    const idFilter = { field: "id", operator: "==", value: "de" } as const;
    expect((await merge.run({ query: "python", filters: idFilter })).documents!).toEqual([]);
  });

  it("refuses an empty query, naming the component", async () => {
    const retriever = new InMemoryBM25Retriever({ documentStore: new InMemoryDocumentStore() });
    const pipeline = new Pipeline().addComponent("bm25", retriever);
    await expect(retriever.run({ query: "" })).rejects.toThrowError(RetrievalQueryError);
    await expect(pipeline.run({ bm25: { query: "" } })).rejects.toThrowError(
      /InMemoryBM25Retriever "bm25": the query is empty/,
    );
  });

  it("refuses a store that is not an InMemoryDocumentStore, naming the component and the fix", () => {
    const other = { countDocuments() {}, filterDocuments() {}, writeDocuments() {}, deleteDocuments() {} };
    let error: unknown;
    try {
      new InMemoryBM25Retriever({ documentStore: other as never });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ComponentError);
    expect(String((error as Error).message)).toMatch(
      /InMemoryBM25Retriever needs an InMemoryDocumentStore, got Object/,
    );
  });
});

describe("InMemoryEmbeddingRetriever", () => {
  it("retrieves by embedding, without embeddings unless asked", async () => {
    const retriever = new InMemoryEmbeddingRetriever({ documentStore: await storeWith(corpus()), topK: 2 });
    const documents = (await retriever.run({ query_embedding: [1, 0] })).documents!;
    expect(documents.map((d) => [d.id, d.score])).toEqual([
      ["py", 1],
      ["de", expect.closeTo(0.9, 6)],
    ]);
    expect(documents[0]!.embedding).toBeUndefined();
    const withEmbedding = await retriever.run({ query_embedding: [1, 0], return_embedding: true });
    expect(withEmbedding.documents![0]!.embedding).toEqual([1, 0]);
  });
});

describe("FilterRetriever", () => {
  it("returns the run filters' documents, else the init filters', else all", async () => {
    const store = await storeWith(corpus());
    const retriever = new FilterRetriever({
      documentStore: store,
      filters: { field: "meta.lang", operator: "==", value: "de" },
    });
    expect((await retriever.run({})).documents!.map((d) => d.id)).toEqual(["de"]);
    const en = await retriever.run({ filters: { field: "meta.lang", operator: "==", value: "en" } });
    expect(en.documents!.map((d) => d.id)).toEqual(["py", "ts"]);
    expect((await new FilterRetriever({ documentStore: store }).run({})).documents!).toHaveLength(3);
    // FilterRetriever.run: filter_documents(filters=filters or self.filters), so {} means the init filters
    expect((await retriever.run({ filters: {} as Filter })).documents!.map((d) => d.id)).toEqual(["de"]);
    expect(
      (await new FilterRetriever({ documentStore: store, filters: {} as Filter }).run({})).documents!,
    ).toHaveLength(3);
  });
});

describe("DocumentWriter", () => {
  it("writes documents and reports how many, with the policy of the run or of the writer", async () => {
    const store = new InMemoryDocumentStore();
    const writer = new DocumentWriter({ documentStore: store });
    expect(await writer.run({ documents: corpus() })).toEqual({ documents_written: 3 });
    await expect(writer.run({ documents: corpus() })).rejects.toThrow(/py/);
    expect(await writer.run({ documents: corpus(), policy: "skip" })).toEqual({ documents_written: 0 });
    const overwriting = new DocumentWriter({ documentStore: store, policy: "overwrite" });
    expect(await overwriting.run({ documents: corpus().slice(0, 1) })).toEqual({ documents_written: 1 });
  });
});

describe("SentenceWindowRetriever", () => {
  const chunks = () => {
    // "Alpha beta. Gamma delta. Epsilon zeta. Eta theta." split with an overlap of 3 characters.
    const text = "Alpha beta. Gamma delta. Epsilon zeta. Eta theta.";
    const spans = [
      [0, 15],
      [12, 28],
      [25, 42],
      [39, 50],
    ];
    return spans.map(
      ([start, end], index) =>
        new Document({
          content: text.slice(start, end),
          meta: { source_id: "src", split_id: index, split_idx_start: start },
        }),
    );
  };

  it("merges the neighbours' text once per overlap and returns the window's chunks in order", async () => {
    const documents = chunks();
    const store = await storeWith([
      ...documents,
      new Document({ content: "other", meta: { source_id: "x", split_id: 1 } }),
    ]);
    const retriever = new SentenceWindowRetriever({ documentStore: store, windowSize: 1 });
    const result = await retriever.run({ retrieved_documents: [documents[1]!] });
    expect(result.context_windows).toEqual(["Alpha beta. Gamma delta. Epsilon zeta. Eta"]);
    expect(result.context_documents!.map((d) => d.meta.split_id)).toEqual([0, 1, 2]);
    const whole = await retriever.run({
      retrieved_documents: [documents[0]!, documents[3]!],
      window_size: 5,
    });
    expect(whole.context_windows).toEqual([
      "Alpha beta. Gamma delta. Epsilon zeta. Eta theta.",
      "Alpha beta. Gamma delta. Epsilon zeta. Eta theta.",
    ]);
    expect(whole.context_documents!).toHaveLength(8);
  });

  it("fails on a document without split meta, or returns it alone (with a warning) when told to", async () => {
    const store = await storeWith(chunks());
    const loose = new Document({ content: "loose" });
    await expect(
      new SentenceWindowRetriever({ documentStore: store }).run({ retrieved_documents: [loose] }),
    ).rejects.toThrowError(/has no "split_id" in its meta/);
    const logger = new MemoryLogger();
    setDefaultLogger(logger);
    const lenient = new SentenceWindowRetriever({ documentStore: store, raiseOnMissingMetaFields: false });
    const result = await lenient.run({ retrieved_documents: [loose] }, { logger } as never);
    expect(result).toEqual({ context_windows: ["loose"], context_documents: [loose] });
    expect(logger.records).toHaveLength(1);
  });
});

describe("serialization of the components through pipeline JSON and YAML", () => {
  it("round-trips every component, loading identical stores as one shared store", async () => {
    const path = join(await tempDir(), "kb.json");
    const store = new InMemoryDocumentStore({ path, bm25Algorithm: "BM25Okapi" });
    await store.writeDocuments(corpus());
    const pipeline = new Pipeline()
      .addComponent(
        "bm25",
        new InMemoryBM25Retriever({
          documentStore: store,
          topK: 2,
          filters: { field: "meta.lang", operator: "==", value: "en" },
        }),
      )
      .addComponent(
        "embedding",
        new InMemoryEmbeddingRetriever({
          documentStore: store,
          filterPolicy: "merge",
          returnEmbedding: true,
        }),
      )
      .addComponent("filter", new FilterRetriever({ documentStore: store }))
      .addComponent("window", new SentenceWindowRetriever({ documentStore: store, windowSize: 2 }))
      .addComponent("writer", new DocumentWriter({ documentStore: store, policy: "overwrite" }));
    const json = pipeline.toJSON();
    expect(json.components.bm25).toEqual({
      type: "junction.InMemoryBM25Retriever",
      init_parameters: {
        documentStore: store.toJSON(),
        filters: { field: "meta.lang", operator: "==", value: "en" },
        topK: 2,
        scaleScore: false,
        filterPolicy: "replace",
      },
    });
    const loaded = Pipeline.fromJSON(json);
    expect(loaded.toJSON()).toEqual(json);
    const fromYAML = Pipeline.fromYAML(pipeline.toYAML());
    expect(fromYAML.toJSON()).toEqual(json);
    // One store instance behind every component, holding the saved documents.
    const stores = ["bm25", "embedding", "filter", "window", "writer"].map(
      (name) => (loaded.getComponent(name).params as { documentStore: DocumentStore }).documentStore,
    );
    expect(new Set(stores).size).toBe(1);
    const bm25 = loaded.getComponent("bm25") as InMemoryBM25Retriever;
    expect((await bm25.run({ query: "python" })).documents!.map((d) => d.id)).toEqual(["py"]);
  });

  it("says how to fix a store that cannot be written, and an unknown store type", () => {
    const custom = { countDocuments() {}, filterDocuments() {}, writeDocuments() {}, deleteDocuments() {} };
    const pipeline = new Pipeline().addComponent(
      "writer",
      new DocumentWriter({ documentStore: custom as never }),
    );
    expect(() => pipeline.toJSON()).toThrowError(SerializationError);
    expect(() => pipeline.toJSON()).toThrowError(/has no toJSON\(\).*registerDocumentStoreType/s);
    const doc = {
      version: 1,
      components: {
        writer: {
          type: "junction.DocumentWriter",
          init_parameters: { documentStore: { type: "InMemoryDocumentStore", init_parameters: {} } },
        },
      },
      connections: [],
    };
    let error: unknown;
    try {
      Pipeline.fromJSON(doc);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(DeserializationError);
    expect((error as Error).message).toContain(
      'unknown document store type "InMemoryDocumentStore". Did you mean "junction.InMemoryDocumentStore"?',
    );
  });

  it("registers every component in the default registry", () => {
    for (const type of [
      "junction.InMemoryBM25Retriever",
      "junction.InMemoryEmbeddingRetriever",
      "junction.FilterRetriever",
      "junction.SentenceWindowRetriever",
      "junction.DocumentWriter",
    ]) {
      expect(defaultRegistry.getComponentClass(type), type).toBeDefined();
    }
  });
});

describe("retrievers in pipelines", () => {
  it("indexes through DocumentSplitter → DocumentWriter, then retrieves a chunk and its window", async () => {
    const store = new InMemoryDocumentStore();
    const indexing = new Pipeline()
      .addComponent("splitter", new DocumentSplitter({ splitBy: "word", splitLength: 4, splitOverlap: 1 }))
      .addComponent("writer", new DocumentWriter({ documentStore: store }))
      .connect("splitter.documents", "writer.documents");
    const text = "one two three four five six seven eight nine ten eleven twelve";
    const indexed = await indexing.run({ splitter: { documents: [new Document({ content: text })] } });
    expect(indexed).toEqual({ writer: { documents_written: 4 } });
    const query = new Pipeline()
      .addComponent("bm25", new InMemoryBM25Retriever({ documentStore: store, topK: 1 }))
      .addComponent("window", new SentenceWindowRetriever({ documentStore: store, windowSize: 1 }))
      .connect("bm25.documents", "window.retrieved_documents");
    const result = (await query.run({ bm25: { query: "six" } })) as {
      window: { context_windows: string[] };
    };
    expect(result.window.context_windows).toEqual(["one two three four five six seven eight nine ten "]);
  });

  it("joins BM25 and embedding retrieval with DocumentJoiner (hybrid retrieval)", async () => {
    const store = await storeWith(corpus());
    const hybrid = new Pipeline()
      .addComponent("bm25", new InMemoryBM25Retriever({ documentStore: store }))
      .addComponent("embedding", new InMemoryEmbeddingRetriever({ documentStore: store }))
      .addComponent("joiner", new DocumentJoiner({ joinMode: "reciprocal_rank_fusion", topK: 2 }))
      .connect("bm25.documents", "joiner.documents")
      .connect("embedding.documents", "joiner.documents");
    const result = (await hybrid.run({
      bm25: { query: "typescript types" },
      embedding: { query_embedding: [1, 0] },
    })) as { joiner: { documents: Document[] } };
    expect(result.joiner.documents.map((d) => d.id)).toEqual(["ts", "py"]);
  });
});
