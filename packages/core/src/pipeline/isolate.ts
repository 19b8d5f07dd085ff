import {
  describeValueProblem,
  firstHole,
  maxValueDepth,
  sparseCheckLength,
  type ValueProblem,
} from "../json/value-limits.js";

/**
 * Thrown by {@link isolate} for a value it refuses: nested deeper than its limit, or a huge sparse array;
 * the caller names the socket in a Junction error. Internal: it never leaves the engine.
 */
export class ValueTooDeep extends Error {
  /** What is wrong with the value. */
  readonly problem: ValueProblem;

  constructor(problem: ValueProblem = { kind: "too_deep", limit: maxValueDepth }) {
    super(describeValueProblem(problem));
    this.problem = problem;
  }
}

/**
 * Copies a value so that a component mutating what it received cannot change the caller's data or what
 * another component receives. Plain objects, arrays, maps, sets and dates are copied (cycles and shared
 * references kept); class instances (immutable by convention, e.g. `ChatMessage`), functions and
 * components are shared.
 *
 * The copy is recursive (the fastest way to copy small values, which are almost all of them) and bounded:
 * a value nesting containers deeper than `limit` throws {@link ValueTooDeep} long before the stack runs out,
 * and so does an array longer than `sparseCheckLength` with a hole (`a.length = 1e9` would be copied
 * index by index).
 *
 * @param limit - the deepest nesting accepted ({@link maxValueDepth}; one more for an object of inputs)
 * @throws ValueTooDeep when the value nests deeper than `limit` or holds a huge sparse array
 */
export function isolate<T>(value: T, limit: number = maxValueDepth): T {
  if (typeof value !== "object" || value === null) return value;
  return copy(value, new Map(), limit) as T;
}

const ownData = { enumerable: true, writable: true, configurable: true } as const;

/** `remaining` is how many more levels may be entered below this value. */
function copy(value: unknown, seen: Map<object, unknown>, remaining: number): unknown {
  if (typeof value !== "object" || value === null) return value;
  const existing = seen.get(value);
  if (existing !== undefined) return existing;
  if (Array.isArray(value)) {
    if (remaining === 0) throw new ValueTooDeep();
    const length = value.length;
    if (length > sparseCheckLength) {
      const hole = firstHole(value);
      if (hole !== -1) throw new ValueTooDeep({ kind: "sparse_array", length, hole });
    }
    const out: unknown[] = new Array(length);
    seen.set(value, out);
    for (let index = 0; index < length; index += 1) out[index] = copy(value[index], seen, remaining - 1);
    return out;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype === Object.prototype || prototype === null) {
    if (remaining === 0) throw new ValueTooDeep();
    const out: Record<string, unknown> = prototype === null ? Object.create(null) : {};
    seen.set(value, out);
    for (const key of Object.keys(value)) {
      const item = copy((value as Record<string, unknown>)[key], seen, remaining - 1);
      // A "__proto__" key (JSON.parse makes one) stays an own property instead of replacing the prototype.
      if (key === "__proto__") Object.defineProperty(out, key, { value: item, ...ownData });
      else out[key] = item;
    }
    return out;
  }
  if (value instanceof Map) {
    if (remaining === 0) throw new ValueTooDeep();
    const out = new Map();
    seen.set(value, out);
    for (const [key, item] of value) out.set(key, copy(item, seen, remaining - 1));
    return out;
  }
  if (value instanceof Set) {
    if (remaining === 0) throw new ValueTooDeep();
    const out = new Set();
    seen.set(value, out);
    for (const item of value) out.add(copy(item, seen, remaining - 1));
    return out;
  }
  if (value instanceof Date) return new Date(value.getTime());
  return value;
}
