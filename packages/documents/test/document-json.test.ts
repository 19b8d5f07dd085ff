import { DeserializationError } from "@junction/core";
import { describe, expect, test } from "vitest";
import { ByteStream, Document, SparseEmbedding } from "../src/index.js";

describe("Document.toJSON (Haystack's to_dict(flatten=True))", () => {
  test("meta keys come first, then every field (null when unset)", () => {
    const doc = new Document({ id: "1", content: "hi", meta: { lang: "en", page: 2 } });
    const json = doc.toJSON();
    expect(Object.keys(json)).toEqual([
      "lang",
      "page",
      "id",
      "content",
      "blob",
      "score",
      "embedding",
      "sparse_embedding",
    ]);
    expect(json).toEqual({
      lang: "en",
      page: 2,
      id: "1",
      content: "hi",
      blob: null,
      score: null,
      embedding: null,
      sparse_embedding: null,
    });
  });

  test("meta keys named like a field stay nested under meta (legacy names too)", () => {
    const doc = new Document({ id: "1", meta: { id: "x", meta: { a: 1 }, content_type: "text", ok: true } });
    expect(doc.toJSON()).toEqual({
      ok: true,
      id: "1",
      content: null,
      blob: null,
      score: null,
      embedding: null,
      sparse_embedding: null,
      meta: { id: "x", meta: { a: 1 }, content_type: "text" },
    });
    expect(Document.fromJSON(doc.toJSON()).meta).toEqual(doc.meta);
  });

  test("blob and sparse embedding use their to_dict shapes", () => {
    const doc = new Document({
      content: "c",
      blob: new ByteStream(Uint8Array.of(0, 255), { mimeType: "image/png", meta: { file: "a.png" } }),
      score: 0.5,
      embedding: [0.1, 0.2],
      sparseEmbedding: new SparseEmbedding([1, 4], [0.5, 0.25]),
    });
    const json = doc.toJSON();
    expect(json.blob).toEqual({ data: [0, 255], meta: { file: "a.png" }, mime_type: "image/png" });
    expect(Object.keys(json.blob as object)).toEqual(["data", "meta", "mime_type"]);
    expect(json.sparse_embedding).toEqual({ indices: [1, 4], values: [0.5, 0.25] });
    const back = Document.fromJSON(JSON.parse(JSON.stringify(json)));
    expect(back).toEqual(doc);
    expect(back.id).toBe(doc.id);
  });
});

describe("Document.fromJSON (Haystack's from_dict)", () => {
  test("reads the nested shape; flattened keys win over nested ones", () => {
    const doc = Document.fromJSON({ content: "x", meta: { a: 1, b: 2 }, b: 3 });
    expect(doc.meta).toEqual({ a: 1, b: 3 });
    expect(doc.id).toBe(new Document({ content: "x", meta: { a: 1, b: 3 } }).id);
  });

  test("drops Haystack 1.x fields and computes a missing or empty id", () => {
    const doc = Document.fromJSON({
      id: "",
      content: "x",
      content_type: "text",
      id_hash_keys: ["content"],
      dataframe: null,
    });
    expect(doc.meta).toEqual({});
    expect(doc.id).toBe(new Document({ content: "x" }).id);
  });

  test("a __proto__ key is kept as metadata and never changes the prototype", () => {
    const doc = Document.fromJSON(JSON.parse('{"content":"x","__proto__":{"polluted":true}}'));
    expect(Object.getPrototypeOf(doc.meta)).toBe(Object.prototype);
    expect(Object.keys(doc.meta)).toEqual(["__proto__"]);
    expect((doc.meta as { polluted?: unknown }).polluted).toBeUndefined();
  });

  test("rejects wrong field types with a DeserializationError", () => {
    expect(() => Document.fromJSON({ content: 3 })).toThrow(DeserializationError);
    expect(() => Document.fromJSON({ embedding: "x" })).toThrow(/embedding must be a list of numbers/);
    expect(() => Document.fromJSON({ blob: { data: [256] } })).toThrow(/integers from 0 to 255/);
    expect(() => Document.fromJSON([])).toThrow(DeserializationError);
  });
});
