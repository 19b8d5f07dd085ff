import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { afterAll, vi } from "vitest";
import { PgvectorDocumentStore, type PgvectorDocumentStoreOptions } from "../../src/index.js";

// Starting PGlite (Postgres compiled to WebAssembly) takes seconds on a loaded machine.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 180_000 });

let shared: Promise<PGlite> | undefined;
const stores: PgvectorDocumentStore[] = [];
let tables = 0;

/** One in-memory PGlite with pgvector per test file; each store gets its own table. */
export function sharedPGlite(): Promise<PGlite> {
  shared ??= PGlite.create({ extensions: { vector } });
  return shared;
}

/** A store on the file's shared PGlite, in a fresh table (`t1`, `t2`, …) unless `tableName` is given. */
export async function makeStore(options: PgvectorDocumentStoreOptions = {}): Promise<PgvectorDocumentStore> {
  tables += 1;
  const store = new PgvectorDocumentStore({
    pglite: await sharedPGlite(),
    tableName: `t${tables}`,
    keywordIndexName: `t${tables}_keyword`,
    hnswIndexName: `t${tables}_hnsw`,
    embeddingDimension: 3,
    ...options,
  });
  stores.push(store);
  return store;
}

afterAll(async () => {
  for (const store of stores) await store.close();
  if (shared !== undefined) await (await shared).close();
});
