import type { Issue } from "@junction/core";

/** Internal: formats issues as an indented list `  - path: message` (core keeps its own copy private). */
export function formatIssues(issues: readonly Issue[]): string {
  return issues
    .map((issue) => `  - ${issue.path.length > 0 ? `${formatPath(issue.path)}: ` : ""}${issue.message}`)
    .join("\n");
}

function formatPath(path: readonly (string | number)[]): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out === "" ? part : `.${part}`;
  }
  return out;
}

/** Internal: `"1 problem"` / `"3 problems"`. */
export function problems(issues: readonly Issue[]): string {
  return `${issues.length} problem${issues.length === 1 ? "" : "s"}`;
}
