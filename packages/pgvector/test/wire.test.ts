import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { describeDocumentStore } from "@junction/documents/testing";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PgvectorDocumentStore } from "../src/index.js";
import { describeServerBehaviour } from "./support/server-behaviour.js";
import { sharedPGlite } from "./support/shared-pglite.js";

// The same store over the Postgres wire protocol: PGlite served by pglite-socket on 127.0.0.1, the
// `pg` client in front, so the server driver (pool, transactions, errors) runs the same SQL.
let server: PGLiteSocketServer;
let pool: pg.Pool;
let tables = 0;
const stores: PgvectorDocumentStore[] = [];

beforeAll(async () => {
  server = new PGLiteSocketServer({
    db: await sharedPGlite(),
    host: "127.0.0.1",
    port: 0,
    maxConnections: 4,
  });
  await server.start();
  pool = new pg.Pool({
    connectionString: `postgresql://postgres@${server.getServerConn()}/postgres`,
    max: 4,
  });
});

afterAll(async () => {
  for (const store of stores) await store.close();
  await pool?.end();
  await server?.stop();
});

async function storeOverTheWire(options: { embeddingDimension?: number } = {}) {
  tables += 1;
  const store = new PgvectorDocumentStore({
    pool,
    tableName: `wire${tables}`,
    keywordIndexName: `wire${tables}_keyword`,
    hnswIndexName: `wire${tables}_hnsw`,
    embeddingDimension: 3,
    ...options,
  });
  stores.push(store);
  return store;
}

describeServerBehaviour("PGlite over the wire (pglite-socket + pg)", storeOverTheWire, { vectors: true });

describeDocumentStore(
  "PgvectorDocumentStore (PGlite over the wire)",
  () => storeOverTheWire({ embeddingDimension: 4 }),
  {
    skip: { "round-trip.sparse-embedding": "Haystack's pgvector table has no sparse embedding column" },
    timeout: 60_000,
  },
);

describe("connection failures", () => {
  it("name the server and what to check", async () => {
    const closed = new pg.Pool({ connectionString: "postgresql://postgres@127.0.0.1:1/postgres" });
    const store = new PgvectorDocumentStore({ pool: closed });
    const error = await store.countDocuments().catch((caught: unknown) => caught);
    await closed.end();
    expect(error).toMatchObject({ code: "PGVECTOR_CONNECTION_FAILED" });
    expect(String((error as Error).message)).toMatch(
      /cannot connect to Postgres at 127\.0\.0\.1:1.*Check that the server is running/,
    );
  });

  it("say which environment variable to set when the connection string is missing", async () => {
    const { Secret } = await import("@junction/core");
    const store = new PgvectorDocumentStore({
      connectionString: Secret.fromEnvVar("JUNCTION_TEST_UNSET_PG", { strict: false }),
    });
    await expect(store.countDocuments()).rejects.toThrow(/"JUNCTION_TEST_UNSET_PG"/);
  });
});
