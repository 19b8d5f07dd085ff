import type { Issue } from "@junction/core";
import {
  type ComparisonFilter,
  type Filter,
  FilterError,
  filterIssues,
  filterJSONSchema,
  maxFilterDepth,
} from "@junction/documents";
import { z } from "zod";

/**
 * The comparison operators Haystack's pgvector store adds to the core filter language: `like` /
 * `not like` (SQL `LIKE` patterns, `%` and `_`), `array_contains` (a meta array holds every given value)
 * and `array_overlaps` (a meta array holds at least one of the given strings).
 */
export const pgvectorOperators = ["like", "not like", "array_contains", "array_overlaps"] as const;

/** One of {@link pgvectorOperators}. */
export type PgvectorOperator = (typeof pgvectorOperators)[number];

/** `{ field, operator, value }` with one of the pgvector-only operators. */
export interface PgvectorComparisonFilter {
  readonly field: string;
  readonly operator: PgvectorOperator;
  readonly value: unknown;
}

/** A comparison of the core language or with a pgvector-only operator. */
export type PgvectorComparison = ComparisonFilter | PgvectorComparisonFilter;

/**
 * A filter for `PgvectorDocumentStore` and its retrievers: Haystack's filter syntax plus the operators
 * of Haystack's pgvector store ({@link pgvectorOperators}), at any depth under `AND` / `OR` / `NOT`.
 */
export type PgvectorFilter =
  | Filter
  | PgvectorComparisonFilter
  | { readonly operator: "AND" | "OR" | "NOT"; readonly conditions: readonly PgvectorFilter[] };

const isPgvectorOperator = (operator: unknown): operator is PgvectorOperator =>
  (pgvectorOperators as readonly unknown[]).includes(operator);

/** A comparison every core check accepts, standing in for a checked pgvector-only comparison. */
const placeholder = { field: "id", operator: "==", value: null };

function extraOperatorIssues(record: Record<string, unknown>, path: (string | number)[]): Issue[] {
  const { field, operator, value } = record;
  const at = (key: string): (string | number)[] => [...path, key];
  const issues: Issue[] = [];
  if (typeof field !== "string" || field === "") {
    issues.push({ path: at("field"), message: "'field' must be a non-empty string." });
  }
  if (!("value" in record)) {
    issues.push({ path: at("value"), message: `'value' key missing in a "${String(operator)}" comparison.` });
    return issues;
  }
  if (operator === "like" || operator === "not like") {
    if (typeof value !== "string") {
      issues.push({
        path: at("value"),
        message: `"${operator}" needs a string pattern ('%' any text, '_' one character), got ${JSON.stringify(value) ?? String(value)}.`,
      });
    }
    return issues;
  }
  if (typeof field === "string" && !field.startsWith("meta.")) {
    issues.push({
      path: at("field"),
      message: `"${String(operator)}" works only on meta fields, got "${field}". Prefix the field with "meta." to filter on an array stored in a document's metadata.`,
    });
  }
  if (!Array.isArray(value) || value.length === 0) {
    issues.push({
      path: at("value"),
      message: `"${String(operator)}" needs a non-empty list of values (an empty list would match everything or nothing). Leave the condition out instead.`,
    });
  } else if (operator === "array_overlaps" && !value.every((item) => typeof item === "string")) {
    issues.push({
      path: at("value"),
      message: '"array_overlaps" needs a list of strings (jsonb ?| matches string elements only).',
    });
  }
  return issues;
}

/** A copy of `filter` where every pgvector-only comparison is checked and replaced by a placeholder. */
function substitute(filter: unknown, path: (string | number)[], issues: Issue[], depth: number): unknown {
  if (typeof filter !== "object" || filter === null || Array.isArray(filter) || depth > maxFilterDepth)
    return filter;
  const record = filter as Record<string, unknown>;
  if ("field" in record) {
    if (!isPgvectorOperator(record.operator)) return filter;
    issues.push(...extraOperatorIssues(record, path));
    return placeholder;
  }
  if (!Array.isArray(record.conditions)) return filter;
  return {
    ...record,
    conditions: record.conditions.map((condition, index) =>
      substitute(condition, [...path, "conditions", index], issues, depth + 1),
    ),
  };
}

/**
 * The problems of a pgvector filter: the core checks (`filterIssues`) plus those of the pgvector-only
 * operators — `like` / `not like` need a string, `array_contains` / `array_overlaps` a `meta.` field and
 * a non-empty list (`array_overlaps` of strings), as Haystack's pgvector store requires.
 *
 * @param filter - the filter to check
 */
export function pgvectorFilterIssues(filter: unknown): Issue[] {
  const issues: Issue[] = [];
  const core = substitute(filter, [], issues, 0);
  return [...filterIssues(core), ...issues];
}

/**
 * Checks a filter for `PgvectorDocumentStore` and returns it typed.
 *
 * @throws FilterError listing every problem
 */
export function validatePgvectorFilter(filter: unknown): PgvectorFilter {
  const issues = pgvectorFilterIssues(filter);
  if (issues.length > 0) throw FilterError.fromIssues(issues);
  return filter as PgvectorFilter;
}

function isEmptyObject(value: unknown): boolean {
  return (
    typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).length === 0
  );
}

/** `filterJSONSchema` with the pgvector-only operators added to every comparison's operator list. */
function withPgvectorOperators(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withPgvectorOperators);
  if (typeof schema !== "object" || schema === null) return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) copy[key] = withPgvectorOperators(value);
  if (Array.isArray(copy.enum) && copy.enum.includes("==")) copy.enum = [...copy.enum, ...pgvectorOperators];
  return copy;
}

/**
 * The zod schema of a {@link PgvectorFilter} (the retrievers' `filters` socket and param): it runs
 * the core checks plus those of the pgvector-only operators (`{}` is no filter, as for `filterSchema`),
 * and writes as the core filter JSON Schema with the extra operators.
 */
export const pgvectorFilterSchema: z.ZodType<PgvectorFilter> = z
  .unknown()
  .superRefine((value, context) => {
    // `{}` is no filter, as for `filterSchema` (Haystack's `filters or self.filters`).
    if (isEmptyObject(value)) return;
    for (const issue of pgvectorFilterIssues(value)) {
      context.addIssue({ code: "custom", message: issue.message, path: [...issue.path], input: value });
    }
  })
  .meta({
    ...(withPgvectorOperators(filterJSONSchema) as Record<string, unknown>),
  }) as unknown as z.ZodType<PgvectorFilter>;
