/** One SQL statement with its positional parameters (`$1`, `$2`, …). Values never appear in `text`. */
export interface SqlStatement {
  readonly text: string;
  readonly params: readonly unknown[];
}

/** A result row, keyed by column name. */
export type SqlRow = Record<string, unknown>;

/** Runs statements on one connection (inside a transaction). */
export interface SqlSession {
  /**
   * Runs one statement and resolves to its rows.
   *
   * @param statement - the SQL text and its parameters
   */
  query(statement: SqlStatement): Promise<SqlRow[]>;
}

/**
 * The two tiny drivers behind one SQL layer: PGlite (embedded) and `pg` (a Postgres server). Both run the
 * same statements; only connecting, transactions and cancellation differ.
 */
export interface SqlDriver {
  /** What the driver talks to, for error messages: `"PGlite at ./data"`, `"Postgres at db:5432"`. */
  readonly description: string;
  /** Runs one statement outside a transaction. */
  query(statement: SqlStatement, signal: AbortSignal | undefined): Promise<SqlRow[]>;
  /**
   * Runs `work` in one transaction on one connection: committed when it resolves, rolled back as a whole
   * when it throws or `signal` aborts.
   */
  transaction<T>(work: (session: SqlSession) => Promise<T>, signal: AbortSignal | undefined): Promise<T>;
  /** Closes the connection (PGlite) or releases the pool when the store created it. */
  close(): Promise<void>;
}

/** A statement from text and parameters. */
export function sql(text: string, params: readonly unknown[] = []): SqlStatement {
  return { text, params };
}
