import { PipelineValidationError } from "@junction/core";

/**
 * The deepest nesting of objects and arrays a request may have. Inputs are copied, validated and
 * written out by recursive code; a body of a few kilobytes nested thousands of levels deep would
 * exhaust the stack there. Real requests (chat messages with tool calls, documents with metadata) stay
 * far below this.
 */
export const maxRequestDepth = 64;

/**
 * Refuses a value nested deeper than `maxDepth` objects and arrays with a `PipelineValidationError`
 * (answered 400), walking it with an explicit stack so the check itself cannot overflow. Class
 * instances (a `ChatMessage` built by the server) are not entered: only parsed JSON is untrusted.
 *
 * @param value - a parsed request body or its inputs
 * @param where - names the request in the message (`"the request body"`)
 * @param maxDepth - the limit (default {@link maxRequestDepth})
 */
export function checkDepth(value: unknown, where: string, maxDepth = maxRequestDepth): void {
  if (typeof value !== "object" || value === null) return;
  const values: unknown[] = [value];
  const depths: number[] = [1];
  while (values.length > 0) {
    const current = values.pop() as object;
    const depth = depths.pop() as number;
    if (depth > maxDepth) {
      throw new PipelineValidationError(
        `${where} is nested more than ${maxDepth} levels deep (objects and arrays); the server refuses deeper values. Flatten the value or send it as a string.`,
        { issues: [{ path: [], message: `nested more than ${maxDepth} levels deep.` }] },
      );
    }
    if (Array.isArray(current)) {
      for (const item of current) {
        if (typeof item === "object" && item !== null) {
          values.push(item);
          depths.push(depth + 1);
        }
      }
      continue;
    }
    const prototype = Object.getPrototypeOf(current);
    if (prototype !== Object.prototype && prototype !== null) continue;
    for (const key in current) {
      const item = (current as Record<string, unknown>)[key];
      if (typeof item === "object" && item !== null) {
        values.push(item);
        depths.push(depth + 1);
      }
    }
  }
}
