import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ComponentError, MemoryLogger } from "@junction/core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  Document,
  DocumentJoiner,
  DocumentSplitter,
  EmbeddingValueError,
  FilterError,
  InMemoryDocumentStore,
  maxFilterDepth,
  RecursiveDocumentSplitter,
  StoreFileError,
  validateFilter,
} from "../src/index.js";

function nestedFilter(levels: number): unknown {
  let filter: unknown = { field: "meta.a", operator: "==", value: 1 };
  for (let level = 0; level < levels; level++) filter = { operator: "AND", conditions: [filter] };
  return filter;
}

async function storeWith(...documents: Document[]): Promise<InMemoryDocumentStore> {
  const store = new InMemoryDocumentStore();
  await store.writeDocuments(documents);
  return store;
}

describe("hostile filters", () => {
  test("a filter nested thousands of levels deep is a FilterError naming the limit, not a stack overflow", async () => {
    const deep = nestedFilter(20_000);
    expect(() => validateFilter(deep)).toThrow(FilterError);
    expect(() => validateFilter(deep)).toThrow(`more than ${maxFilterDepth} levels deep`);
    const store = await storeWith(new Document({ content: "x", meta: { a: 1 } }));
    await expect(store.filterDocuments(deep as never)).rejects.toThrow(FilterError);
  });

  test("a filter at the depth limit still works", async () => {
    const store = await storeWith(new Document({ content: "x", meta: { a: 1 } }));
    expect(await store.filterDocuments(nestedFilter(maxFilterDepth) as never)).toHaveLength(1);
  });

  test("__proto__ and constructor in fields and filters neither crash nor pollute", async () => {
    const store = await storeWith(new Document({ content: "x", meta: { a: 1 } }));
    const filters = [
      JSON.parse('{"field":"meta.__proto__.polluted","operator":"==","value":1}'),
      { field: "meta.constructor.name", operator: "==", value: "Object" },
      { field: "meta.constructor", operator: "!=", value: null },
      JSON.parse('{"operator":"AND","conditions":[],"__proto__":{"field":"meta.a"}}'),
    ];
    for (const filter of filters) {
      // Inherited properties are not metadata: none of these match.
      const matched = await store.filterDocuments(filter);
      expect(filter.operator === "AND" ? matched.length : 0).toBe(filter.operator === "AND" ? 1 : 0);
      if (filter.operator !== "AND") expect(matched).toEqual([]);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test("a meta key named __proto__ stays data and round-trips", () => {
    const meta = JSON.parse('{"__proto__":{"polluted":1},"constructor":3}');
    const document = Document.fromJSON({ content: "x", meta });
    expect(Object.keys(document.meta)).toEqual(["__proto__", "constructor"]);
    expect(Document.fromJSON(JSON.parse(JSON.stringify(document.toJSON()))).id).toBe(document.id);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test("an `in` list of 100k ids over 20k documents is set lookups, not 2·10^9 comparisons", async () => {
    const documents = Array.from(
      { length: 20_000 },
      (_, index) => new Document({ content: `d${index}`, meta: { n: index } }),
    );
    const store = await storeWith(...documents);
    const ids = Array.from({ length: 100_000 }, (_, index) => `d${index * 2}`);
    const numbers = Array.from({ length: 100_000 }, (_, index) => index * 2);
    const started = performance.now();
    expect(await store.filterDocuments({ field: "content", operator: "in", value: ids })).toHaveLength(
      10_000,
    );
    expect(await store.filterDocuments({ field: "meta.n", operator: "not in", value: numbers })).toHaveLength(
      10_000,
    );
    expect(performance.now() - started).toBeLessThan(5_000);
    // Python's semantics survive the fast path: true == 1, 1 == 1.0, ISO dates by instant, lists deeply.
    const mixed = await storeWith(
      new Document({ content: "a", meta: { v: true } }),
      new Document({ content: "b", meta: { v: "2024-05-01T00:00:00Z" } }),
      new Document({ content: "c", meta: { v: [1, 2] } }),
      new Document({ content: "d", meta: { v: "1" } }),
    );
    const found = await mixed.filterDocuments({
      field: "meta.v",
      operator: "in",
      value: [1, "2024-05-01T02:00:00+02:00", [1, 2]],
    });
    expect(found.map((document) => document.content).sort()).toEqual(["a", "b", "c"]);
  }, 30_000);

  test("a huge `in` list and NaN / Infinity values are handled", async () => {
    const store = await storeWith(new Document({ content: "x", meta: { a: 999_995 } }));
    const values = Array.from({ length: 200_000 }, (_, index) => index * 5);
    expect(await store.filterDocuments({ field: "meta.a", operator: "in", value: values })).toHaveLength(1);
    expect(await store.filterDocuments({ field: "meta.a", operator: ">", value: Number.NaN })).toEqual([]);
    expect(
      await store.filterDocuments({ field: "meta.a", operator: "<", value: Number.POSITIVE_INFINITY }),
    ).toHaveLength(1);
  });
});

describe("hostile embeddings", () => {
  test.each([
    ["NaN", Number.NaN],
    ["Infinity", Number.POSITIVE_INFINITY],
    ["-Infinity", Number.NEGATIVE_INFINITY],
  ])("an embedding holding %s is refused and nothing is written", async (name, value) => {
    const store = await storeWith(new Document({ content: "kept", embedding: [1, 0, 0] }));
    const bad = new Document({ content: "bad", embedding: [0.1, value, 0.3] });
    const error = await store
      .writeDocuments([new Document({ content: "ok", embedding: [0, 1, 0] }), bad])
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(EmbeddingValueError);
    expect((error as EmbeddingValueError).message).toContain(`${name} at embedding[1]`);
    expect((error as EmbeddingValueError).message).toContain(bad.id);
    expect(await store.countDocuments()).toBe(1);
  });

  test("an empty embedding is refused", async () => {
    const store = new InMemoryDocumentStore();
    await expect(store.writeDocuments([new Document({ content: "a", embedding: [] })])).rejects.toThrow(
      "has an empty embedding",
    );
  });

  test("a NaN query embedding is a clear error", async () => {
    const store = await storeWith(new Document({ content: "a", embedding: [1, 0] }));
    await expect(store.embeddingRetrieval({ queryEmbedding: [Number.NaN, 1] })).rejects.toThrow(
      "finite numbers",
    );
  });
});

describe("a huge top_k", () => {
  test("returns every match, best first, for BM25 and embeddings (it once sized the result heap's arrays)", async () => {
    const store = await storeWith(
      new Document({ id: "a", content: "hello world", embedding: [1, 0] }),
      new Document({ id: "b", content: "hello hello there", embedding: [0.6, 0.8] }),
    );
    for (const topK of [2 ** 31, Number.MAX_SAFE_INTEGER]) {
      const byWords = await store.bm25Retrieval({ query: "hello", topK });
      expect(byWords.map((document) => document.id)).toEqual(["b", "a"]);
      const byEmbedding = await store.embeddingRetrieval({ queryEmbedding: [1, 0], topK });
      expect(byEmbedding.map((document) => document.id)).toEqual(["a", "b"]);
    }
  });
});

describe("hostile BM25 input", () => {
  test("a 1 MB query over a 1 MB document completes", async () => {
    const big = "lorem ipsum dolor sit amet ".repeat(40_000);
    const store = await storeWith(new Document({ content: big }), new Document({ content: "hello" }));
    const found = await store.bm25Retrieval({ query: big, topK: 5 });
    expect(found[0]?.content).toBe(big);
  });
});

describe("hostile store files", () => {
  let directory = "";
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), "junction-hostile-"));
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  const withDocuments = (documents: string) =>
    `{"version":1,"type":"junction.InMemoryDocumentStore","init_parameters":{},"documents":${documents}}`;
  const files: [string, string, string][] = [
    ["corrupt", "{not json", "is not a whole JSON file"],
    ["empty", "", "is not a whole JSON file"],
    ["truncated", withDocuments('[{"id":"a","cont'), "is not a whole JSON file"],
    [
      "of another version",
      '{"version":2,"type":"junction.InMemoryDocumentStore","init_parameters":{},"documents":[]}',
      "has version 2",
    ],
    ["of another kind", '{"documents":[]}', "is not an InMemoryDocumentStore file"],
    ["with a wrong content type", withDocuments('[{"content":5}]'), "documents[0] is not a document"],
    [
      "with a null in an embedding",
      withDocuments('[{"content":"a","embedding":[1,null]}]'),
      "documents[0] is not a document",
    ],
    [
      "with a bad sparse embedding",
      withDocuments('[{"content":"a","sparse_embedding":{"indices":[1],"values":[]}}]'),
      "documents[0] is not a document",
    ],
    [
      "with a __proto__ init parameter",
      '{"version":1,"type":"junction.InMemoryDocumentStore","init_parameters":{"__proto__":{"bm25Algorithm":"x"}},"documents":[]}',
      'unknown init parameter "__proto__"',
    ],
    ["with repeated ids", withDocuments('[{"id":"x","content":"a"},{"id":"x","content":"b"}]'), 'the id "x"'],
    [
      "with a 10k-dim embedding among 3-dim ones",
      JSON.stringify({
        version: 1,
        type: "junction.InMemoryDocumentStore",
        init_parameters: {},
        documents: [
          { content: "a", embedding: [1, 2, 3] },
          { content: "b", embedding: new Array(10_000).fill(0.1) },
          { content: "c", embedding: [3, 2, 1] },
        ],
      }),
      "10000 dimensions",
    ],
  ];

  test.each(files)(
    "a store file %s is a StoreFileError naming the path, never a half-loaded store",
    async (name, text, why) => {
      const path = join(directory, `${name.replaceAll(" ", "-")}.json`);
      await writeFile(path, text);
      const loaded = await InMemoryDocumentStore.load(path).catch((caught: unknown) => caught);
      expect(loaded).toBeInstanceOf(StoreFileError);
      expect((loaded as StoreFileError).path).toBe(path);
      expect((loaded as Error).message).toContain(path);
      expect((loaded as Error).message).toContain(why);
      // A store built with `path` takes its configuration from its options, not from the file.
      if (!name.includes("init parameter"))
        expect(() => new InMemoryDocumentStore({ path })).toThrow(StoreFileError);
      expect(({} as Record<string, unknown>).bm25Algorithm).toBeUndefined();
    },
  );

  test("meta keys named __proto__ in a store file stay data", async () => {
    const path = join(directory, "proto-meta.json");
    await writeFile(path, withDocuments('[{"content":"x","meta":{"__proto__":{"p":1}}}]'));
    const store = await InMemoryDocumentStore.load(path);
    const [document] = await store.filterDocuments();
    expect(Object.keys(document?.meta ?? {})).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).p).toBeUndefined();
  });
});

describe("hostile Document.fromJSON", () => {
  test.each([
    null,
    5,
    "text",
    [],
    { content: 5 },
    { id: 5 },
    { meta: [] },
    { blob: "x" },
    { blob: { data: "!!!" } },
    { embedding: {} },
    { embedding: [1, "2"] },
    { sparse_embedding: { indices: [1], values: [] } },
    { sparse_embedding: { indices: [0.5], values: [1] } },
    { score: "1" },
  ])("%j is a DeserializationError", (json) => {
    expect(() => Document.fromJSON(json)).toThrow(expect.objectContaining({ code: "DESERIALIZATION_ERROR" }));
  });
});

describe("hostile splitter and joiner input", () => {
  const words = Array.from({ length: 100_000 }, (_, index) => `w${index}`).join(" ");

  test("splitLength 1 over 100k words finishes with one split per word", async () => {
    const splitter = new DocumentSplitter({ splitBy: "word", splitLength: 1, splitOverlap: 0 });
    const { documents = [] } = await splitter.run({ documents: [new Document({ content: words })] });
    expect(documents).toHaveLength(100_000);
    expect(documents[99_999]?.content).toBe("w99999");
  }, 30_000);

  test("200k chunks from one document do not overflow the stack", async () => {
    const many = Array.from({ length: 200_000 }, (_, index) => `w${index}`).join(" ");
    const splitter = new DocumentSplitter({ splitBy: "word", splitLength: 1 });
    const { documents = [] } = await splitter.run({ documents: [new Document({ content: many })] });
    expect(documents).toHaveLength(200_000);
  }, 60_000);

  test("150k sentences split by sentence do not overflow the stack", async () => {
    const text = "Go. ".repeat(150_000);
    const splitter = new DocumentSplitter({ splitBy: "sentence", splitLength: 50_000 });
    const { documents = [] } = await splitter.run({ documents: [new Document({ content: text })] });
    expect(documents).toHaveLength(3);
    expect(documents.map((document) => document.content).join("")).toBe(text);
  }, 60_000);

  test("overlap = length - 1 finishes (one new word per split)", async () => {
    const splitter = new DocumentSplitter({ splitBy: "word", splitLength: 20, splitOverlap: 19 });
    const text = words.split(" ").slice(0, 5_000).join(" ");
    const { documents = [] } = await splitter.run({ documents: [new Document({ content: text })] });
    expect(documents).toHaveLength(5_000 - 19);
  }, 30_000);

  test("recursive splitter with overlap = length - 1 finishes", async () => {
    const splitter = new RecursiveDocumentSplitter({ splitLength: 10, splitOverlap: 9, splitUnit: "char" });
    const logger = new MemoryLogger();
    const { documents = [] } = await splitter.run(
      { documents: [new Document({ content: words.slice(0, 5_000) })] },
      { logger },
    );
    expect(documents.length).toBeGreaterThan(400);
  }, 30_000);

  test("empty content is skipped with a warning; content null is an error naming the document", async () => {
    const logger = new MemoryLogger();
    const splitter = new DocumentSplitter({ splitBy: "word", splitLength: 5 });
    const { documents = [] } = await splitter.run({ documents: [new Document({ content: "" })] }, { logger });
    expect(documents).toEqual([]);
    expect(logger.messages("warn")[0]).toContain("has empty content");
    const blank = new Document({});
    await expect(splitter.run({ documents: [blank] })).rejects.toThrow(ComponentError);
    await expect(splitter.run({ documents: [blank] })).rejects.toThrow(blank.id);
  });

  test("whitespace-only content gives whitespace splits, never a hang", async () => {
    const splitter = new DocumentSplitter({ splitBy: "word", splitLength: 5 });
    const { documents = [] } = await splitter.run({ documents: [new Document({ content: "   \n\t " })] });
    expect(documents.map((document) => document.content).join("")).toBe("   \n\t ");
  });

  test("DocumentJoiner with no lists, empty lists and documents without score", async () => {
    for (const joinMode of [
      "concatenate",
      "merge",
      "reciprocal_rank_fusion",
      "distribution_based_rank_fusion",
    ] as const) {
      const joiner = new DocumentJoiner({ joinMode });
      expect((await joiner.run({ documents: [] })).documents).toEqual([]);
      expect((await joiner.run({ documents: [[], []] })).documents).toEqual([]);
      const { documents = [] } = await joiner.run({
        documents: [[new Document({ content: "a" })], [new Document({ content: "b" })]],
      });
      expect(documents.map((document) => document.content).sort()).toEqual(["a", "b"]);
      for (const document of documents) expect(Number.isNaN(document.score)).toBe(false);
    }
  });
});

describe("hostile metadata", () => {
  test("a meta object that contains itself is a TypeError saying so, not a stack overflow", () => {
    const meta: Record<string, unknown> = { a: 1 };
    meta.self = meta;
    expect(() => new Document({ content: "x", meta })).toThrow("circular reference");
  });

  test("meta nested 100k levels deep is a TypeError naming the limit", () => {
    const json = `{"content":"x","meta":${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}}`;
    expect(() => Document.fromJSON(JSON.parse(json))).toThrow("nested more than 1000 levels deep");
  });

  test("the same object twice in meta (not a cycle) is fine", () => {
    const shared = { k: 1 };
    const document = new Document({ content: "x", meta: { a: shared, b: shared } });
    expect(document.id).toBe(new Document({ content: "x", meta: { a: { k: 1 }, b: { k: 1 } } }).id);
  });
});
