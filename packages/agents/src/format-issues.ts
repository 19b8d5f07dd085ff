import type { Issue } from "@junction/core";

function formatPath(path: readonly (string | number)[]): string {
  let out = "";
  for (const part of path) out += typeof part === "number" ? `[${part}]` : out === "" ? part : `.${part}`;
  return out;
}

/** Formats issues as an indented list, one per line, each with its path (core keeps its own copy internal). */
export function formatIssues(issues: readonly Issue[]): string {
  return issues
    .map((issue) => `  - ${issue.path.length > 0 ? `${formatPath(issue.path)}: ` : ""}${issue.message}`)
    .join("\n");
}
