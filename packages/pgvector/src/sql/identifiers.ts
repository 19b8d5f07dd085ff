import { PgvectorStoreError } from "../errors.js";

/** Postgres identifiers the store accepts: letters, digits, `_` and `$`, not starting with a digit, ≤ 63 bytes. */
const identifierPattern = /^[A-Za-z_][A-Za-z0-9_$]{0,62}$/;

/** Text search configurations: `english`, `simple`, `pg_catalog.german`. */
const languagePattern = /^(?:[a-z_][a-z0-9_]*\.)?[a-z_][a-z0-9_]*$/;

/**
 * Checks a table, schema or index name and returns it double-quoted for SQL. Names come from options (a
 * saved pipeline, a config file), so they are checked, never trusted: anything but a plain identifier is
 * refused instead of escaped.
 *
 * @param name - the name
 * @param what - what it names, for the message (`"tableName"`)
 * @throws PgvectorStoreError (`PGVECTOR_INVALID_OPTIONS`) for anything else
 */
export function quoteIdentifier(name: string, what: string): string {
  if (typeof name !== "string" || !identifierPattern.test(name)) {
    throw new PgvectorStoreError(
      "PGVECTOR_INVALID_OPTIONS",
      `PgvectorDocumentStore: ${what} ${JSON.stringify(name)} is not a plain Postgres identifier. Use letters, digits and "_" (not starting with a digit, at most 63 characters), e.g. "haystack_documents".`,
    );
  }
  return `"${name}"`;
}

/**
 * Checks a text search configuration name and returns it as an SQL string literal. It is written into
 * the statement (not sent as a parameter) so that `to_tsvector('english', content)` in queries is the
 * same expression as the GIN index Haystack creates, and the planner can use that index.
 *
 * @param language - e.g. `"english"`
 * @throws PgvectorStoreError (`PGVECTOR_INVALID_OPTIONS`) for anything but a lowercase identifier
 */
export function languageLiteral(language: string): string {
  if (typeof language !== "string" || !languagePattern.test(language)) {
    throw new PgvectorStoreError(
      "PGVECTOR_INVALID_OPTIONS",
      `PgvectorDocumentStore: language ${JSON.stringify(language)} is not a text search configuration name. Use one listed by "SELECT cfgname FROM pg_ts_config", e.g. "english" or "simple".`,
    );
  }
  return `'${language}'`;
}
