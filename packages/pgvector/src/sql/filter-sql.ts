import { documentFilterFields } from "@junction/documents";
import type { PgvectorComparison, PgvectorFilter } from "../filters/pgvector-filter.js";
import { dateText, hasOffset, sqlCompareDates, sqlIsIsoDate } from "./iso-date.js";
import type { SqlParams } from "./params.js";

/** How columns read as jsonb, so every comparison has one typed form. */
export interface FilterColumns {
  /** The jsonb expression of the embedding (depends on the column type). */
  readonly embedding: string;
}

/** The marker of errors raised on purpose inside a query (an ordering the data makes impossible). */
export const filterErrorMarker = "junction-filter:";

/**
 * The jsonb expression of a filter field (Haystack's resolution): `id`, `content`, `meta`, `embedding`;
 * `score` and `sparse_embedding` are not stored, `blob` is present or not,, so they read as missing; `meta.a.b`
 * walks nested objects; a bare name that is not a field is a meta key. Meta paths are a `text[]`
 * parameter (`meta #> $1`), so a meta key is never written into SQL, whatever it holds.
 */
function fieldExpression(field: string, params: SqlParams, columns: FilterColumns): string {
  const dot = field.indexOf(".");
  const root = dot === -1 ? field : field.slice(0, dot);
  if (dot === -1 && !documentFilterFields.includes(field)) {
    return `(meta #> ${params.add([field], "text[]")})`;
  }
  if (dot !== -1) {
    // A dotted path walks only objects: through meta, or nowhere (a string or a blob is not one).
    return root === "meta"
      ? `(meta #> ${params.add(field.slice(dot + 1).split("."), "text[]")})`
      : "NULL::jsonb";
  }
  switch (field) {
    case "id":
      return "to_jsonb(id)";
    case "content":
      return "to_jsonb(content)";
    case "meta":
      return "COALESCE(meta, '{}'::jsonb)";
    case "embedding":
      return columns.embedding;
    case "blob":
      // Present or not (the bytes are not compared): a blob is stored when blob_data is non-empty.
      return "(CASE WHEN octet_length(blob_data) > 0 THEN jsonb_build_object('mime_type', blob_mime_type) END)";
    default:
      return "NULL::jsonb";
  }
}

/** FALSE, still reading `field` so that its parameters stay bound. */
const never = (field: string) => `(${field} IS NULL AND false)`;

const isNull = (field: string) => `(${field} IS NULL OR jsonb_typeof(${field}) = 'null')`;

/**
 * `field` equals one of `values` (Python's `==`: numbers by value, `True == 1`, deep lists and objects),
 * or names the same instant as one of the ISO dates among them. Never NULL, so `NOT` works.
 */
function equalsAny(field: string, values: readonly unknown[], params: SqlParams): string {
  const plain: unknown[] = [];
  const parts: string[] = [];
  let withNull = false;
  for (const value of values) {
    if (value === null || value === undefined) {
      withNull = true;
      continue;
    }
    const date = dateText(value);
    plain.push(value instanceof Date ? date : value);
    // Python: True == 1 and False == 0.
    if (typeof value === "boolean") plain.push(value ? 1 : 0);
    if (value === 1 || value === 0) plain.push(value === 1);
    if (date !== undefined) {
      const same = sqlCompareDates(field, "=", params.add(date, "text"), hasOffset(date));
      parts.push(`(CASE WHEN ${sqlIsIsoDate(field)} THEN ${same} ELSE false END)`);
    }
  }
  if (plain.length === 1)
    parts.unshift(`COALESCE(${field} = ${params.add(JSON.stringify(plain[0]), "jsonb")}, false)`);
  else if (plain.length > 1) {
    parts.unshift(
      `COALESCE(${field} IN (SELECT jsonb_array_elements(${params.add(JSON.stringify(plain), "jsonb")})), false)`,
    );
  }
  if (withNull) parts.push(isNull(field));
  return parts.length === 0
    ? never(field)
    : parts.length === 1
      ? (parts[0] as string)
      : `(${parts.join(" OR ")})`;
}

/**
 * Raises a query error carrying {@link filterErrorMarker}, the message and the stored value (the store
 * turns it into a FilterError). It reads the row, so the planner cannot fold it before a row needs it.
 */
function raise(field: string, message: string, params: SqlParams): string {
  return `((${params.add(`${filterErrorMarker} ${message} Stored value: `, "text")} || (${field})::text)::int IS NULL)`;
}

function ordering(
  field: string,
  operator: string,
  fieldName: string,
  value: unknown,
  params: SqlParams,
): string {
  if (value === null || value === undefined) return never(field);
  const date = dateText(value) ?? (typeof value === "string" ? value : undefined);
  const mismatch = (what: string) =>
    raise(
      field,
      `field "${fieldName}": cannot compare ${what} using '${operator}'. Strings are only comparable if they are ISO formatted dates; numbers compare with numbers.`,
      params,
    );
  if (date !== undefined) {
    const compare = sqlCompareDates(field, operator, params.add(date, "text"), hasOffset(date));
    return `(CASE WHEN ${isNull(field)} THEN false WHEN ${sqlIsIsoDate(field)} THEN ${compare} ELSE ${mismatch("a stored value that is not an ISO date with a date")} END)`;
  }
  const number = params.add(typeof value === "boolean" ? Number(value) : value, "numeric");
  return `(CASE WHEN ${isNull(field)} THEN false WHEN jsonb_typeof(${field}) = 'number' THEN (${field})::numeric ${operator} ${number} WHEN jsonb_typeof(${field}) = 'boolean' THEN (${field})::boolean::int ${operator} ${number} ELSE ${mismatch("a stored value that is not a number with a number")} END)`;
}

/**
 * The operators of Haystack's pgvector store, on jsonb and never NULL: `like` / `not like` match the
 * stored scalar's text (a missing field matches neither, as SQL's `NULL LIKE` is not true);
 * `array_contains` is jsonb containment (`@>`), `array_overlaps` is `?|` on arrays only.
 */
function pgvectorOperator(field: string, operator: string, value: unknown, params: SqlParams): string {
  switch (operator) {
    case "like":
    case "not like": {
      const text = `(CASE WHEN jsonb_typeof(${field}) IN ('string', 'number', 'boolean') THEN ${field} #>> '{}' END)`;
      return `COALESCE(${text} ${operator === "like" ? "LIKE" : "NOT LIKE"} ${params.add(value, "text")}, false)`;
    }
    case "array_contains":
      return `COALESCE(${field} @> ${params.add(JSON.stringify(value), "jsonb")}, false)`;
    default:
      return `COALESCE(jsonb_typeof(${field}) = 'array' AND ${field} ?| ${params.add(value, "text[]")}, false)`;
  }
}

function comparison(filter: PgvectorComparison, params: SqlParams, columns: FilterColumns): string {
  const field = fieldExpression(filter.field, params, columns);
  const { operator, value } = filter;
  switch (operator) {
    case "like":
    case "not like":
    case "array_contains":
    case "array_overlaps":
      return pgvectorOperator(field, operator, value, params);
    case "==":
      return equalsAny(field, [value], params);
    case "!=":
      return `(NOT ${equalsAny(field, [value], params)})`;
    case "in":
      return equalsAny(field, value as readonly unknown[], params);
    case "not in":
      return `(NOT ${equalsAny(field, value as readonly unknown[], params)})`;
    default:
      return ordering(field, operator, filter.field, value, params);
  }
}

function logical(
  filter: { readonly operator: "AND" | "OR" | "NOT"; readonly conditions: readonly PgvectorFilter[] },
  params: SqlParams,
  columns: FilterColumns,
): string {
  const parts = filter.conditions.map((condition) => filterToSql(condition, params, columns));
  if (filter.operator === "OR") return parts.length === 0 ? "false" : `(${parts.join(" OR ")})`;
  const all = parts.length === 0 ? "true" : `(${parts.join(" AND ")})`;
  return filter.operator === "NOT" ? `(NOT ${all})` : all;
}

/**
 * Compiles a validated Haystack filter into a boolean SQL expression with the semantics of
 * `documentMatchesFilter`. Every value and meta path is a parameter. Comparisons are typed with
 * `jsonb_typeof` (numbers with numbers, ISO dates as instants), not cast by the filter value's type, so
 * a float such as 0.1 matches and an odd stored value cannot break the cast. Every leaf is TRUE or
 * FALSE, never NULL, so `NOT` and `!=` match a missing field as Haystack's do. Ordering a stored value
 * that cannot be ordered raises an error marked with {@link filterErrorMarker}, as the in-memory store
 * throws a FilterError.
 *
 * Haystack's pgvector-only operators (`like`, `not like`, `array_contains`, `array_overlaps`) compile
 * as its store runs them, with every leaf still TRUE or FALSE.
 *
 * @param filter - the filter, already checked by `validatePgvectorFilter`
 * @param params - where the parameters go
 * @param columns - how the embedding column reads as jsonb
 */
export function filterToSql(filter: PgvectorFilter, params: SqlParams, columns: FilterColumns): string {
  if ("field" in filter) return comparison(filter, params, columns);
  return logical(filter, params, columns);
}
