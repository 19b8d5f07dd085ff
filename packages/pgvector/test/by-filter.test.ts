/**
 * `countDocumentsByFilter`, `deleteByFilter` and `updateByFilter`, with the expectations of Haystack's
 * `CountDocumentsByFilterTest`, `DeleteByFilterTest` and `UpdateByFilterTest`
 * (haystack/testing/document_store.py), which haystack-core-integrations' pgvector store runs.
 */
import { Document, FilterError } from "@junction/documents";
import { PgvectorStoreError } from "@junction/pgvector";
import { describe, expect, it } from "vitest";
import { makeStore } from "./support/shared-pglite.js";

const three = () => [
  new Document({ content: "Doc 1", meta: { category: "Alpha", year: 2023, status: "draft" } }),
  new Document({ content: "Doc 2", meta: { category: "Alpha", year: 2024, status: "published" } }),
  new Document({ content: "Doc 3", meta: { category: "Beta", year: 2023, status: "draft" } }),
];

describe("countDocumentsByFilter (CountDocumentsByFilterTest)", () => {
  it("counts simple and compound matches, none, and on an empty table", async () => {
    const store = await makeStore();
    expect(await store.countDocumentsByFilter({ field: "meta.category", operator: "==", value: "A" })).toBe(
      0,
    );
    await store.writeDocuments([
      new Document({ content: "Doc 1", meta: { category: "A", status: "active" } }),
      new Document({ content: "Doc 2", meta: { category: "B", status: "active" } }),
      new Document({ content: "Doc 3", meta: { category: "A", status: "inactive" } }),
      new Document({ content: "Doc 4", meta: { category: "A", status: "active" } }),
    ]);
    expect(await store.countDocumentsByFilter({ field: "meta.category", operator: "==", value: "A" })).toBe(
      3,
    );
    expect(await store.countDocumentsByFilter({ field: "meta.category", operator: "==", value: "B" })).toBe(
      1,
    );
    expect(await store.countDocumentsByFilter({ field: "meta.category", operator: "==", value: "Z" })).toBe(
      0,
    );
    expect(
      await store.countDocumentsByFilter({
        operator: "AND",
        conditions: [
          { field: "meta.category", operator: "==", value: "A" },
          { field: "meta.status", operator: "==", value: "active" },
        ],
      }),
    ).toBe(2);
  });
});

describe("deleteByFilter (DeleteByFilterTest)", () => {
  it("deletes what matches and returns how many, with AND and OR filters", async () => {
    const store = await makeStore();
    await store.writeDocuments(three());
    expect(await store.deleteByFilter({ field: "meta.category", operator: "==", value: "Gamma" })).toBe(0);
    expect(
      await store.deleteByFilter({
        operator: "AND",
        conditions: [
          { field: "meta.category", operator: "==", value: "Alpha" },
          { field: "meta.year", operator: "==", value: 2023 },
        ],
      }),
    ).toBe(1);
    expect(await store.countDocuments()).toBe(2);
    expect(
      await store.deleteByFilter({
        operator: "OR",
        conditions: [
          { field: "meta.category", operator: "==", value: "Beta" },
          { field: "meta.status", operator: "==", value: "published" },
        ],
      }),
    ).toBe(2);
    expect(await store.countDocuments()).toBe(0);
  });

  it("an empty filter deletes every document, as Haystack's `if filters:` does; a bad one deletes nothing", async () => {
    const store = await makeStore();
    await store.writeDocuments(three());
    await expect(store.deleteByFilter({ field: "meta.year", operator: ">", value: "soon" })).rejects.toThrow(
      FilterError,
    );
    expect(await store.countDocuments()).toBe(3);
    expect(await store.deleteByFilter({} as never)).toBe(3);
    expect(await store.countDocuments()).toBe(0);
  });
});

describe("updateByFilter (UpdateByFilterTest)", () => {
  it("merges the keys into the matching documents' meta, keeps the other keys and the ids", async () => {
    const store = await makeStore();
    const written = three();
    await store.writeDocuments(written);
    expect(
      await store.updateByFilter(
        {
          operator: "AND",
          conditions: [
            { field: "meta.category", operator: "==", value: "Alpha" },
            { field: "meta.year", operator: "==", value: 2023 },
          ],
        },
        { status: "published" },
      ),
    ).toBe(1);
    const published = await store.filterDocuments({
      field: "meta.status",
      operator: "==",
      value: "published",
    });
    expect(published.map((d) => d.content).sort()).toEqual(["Doc 1", "Doc 2"]);
    expect(published.find((d) => d.content === "Doc 1")?.meta).toEqual({
      category: "Alpha",
      year: 2023,
      status: "published",
    });
    // Ids are not recomputed from the new meta (Haystack's UPDATE touches meta only).
    expect(published.find((d) => d.content === "Doc 1")?.id).toBe(written[0]?.id);
    expect(
      await store.updateByFilter(
        {
          operator: "OR",
          conditions: [
            { field: "meta.category", operator: "==", value: "Beta" },
            { field: "meta.year", operator: "==", value: 2024 },
          ],
        },
        { featured: true, extra_field: "set" },
      ),
    ).toBe(2);
    expect(await store.countDocumentsByFilter({ field: "meta.featured", operator: "==", value: true })).toBe(
      2,
    );
    expect(
      await store.updateByFilter({ field: "meta.category", operator: "==", value: "none" }, { x: 1 }),
    ).toBe(0);
  });

  it("refuses an empty meta (test_update_by_filter_empty_meta_raises_error) or one Postgres cannot store", async () => {
    const store = await makeStore();
    const filter = { field: "meta.category", operator: "==", value: "Alpha" } as const;
    await expect(store.updateByFilter(filter, {})).rejects.toThrow(PgvectorStoreError);
    await expect(store.updateByFilter(filter, { bad: Number.NaN })).rejects.toThrow(/meta\.bad is NaN/);
  });
});
