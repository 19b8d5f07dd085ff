/**
 * The operators Haystack's pgvector store adds to the filter language (`like`, `not like`,
 * `array_contains`, `array_overlaps`). Expectations from haystack-core-integrations'
 * `integrations/pgvector/tests/test_filters.py`; each test names the Haystack test.
 */
import { defineComponent, Pipeline } from "@junction/core";
import { Document, type Filter, FilterError, filterSchema } from "@junction/documents";
import {
  type PgvectorDocumentStore,
  type PgvectorFilter,
  PgvectorKeywordRetriever,
} from "@junction/pgvector";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { makeStore } from "./support/shared-pglite.js";

const contents = [
  "A Foo Document 1",
  "A Foo Document 2",
  "A Bar Document 1",
  "A Foobar Document 10",
  "A Foobar Document 1",
  "Foo first",
  "Document without foo",
];

let texts: PgvectorDocumentStore;
let tagged: PgvectorDocumentStore;
beforeAll(async () => {
  texts = await makeStore();
  await texts.writeDocuments(
    contents.map(
      (content, index) => new Document({ content, meta: { n: index, kind: index % 2 ? "odd" : "even" } }),
    ),
  );
  tagged = await makeStore();
  await tagged.writeDocuments([
    new Document({ content: "doc with tag1 and tag2", meta: { tags: ["tag1", "tag2"] } }),
    new Document({ content: "doc with tag1 and tag3", meta: { tags: ["tag1", "tag3"] } }),
    new Document({ content: "doc with tag4", meta: { tags: ["tag4"] } }),
    new Document({ content: "string meta", meta: { tags: "tag1" } }),
    new Document({ content: "object meta", meta: { tags: { tag1: "value" } } }),
    new Document({ content: "missing key", meta: { other: "tag1" } }),
  ]);
});

const found = async (store: PgvectorDocumentStore, filter: PgvectorFilter) =>
  (await store.filterDocuments(filter)).map((document) => document.content).sort();
const where = (keep: (content: string) => boolean) => contents.filter(keep).sort();

describe("like / not like (test_like_operator*, test_not_like_operator*)", () => {
  it("'%Foo%', 'Foo%' and '_' patterns, and their negation", async () => {
    expect(await found(texts, { field: "content", operator: "like", value: "%Foo%" })).toEqual(
      where((c) => c.includes("Foo")),
    );
    expect(await found(texts, { field: "content", operator: "like", value: "Foo%" })).toEqual(
      where((c) => c.startsWith("Foo")),
    );
    expect(await found(texts, { field: "content", operator: "like", value: "A Foobar Document__" })).toEqual(
      where((c) => c.startsWith("A Foobar Document") && c.length === "A Foobar Document".length + 2),
    );
    expect(await found(texts, { field: "content", operator: "not like", value: "%Foo%" })).toEqual(
      where((c) => !c.includes("Foo")),
    );
    expect(await found(texts, { field: "content", operator: "not like", value: "Foo%" })).toEqual(
      where((c) => !c.startsWith("Foo")),
    );
  });

  it("on meta: the stored value's text; a missing key matches neither like nor not like (SQL NULL)", async () => {
    expect(await found(texts, { field: "meta.kind", operator: "like", value: "od%" })).toEqual(
      where((c) => contents.indexOf(c) % 2 === 1),
    );
    expect(await found(texts, { field: "meta.n", operator: "like", value: "1_" })).toEqual([]);
    expect(await found(texts, { field: "meta.n", operator: "like", value: "6" })).toEqual([
      "Document without foo",
    ]);
    expect(await found(texts, { field: "meta.missing", operator: "not like", value: "x%" })).toEqual([]);
  });

  it("composes with NOT and OR (every leaf is true or false)", async () => {
    const filter: PgvectorFilter = {
      operator: "NOT",
      conditions: [
        {
          operator: "OR",
          conditions: [
            { field: "content", operator: "like", value: "A Foo%" },
            { field: "meta.kind", operator: "==", value: "odd" },
          ],
        },
      ],
    };
    expect(await found(texts, filter)).toEqual(
      where((c) => !c.startsWith("A Foo") && contents.indexOf(c) % 2 === 0),
    );
  });
});

describe("array_contains / array_overlaps (test_array_*)", () => {
  it("array_contains needs every listed value; array_overlaps at least one", async () => {
    expect(
      await found(tagged, { field: "meta.tags", operator: "array_contains", value: ["tag1", "tag2"] }),
    ).toEqual(["doc with tag1 and tag2"]);
    expect(await found(tagged, { field: "meta.tags", operator: "array_contains", value: ["tag1"] })).toEqual([
      "doc with tag1 and tag2",
      "doc with tag1 and tag3",
    ]);
    expect(
      await found(tagged, { field: "meta.tags", operator: "array_overlaps", value: ["tag1", "tag3"] }),
    ).toEqual(["doc with tag1 and tag2", "doc with tag1 and tag3"]);
    expect(
      await found(tagged, { field: "meta.tags", operator: "array_overlaps", value: ["nonexistent"] }),
    ).toEqual([]);
    expect(
      await found(tagged, {
        operator: "AND",
        conditions: [
          { field: "meta.tags", operator: "array_contains", value: ["tag1"] },
          { field: "meta.tags", operator: "array_overlaps", value: ["tag3"] },
        ],
      }),
    ).toEqual(["doc with tag1 and tag3"]);
  });

  it.each(["array_contains", "array_overlaps"] as const)(
    "%s ignores a string, an object or a missing key (test_array_operators_ignore_non_array_meta)",
    async (operator) => {
      expect(await found(tagged, { field: "meta.tags", operator, value: ["tag1"] })).toEqual([
        "doc with tag1 and tag2",
        "doc with tag1 and tag3",
      ]);
    },
  );
});

describe("checks, as Haystack's store makes them", () => {
  const refused: [string, unknown][] = [
    [
      "like needs a string (test_comparison_condition_like_operator_requires_str_value)",
      { field: "content", operator: "like", value: 5 },
    ],
    [
      "array_contains needs a list (test_array_contains_non_list_value_raises)",
      { field: "meta.tags", operator: "array_contains", value: "tag1" },
    ],
    [
      "array operators need a non-empty list (test_array_operators_empty_list_raises)",
      { field: "meta.tags", operator: "array_overlaps", value: [] },
    ],
    [
      "array_overlaps needs strings (test_array_overlaps_non_string_elements_raises)",
      { field: "meta.tags", operator: "array_overlaps", value: [1] },
    ],
    [
      "array operators work on meta fields only (test_array_operators_on_non_meta_field_raises)",
      { field: "content", operator: "array_contains", value: ["a"] },
    ],
    ["an unknown operator is still refused", { field: "meta.x", operator: "regex", value: "a" }],
  ];

  it.each(refused)("%s", async (_, filter) => {
    const error = await tagged.filterDocuments(filter as PgvectorFilter).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FilterError);
  });

  it("names the path of a bad condition nested with core ones", async () => {
    const error = await tagged
      .filterDocuments({
        operator: "AND",
        conditions: [
          { field: "meta.x", operator: "in", value: "not a list" } as unknown as Filter,
          { field: "meta.tags", operator: "array_contains", value: [] },
        ],
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FilterError);
    expect((error as Error).message).toMatch(/2 problems/);
    expect((error as Error).message).toMatch(/conditions\[1\]\.value/);
  });

  it("a retriever takes them in its filters socket and init filters", async () => {
    const retriever = new PgvectorKeywordRetriever({
      documentStore: texts,
      filters: { field: "content", operator: "like", value: "A %" },
    });
    const pipeline = new Pipeline().addComponent("retriever", retriever);
    const result = await pipeline.run({
      retriever: { query: "document", filters: { field: "content", operator: "not like", value: "%Foo%" } },
    });
    const documents = (result.retriever as { documents: Document[] }).documents;
    expect(documents.map((document) => document.content).sort()).toEqual([
      "A Bar Document 1",
      "Document without foo",
    ]);
    const merged = new PgvectorKeywordRetriever({
      documentStore: texts,
      filters: { field: "content", operator: "like", value: "A %" },
      filterPolicy: "merge",
    });
    const both = await merged.run({
      query: "document",
      filters: { field: "meta.kind", operator: "==", value: "even" },
    });
    expect((both.documents ?? []).map((document) => document.content).sort()).toEqual(
      ["A Bar Document 1", "A Foobar Document 1", "A Foo Document 1"].sort(),
    );
  });

  it("a component whose output is a core filter connects to a retriever's filters socket", async () => {
    const FilterSource = defineComponent({
      type: "test.FilterSource",
      inputs: { kind: z.string() },
      outputs: { filters: filterSchema },
      run: ({ kind }) => ({ filters: { field: "meta.kind", operator: "==", value: kind } as Filter }),
    });
    const pipeline = new Pipeline()
      .addComponent("source", new FilterSource())
      .addComponent("retriever", new PgvectorKeywordRetriever({ documentStore: texts }))
      .connect("source.filters", "retriever.filters");
    const result = await pipeline.run({ source: { kind: "odd" }, retriever: { query: "document" } });
    const documents = (result.retriever as { documents: Document[] }).documents;
    expect(documents.map((document) => document.content).sort()).toEqual([
      "A Foo Document 2",
      "A Foobar Document 10",
    ]);
  });
});
