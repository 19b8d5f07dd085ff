import { Document, documentMatchesFilter, FilterError } from "@junction/documents";
import { beforeAll, describe, expect, it } from "vitest";
import type { PgvectorDocumentStore } from "../../src/index.js";
import { corpus, filters } from "./filter-cases.js";

/** What a target supports. */
export interface TargetFeatures {
  /** The server has pgvector (PGlite has; the harness's Postgres 18 binaries do not). */
  readonly vectors: boolean;
}

/**
 * The behaviours every target must show through the same SQL: writes and policies, whole-batch
 * rollback, concurrent writers, filters with the in-memory semantics, keyword search in both modes,
 * and (with pgvector) embedding and hybrid search.
 *
 * @param target - named in the test titles (`"PGlite over the wire"`)
 * @param makeStore - a store on a fresh table of the target
 */
export function describeServerBehaviour(
  target: string,
  makeStore: (options?: { embeddingDimension?: number }) => Promise<PgvectorDocumentStore>,
  features: TargetFeatures,
): void {
  describe(`PgvectorDocumentStore on ${target}`, () => {
    let filtered: PgvectorDocumentStore;
    beforeAll(async () => {
      filtered = await makeStore();
      await filtered.writeDocuments(corpus);
    });

    it("filters with the in-memory semantics (every case)", async () => {
      for (const filter of filters) {
        const expected = corpus
          .filter((d) => documentMatchesFilter(filter, d))
          .map((d) => d.id)
          .sort();
        const found = (await filtered.filterDocuments(filter)).map((d) => d.id);
        expect({ filter, found }).toEqual({ filter, found: expected });
      }
      await expect(
        filtered.filterDocuments({ field: "meta.page", operator: ">", value: 5 }),
      ).rejects.toBeInstanceOf(FilterError);
    });

    it("writes, skips, overwrites and fails on duplicates, counting what it wrote", async () => {
      const store = await makeStore();
      const a = new Document({ id: "a", content: "first", meta: { v: 1 } });
      expect(await store.writeDocuments([a, new Document({ id: "b", content: "second" })])).toBe(2);
      expect(
        await store.writeDocuments([new Document({ id: "a", content: "again" })], { policy: "skip" }),
      ).toBe(0);
      expect(
        await store.writeDocuments([new Document({ id: "a", content: "replaced" })], { policy: "overwrite" }),
      ).toBe(1);
      await expect(store.writeDocuments([new Document({ id: "b" })])).rejects.toMatchObject({
        name: "DuplicateDocumentError",
      });
      expect((await store.filterDocuments()).map((d) => d.content)).toEqual(["replaced", "second"]);
      await store.deleteDocuments(["a"]);
      expect(await store.countDocuments()).toBe(1);
    });

    it("rolls a failed batch back as a whole and loses nothing under concurrent writers", async () => {
      const store = await makeStore();
      const huge = new Document({
        content: Array.from({ length: 130_000 }, (_, i) => `w${i.toString(36)}x${i}`).join(" "),
      });
      const good = Array.from({ length: 700 }, (_, i) => new Document({ content: `good ${i}` }));
      await expect(store.writeDocuments([...good, huge])).rejects.toMatchObject({
        code: "PGVECTOR_QUERY_FAILED",
      });
      expect(await store.countDocuments()).toBe(0);
      const writers = Array.from({ length: 6 }, (_, w) =>
        store.writeDocuments(Array.from({ length: 40 }, (_, i) => new Document({ content: `w${w} d${i}` }))),
      );
      expect(await Promise.all(writers)).toEqual(Array(6).fill(40));
      expect(await store.countDocuments()).toBe(240);
    });

    it("finds natural questions with keyword match any, and only full matches with all", async () => {
      const store = await makeStore();
      await store.writeDocuments([
        new Document({ content: "Paris is the capital of France." }),
        new Document({ content: "Berlin is the capital of Germany." }),
      ]);
      const any = await store.keywordRetrieval({ query: "What's the capital city of France?" });
      expect(any.map((d) => d.content)).toEqual([
        "Paris is the capital of France.",
        "Berlin is the capital of Germany.",
      ]);
      expect(
        await store.keywordRetrieval({ query: "What's the capital city of France?", keywordMatch: "all" }),
      ).toEqual([]);
    });

    it.skipIf(!features.vectors)("searches by embedding and hybrid (needs pgvector)", async () => {
      const store = await makeStore();
      await store.writeDocuments([
        new Document({ content: "Paris is the capital of France.", embedding: [0, 1, 0] }),
        new Document({ content: "Lyon is a city in France.", embedding: [1, 0, 0] }),
      ]);
      const nearest = await store.embeddingRetrieval({ queryEmbedding: [1, 0.1, 0], topK: 1 });
      expect(nearest.map((d) => d.content)).toEqual(["Lyon is a city in France."]);
      const hybrid = await store.hybridRetrieval({
        query: "capital of France",
        queryEmbedding: [0, 1, 0],
        topK: 2,
      });
      expect(hybrid[0]?.content).toBe("Paris is the capital of France.");
      expect(hybrid[0]?.score).toBeCloseTo(1, 10);
    });
  });
}
