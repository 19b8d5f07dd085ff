import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { ByteStream, Document, SparseEmbedding } from "../src/index.js";

interface FixtureCase {
  readonly name: string;
  readonly input: Record<string, unknown>;
  readonly id: string;
}

const fixture = JSON.parse(
  readFileSync(new URL("./fixtures/document-ids.json", import.meta.url), "utf8"),
) as {
  cases: FixtureCase[];
};

/** Decodes the fixture's JSON-safe encoding (see document-ids.py). */
function decode(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decode);
  if (typeof value !== "object" || value === null) return value;
  const record = value as Record<string, unknown>;
  if (typeof record.$float === "string") {
    return { inf: Number.POSITIVE_INFINITY, "-inf": Number.NEGATIVE_INFINITY, nan: Number.NaN }[
      record.$float
    ];
  }
  if (typeof record.$bigint === "string") return BigInt(record.$bigint);
  if (Array.isArray(record.$bytes)) return Uint8Array.from(record.$bytes as number[]);
  if (typeof record.$datetime === "string") return new Date(record.$datetime);
  return Object.fromEntries(Object.entries(record).map(([key, item]) => [key, decode(item)]));
}

function documentOf(input: Record<string, unknown>): Document {
  const decoded = decode(input) as {
    content?: string;
    blob?: Uint8Array;
    mime_type?: string;
    meta?: Record<string, unknown>;
    embedding?: number[];
    sparse?: { indices: number[]; values: number[] };
  };
  return new Document({
    content: decoded.content,
    blob:
      decoded.blob === undefined ? undefined : new ByteStream(decoded.blob, { mimeType: decoded.mime_type }),
    meta: decoded.meta,
    embedding: decoded.embedding,
    sparseEmbedding:
      decoded.sparse === undefined
        ? undefined
        : new SparseEmbedding(decoded.sparse.indices, decoded.sparse.values),
  });
}

describe("Document id (parity with Haystack's _create_id)", () => {
  test("the fixture covers many tricky documents", () => {
    expect(fixture.cases.length).toBeGreaterThanOrEqual(40);
  });

  test.each(fixture.cases.map((item) => [item.name, item] as const))("%s", (_name, item) => {
    expect(documentOf(item.input).id).toBe(item.id);
  });

  test("the score and the blob's meta are not part of the id; an explicit id is kept", () => {
    const base = new Document({ content: "x", blob: ByteStream.fromString("b") });
    expect(
      new Document({ content: "x", blob: ByteStream.fromString("b", { meta: { a: 1 } }), score: 3 }).id,
    ).toBe(base.id);
    expect(new Document({ id: "mine", content: "x" }).id).toBe("mine");
  });

  test("undefined meta entries are left out, as JSON would", () => {
    expect(new Document({ meta: { a: 1, b: undefined } }).id).toBe(new Document({ meta: { a: 1 } }).id);
  });
});
