import type { Issue } from "@junction/core";

export { formatIssues } from "@junction/core";

/** Internal: `"1 problem"` / `"3 problems"`. */
export function problems(issues: readonly Issue[]): string {
  return `${issues.length} problem${issues.length === 1 ? "" : "s"}`;
}
