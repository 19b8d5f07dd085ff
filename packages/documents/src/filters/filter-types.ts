/** A comparison operator of Haystack's filter syntax. */
export type ComparisonOperator = "==" | "!=" | ">" | ">=" | "<" | "<=" | "in" | "not in";

/** A logical operator of Haystack's filter syntax (`NOT` is "not all of"). */
export type LogicalOperator = "AND" | "OR" | "NOT";

/**
 * `{ field, operator, value }`: compares a document field (`content`, `id`, `score`, `meta.a.b`, or a
 * bare meta key) with a value.
 */
export interface ComparisonFilter {
  readonly field: string;
  readonly operator: ComparisonOperator;
  readonly value: unknown;
}

/** `{ operator, conditions }`: combines filters with `AND`, `OR` or `NOT`. */
export interface LogicalFilter {
  readonly operator: LogicalOperator;
  readonly conditions: readonly Filter[];
}

/** A filter in Haystack's syntax, unchanged. */
export type Filter = ComparisonFilter | LogicalFilter;
