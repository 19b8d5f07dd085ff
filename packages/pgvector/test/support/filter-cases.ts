import { ByteStream, Document, type Filter } from "@junction/documents";

/** Documents covering every kind of meta value the filter cases compare. */
export const corpus = [
  new Document({
    content: "alpha",
    meta: {
      name: "a",
      number: 1,
      float: 0.1,
      flag: true,
      date: "2024-01-01T10:00:00+02:00",
      tags: ["x", "y"],
      nested: { level: 2, deeper: { k: "v" } },
    },
  }),
  new Document({
    content: "beta",
    meta: {
      name: "b",
      number: 2,
      float: 2.5,
      flag: false,
      date: "2024-01-01T08:00:00Z",
      nested: { level: 3 },
    },
  }),
  new Document({ content: "gamma", meta: { name: "c", number: -5, date: "2023-06-30", page: "100" } }),
  new Document({
    content: "delta",
    meta: { name: null, number: 0, chapter: "intro" },
    embedding: [0.5, 0.5, 0],
  }),
  new Document({ content: "epsilon", meta: {} }),
  new Document({
    content: "zeta",
    meta: { number: 1.0, flag: 1, date: "2024-01-01T08:00:00" },
    blob: ByteStream.fromString("b"),
  }),
  new Document({ meta: { name: "no content", number: 100 } }),
];

/** Filters covering every operator, NOT, nested paths, dates, booleans as numbers and missing fields. */
export const filters: Filter[] = [
  { field: "meta.number", operator: "==", value: 1 },
  { field: "meta.number", operator: "==", value: true },
  { field: "meta.flag", operator: "==", value: 1 },
  { field: "meta.flag", operator: "!=", value: true },
  { field: "meta.name", operator: "==", value: null },
  { field: "meta.name", operator: "!=", value: null },
  { field: "meta.name", operator: "!=", value: "a" },
  { field: "name", operator: "==", value: "b" },
  { field: "meta.float", operator: "==", value: 0.1 },
  { field: "meta.float", operator: ">", value: 0.05 },
  { field: "meta.number", operator: ">", value: 0 },
  { field: "meta.number", operator: ">=", value: 1 },
  { field: "meta.number", operator: "<", value: 1 },
  { field: "meta.number", operator: "<=", value: 0 },
  { field: "meta.number", operator: ">", value: null },
  { field: "meta.number", operator: "in", value: [1, 2] },
  { field: "meta.number", operator: "not in", value: [1, 2] },
  { field: "meta.name", operator: "in", value: ["a", null] },
  { field: "meta.name", operator: "not in", value: ["a", "b"] },
  { field: "meta.tags", operator: "==", value: ["x", "y"] },
  { field: "meta.tags", operator: "==", value: ["y", "x"] },
  { field: "meta.nested", operator: "==", value: { level: 2, deeper: { k: "v" } } },
  { field: "meta.nested.level", operator: ">=", value: 2 },
  { field: "meta.nested.deeper.k", operator: "==", value: "v" },
  { field: "meta.nested.missing.k", operator: "==", value: null },
  { field: "meta.date", operator: "==", value: "2024-01-01T08:00:00Z" },
  { field: "meta.date", operator: ">", value: "2024-01-01T07:00:00Z" },
  { field: "meta.date", operator: "<", value: "2024-01-01" },
  { field: "meta.date", operator: ">=", value: "2024-01-01T08:00:00" },
  { field: "meta.date", operator: "in", value: ["2024-01-01T10:00:00+02:00", "2023-06-30"] },
  { field: "content", operator: "==", value: "alpha" },
  { field: "content", operator: "==", value: null },
  { field: "content", operator: "in", value: ["alpha", "beta", "nope"] },
  { field: "id", operator: "==", value: corpus[0]?.id },
  { field: "score", operator: "==", value: null },
  { field: "blob", operator: "!=", value: null },
  { field: "meta.chapter", operator: "not in", value: ["intro"] },
  { operator: "AND", conditions: [] },
  { operator: "OR", conditions: [] },
  { operator: "NOT", conditions: [{ field: "meta.number", operator: "==", value: 1 }] },
  {
    operator: "NOT",
    conditions: [
      { field: "meta.number", operator: ">", value: 1 },
      { field: "meta.name", operator: "==", value: "b" },
    ],
  },
  {
    operator: "OR",
    conditions: [
      { field: "meta.name", operator: "==", value: "c" },
      {
        operator: "AND",
        conditions: [
          { field: "meta.number", operator: ">=", value: 1 },
          { field: "meta.flag", operator: "==", value: false },
        ],
      },
    ],
  },
  {
    operator: "NOT",
    conditions: [
      {
        operator: "OR",
        conditions: [
          { field: "meta.page", operator: "==", value: "100" },
          { field: "meta.chapter", operator: "==", value: "intro" },
        ],
      },
    ],
  },
];
