/** Formatting helpers for error messages. */

import { excerpt } from "@junction/core";

export { formatPath } from "@junction/core";

/** Quotes names for a message: `"a", "b"` (at most 20, each a bounded excerpt); `none` for an empty list. */
export function quoteList(names: Iterable<string>): string {
  const all = [...names];
  const quoted = all.slice(0, 20).map((name) => `"${excerpt(name)}"`);
  if (quoted.length === 0) return "none";
  return all.length > 20 ? `${quoted.join(", ")} and ${all.length - 20} more` : quoted.join(", ");
}

/** A short description of a value's type for error messages. */
export function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "bigint") return "an int";
  if (typeof value === "object") return "a map";
  return `a ${typeof value}`;
}
