import { Document, type Filter } from "@junction/documents";
import { beforeAll, describe, expect, it } from "vitest";
import { PgvectorDocumentStore } from "../src/index.js";
import { makeStore, sharedPGlite } from "./support/shared-pglite.js";

const injection = `x'); DROP TABLE canary; --`;

async function databaseSnapshot() {
  const db = await sharedPGlite();
  const relations = await db.query<{ name: string }>(
    "SELECT relname AS name FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relname NOT LIKE 'hostile%' ORDER BY relname",
  );
  const canary = await db.query("SELECT * FROM canary ORDER BY x");
  return { relations: relations.rows.map((r) => r.name), canary: canary.rows };
}

describe("a hostile corpus is refused or stored safely, and nothing else in the database changes", () => {
  let before: Awaited<ReturnType<typeof databaseSnapshot>>;
  let store: PgvectorDocumentStore;
  beforeAll(async () => {
    const db = await sharedPGlite();
    await db.exec(
      "CREATE TABLE canary (x int, note text); INSERT INTO canary VALUES (1, 'alive'), (2, 'well')",
    );
    store = await makeStore({
      tableName: "hostile",
      keywordIndexName: "hostile_kw",
      hnswIndexName: "hostile_hnsw",
    });
    await store.warmUp();
    before = await databaseSnapshot();
  });

  it("treats SQL in filter values and meta keys as data", async () => {
    const documents = [
      new Document({
        content: injection,
        meta: { [injection]: injection, nested: { 'a"b': { "c'd": 1 } } },
      }),
      new Document({ content: "plain", meta: { name: "Robert'); DROP TABLE canary;--" } }),
    ];
    expect(await store.writeDocuments(documents)).toBe(2);
    const filters: Filter[] = [
      { field: "meta.name", operator: "==", value: "Robert'); DROP TABLE canary;--" },
      { field: `meta.${injection}`, operator: "==", value: injection },
      { field: "meta.nested.a\"b.c'd", operator: ">=", value: 1 },
      { field: "content", operator: "in", value: [injection, "'; SELECT pg_sleep(10); --"] },
      { field: injection, operator: "!=", value: null },
    ];
    const hits = await Promise.all(
      filters.map(async (filter) => (await store.filterDocuments(filter)).length),
    );
    expect(hits).toEqual([1, 1, 1, 1, 1]);
    expect(await store.keywordRetrieval({ query: injection })).toHaveLength(1);
    expect(await store.keywordRetrieval({ query: "') | !!( ' :* & <-> ", keywordMatch: "all" })).toEqual([]);
  });

  it("refuses table, schema, index and language names that are not plain identifiers", () => {
    for (const options of [
      { tableName: "canary; DROP TABLE canary" },
      { tableName: 'x"y' },
      { schemaName: "public.canary" },
      { hnswIndexName: "i; --" },
      { language: "english'::regconfig, content); DROP TABLE canary; --" },
      { tableName: "a".repeat(64) },
    ]) {
      expect(() => new PgvectorDocumentStore(options)).toThrow(
        expect.objectContaining({ code: "PGVECTOR_INVALID_OPTIONS" }),
      );
    }
  });

  it("refuses NaN, infinite and wrong-dimension embeddings, non-JSON meta and over-long ids, writing nothing", async () => {
    const ok = new Document({ content: "fine" });
    const bad = [
      new Document({ content: "nan", embedding: [Number.NaN, 0, 0] }),
      new Document({ content: "inf", embedding: [Number.POSITIVE_INFINITY, 0, 0] }),
      new Document({ content: "dim", embedding: [1, 2, 3, 4] }),
      new Document({ content: "meta nan", meta: { x: Number.NaN } }),
      new Document({ content: "meta nul", meta: { "k\u0000": 1 } }),
      new Document({ content: "long id", id: "i".repeat(129) }),
    ];
    const count = await store.countDocuments();
    for (const document of bad) {
      const error = await store.writeDocuments([ok, document]).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: "PGVECTOR_INVALID_DOCUMENT" });
      expect(String((error as Error).message)).toContain(document.id.slice(0, 20));
    }
    expect(await store.countDocuments()).toBe(count);
  });

  it("stores huge documents and NUL characters in content (removed, as Haystack does)", async () => {
    const huge = new Document({ content: "lorem ipsum dolor sit amet ".repeat(200_000) });
    const nul = new Document({ content: "before\u0000after" });
    expect(await store.writeDocuments([huge, nul])).toBe(2);
    const [readHuge] = await store.filterDocuments({ field: "id", operator: "==", value: huge.id });
    expect(readHuge?.content?.length).toBe(huge.content?.length);
    const [readNul] = await store.filterDocuments({ field: "id", operator: "==", value: nul.id });
    expect(readNul?.content).toBe("beforeafter");
  });

  it("left every other table as it was", async () => {
    expect(await databaseSnapshot()).toEqual(before);
    expect(before.canary).toEqual([
      { x: 1, note: "alive" },
      { x: 2, note: "well" },
    ]);
  });
});
