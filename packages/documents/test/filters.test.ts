import { socketSchemaToJSON } from "@junction/core";
import { describe, expect, test } from "vitest";
import {
  ByteStream,
  compileFilter,
  Document,
  documentMatchesFilter,
  type Filter,
  FilterError,
  filterSchema,
  validateFilter,
} from "../src/index.js";

const doc = new Document({
  content: "Paris is the capital of France.",
  meta: {
    lang: "en",
    year: 2021,
    rating: 0.1,
    published: true,
    tags: ["geo", "europe"],
    author: { name: "Ada", address: { city: "Paris" } },
    date: "2021-06-01T12:00:00+02:00",
    naive_date: "2021-06-01T10:00:00",
    nothing: null,
  },
  score: 0.5,
});

const matches = (filter: unknown, target: Document | ByteStream = doc) =>
  documentMatchesFilter(filter as Filter, target);

function filterError(run: () => unknown): FilterError {
  try {
    run();
  } catch (error) {
    if (error instanceof FilterError) return error;
    throw error;
  }
  throw new Error("expected a FilterError");
}

describe("validateFilter", () => {
  test("returns a valid filter unchanged", () => {
    const filter = {
      operator: "AND",
      conditions: [{ field: "meta.lang", operator: "==", value: "en" }],
    };
    expect(validateFilter(filter)).toBe(filter);
  });

  test.each([
    [null, "", "must be an object"],
    [[], "", "must be an object"],
    ["meta.lang == en", "", "must be an object"],
    [{ field: "meta.lang", value: "en" }, "", "'operator' key missing"],
    [{ field: "meta.lang", operator: "==" }, "", "'value' key missing"],
    [
      { field: "meta.lang", operator: "~=", value: "en" },
      "operator",
      'unknown comparison operator the string "~="',
    ],
    [{ field: "", operator: "==", value: "en" }, "field", "non-empty string"],
    [{ field: 3, operator: "==", value: "en" }, "field", "non-empty string"],
    [{ operator: "AND" }, "", "'conditions' key missing"],
    [{ conditions: [] }, "", "'operator' key missing"],
    [{ operator: "XOR", conditions: [] }, "operator", "unknown logical operator"],
    [{ operator: "and", conditions: [] }, "operator", "unknown logical operator"],
    [{ operator: "AND", conditions: {} }, "conditions", "must be a list"],
    [{ field: "meta.lang", operator: "in", value: "en" }, "value", '"in" needs a list'],
    [{ field: "meta.lang", operator: "not in", value: 3 }, "value", '"not in" needs a list'],
    [{ field: "meta.year", operator: ">", value: [1] }, "value", "cannot compare with a list"],
    [{ field: "meta.year", operator: "<=", value: { a: 1 } }, "value", "cannot compare with an object"],
    [
      { field: "meta.year", operator: ">", value: "1" },
      "value",
      "Strings are only comparable if they are ISO formatted dates",
    ],
    [{ field: "foo.bar", operator: "==", value: 1 }, "field", 'Write "meta.foo.bar"'],
  ])("rejects %j at path %j", (filter, path, message) => {
    const error = filterError(() => validateFilter(filter));
    expect(error.code).toBe("FILTER_ERROR");
    expect(error.path).toBe(path);
    expect(error.message).toContain(message);
  });

  test("names the path of a nested problem and reports every problem at once", () => {
    const error = filterError(() =>
      validateFilter({
        operator: "OR",
        conditions: [
          { field: "meta.a", operator: "==", value: 1 },
          { field: "meta.b", operator: "in", value: "x" },
          { operator: "NOT", conditions: [{ field: "meta.c", operator: ">" }] },
        ],
      }),
    );
    expect(error.path).toBe("conditions[1].value");
    expect(error.issues.map((issue) => issue.path)).toEqual([
      ["conditions", 1, "value"],
      ["conditions", 2, "conditions", 0],
    ]);
    expect(error.message).toContain("2 problems");
    expect(error.message).toContain("conditions[1].value");
    expect(error.message).toContain("conditions[2].conditions[0]: 'value' key missing");
  });

  test("a malformed filter is rejected even when no document would reach it", () => {
    expect(() =>
      compileFilter({ operator: "OR", conditions: [{ field: "id", operator: "in", value: "x" }] }),
    ).toThrow(FilterError);
  });

  test("filterSchema reports the same issues with zod paths", () => {
    const result = filterSchema.safeParse({
      operator: "AND",
      conditions: [{ field: "meta.x", operator: "in", value: 1 }],
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(["conditions", 0, "value"]);
    expect(filterSchema.parse({ field: "meta.x", operator: "==", value: 1 })).toEqual({
      field: "meta.x",
      operator: "==",
      value: 1,
    });
  });
});

describe("documentMatchesFilter: fields", () => {
  test("meta.a.b walks nested metadata; a bare unknown name reads meta", () => {
    expect(matches({ field: "meta.author.address.city", operator: "==", value: "Paris" })).toBe(true);
    expect(matches({ field: "lang", operator: "==", value: "en" })).toBe(true);
    expect(() => matches({ field: "author.name", operator: "==", value: "Ada" })).toThrow(
      /Write "meta.author.name"/,
    );
  });

  test("a missing key, or a path through a non-object, reads as null", () => {
    expect(matches({ field: "meta.missing", operator: "==", value: null })).toBe(true);
    expect(matches({ field: "meta.author.name.first", operator: "==", value: null })).toBe(true);
    expect(matches({ field: "meta.tags.0", operator: "==", value: null })).toBe(true);
    expect(matches({ field: "meta.nothing", operator: "==", value: null })).toBe(true);
    expect(matches({ field: "blob.mime_type", operator: "==", value: null })).toBe(true);
  });

  test("document fields: content, id, score, embedding, blob", () => {
    expect(matches({ field: "content", operator: "==", value: doc.content })).toBe(true);
    expect(matches({ field: "id", operator: "in", value: [doc.id, "x"] })).toBe(true);
    expect(matches({ field: "score", operator: ">", value: 0.4 })).toBe(true);
    expect(matches({ field: "embedding", operator: "==", value: null })).toBe(true);
    expect(matches({ field: "blob", operator: "!=", value: null })).toBe(false);
  });

  test("byte streams match on meta and mime_type", () => {
    const stream = ByteStream.fromString("x", { mimeType: "text/plain", meta: { source: "a.txt" } });
    expect(matches({ field: "mime_type", operator: "==", value: "text/plain" }, stream)).toBe(true);
    expect(matches({ field: "meta.source", operator: "==", value: "a.txt" }, stream)).toBe(true);
    expect(matches({ field: "source", operator: "==", value: "a.txt" }, stream)).toBe(true);
  });
});

describe("documentMatchesFilter: operators", () => {
  test("== is deep equality with Python's number rules", () => {
    expect(matches({ field: "meta.tags", operator: "==", value: ["geo", "europe"] })).toBe(true);
    expect(matches({ field: "meta.tags", operator: "==", value: ["europe", "geo"] })).toBe(false);
    expect(
      matches({ field: "meta.author", operator: "==", value: { address: { city: "Paris" }, name: "Ada" } }),
    ).toBe(true);
    expect(matches({ field: "meta.year", operator: "==", value: 2021.0 })).toBe(true);
    expect(matches({ field: "meta.published", operator: "==", value: 1 })).toBe(true);
    expect(matches({ field: "meta.year", operator: "==", value: "2021" })).toBe(false);
  });

  test("== and in compare ISO dates as instants; a naive date takes the other's offset", () => {
    expect(matches({ field: "meta.date", operator: "==", value: "2021-06-01T10:00:00Z" })).toBe(true);
    expect(matches({ field: "meta.date", operator: "==", value: "2021-06-01T12:00:00" })).toBe(true);
    expect(matches({ field: "meta.date", operator: "in", value: ["2021-06-01T11:00:00+01:00"] })).toBe(true);
    expect(matches({ field: "meta.date", operator: "==", value: new Date("2021-06-01T10:00:00Z") })).toBe(
      true,
    );
    expect(matches({ field: "meta.naive_date", operator: "==", value: "2021-06-01 10:00:00" })).toBe(true);
  });

  test("!= and not in match a missing field; in does not", () => {
    expect(matches({ field: "meta.missing", operator: "!=", value: "x" })).toBe(true);
    expect(matches({ field: "meta.missing", operator: "not in", value: ["x"] })).toBe(true);
    expect(matches({ field: "meta.missing", operator: "in", value: ["x"] })).toBe(false);
    expect(matches({ field: "meta.missing", operator: "in", value: [null] })).toBe(true);
  });

  test("ordering is false when either side is null or missing", () => {
    for (const operator of [">", ">=", "<", "<="]) {
      expect(matches({ field: "meta.missing", operator, value: 1 })).toBe(false);
      expect(matches({ field: "meta.year", operator, value: null })).toBe(false);
    }
  });

  test("ordering compares numbers (booleans count as 0 and 1) and ISO dates", () => {
    expect(matches({ field: "meta.year", operator: ">=", value: 2021 })).toBe(true);
    expect(matches({ field: "meta.rating", operator: "<", value: 0.1 })).toBe(false);
    expect(matches({ field: "meta.rating", operator: "<=", value: 0.1 })).toBe(true);
    expect(matches({ field: "meta.published", operator: ">", value: 0 })).toBe(true);
    expect(matches({ field: "meta.date", operator: ">", value: "2021-06-01T09:59:59.999999Z" })).toBe(true);
    expect(matches({ field: "meta.date", operator: "<", value: "2021-06-01" })).toBe(false);
    expect(matches({ field: "meta.naive_date", operator: "<", value: "2021-06-01T10:00:00.000001" })).toBe(
      true,
    );
  });

  test("ordering a stored non-date string or a list is a FilterError naming the field", () => {
    const error = filterError(() => matches({ field: "meta.lang", operator: ">", value: "2020-01-01" }));
    expect(error.message).toContain('field "meta.lang"');
    expect(error.message).toContain("Strings are only comparable if they are ISO formatted dates");
    expect(() => matches({ field: "meta.year", operator: ">", value: "2020-01-01" })).toThrow(FilterError);
    expect(() => matches({ field: "meta.tags", operator: ">", value: 1 })).toThrow(/cannot order a list/);
  });

  test("AND, OR and NOT (= not all)", () => {
    const en = { field: "meta.lang", operator: "==", value: "en" };
    const old = { field: "meta.year", operator: "<", value: 2000 };
    expect(matches({ operator: "AND", conditions: [en, old] })).toBe(false);
    expect(matches({ operator: "OR", conditions: [en, old] })).toBe(true);
    expect(matches({ operator: "NOT", conditions: [en, old] })).toBe(true);
    expect(matches({ operator: "NOT", conditions: [en] })).toBe(false);
    expect(matches({ operator: "AND", conditions: [] })).toBe(true);
    expect(matches({ operator: "OR", conditions: [] })).toBe(false);
  });

  test("compileFilter gives the same answers as documentMatchesFilter", () => {
    const filter: Filter = {
      operator: "OR",
      conditions: [{ field: "meta.year", operator: ">", value: 2030 }],
    };
    const predicate = compileFilter(filter);
    expect(predicate(doc)).toBe(false);
    expect(predicate(new Document({ meta: { year: 2031 } }))).toBe(true);
  });
});

describe("filterSchema as a socket schema", () => {
  test("a filters socket can be written as JSON Schema (for served endpoints and saved pipelines)", () => {
    const json = socketSchemaToJSON(filterSchema.optional());
    expect(json).toMatchObject({
      title: "Filter",
      anyOf: [{ required: ["field", "operator", "value"] }, {}, { maxProperties: 0 }],
    });
    expect(JSON.stringify(json)).not.toContain("$ref");
  });

  test("{} means no filter, as in Haystack (its `if filters:` reads an empty dict so)", () => {
    expect(filterSchema.parse({})).toEqual({});
    expect(filterSchema.safeParse({ operator: "AND" }).success).toBe(false);
  });
});
