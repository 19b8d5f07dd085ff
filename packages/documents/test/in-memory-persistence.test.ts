import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useTempDirs } from "../../../test/support/temp-dirs.js";
import { Document, documentStoreFromJSON, InMemoryDocumentStore, StoreFileError } from "../src/index.js";

const tempDir = useTempDirs("in-memory-store");

const docs = () => [
  new Document({
    id: "a",
    content: "Paris is in France",
    meta: { lang: "en", nested: { k: [1, 2] } },
    embedding: [1, 0],
  }),
  new Document({ id: "b", content: "Berlin liegt in Deutschland", meta: { lang: "de" } }),
];

describe("InMemoryDocumentStore: save and load", () => {
  it("saves every document and the configuration, and load brings them back", async () => {
    const path = join(await tempDir(), "store.json");
    const store = new InMemoryDocumentStore({
      bm25Algorithm: "BM25Okapi",
      embeddingSimilarityFunction: "cosine",
    });
    await store.writeDocuments(docs());
    await store.save(path);
    const loaded = await InMemoryDocumentStore.load(path);
    expect(loaded.options.bm25Algorithm).toBe("BM25Okapi");
    expect(loaded.options.embeddingSimilarityFunction).toBe("cosine");
    expect(loaded.path).toBeUndefined();
    expect((await loaded.filterDocuments()).map((d) => d.toJSON())).toEqual(docs().map((d) => d.toJSON()));
    expect(await loaded.bm25Retrieval({ query: "paris" })).toEqual(
      await store.bm25Retrieval({ query: "paris" }),
    );
    const file = JSON.parse(await readFile(path, "utf8"));
    expect(file).toMatchObject({ version: 1, type: "junction.InMemoryDocumentStore" });
    expect(file.documents[0].meta).toEqual({ lang: "en", nested: { k: [1, 2] } });
  });

  it("writes atomically: no temporary file is left beside the store file", async () => {
    const dir = await tempDir();
    const store = new InMemoryDocumentStore();
    await store.writeDocuments(docs());
    await Promise.all([store.save(join(dir, "s.json")), store.save(join(dir, "s.json"))]);
    expect(await readdir(dir)).toEqual(["s.json"]);
  });

  it("names the file when it is missing, not JSON, or not a store file", async () => {
    const dir = await tempDir();
    await expect(InMemoryDocumentStore.load(join(dir, "missing.json"))).rejects.toThrowError(
      /missing\.json" does not exist/,
    );
    await writeFile(join(dir, "torn.json"), '{"version": 1, "type": "junction.InMe');
    const torn = await InMemoryDocumentStore.load(join(dir, "torn.json")).catch((e) => e);
    expect(torn).toBeInstanceOf(StoreFileError);
    expect(torn.path).toBe(join(dir, "torn.json"));
    expect(torn.message).toContain("is not a whole JSON file");
    await writeFile(join(dir, "other.json"), '{"name": "package"}');
    await expect(InMemoryDocumentStore.load(join(dir, "other.json"))).rejects.toThrowError(
      /other\.json" is not an InMemoryDocumentStore file/,
    );
    await writeFile(
      join(dir, "future.json"),
      '{"version": 2, "type": "junction.InMemoryDocumentStore", "documents": []}',
    );
    await expect(InMemoryDocumentStore.load(join(dir, "future.json"))).rejects.toThrowError(/has version 2/);
    expect(() => new InMemoryDocumentStore({ path: join(dir, "torn.json") })).toThrowError(StoreFileError);
  });

  it("save without a path says how to give one", async () => {
    await expect(new InMemoryDocumentStore().save()).rejects.toThrowError(/give a path/);
  });
});

describe("InMemoryDocumentStore with a path", () => {
  it("starts empty when the file does not exist and saves after every write and delete", async () => {
    const path = join(await tempDir(), "kb.json");
    const store = new InMemoryDocumentStore({ path });
    expect(await store.countDocuments()).toBe(0);
    await store.writeDocuments(docs());
    expect(await (await InMemoryDocumentStore.load(path)).countDocuments()).toBe(2);
    await store.deleteDocuments(["a"]);
    expect(await (await InMemoryDocumentStore.load(path)).countDocuments()).toBe(1);
    await store.deleteAllDocuments();
    expect(await (await InMemoryDocumentStore.load(path)).countDocuments()).toBe(0);
  });

  it("loads the file when created, so a store rebuilt from its JSON (a reloaded pipeline) has the documents", async () => {
    const path = join(await tempDir(), "kb.json");
    const store = new InMemoryDocumentStore({ path, bm25Algorithm: "BM25Plus" });
    await store.writeDocuments(docs());
    const json = store.toJSON();
    expect(json.init_parameters.path).toBe(path);
    const reloaded = documentStoreFromJSON(json) as InMemoryDocumentStore;
    expect(await reloaded.countDocuments()).toBe(2);
    expect((await reloaded.bm25Retrieval({ query: "berlin" })).map((d) => d.id)).toEqual(["b"]);
  });

  it("concurrent writes: every write is on disk when it resolves", async () => {
    const path = join(await tempDir(), "kb.json");
    const store = new InMemoryDocumentStore({ path });
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        store.writeDocuments([new Document({ id: `d${i}`, content: `text ${i}` })]),
      ),
    );
    expect(await (await InMemoryDocumentStore.load(path)).countDocuments()).toBe(20);
  });

  it("with autoSave false, writes stay in memory until save()", async () => {
    const path = join(await tempDir(), "kb.json");
    const store = new InMemoryDocumentStore({ path, autoSave: false });
    await store.writeDocuments(docs());
    await expect(InMemoryDocumentStore.load(path)).rejects.toThrowError(/does not exist/);
    await store.save();
    expect(await (await InMemoryDocumentStore.load(path)).countDocuments()).toBe(2);
    expect(store.toJSON().init_parameters.autoSave).toBe(false);
  });
});
