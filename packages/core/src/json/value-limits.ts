/**
 * How deeply the values of a run may nest. Every walker of a value a caller or a model supplies
 * (copying run inputs, writing snapshots and journals, hashing decisions) is bounded by this one figure,
 * so a hostile value is refused with an error that names it instead of exhausting the call stack.
 */

/**
 * The deepest nesting of objects and arrays (Maps and Sets count as levels too) a value may have inside a
 * run started from code: a run input, a value one component sends another, a resume decision. `1` is
 * `{ a: 1 }`, `2` is `{ a: [1] }`. Deeper values are refused with an error naming the socket and this
 * limit; serve refuses request bodies nested deeper than 64 levels before they reach a run.
 *
 * Why 1,000: far beyond any real document or conversation, and small enough that the recursive walkers
 * behind a run (zod's validation, `JSON.stringify`, template engines) stay well inside the stack.
 */
export const maxValueDepth = 1_000;

/**
 * Levels a snapshot or a journal entry adds around a run's value: the snapshot's own structure
 * (run → sockets → component → socket → entry) and the Agent's State around a socket value.
 */
export const snapshotStructureDepth = 32;

/** The deepest nesting a run snapshot (or anything signed or hashed with it) may have. */
export const maxSnapshotDepth = maxValueDepth + 2 * snapshotStructureDepth;

/** How the limit reads in messages. */
export function describeDepthLimit(limit = maxValueDepth): string {
  return `${limit.toLocaleString("en-US")} levels`;
}

/**
 * True when `value` nests objects and arrays (also Maps and Sets) deeper than `limit`. Iterative: any
 * depth is measured without recursion; shared and cyclic references are walked once.
 *
 * @param value - any value (class instances other than Map and Set are not entered)
 * @param limit - the deepest nesting accepted
 */
export function exceedsDepth(value: unknown, limit: number = maxValueDepth): boolean {
  if (typeof value !== "object" || value === null) return false;
  const seen = new Set<object>();
  const stack: { value: object; depth: number }[] = [{ value, depth: 1 }];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    if (seen.has(top.value)) continue;
    seen.add(top.value);
    if (top.depth > limit) return true;
    for (const child of childrenOf(top.value)) {
      if (typeof child === "object" && child !== null && !seen.has(child))
        stack.push({ value: child, depth: top.depth + 1 });
    }
  }
  return false;
}

function childrenOf(value: object): Iterable<unknown> {
  if (Array.isArray(value)) return value;
  if (value instanceof Map) return value.values();
  if (value instanceof Set) return value.values();
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return [];
  return Object.values(value);
}
