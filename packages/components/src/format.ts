/** Formatting helpers for error messages. */

export { formatPath } from "@junction/core";

/** Quotes names for a message: `"a", "b"`; `none` for an empty list. */
export function quoteList(names: Iterable<string>): string {
  const quoted = [...names].map((name) => `"${name}"`);
  return quoted.length === 0 ? "none" : quoted.join(", ");
}

/** A short description of a value's type for error messages. */
export function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "bigint") return "an int";
  if (typeof value === "object") return "a map";
  return `a ${typeof value}`;
}
