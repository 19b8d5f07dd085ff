import type { Filter } from "../filters/filter-types.js";
import { conformanceDocumentIds } from "./conformance-documents.js";

/** One filter the conformance suite runs against {@link conformanceDocuments}. */
export interface FilterCase {
  /** A stable key, used in test names and in `skip` (`"filter.eq.number"`). */
  readonly key: string;
  /** What the case checks. */
  readonly title: string;
  /** The filter. */
  readonly filter: Filter;
  /** The ids it matches, checked by hand (the suite also checks them against `documentMatchesFilter`). */
  readonly expected: readonly string[];
}

/** One filter every store must reject with a `FilterError`. */
export interface InvalidFilterCase {
  /** A stable key (`"filter-error.ordering-string"`). */
  readonly key: string;
  /** What is wrong with it. */
  readonly title: string;
  /** The filter (not a valid one). */
  readonly filter: unknown;
}

const all = conformanceDocumentIds;
const except = (...ids: string[]) => all.filter((id) => !ids.includes(id));
const eq = (field: string, value: unknown): Filter => ({ field, operator: "==", value });

/** The filter cases of the conformance suite, grouped by operator. */
export const filterCases: readonly FilterCase[] = [
  { key: "filter.eq.number", title: "== on an integer", filter: eq("meta.number", 100), expected: ["n100"] },
  {
    key: "filter.eq.null",
    title: "== null matches a null and a missing field",
    filter: eq("meta.number", null),
    expected: ["null-number", "no-meta", "blob-only"],
  },
  {
    key: "filter.eq.float",
    title: "== on a float (0.1)",
    filter: eq("meta.number", 0.1),
    expected: ["n0.1"],
  },
  {
    key: "filter.eq.string",
    title: "== on a non-ASCII string",
    filter: eq("meta.name", "Zürich"),
    expected: ["unicode"],
  },
  {
    key: "filter.eq.list",
    title: "== on a list value",
    filter: eq("meta.tags", ["a", "b"]),
    expected: ["n-10"],
  },
  {
    key: "filter.eq.nested",
    title: "== on a nested path meta.a.b",
    filter: eq("meta.nested.a.b", 1),
    expected: ["n0"],
  },
  {
    key: "filter.eq.nested-null",
    title: "a nested path through a missing key or a non-object reads as null",
    filter: eq("meta.nested.a.b", null),
    expected: except("n0", "n0.1"),
  },
  { key: "filter.eq.true", title: "== true", filter: eq("meta.flag", true), expected: ["n100", "n1.5"] },
  { key: "filter.eq.false", title: "== false", filter: eq("meta.flag", false), expected: ["n2"] },
  {
    key: "filter.eq.date-instant",
    title: "== on ISO dates compares instants (17:53Z equals 18:53+01:00)",
    filter: eq("meta.date", "1989-11-09T17:53:00Z"),
    expected: ["n-2", "unicode"],
  },
  {
    key: "filter.eq.content",
    title: "== on content",
    filter: eq("content", "A Foo Document"),
    expected: ["n100"],
  },
  {
    key: "filter.eq.content-null",
    title: "content == null",
    filter: eq("content", null),
    expected: ["blob-only"],
  },
  { key: "filter.eq.id", title: "== on id", filter: eq("id", "n2"), expected: ["n2"] },
  {
    key: "filter.eq.bare-name",
    title: "a bare name reads meta (number)",
    filter: eq("number", 2),
    expected: ["n2"],
  },
  {
    key: "filter.ne.number",
    title: "!= matches a missing field",
    filter: { field: "meta.number", operator: "!=", value: 100 },
    expected: except("n100"),
  },
  {
    key: "filter.ne.null",
    title: "!= null",
    filter: { field: "meta.number", operator: "!=", value: null },
    expected: ["n100", "n2", "n-2", "n-10", "n0", "n0.1", "n1.5", "unicode"],
  },
  {
    key: "filter.ne.list",
    title: "!= on a list value",
    filter: { field: "meta.tags", operator: "!=", value: ["a", "b"] },
    expected: except("n-10"),
  },
  {
    key: "filter.ne.string",
    title: "!= on a string matches null and missing",
    filter: { field: "meta.chapter", operator: "!=", value: "intro" },
    expected: except("n100", "n-10", "unicode"),
  },
  {
    key: "filter.ne.content",
    title: "!= on content",
    filter: { field: "content", operator: "!=", value: "A Foo Document" },
    expected: except("n100"),
  },
  {
    key: "filter.gt.number",
    title: "> on numbers (int and float)",
    filter: { field: "meta.number", operator: ">", value: 0 },
    expected: ["n100", "n2", "n0.1", "n1.5", "unicode"],
  },
  {
    key: "filter.gte.float",
    title: ">= 0.1",
    filter: { field: "meta.number", operator: ">=", value: 0.1 },
    expected: ["n100", "n2", "n0.1", "n1.5", "unicode"],
  },
  {
    key: "filter.gte.zero",
    title: ">= 0",
    filter: { field: "meta.number", operator: ">=", value: 0 },
    expected: ["n100", "n2", "n0", "n0.1", "n1.5", "unicode"],
  },
  {
    key: "filter.lt.number",
    title: "< 0",
    filter: { field: "meta.number", operator: "<", value: 0 },
    expected: ["n-2", "n-10"],
  },
  {
    key: "filter.lte.number",
    title: "<= -2",
    filter: { field: "meta.number", operator: "<=", value: -2 },
    expected: ["n-2", "n-10"],
  },
  ...([">", ">=", "<", "<="] as const).map((operator) => ({
    key: `filter.${{ ">": "gt", ">=": "gte", "<": "lt", "<=": "lte" }[operator]}.null`,
    title: `${operator} null matches nothing`,
    filter: { field: "meta.number", operator, value: null },
    expected: [],
  })),
  {
    key: "filter.gt.date-naive",
    title: "> a naive ISO date (a zoned stored date gives it its zone)",
    filter: { field: "meta.date", operator: ">", value: "1972-12-11T19:54:58" },
    expected: ["n-2", "n-10", "unicode"],
  },
  {
    key: "filter.gte.date-naive",
    title: ">= a naive ISO date",
    filter: { field: "meta.date", operator: ">=", value: "1972-12-11T19:54:58" },
    expected: ["n2", "n-2", "n-10", "unicode"],
  },
  {
    key: "filter.lt.date-zoned",
    title: "< an ISO date with a zone (a naive stored date takes it)",
    filter: { field: "meta.date", operator: "<", value: "1972-12-11T18:00:00Z" },
    expected: ["n100", "n2"],
  },
  {
    key: "filter.lte.date-only",
    title: "<= a date without a time",
    filter: { field: "meta.date", operator: "<=", value: "1989-11-09" },
    expected: ["n100", "n2"],
  },
  {
    key: "filter.gte.date-instant",
    title: ">= compares instants across zones",
    filter: { field: "meta.date", operator: ">=", value: "1989-11-09T18:53:00+01:00" },
    expected: ["n-2", "n-10", "unicode"],
  },
  {
    key: "filter.in.number",
    title: "in a list of numbers",
    filter: { field: "meta.number", operator: "in", value: [10, -10, 100] },
    expected: ["n100", "n-10", "unicode"],
  },
  {
    key: "filter.in.string",
    title: "in a list of strings",
    filter: { field: "meta.name", operator: "in", value: ["foo", "bar", "nope"] },
    expected: ["n100", "n2"],
  },
  {
    key: "filter.in.empty",
    title: "in an empty list",
    filter: { field: "meta.number", operator: "in", value: [] },
    expected: [],
  },
  {
    key: "filter.in.null",
    title: "in a list holding null matches null and missing",
    filter: { field: "meta.number", operator: "in", value: [null, 2] },
    expected: ["n2", "null-number", "no-meta", "blob-only"],
  },
  {
    key: "filter.in.id",
    title: "id in a list",
    filter: { field: "id", operator: "in", value: ["n0", "blob-only", "missing-id"] },
    expected: ["n0", "blob-only"],
  },
  {
    key: "filter.nin.number",
    title: "not in matches a missing field",
    filter: { field: "meta.number", operator: "not in", value: [2, -2] },
    expected: except("n2", "n-2"),
  },
  {
    key: "filter.nin.string",
    title: "not in on strings (null and missing match)",
    filter: { field: "meta.chapter", operator: "not in", value: ["intro", "abstract"] },
    expected: ["n-2", "n0", "n0.1", "n1.5", "null-number", "no-meta", "blob-only"],
  },
  {
    key: "filter.nin.empty",
    title: "not in an empty list matches everything",
    filter: { field: "meta.number", operator: "not in", value: [] },
    expected: all,
  },
  {
    key: "filter.and",
    title: "AND",
    filter: {
      operator: "AND",
      conditions: [{ field: "meta.number", operator: ">=", value: 0 }, eq("meta.chapter", "intro")],
    },
    expected: ["n100", "unicode"],
  },
  {
    key: "filter.and.nested-fields",
    title: "AND over nested and float fields",
    filter: {
      operator: "AND",
      conditions: [eq("meta.nested.a.b", 2), { field: "meta.rating", operator: ">", value: 1 }],
    },
    expected: ["n0.1"],
  },
  {
    key: "filter.or",
    title: "OR",
    filter: {
      operator: "OR",
      conditions: [{ field: "meta.number", operator: "<", value: -5 }, eq("meta.name", "bar")],
    },
    expected: ["n2", "n-10"],
  },
  {
    key: "filter.not",
    title: "NOT is not-AND",
    filter: {
      operator: "NOT",
      conditions: [{ field: "meta.number", operator: ">=", value: 0 }, eq("meta.chapter", "intro")],
    },
    expected: except("n100", "unicode"),
  },
  {
    key: "filter.not.single",
    title: "NOT of one condition matches a missing field",
    filter: { operator: "NOT", conditions: [eq("meta.flag", true)] },
    expected: except("n100", "n1.5"),
  },
  {
    key: "filter.nested-logic",
    title: "AND of OR and NOT",
    filter: {
      operator: "AND",
      conditions: [
        { operator: "OR", conditions: [eq("meta.chapter", "intro"), eq("meta.chapter", "conclusion")] },
        { operator: "NOT", conditions: [{ field: "meta.number", operator: "<", value: 0 }] },
      ],
    },
    expected: ["n100", "unicode"],
  },
];

/** Malformed filters every store must reject with a `FilterError` (Haystack's error tests, and more). */
export const invalidFilterCases: readonly InvalidFilterCase[] = [
  ...([">", ">=", "<", "<="] as const).flatMap((operator) => [
    {
      key: "filter-error.ordering-string",
      title: `${operator} with a string that is not an ISO date`,
      filter: { field: "meta.number", operator, value: "1" },
    },
    {
      key: "filter-error.ordering-list",
      title: `${operator} with a list`,
      filter: { field: "meta.number", operator, value: [1] },
    },
  ]),
  {
    key: "filter-error.in-not-list",
    title: "in without a list",
    filter: { field: "meta.number", operator: "in", value: 9 },
  },
  {
    key: "filter-error.in-not-list",
    title: "not in without a list",
    filter: { field: "meta.number", operator: "not in", value: 9 },
  },
  {
    key: "filter-error.missing-key",
    title: "a logical filter without operator",
    filter: { conditions: [eq("meta.name", "foo")] },
  },
  {
    key: "filter-error.missing-key",
    title: "a logical filter without conditions",
    filter: { operator: "AND" },
  },
  {
    key: "filter-error.missing-key",
    title: "a condition without field",
    filter: { operator: "AND", conditions: [{ operator: "==", value: "foo" }] },
  },
  {
    key: "filter-error.missing-key",
    title: "a condition without operator",
    filter: { operator: "AND", conditions: [{ field: "meta.name", value: "foo" }] },
  },
  {
    key: "filter-error.missing-key",
    title: "a condition without value",
    filter: { operator: "AND", conditions: [{ field: "meta.name", operator: "==" }] },
  },
  {
    key: "filter-error.unknown-operator",
    title: "an unknown comparison operator",
    filter: { field: "meta.name", operator: "~=", value: "x" },
  },
  {
    key: "filter-error.unknown-operator",
    title: "an unknown logical operator",
    filter: { operator: "XOR", conditions: [] },
  },
  {
    key: "filter-error.unknown-root",
    title: "a dotted field whose root is not a field (foo.bar)",
    filter: eq("foo.bar", 1),
  },
];
