import pg from "pg";
import { PgvectorStoreError } from "../errors.js";
import { throwIfAborted } from "./abort.js";
import type { SqlDriver, SqlRow, SqlSession, SqlStatement } from "./sql-driver.js";

/** Where a pool connects, for messages: `host:port` (never the password). */
function target(pool: pg.Pool): string {
  const options = pool.options as { host?: string; port?: number; connectionString?: string };
  let host = options.host;
  let port: number | string | undefined = options.port;
  if ((host === undefined || port === undefined) && options.connectionString !== undefined) {
    try {
      const url = new URL(options.connectionString);
      host ??= decodeURIComponent(url.hostname);
      port ??= url.port === "" ? undefined : url.port;
    } catch {
      const hostMatch = /(?:^|\s)host=(\S+)/.exec(options.connectionString);
      const portMatch = /(?:^|\s)port=(\d+)/.exec(options.connectionString);
      host ??= hostMatch?.[1];
      port ??= portMatch?.[1];
    }
  }
  return `${host ?? process.env.PGHOST ?? "localhost"}:${port ?? process.env.PGPORT ?? 5432}`;
}

const connectionCodes = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "ECONNRESET",
  "EHOSTUNREACH",
]);

/** Turns a failure to connect into an error naming the server and what to check. */
function connectionError(error: unknown, where: string): PgvectorStoreError | undefined {
  const code = (error as { code?: unknown }).code;
  const text = error instanceof Error ? error.message : String(error);
  let advice: string | undefined;
  if (typeof code === "string" && connectionCodes.has(code)) {
    advice = `Check that the server is running and accepts TCP connections on ${where}, and that the host and port in the connection string are right (${code}).`;
  } else if (code === "28P01" || code === "28000") {
    advice = "Check the user name and password in the connection string (authentication failed).";
  } else if (code === "3D000") {
    advice = "The database does not exist: create it or fix its name in the connection string.";
  } else if (/timeout/i.test(text) && /connect/i.test(text)) {
    advice = `The connection timed out: check that ${where} is reachable from here (firewall, VPN).`;
  }
  if (advice === undefined) return undefined;
  return new PgvectorStoreError(
    "PGVECTOR_CONNECTION_FAILED",
    `PgvectorDocumentStore: cannot connect to Postgres at ${where}: ${text}. ${advice}`,
    { cause: error },
  );
}

/** Cancels the statement running on `client` through a second connection (`pg_cancel_backend`). */
async function cancelBackend(pool: pg.Pool, client: pg.PoolClient): Promise<void> {
  const pid = (client as unknown as { processID?: number }).processID;
  if (typeof pid !== "number") return;
  const canceller = new pg.Client(pool.options);
  try {
    await canceller.connect();
    await canceller.query("SELECT pg_cancel_backend($1)", [pid]);
  } catch {
    // Best effort: the statement then runs to its end and the abort is reported after it.
  } finally {
    await canceller.end().catch(() => undefined);
  }
}

/**
 * The server driver: a `pg` pool (given, or created from a connection string and ended by `close()`).
 * An abort cancels the running statement on the server (`pg_cancel_backend` from a second connection)
 * and rolls its transaction back.
 */
export function openPgDriver(options: { pool?: pg.Pool; connectionString?: string }): SqlDriver {
  const ownsPool = options.pool === undefined;
  const pool = options.pool ?? new pg.Pool({ connectionString: options.connectionString, max: 10 });
  // An idle client's error (the server restarted) must not crash the process; the next query reports it.
  if (ownsPool) pool.on("error", () => undefined);
  const where = target(pool);

  async function connect(): Promise<pg.PoolClient> {
    try {
      return await pool.connect();
    } catch (error) {
      throw connectionError(error, where) ?? error;
    }
  }

  async function run(client: pg.PoolClient, statement: SqlStatement, signal: AbortSignal | undefined) {
    throwIfAborted(signal);
    const onAbort = () => void cancelBackend(pool, client);
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      const result = await client.query<SqlRow>(statement.text, statement.params as unknown[]);
      return result.rows;
    } catch (error) {
      // 57014: query_canceled, our own cancel.
      if (signal?.aborted && (error as { code?: unknown }).code === "57014") throw signal.reason;
      throw connectionError(error, where) ?? error;
    } finally {
      signal?.removeEventListener("abort", onAbort);
    }
  }

  return {
    description: `Postgres at ${where}`,
    async query(statement, signal) {
      const client = await connect();
      try {
        return await run(client, statement, signal);
      } finally {
        client.release();
      }
    },
    async transaction(work, signal) {
      throwIfAborted(signal);
      const client = await connect();
      let broken = false;
      try {
        await client.query("BEGIN");
        const session: SqlSession = { query: (statement) => run(client, statement, signal) };
        const value = await work(session);
        throwIfAborted(signal);
        await client.query("COMMIT");
        return value;
      } catch (error) {
        try {
          await client.query("ROLLBACK");
        } catch {
          broken = true;
        }
        throw error;
      } finally {
        client.release(broken);
      }
    },
    async close() {
      if (ownsPool && !pool.ended) await pool.end();
    },
  };
}
