import type { Issue } from "@junction/core";
import { ByteStream } from "../document/byte-stream.js";
import type { Document } from "../document/document.js";
import { FilterError } from "./filter-error.js";
import type { ComparisonFilter, ComparisonOperator, Filter, LogicalFilter } from "./filter-types.js";
import { looksLikeIsoDate } from "./iso-date.js";
import { filterEquals, OrderingProblem, pythonOrder } from "./python-values.js";
import { byteStreamFilterFields, documentFilterFields, filterIssues } from "./validate-filter.js";

/** What a filter can be matched against: a document, or a byte stream (its `data`, `meta`, `mime_type`). */
export type FilterTarget = Document | ByteStream;

/** A compiled filter: true when the document (or byte stream) matches. */
export type FilterPredicate = (target: FilterTarget) => boolean;

type Path = readonly (string | number)[];

/**
 * Validates `filter` once and returns a predicate for it, for matching many documents without
 * re-checking the filter each time (stores use it on their scan path). The filter is checked against
 * a document's fields; for byte streams use {@link documentMatchesFilter}.
 *
 * @param filter - a filter in Haystack's syntax
 * @returns a predicate that throws {@link FilterError} only for a comparison the data makes impossible
 *   (ordering a stored string that is not an ISO date)
 * @throws FilterError when the filter is malformed (see `validateFilter`)
 * @example
 * ```ts
 * const matches = compileFilter({ field: "meta.year", operator: ">=", value: 2020 });
 * const recent = documents.filter(matches);
 * ```
 */
export function compileFilter(filter: Filter | Readonly<Record<string, unknown>>): FilterPredicate {
  const issues = filterIssues(filter, documentFilterFields);
  if (issues.length > 0) throw FilterError.fromIssues(issues);
  return compileNode(filter as Filter, []);
}

/**
 * Whether `document` matches `filter`, with Haystack's semantics (`haystack/utils/filters.py`):
 * - fields: `content`, `id`, `score`, `embedding`, `blob`, `sparse_embedding`; `meta.a.b` walks nested
 *   metadata objects; a bare name that is not a field reads `meta` (`"lang"` is `"meta.lang"`); a
 *   missing key (or a path through a non-object) reads as null;
 * - `==`: deep equality (`1 == 1.0`, `true == 1`, lists and objects element by element), or two ISO
 *   dates at the same instant (a date without offset takes the other's); `!=` is "not `==`", so a
 *   missing field matches `!=`;
 * - `in`: equal to one of the listed values; `not in`: equal to none, so a missing field matches it;
 * - `> >= < <=`: false when either side is null or missing; when either side is a string both must be
 *   ISO dates (compared as instants), else FilterError; numbers and booleans compare as numbers;
 * - `AND` all, `OR` any, `NOT` = not all.
 *
 * @param filter - a filter in Haystack's syntax (validated first; see `validateFilter`)
 * @param document - a document or a byte stream
 * @throws FilterError when the filter is malformed or a comparison cannot be made
 */
export function documentMatchesFilter(
  filter: Filter | Readonly<Record<string, unknown>>,
  document: FilterTarget,
): boolean {
  const fields = document instanceof ByteStream ? byteStreamFilterFields : documentFilterFields;
  const issues: Issue[] = filterIssues(filter, fields);
  if (issues.length > 0) throw FilterError.fromIssues(issues);
  return compileNode(filter as Filter, [])(document);
}

type Matcher = (target: FilterTarget) => boolean;

function compileNode(filter: Filter, path: Path): Matcher {
  if ("field" in filter) return compileComparison(filter, path);
  return compileLogical(filter, path);
}

function compileLogical(filter: LogicalFilter, path: Path): Matcher {
  const parts = filter.conditions.map((condition, index) =>
    compileNode(condition, [...path, "conditions", index]),
  );
  const all: Matcher = (target) => {
    for (const part of parts) if (!part(target)) return false;
    return true;
  };
  switch (filter.operator) {
    case "AND":
      return all;
    case "OR":
      return (target) => {
        for (const part of parts) if (part(target)) return true;
        return false;
      };
    case "NOT":
      return (target) => !all(target);
  }
}

function compileComparison(filter: ComparisonFilter, path: Path): Matcher {
  const read = fieldReader(filter.field);
  const compare = comparison(filter.operator, filter.value, filter.field, path);
  return (target) => compare(read(target));
}

function comparison(
  operator: ComparisonOperator,
  filterValue: unknown,
  field: string,
  path: Path,
): (value: unknown) => boolean {
  switch (operator) {
    case "==":
      return (value) => filterEquals(value, filterValue);
    case "!=":
      return (value) => !filterEquals(value, filterValue);
    case "in": {
      const isMember = membership(filterValue as readonly unknown[]);
      return (value) => isMember(value);
    }
    case "not in": {
      const isMember = membership(filterValue as readonly unknown[]);
      return (value) => !isMember(value);
    }
    case ">":
      return ordering(filterValue, field, path, (order) => order > 0);
    case ">=":
      return ordering(filterValue, field, path, (order) => order >= 0);
    case "<":
      return ordering(filterValue, field, path, (order) => order < 0);
    case "<=":
      return ordering(filterValue, field, path, (order) => order <= 0);
  }
}

/**
 * Whether a value equals an element of `list` (`filterEquals`), in constant time for the usual
 * elements: numbers and booleans (`true == 1`, as in Python) and strings that are not ISO dates go
 * into sets; only the others (null, lists, objects, dates, NaN, bigints) are compared one by one. A
 * list of 100k ids against a store of 100k documents is 100k lookups, not 10^10 comparisons.
 */
function membership(list: readonly unknown[]): (value: unknown) => boolean {
  const numbers = new Set<number>();
  const strings = new Set<string>();
  const others: unknown[] = [];
  for (const element of list) {
    if (typeof element === "boolean") numbers.add(Number(element));
    else if (typeof element === "number" && !Number.isNaN(element)) numbers.add(element);
    else if (typeof element === "string" && !looksLikeIsoDate(element)) strings.add(element);
    else others.push(element);
  }
  const slow = (value: unknown) => others.some((element) => filterEquals(element, value));
  return (value) => {
    if (typeof value === "number" || typeof value === "boolean") {
      if (numbers.has(Number(value))) return true;
    } else if (typeof value === "string") {
      if (strings.has(value)) return true;
    } else if (typeof value === "bigint") {
      // A bigint equals a number of the same value; rare, so compared with every element.
      return list.some((element) => filterEquals(element, value));
    }
    return slow(value);
  };
}

function ordering(
  filterValue: unknown,
  field: string,
  path: Path,
  accept: (order: number) => boolean,
): (value: unknown) => boolean {
  return (value) => {
    const order = pythonOrder(value, filterValue);
    if (order === undefined) return false;
    if (order instanceof OrderingProblem) {
      throw new FilterError(`Filter: ${formatAt(path)}field "${field}": ${order.message}`, { path });
    }
    return accept(order);
  };
}

function formatAt(path: Path): string {
  if (path.length === 0) return "";
  let out = "";
  for (const part of path) out += typeof part === "number" ? `[${part}]` : out === "" ? part : `.${part}`;
  return `${out}: `;
}

/** How a field name reads a value from a document or byte stream (Haystack's field resolution). */
function fieldReader(field: string): (target: FilterTarget) => unknown {
  const dot = field.indexOf(".");
  if (dot === -1) {
    return (target) => {
      const names = target instanceof ByteStream ? byteStreamFilterFields : documentFilterFields;
      return names.includes(field) ? readField(target, field) : ownValue(target.meta, field);
    };
  }
  const root = field.slice(0, dot);
  const parts = field.slice(dot + 1).split(".");
  return (target) => {
    let current: unknown = readField(target, root);
    for (const part of parts) {
      if (!isDict(current)) return null;
      current = ownValue(current, part);
      if (current === undefined) return null;
    }
    return current;
  };
}

function readField(target: FilterTarget, field: string): unknown {
  if (target instanceof ByteStream) {
    if (field === "data") return target.data;
    if (field === "mime_type") return target.mimeType ?? null;
    return field === "meta" ? target.meta : undefined;
  }
  switch (field) {
    case "id":
      return target.id;
    case "content":
      return target.content ?? null;
    case "blob":
      return target.blob ?? null;
    case "meta":
      return target.meta;
    case "score":
      return target.score ?? null;
    case "embedding":
      return target.embedding ?? null;
    case "sparse_embedding":
      return target.sparseEmbedding ?? null;
    default:
      return undefined;
  }
}

function ownValue(record: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** Python's `isinstance(x, dict)` for JSON-like values: a plain object. */
function isDict(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
