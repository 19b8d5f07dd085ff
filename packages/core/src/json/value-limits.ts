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
 * Arrays longer than this are checked for holes before anything walks them: `const a = []; a.length = 1e9`
 * is one small object, but a loop over its indices runs a billion times (and JSON writes a billion
 * `null`s). Shorter arrays cost at most their length, like any value. Exported for messages and tests.
 */
export const sparseCheckLength = 65_536;

/** Why a value cannot be part of a run, as {@link findValueProblem} reports it. */
export type ValueProblem =
  | { readonly kind: "too_deep"; readonly limit: number }
  | { readonly kind: "sparse_array"; readonly length: number; readonly hole: number };

/**
 * True when `value` nests objects and arrays (also Maps and Sets) deeper than `limit`. Iterative: any
 * depth is measured without recursion; shared and cyclic references are walked once. A small value (a few
 * levels, a few dozen entries: a tool call's arguments, a message's metadata) is measured without
 * allocating anything.
 *
 * @param value - any value (class instances other than Map and Set are not entered)
 * @param limit - the deepest nesting accepted
 */
export function exceedsDepth(value: unknown, limit: number = maxValueDepth): boolean {
  return findValueProblem(value, limit)?.kind === "too_deep";
}

/**
 * The first reason `value` cannot be part of a run, or `undefined`: nesting deeper than `limit`, or a
 * sparse array longer than {@link sparseCheckLength} (one with a hole). Walks like {@link exceedsDepth};
 * cheap for small values.
 *
 * @param value - any value (class instances other than Map and Set are not entered)
 * @param limit - the deepest nesting accepted
 * @param options - `dataOnly`: read only data properties, never calling a getter (for a value handed to
 *   a component as it is, which may read only part of it); slower for small values
 */
export function findValueProblem(
  value: unknown,
  limit: number = maxValueDepth,
  options?: { readonly dataOnly?: boolean },
): ValueProblem | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  // No default `{}` for options: this runs several times per agent step.
  const dataOnly = options?.dataOnly === true;
  if (!dataOnly && limit >= smallLevels && smallValueBudget(value, smallLevels, smallNodes) >= 0)
    return undefined;
  const seen = new Set<object>();
  const stack: { value: object; depth: number }[] = [{ value, depth: 1 }];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    if (seen.has(top.value)) continue;
    seen.add(top.value);
    if (top.depth > limit) return { kind: "too_deep", limit };
    const current = top.value;
    if (Array.isArray(current)) {
      const length = current.length;
      if (length > sparseCheckLength) {
        const hole = firstHole(current);
        if (hole !== -1) return { kind: "sparse_array", length, hole };
      }
      for (let index = 0; index < length; index += 1) {
        const child: unknown = current[index];
        if (typeof child === "object" && child !== null && !seen.has(child))
          stack.push({ value: child, depth: top.depth + 1 });
      }
      continue;
    }
    for (const child of dataOnly ? dataChildrenOf(current) : childrenOf(current)) {
      if (typeof child === "object" && child !== null && !seen.has(child))
        stack.push({ value: child, depth: top.depth + 1 });
    }
  }
  return undefined;
}

/**
 * How a {@link ValueProblem} reads in messages, after the value's name ("the value for \"a.b\" nests
 * objects and arrays deeper than 1,000 levels, the limit for values in a run (maxValueDepth)"); the
 * caller adds the fix that fits ({@link describeValueProblemFix} by default).
 */
export function describeValueProblem(problem: ValueProblem): string {
  if (problem.kind === "too_deep")
    return `nests objects and arrays deeper than ${describeDepthLimit(problem.limit)}, the limit for values in a run (maxValueDepth)`;
  return `holds a sparse array (length ${problem.length.toLocaleString("en-US")}, no entry at index ${problem.hole.toLocaleString("en-US")}), and arrays longer than ${sparseCheckLength.toLocaleString("en-US")} entries must have every entry set`;
}

/** The usual fix for a {@link ValueProblem}, as a sentence. */
export function describeValueProblemFix(problem: ValueProblem): string {
  return problem.kind === "too_deep"
    ? "Flatten it, or pass it as JSON text (a string)."
    : "Pass a dense array, or the entries as an object keyed by index.";
}

/**
 * The index of the first hole of an array (an index with no entry), or -1. Stops at the first hole, so a
 * huge sparse array costs as much as its set prefix.
 */
export function firstHole(array: readonly unknown[]): number {
  const length = array.length;
  for (let index = 0; index < length; index += 1) if (!(index in array)) return index;
  return -1;
}

/** Levels and values a value may have to be measured by the allocation-free fast path. */
const smallLevels = 8;
const smallNodes = 64;

/**
 * Walks a small value recursively (at most `levels` levels and `budget` entries) and returns the budget
 * left, or -1 when the value does not fit: then the full walk measures it. Cycles exhaust the budget.
 *
 * It may walk more than the full walk (it enters class instances, and `for...in` also lists inherited
 * enumerable keys), never less (Maps and Sets are left to the full walk): a value it finds small is small.
 * `for...in` without an allocation is the cheapest walk of a small object on V8; a message's arguments and
 * metadata are checked this way on every agent step.
 */
function smallValueBudget(value: object, levels: number, budget: number): number {
  if (levels === 0) return -1;
  let left = budget;
  if (Array.isArray(value)) {
    const length = value.length;
    if (length > left) return -1;
    left -= length;
    for (let index = 0; index < length; index += 1) {
      const child: unknown = value[index];
      if (typeof child === "object" && child !== null) {
        left = smallValueBudget(child, levels - 1, left);
        if (left < 0) return -1;
      }
    }
    return left;
  }
  if (value instanceof Map || value instanceof Set) return -1;
  for (const key in value) {
    left -= 1;
    if (left < 0) return -1;
    const child: unknown = (value as Record<string, unknown>)[key];
    if (typeof child === "object" && child !== null) {
      left = smallValueBudget(child, levels - 1, left);
      if (left < 0) return -1;
    }
  }
  return left;
}

function childrenOf(value: object): Iterable<unknown> {
  if (value instanceof Map) return value.values();
  if (value instanceof Set) return value.values();
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return [];
  return Object.values(value);
}

/** {@link childrenOf} without calling getters: the values of own data properties only. */
function dataChildrenOf(value: object): Iterable<unknown> {
  if (value instanceof Map) return value.values();
  if (value instanceof Set) return value.values();
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return [];
  const children: unknown[] = [];
  for (const descriptor of Object.values(Object.getOwnPropertyDescriptors(value))) {
    if ("value" in descriptor && descriptor.enumerable === true) children.push(descriptor.value);
  }
  return children;
}
