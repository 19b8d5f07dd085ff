import { documentMatchesFilter, type Filter, FilterError } from "@junction/documents";
import { beforeAll, describe, expect, it } from "vitest";
import type { PgvectorDocumentStore } from "../src/index.js";
import { corpus, filters } from "./support/filter-cases.js";
import { makeStore } from "./support/shared-pglite.js";

let store: PgvectorDocumentStore;
beforeAll(async () => {
  store = await makeStore();
  await store.writeDocuments(corpus);
});

const expected = (filter: Filter) =>
  corpus
    .filter((document) => documentMatchesFilter(filter, document))
    .map((d) => d.id)
    .sort();

describe("filters compile to SQL with the in-memory semantics", () => {
  it.each(filters.map((filter) => [JSON.stringify(filter), filter] as const))("%s", async (_, filter) => {
    const found = (await store.filterDocuments(filter)).map((d) => d.id);
    expect(found).toEqual(expected(filter));
  });

  it("ordering a stored string that is not a date with a number is a FilterError, as in memory", async () => {
    const filter: Filter = { field: "meta.page", operator: ">", value: 5 };
    expect(() => corpus.map((d) => documentMatchesFilter(filter, d))).toThrow(FilterError);
    const error = await store.filterDocuments(filter).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FilterError);
    expect(String((error as Error).message)).toMatch(/meta\.page.*ISO/);
  });

  it("rejects malformed filters before running SQL", async () => {
    await expect(
      store.filterDocuments({ field: "meta.x", operator: "in", value: "a" } as Filter),
    ).rejects.toThrow(FilterError);
    await expect(
      store.filterDocuments({ field: "meta.x", operator: ">", value: "not a date" }),
    ).rejects.toThrow(FilterError);
    await expect(
      store.filterDocuments({ field: "meta.x", operator: "like", value: 1 } as unknown as Filter),
    ).rejects.toThrow(FilterError);
  });
});
