import { describe, expect, test } from "vitest";
import {
  Document,
  DocumentSplitter,
  DocumentStoreConfigError,
  FilterError,
  InMemoryBM25Retriever,
  InMemoryDocumentStore,
} from "../src/index.js";

// Mistakes a newcomer (often from Haystack) makes in the first hour: each must fail loudly, saying
// what to write instead, rather than silently produce an empty document or a default store.
describe("a newcomer's first hour", () => {
  test("a Document made from a string, or with a misspelt field, is refused with the right spelling", () => {
    expect(() => new Document("Paris is in France." as never)).toThrow(
      'takes an object such as { content: "…", meta: { … } }; got a string',
    );
    expect(() => new Document({ text: "Paris" } as never)).toThrow('unknown field "text"');
    expect(() => new Document({ text: "Paris" } as never)).toThrow("Write content instead.");
    expect(() => new Document({ content: "x", sparse_embedding: {} } as never)).toThrow(
      "Write sparseEmbedding instead.",
    );
    expect(() => new Document({ content: "x", lang: "en" } as never)).toThrow("put anything else in meta");
  });

  test("a store option in snake_case is refused with its camelCase name", () => {
    const make = () => new InMemoryDocumentStore({ bm25_algorithm: "BM25Okapi" } as never);
    expect(make).toThrow(DocumentStoreConfigError);
    expect(make).toThrow('unknown option "bm25_algorithm"');
    expect(make).toThrow("write bm25Algorithm");
  });

  test("a Haystack 1.x filter says how to write it now", async () => {
    const store = new InMemoryDocumentStore();
    await store.writeDocuments([new Document({ content: "Paris", meta: { lang: "en" } })]);
    const error = await store.filterDocuments({ lang: "en" } as never).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FilterError);
    expect((error as FilterError).message).toContain(
      'Write { field: "meta.lang", operator: "==", value: … }',
    );
  });

  test("the Haystack names work: run inputs are snake_case, DocumentSplitter defaults match", async () => {
    const store = new InMemoryDocumentStore();
    await store.writeDocuments([
      new Document({ content: "Paris is the capital of France", meta: { lang: "en" } }),
      new Document({ content: "Berlin is the capital of Germany", meta: { lang: "de" } }),
    ]);
    const retriever = new InMemoryBM25Retriever({ documentStore: store });
    const { documents = [] } = await retriever.run({
      query: "capital",
      top_k: 1,
      filters: { field: "meta.lang", operator: "==", value: "de" },
    });
    expect(documents.map((document) => document.content)).toEqual(["Berlin is the capital of Germany"]);
    const splitter = new DocumentSplitter();
    expect(splitter.params).toMatchObject({
      splitBy: "word",
      splitLength: 200,
      splitOverlap: 0,
      splitThreshold: 0,
    });
  });
});
