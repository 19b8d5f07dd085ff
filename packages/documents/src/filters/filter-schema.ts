import { z } from "zod";
import type { Filter } from "./filter-types.js";
import { comparisonOperators, filterIssues, logicalOperators } from "./validate-filter.js";

/** How many levels of nested `conditions` the JSON Schema spells out (deeper levels are checked by {@link filterSchema}). */
const describedDepth = 4;

function comparisonJSONSchema(): Record<string, unknown> {
  return {
    type: "object",
    description: "Compares a document field (content, id, score, meta.a.b or a bare meta key) with a value.",
    properties: {
      field: {
        type: "string",
        minLength: 1,
        description: 'A document field: "content", "id", "meta.lang", ...',
      },
      operator: { type: "string", enum: [...comparisonOperators] },
      value: {
        description: "The value to compare with; a list for in / not in; null matches missing fields.",
      },
    },
    required: ["field", "operator", "value"],
  };
}

function levelJSONSchema(depth: number): Record<string, unknown> {
  const conditions = depth === 0 ? { type: "object" } : levelJSONSchema(depth - 1);
  return {
    anyOf: [
      comparisonJSONSchema(),
      {
        type: "object",
        description: "Combines filters: AND (all), OR (any), NOT (not all).",
        properties: {
          operator: { type: "string", enum: [...logicalOperators] },
          conditions: { type: "array", items: conditions },
        },
        required: ["operator", "conditions"],
      },
    ],
  };
}

/**
 * The JSON Schema (draft 2020-12) of a filter, for served endpoints, tools and editors. It spells out
 * four levels of nested `conditions` without `$ref`, so it can be embedded anywhere (a socket's schema,
 * an OpenAPI document) as is. It checks the shape; `validateFilter` also checks what JSON Schema cannot
 * say simply (`in` needs a list, ordering needs a number or an ISO date, field roots).
 */
export const filterJSONSchema: Readonly<Record<string, unknown>> = {
  title: "Filter",
  description:
    "A document filter in Haystack's syntax: { field, operator, value } or { operator, conditions }; {} for none.",
  anyOf: [
    ...((levelJSONSchema(describedDepth).anyOf as unknown[]) ?? []),
    { type: "object", maxProperties: 0, description: "No filter (Haystack reads an empty dict so)." },
  ],
};

function isEmptyObject(value: unknown): boolean {
  return (
    typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).length === 0
  );
}

/**
 * The zod schema of a filter in Haystack's syntax. It accepts exactly what `validateFilter` accepts
 * (the same checks run inside it, so its issues carry the same paths and messages), plus `{}`, which
 * means no filter (as `filterDocuments({})` and Haystack's `if filters:` read it) and passes the
 * filter through unchanged; written as JSON Schema (`z.toJSONSchema`, socket schemas) it is
 * {@link filterJSONSchema}. Use it for socket and tool schemas so a filter is checked before a store
 * sees it.
 *
 * @example
 * ```ts
 * filterSchema.parse({ field: "meta.lang", operator: "==", value: "en" });
 * ```
 */
export const filterSchema: z.ZodType<Filter> = z
  .unknown()
  .superRefine((value, context) => {
    if (isEmptyObject(value)) return; // {} is no filter, as Haystack's `if filters:` reads it
    for (const issue of filterIssues(value)) {
      context.addIssue({ code: "custom", message: issue.message, path: [...issue.path], input: value });
    }
  })
  .meta({ ...filterJSONSchema }) as unknown as z.ZodType<Filter>;
