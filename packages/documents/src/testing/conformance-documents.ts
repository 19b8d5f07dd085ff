import { ByteStream } from "../document/byte-stream.js";
import { Document } from "../document/document.js";

/**
 * The documents the store conformance suite filters, with readable ids (`"n100"`, `"date-aware"`).
 * They cover what filters must handle: integer and float numbers (`0.1`), negative numbers, a missing
 * and a null field, strings, booleans, lists, nested metadata (`meta.nested.a.b`, and a path through a
 * non-object), ISO dates with and without a zone and date-only, documents without content (a blob
 * only) and with embeddings. Every call returns fresh instances.
 *
 * `meta.number` only ever holds numbers (or is missing / null), and `meta.date` only ISO dates, so
 * ordering on them never raises; `meta.name` holds plain strings (ordering on it raises FilterError).
 *
 * @example
 * ```ts
 * await store.writeDocuments(conformanceDocuments());
 * ```
 */
export function conformanceDocuments(): Document[] {
  const embedding = (seed: number) => [seed / 8, -seed / 16, 0.5, 1];
  return [
    new Document({
      id: "n100",
      content: "A Foo Document",
      meta: {
        name: "foo",
        page: "100",
        chapter: "intro",
        number: 100,
        date: "1969-07-21T20:17:40",
        flag: true,
      },
      embedding: embedding(1),
    }),
    new Document({
      id: "n2",
      content: "A Bar Document",
      meta: {
        name: "bar",
        page: "123",
        chapter: "abstract",
        number: 2,
        date: "1972-12-11T19:54:58+02:00",
        flag: false,
      },
      embedding: embedding(2),
    }),
    new Document({
      id: "n-2",
      content: "A Foobar Document",
      meta: { name: "foobar", page: "90", chapter: "conclusion", number: -2, date: "1989-11-09T17:53:00Z" },
      embedding: embedding(3),
    }),
    new Document({
      id: "n-10",
      content: "Document with a negative number",
      meta: { name: "negative", chapter: "intro", number: -10, date: "2000-01-01", tags: ["a", "b"] },
    }),
    new Document({
      id: "n0",
      content: "Document with zero",
      meta: { name: "zero", number: 0, tags: ["b"], nested: { a: { b: 1 } } },
    }),
    new Document({
      id: "n0.1",
      content: "Document with a float",
      meta: { name: "float", number: 0.1, rating: 1.5, tags: [], nested: { a: { b: 2 } } },
    }),
    new Document({
      id: "n1.5",
      content: "Document with another float",
      meta: { name: "float2", number: 1.5, nested: { a: 3 }, flag: true },
    }),
    new Document({
      id: "null-number",
      content: "Document whose number is null",
      meta: { name: "nullish", number: null, chapter: null, date: null },
    }),
    new Document({
      id: "no-meta",
      content: "Document without metadata",
    }),
    new Document({
      id: "blob-only",
      blob: new ByteStream(Uint8Array.of(0, 1, 2, 255), { mimeType: "application/octet-stream" }),
      meta: { name: "blob", chapter: "appendix" },
    }),
    new Document({
      id: "unicode",
      content: "Zürich ist schön 😀",
      meta: { name: "Zürich", chapter: "intro", number: 10, date: "1989-11-09T18:53:00+01:00" },
    }),
  ];
}

/** The ids of {@link conformanceDocuments}, in order. */
export const conformanceDocumentIds: readonly string[] = [
  "n100",
  "n2",
  "n-2",
  "n-10",
  "n0",
  "n0.1",
  "n1.5",
  "null-number",
  "no-meta",
  "blob-only",
  "unicode",
];
