import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { throwIfAborted } from "./abort.js";
import { lockDataDir } from "./data-dir-lock.js";
import type { PGliteDatabase } from "./pglite-database.js";
import type { SqlDriver, SqlRow, SqlSession, SqlStatement } from "./sql-driver.js";

/**
 * The embedded driver: PGlite (Postgres in WebAssembly) with the pgvector extension, in memory or
 * persisted in `dataDir` behind a lock file.
 *
 * Cancellation: PGlite runs a statement to its end on this thread and cannot interrupt it. An aborted
 * signal stops before the next statement, and a transaction whose signal aborts rolls back, so an aborted
 * write leaves nothing behind; a single long read finishes before the abort is reported.
 */
export async function openPGliteDriver(options: {
  dataDir?: string | undefined;
  pglite?: PGliteDatabase;
}): Promise<SqlDriver> {
  if (options.pglite !== undefined)
    return driverOn(options.pglite, "PGlite (given instance)", async () => undefined);
  const { dataDir } = options;
  const inMemory = dataDir === undefined || dataDir === "memory://" || dataDir.startsWith("memory://");
  const path = inMemory ? undefined : resolve(dataDir);
  let lock: ReturnType<typeof lockDataDir> | undefined;
  if (path !== undefined) {
    mkdirSync(dirname(path), { recursive: true });
    lock = lockDataDir(path);
  }
  let db: PGlite;
  try {
    db = await PGlite.create(path, { extensions: { vector } });
  } catch (error) {
    lock?.release();
    throw error;
  }
  return driverOn(db, path === undefined ? "PGlite (in memory)" : `PGlite at "${path}"`, async () => {
    try {
      if (!db.closed) await db.close();
    } finally {
      lock?.release();
    }
  });
}

function driverOn(db: PGliteDatabase, description: string, close: () => Promise<void>): SqlDriver {
  const run = async (target: Pick<PGliteDatabase, "query">, statement: SqlStatement): Promise<SqlRow[]> => {
    const result = await target.query<SqlRow>(statement.text, statement.params as unknown[]);
    return result.rows;
  };
  return {
    description,
    async query(statement, signal) {
      throwIfAborted(signal);
      const rows = await run(db, statement);
      throwIfAborted(signal);
      return rows;
    },
    async transaction(work, signal) {
      throwIfAborted(signal);
      return db.transaction(async (tx) => {
        const session: SqlSession = {
          async query(statement) {
            throwIfAborted(signal);
            return run(tx, statement);
          },
        };
        const value = await work(session);
        // An abort during the work rolls the whole transaction back (the throw reaches PGlite's wrapper).
        throwIfAborted(signal);
        return value;
      });
    },
    close,
  };
}
