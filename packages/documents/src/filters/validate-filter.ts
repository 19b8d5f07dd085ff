import type { Issue } from "@junction/core";
import { FilterError } from "./filter-error.js";
import type { ComparisonOperator, Filter, LogicalOperator } from "./filter-types.js";
import { parseIsoDate } from "./iso-date.js";

/** Every comparison operator, in Haystack's spelling. */
export const comparisonOperators = [
  "==",
  "!=",
  ">",
  ">=",
  "<",
  "<=",
  "in",
  "not in",
] as const satisfies readonly ComparisonOperator[];

/** Every logical operator (`NOT` means "not all of"). */
export const logicalOperators = ["AND", "OR", "NOT"] as const satisfies readonly LogicalOperator[];

/** The fields of a `Document`, by the names filters use (a dotted path must start with one of them). */
export const documentFilterFields: readonly string[] = [
  "id",
  "content",
  "blob",
  "meta",
  "score",
  "embedding",
  "sparse_embedding",
];

/** The fields of a `ByteStream`, by the names filters use. */
export const byteStreamFilterFields: readonly string[] = ["data", "meta", "mime_type"];

const orderingOperators = new Set<string>([">", ">=", "<", "<="]);

/**
 * How many levels of nested `conditions` a filter may have (a filter is checked and matched
 * recursively, so a filter nested thousands of levels deep, for example from a request body, would
 * otherwise overflow the stack). Real filters are a few levels deep.
 */
export const maxFilterDepth = 100;

/**
 * Checks that `filter` is a well-formed filter in Haystack's syntax and returns it unchanged, typed.
 * Every problem is collected (each with its path inside the filter) and reported in one
 * {@link FilterError}:
 * - a filter that is not an object; a comparison (an object with `field`) without `operator` or
 *   `value`, with an unknown operator, or with a `field` that is not a non-empty string;
 * - a logical filter (any object without `field`) without `operator` or `conditions`, with an unknown
 *   operator, or whose `conditions` is not a list;
 * - `in` / `not in` with a value that is not a list;
 * - `> >= < <=` with a list or object value, or a string value that is not an ISO 8601 date;
 * - a dotted field whose root is not a document field (`foo.bar`; write `meta.foo.bar`).
 *
 * Haystack finds most of these only while matching (and not at all in branches it never evaluates);
 * Junction rejects them before any document is looked at, so an empty store reports them too.
 *
 * @param filter - the filter to check (for example parsed from JSON)
 * @returns the same object, typed as a {@link Filter}
 * @throws FilterError listing every problem
 * @example
 * ```ts
 * validateFilter({ operator: "AND", conditions: [{ field: "meta.lang", operator: "==", value: "en" }] });
 * ```
 */
export function validateFilter(filter: unknown): Filter {
  const issues = filterIssues(filter);
  if (issues.length > 0) throw FilterError.fromIssues(issues);
  return filter as Filter;
}

/**
 * The problems {@link validateFilter} would report, without throwing (an empty list for a valid filter).
 *
 * @param filter - the filter to check
 * @param fields - the field names a dotted path may start with (a document's by default)
 */
export function filterIssues(filter: unknown, fields: readonly string[] = documentFilterFields): Issue[] {
  const issues: Issue[] = [];
  visit(filter, [], issues, fields, 0);
  return issues;
}

function visit(
  node: unknown,
  path: (string | number)[],
  issues: Issue[],
  fields: readonly string[],
  depth: number,
): void {
  if (depth > maxFilterDepth) {
    issues.push({
      path,
      message: `the filter is nested more than ${maxFilterDepth} levels deep (the limit, maxFilterDepth). Flatten it: AND and OR take any number of conditions.`,
    });
    return;
  }
  if (typeof node !== "object" || node === null || Array.isArray(node)) {
    issues.push({
      path,
      message: `a filter must be an object, { field, operator, value } or { operator, conditions }; got ${kindOf(node)}.`,
    });
    return;
  }
  const record = node as Record<string, unknown>;
  if ("field" in record) visitComparison(record, path, issues, fields);
  else visitLogical(record, path, issues, fields, depth);
}

function visitComparison(
  record: Record<string, unknown>,
  path: (string | number)[],
  issues: Issue[],
  fields: readonly string[],
): void {
  const { field, operator, value } = record;
  if (typeof field !== "string" || field === "") {
    issues.push({
      path: [...path, "field"],
      message: `"field" must be a non-empty string such as "meta.lang"; got ${kindOf(field)}.`,
    });
  } else if (field.includes(".")) {
    const root = field.slice(0, field.indexOf("."));
    if (!fields.includes(root)) {
      issues.push({
        path: [...path, "field"],
        message: `"${field}" starts with "${root}", which is not a field (${fields.join(", ")}). Write "meta.${field}" for a metadata key.`,
      });
    }
  }
  if (!("operator" in record)) {
    issues.push({
      path,
      message: `'operator' key missing in a comparison. Add one of ${comparisonOperators.map((o) => `"${o}"`).join(", ")}.`,
    });
  } else if (!(comparisonOperators as readonly unknown[]).includes(operator)) {
    issues.push({
      path: [...path, "operator"],
      message: `unknown comparison operator ${kindOf(operator)}. Valid operators are: ${comparisonOperators.map((o) => `"${o}"`).join(", ")}.`,
    });
  }
  if (!("value" in record) || value === undefined) {
    issues.push({
      path,
      message: `'value' key missing in a comparison. Add "value" (null compares with missing fields).`,
    });
    return;
  }
  if (operator === "in" || operator === "not in") {
    if (!Array.isArray(value)) {
      issues.push({
        path: [...path, "value"],
        message: `"${operator}" needs a list value; got ${kindOf(value)}. Write the value as a list, e.g. ["a", "b"].`,
      });
    }
  } else if (typeof operator === "string" && orderingOperators.has(operator)) {
    if (Array.isArray(value) || (typeof value === "object" && value !== null && !(value instanceof Date))) {
      issues.push({
        path: [...path, "value"],
        message: `"${operator}" cannot compare with ${kindOf(value)}. Compare with a number or an ISO formatted date.`,
      });
    } else if (typeof value === "string" && parseIsoDate(value) === undefined) {
      issues.push({
        path: [...path, "value"],
        message: `"${operator}" cannot compare with the string ${JSON.stringify(value)}. Strings are only comparable if they are ISO formatted dates (2024-05-01 or 2024-05-01T12:00:00+02:00).`,
      });
    }
  }
}

function visitLogical(
  record: Record<string, unknown>,
  path: (string | number)[],
  issues: Issue[],
  fields: readonly string[],
  depth: number,
): void {
  const { operator, conditions } = record;
  if (!("operator" in record)) {
    const keys = Object.keys(record);
    if (!("conditions" in record) && keys.length > 0 && !keys.includes("value")) {
      issues.push({
        path,
        message: `a filter needs "field" and "operator" (or "operator" and "conditions"); { "${keys[0]}": … } is Haystack 1.x syntax. Write { field: "meta.${keys[0]}", operator: "==", value: … } instead.`,
      });
      return;
    }
    const hint = "value" in record ? ` It has "value" but no "field": a comparison needs "field".` : "";
    issues.push({
      path,
      message: `'operator' key missing in a logical filter.${hint} Add "operator": "AND", "OR" or "NOT".`,
    });
  } else if (!(logicalOperators as readonly unknown[]).includes(operator)) {
    const hint = (comparisonOperators as readonly unknown[]).includes(operator)
      ? ` A comparison needs "field".`
      : "";
    issues.push({
      path: [...path, "operator"],
      message: `unknown logical operator ${kindOf(operator)}. Valid operators are: "AND", "OR", "NOT".${hint}`,
    });
  }
  if (!("conditions" in record)) {
    issues.push({
      path,
      message: `'conditions' key missing in a logical filter. Add "conditions": a list of filters.`,
    });
    return;
  }
  if (!Array.isArray(conditions)) {
    issues.push({
      path: [...path, "conditions"],
      message: `"conditions" must be a list of filters; got ${kindOf(conditions)}.`,
    });
    return;
  }
  conditions.forEach((condition, index) => {
    visit(condition, [...path, "conditions", index], issues, fields, depth + 1);
  });
}

/** A short description of a value's kind for messages. */
export function kindOf(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "string")
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === "object") return value instanceof Date ? "a date" : "an object";
  return `the ${typeof value} ${String(value)}`;
}
