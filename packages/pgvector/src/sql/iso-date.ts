import { PgvectorStoreError } from "../errors.js";

/** Haystack's pre-check for `==` on dates: `YYYY-MM-DD`, then nothing or `T`, `t` or a space. */
export function looksLikeIsoDate(value: unknown): value is string {
  return (
    typeof value === "string" &&
    /^\d{4}-\d{2}-\d{2}(?:$|[Tt ])/.test(value) &&
    !Number.isNaN(Date.parse(value.replace(/^(\d{4}-\d{2}-\d{2})[t ]/, "$1T")))
  );
}

/** True when an ISO date string carries a UTC offset (`Z`, `+02:00`). */
export function hasOffset(value: string): boolean {
  return /[Tt ][0-9:.,]+(?:[Zz]|[+-]\d{2}(?::?\d{2})?)$/.test(value);
}

/** SQL: the jsonb expression holds a string shaped like an ISO date that Postgres reads as a timestamp. */
export function sqlIsIsoDate(jsonb: string): string {
  const text = `(${jsonb} #>> '{}')`;
  return `(jsonb_typeof(${jsonb}) = 'string' AND ${text} ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}($|[Tt ])' AND pg_input_is_valid(${text}, 'timestamptz'))`;
}

/**
 * SQL comparing the ISO date held in a jsonb string with a filter date, as Haystack does: as instants
 * when both carry an offset; a date without offset takes the other side's offset; two naive dates
 * compare by wall-clock time. Only valid where {@link sqlIsIsoDate} holds.
 *
 * @param jsonb - the stored value
 * @param operator - `=`, `<`, `<=`, `>`, `>=`
 * @param value - the placeholder of the filter date (text)
 * @param valueHasOffset - whether the filter date carries an offset
 */
export function sqlCompareDates(
  jsonb: string,
  operator: string,
  value: string,
  valueHasOffset: boolean,
): string {
  const text = `(${jsonb} #>> '{}')`;
  const storedAware = `${text} ~ '[Tt ][0-9:.,]+([Zz]|[+-][0-9]{2}(:?[0-9]{2})?)$'`;
  const storedOffset = `EXTRACT(EPOCH FROM (${text}::timestamp - (${text}::timestamptz AT TIME ZONE 'UTC')))`;
  const valueInstant = valueHasOffset
    ? `${value}::timestamptz`
    : `((${value}::timestamp - make_interval(secs => ${storedOffset})) AT TIME ZONE 'UTC')`;
  // A naive side takes the other's offset: with the stored date naive, both walls shift equally.
  return `(CASE WHEN ${storedAware} THEN ${text}::timestamptz ${operator} ${valueInstant} ELSE ${text}::timestamp ${operator} ${value}::timestamp END)`;
}

/** A filter date value as text: ISO strings unchanged, `Date`s as UTC ISO strings. */
export function dateText(value: unknown): string | undefined {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) {
      throw new PgvectorStoreError(
        "PGVECTOR_INVALID_QUERY",
        "PgvectorDocumentStore filters: an invalid Date.",
      );
    }
    return value.toISOString();
  }
  return looksLikeIsoDate(value) ? value : undefined;
}
