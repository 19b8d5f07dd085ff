import { ByteStream, Document } from "@junction/documents";
import { beforeAll, describe, expect, it } from "vitest";
import { makeStore, sharedPGlite } from "./support/shared-pglite.js";

/** haystack-core-integrations' pgvector DDL, as psycopg renders it (schema "haystack", dimension 3). */
const haystackDDL = [
  "CREATE SCHEMA haystack",
  `CREATE TABLE "haystack"."haystack_documents" (
id VARCHAR(128) PRIMARY KEY,
embedding vector(3),
content TEXT,
blob_data BYTEA,
blob_meta JSONB,
blob_mime_type VARCHAR(255),
meta JSONB)`,
  `CREATE INDEX "haystack_keyword_index" ON "haystack"."haystack_documents" USING GIN (to_tsvector('english', content))`,
  `CREATE INDEX "haystack_hnsw_index" ON "haystack"."haystack_documents" USING hnsw (embedding vector_cosine_ops) WITH (m = 16, ef_construction = 64)`,
];

/** Haystack's INSERT_STATEMENT with psycopg's parameters. */
const haystackInsert = `INSERT INTO "haystack"."haystack_documents"
(id, embedding, content, blob_data, blob_meta, blob_mime_type, meta)
VALUES ($1, $2, $3, $4, $5, $6, $7)`;

const rows = [
  // Document(content="Paris is in France", meta={"lang": "en", "page": 3}, embedding=[1, 0, 0])
  ["a1", "[1,0,0]", "Paris is in France", null, null, null, { lang: "en", page: 3 }],
  // A document with a blob: bytes, blob meta and MIME type in their columns
  ["b2", null, "a pdf", new Uint8Array([37, 80, 68, 70]), { source: "x.pdf" }, "application/pdf", {}],
  // A row whose meta is NULL (Haystack reads it as {})
  ["c3", "[0,1,0]", null, null, null, null, null],
] as const;

describe("a table shared with Haystack's pgvector integration", () => {
  beforeAll(async () => {
    const db = await sharedPGlite();
    await db.exec("CREATE EXTENSION IF NOT EXISTS vector");
    for (const statement of haystackDDL) await db.exec(statement);
    for (const row of rows) await db.query(haystackInsert, [...row]);
  });

  it("reads rows Haystack wrote, and searches them through Haystack's indexes", async () => {
    const store = await makeStore({
      schemaName: "haystack",
      tableName: "haystack_documents",
      keywordIndexName: "haystack_keyword_index",
      hnswIndexName: "haystack_hnsw_index",
      searchStrategy: "hnsw",
    });
    const documents = await store.filterDocuments();
    expect(documents.map((d) => d.id)).toEqual(["a1", "b2", "c3"]);
    const [a, b, c] = documents;
    expect(a!.content).toBe("Paris is in France");
    expect(a!.meta).toEqual({ lang: "en", page: 3 });
    expect(a!.embedding).toEqual([1, 0, 0]);
    expect(Array.from(b!.blob!.data)).toEqual([37, 80, 68, 70]);
    expect(b!.blob!.mimeType).toBe("application/pdf");
    expect(b!.blob!.meta).toEqual({ source: "x.pdf" });
    expect(c!.meta).toEqual({});
    expect(c!.content).toBeUndefined();
    expect((await store.keywordRetrieval({ query: "Where is Paris?" })).map((d) => d.id)).toEqual(["a1"]);
    expect((await store.embeddingRetrieval({ queryEmbedding: [0, 1, 0], topK: 1 })).map((d) => d.id)).toEqual(
      ["c3"],
    );
    const indexes = await (await sharedPGlite()).query<{ indexname: string }>(
      "SELECT indexname FROM pg_indexes WHERE schemaname = 'haystack' ORDER BY indexname",
    );
    expect(indexes.rows.map((r) => r.indexname)).toEqual([
      "haystack_documents_pkey",
      "haystack_hnsw_index",
      "haystack_keyword_index",
    ]);
  });

  it("writes rows as Haystack writes them, so Haystack reads what Junction wrote", async () => {
    const store = await makeStore({
      schemaName: "haystack",
      tableName: "haystack_documents",
      keywordIndexName: "haystack_keyword_index",
      hnswIndexName: "haystack_hnsw_index",
    });
    const written = [
      new Document({ content: "from junction", meta: { n: 1.5, tags: ["a"] }, embedding: [0.5, 0.5, 0] }),
      new Document({ content: "blob, no blob meta", blob: new ByteStream(new Uint8Array([1]), {}) }),
    ];
    await store.writeDocuments(written);
    const raw = await (await sharedPGlite()).query<Record<string, unknown>>(
      `SELECT id, embedding::text AS embedding, content, blob_data, blob_meta, blob_mime_type, meta FROM "haystack"."haystack_documents" WHERE id = ANY($1) ORDER BY content DESC`,
      [written.map((d) => d.id)],
    );
    expect(raw.rows[0]).toEqual({
      id: written[0]!.id,
      embedding: "[0.5,0.5,0]",
      content: "from junction",
      blob_data: null,
      blob_meta: null,
      blob_mime_type: null,
      meta: { n: 1.5, tags: ["a"] },
    });
    // Haystack writes blob_meta and blob_mime_type as NULL when empty.
    expect(raw.rows[1]).toMatchObject({ blob_meta: null, blob_mime_type: null, embedding: null, meta: {} });
  });

  it("creates exactly Haystack's table and indexes when none exists", async () => {
    const store = await makeStore({
      schemaName: "public",
      tableName: "fresh",
      keywordIndexName: "fresh_kw",
      hnswIndexName: "fresh_hnsw",
      searchStrategy: "hnsw",
      hnswIndexCreationKwargs: { m: 16, efConstruction: 64 },
    });
    await store.warmUp();
    const db = await sharedPGlite();
    const columns = async (schema: string, table: string) =>
      (
        await db.query(
          "SELECT column_name, data_type, character_maximum_length, udt_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 ORDER BY ordinal_position",
          [schema, table],
        )
      ).rows;
    expect(await columns("public", "fresh")).toEqual(await columns("haystack", "haystack_documents"));
    const definitions = async (schema: string) =>
      (
        await db.query<{ indexdef: string }>(
          "SELECT indexdef FROM pg_indexes WHERE schemaname = $1 ORDER BY indexdef",
          [schema],
        )
      ).rows.map((r) =>
        r.indexdef
          .replace(/haystack\.haystack_documents|public\.fresh/, "T")
          .replace(/\bhaystack_documents_pkey|fresh_pkey\b/, "PKEY")
          .replace(/haystack_hnsw_index|fresh_hnsw/, "HNSW")
          .replace(/haystack_keyword_index|fresh_kw/, "KW"),
      );
    const freshDefinitions = (await definitions("public")).filter((d) => d.includes(" ON T "));
    expect(freshDefinitions).toHaveLength(3);
    expect(freshDefinitions).toEqual(await definitions("haystack"));
  });

  it("keeps an existing HNSW index, and rebuilds it with hnswRecreateIndexIfExists (Haystack's _handle_hnsw)", async () => {
    const options = {
      schemaName: "public",
      tableName: "rebuilt",
      keywordIndexName: "rebuilt_kw",
      hnswIndexName: "rebuilt_hnsw",
      searchStrategy: "hnsw",
    } as const;
    const definition = async () =>
      (
        await (
          await sharedPGlite()
        ).query<{ indexdef: string }>("SELECT indexdef FROM pg_indexes WHERE indexname = 'rebuilt_hnsw'")
      ).rows[0]?.indexdef;
    await (await makeStore({ ...options, hnswIndexCreationKwargs: { m: 16 } })).warmUp();
    expect(await definition()).toMatch(/m='16'/);
    await (await makeStore({ ...options, hnswIndexCreationKwargs: { m: 8 } })).warmUp();
    expect(await definition()).toMatch(/m='16'/);
    await (
      await makeStore({ ...options, hnswIndexCreationKwargs: { m: 8 }, hnswRecreateIndexIfExists: true })
    ).warmUp();
    expect(await definition()).toMatch(/m='8'/);
  });
});
