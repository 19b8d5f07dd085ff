/** One query's rows, as PGlite returns them. */
export interface PGliteQueryResult<TRow> {
  readonly rows: TRow[];
}

/**
 * What the store uses of an open PGlite database (`query` and `transaction`). Written structurally so
 * this package's types do not pull in PGlite's own declarations (which need the Emscripten types); a
 * `PGlite` instance from `@electric-sql/pglite` fits it.
 */
export interface PGliteDatabase {
  query<TRow>(query: string, params?: unknown[]): Promise<PGliteQueryResult<TRow>>;
  transaction<T>(
    callback: (transaction: {
      query<TRow>(query: string, params?: unknown[]): Promise<PGliteQueryResult<TRow>>;
    }) => Promise<T>,
  ): Promise<T>;
}
