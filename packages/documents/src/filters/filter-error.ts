import { formatIssues, formatPath, type Issue, JunctionError } from "@junction/core";

/** Fields of a {@link FilterError}. */
export interface FilterErrorFields {
  /** Where in the filter the (first) problem is, as a path (`["conditions", 1, "value"]`). */
  readonly path?: readonly (string | number)[] | undefined;
  /** Every problem found, each with its path inside the filter. */
  readonly issues?: readonly Issue[] | undefined;
  /** The underlying error. */
  readonly cause?: unknown;
}

/**
 * A filter is malformed (missing `operator` / `conditions` / `value` / `field`, an unknown operator,
 * `in` without a list), or a comparison cannot be made (ordering a string that is not an ISO date).
 * Haystack raises `FilterError` for the same cases; Junction also raises it where Haystack raises a
 * Python `AttributeError` or `TypeError` (an unknown dotted field root, ordering a list).
 *
 * @example
 * ```ts
 * try { validateFilter({ field: "meta.lang", operator: "in", value: "en" }); } catch (error) {
 *   if (error instanceof FilterError) error.path; // "value"
 * }
 * ```
 */
export class FilterError extends JunctionError {
  /** Where in the filter the (first) problem is, formatted like `conditions[1].value` (`""` for the root). */
  readonly path: string;

  /**
   * @param message - what is wrong, where, and how to fix it
   * @param fields - the path inside the filter, every issue, the cause
   */
  constructor(message: string, fields: FilterErrorFields = {}) {
    super("FILTER_ERROR", message, { issues: fields.issues, cause: fields.cause });
    this.path = formatPath(fields.path ?? fields.issues?.[0]?.path ?? []);
  }

  /** A `FilterError` listing every issue (`Filter: 2 problems: ...`). */
  static fromIssues(issues: readonly Issue[]): FilterError {
    const first = issues[0];
    if (issues.length === 1 && first !== undefined) {
      return new FilterError(`Filter: ${describeIssue(first)}`, { issues, path: first.path });
    }
    return new FilterError(`Filter: ${issues.length} problems:\n${formatIssues(issues)}`, {
      issues,
      path: first?.path,
    });
  }
}

function describeIssue(issue: Issue): string {
  return issue.path.length === 0 ? issue.message : `${formatPath(issue.path)}: ${issue.message}`;
}
