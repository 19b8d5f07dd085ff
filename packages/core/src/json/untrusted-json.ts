import type { Issue } from "../errors/errors.js";
import { excerpt } from "../errors/excerpt.js";

/**
 * Copying untrusted JSON data.
 *
 * Loading copies untrusted input into fresh plain objects before anything else reads it: keys that could
 * reach a prototype (`__proto__`) are refused, nesting and size are bounded, and anything that is not
 * JSON data (functions, class instances, getters' results are never invoked: only own enumerable data
 * properties are read) is reported.
 */

/** A path into a document. */
export type Path = readonly (string | number)[];

/** Limits applied while copying untrusted documents. */
export interface CopyLimits {
  /** The deepest nesting accepted (objects and arrays). */
  readonly maxDepth: number;
  /** The most values (objects, arrays, scalars) accepted in one document. */
  readonly maxNodes: number;
}

/** Defaults: deep enough for any real pipeline, small enough that recursion never exhausts the stack. */
export const defaultCopyLimits: CopyLimits = { maxDepth: 64, maxNodes: 250_000 };

/** Keys refused anywhere in a document: assigning them could replace an object's prototype. */
export const forbiddenKeys = new Set(["__proto__"]);

/** True for an object literal or `Object.create(null)`: data, not a class instance. */
export function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** Names what a non-JSON value is, for messages (`"a function"`, `"an instance of Date"`). */
export function kindOf(value: unknown): string {
  if (value === undefined) return "undefined";
  if (typeof value === "function") return "a function";
  if (typeof value === "bigint") return "a bigint";
  if (typeof value === "symbol") return "a symbol";
  if (typeof value === "number") return String(value);
  if (typeof value === "object" && value !== null) {
    const name = (Object.getPrototypeOf(value) as { constructor?: { name?: unknown } } | null)?.constructor
      ?.name;
    return typeof name === "string" && name !== ""
      ? `an instance of ${name}`
      : "an object with a custom prototype";
  }
  return typeof value;
}

/**
 * Copies untrusted data into fresh plain objects and arrays, recording every problem in `issues`.
 *
 * @returns the copy (with offending values left out)
 */
export function copyUntrusted(
  value: unknown,
  path: Path,
  issues: Issue[],
  limits: CopyLimits = defaultCopyLimits,
): unknown {
  // Count first, without allocating: documents of shared references (exponential when expanded) are
  // refused before anything is copied.
  if (countValues(value, limits, 0, 0) > limits.maxNodes) {
    issues.push({
      path: [...path],
      message: `the document has more than ${limits.maxNodes} values; it is refused.`,
    });
    return undefined;
  }
  const state = { nodes: 0, tooLarge: false };
  // One mutable path stack; issues copy it, so a large document costs no per-value allocation.
  return copyNode(value, [...path], issues, limits, state, 0);
}

/** Counts values up to just past the limit (stops early); containers below the depth limit count as one. */
function countValues(value: unknown, limits: CopyLimits, depth: number, counted: number): number {
  let total = counted + 1;
  if (typeof value !== "object" || value === null || depth >= limits.maxDepth) return total;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length && total <= limits.maxNodes; index++) {
      total = countValues(value[index], limits, depth + 1, total);
    }
    return total;
  }
  if (!isPlainObject(value)) return total;
  for (const key in value) {
    if (total > limits.maxNodes) break;
    if (!Object.hasOwn(value, key)) continue;
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    total =
      descriptor !== undefined && "value" in descriptor
        ? countValues(descriptor.value, limits, depth + 1, total)
        : total + 1;
  }
  return total;
}

function copyNode(
  value: unknown,
  path: (string | number)[],
  issues: Issue[],
  limits: CopyLimits,
  state: { nodes: number; tooLarge: boolean },
  depth: number,
): unknown {
  state.nodes += 1;
  if (state.nodes > limits.maxNodes) {
    if (!state.tooLarge) {
      state.tooLarge = true;
      issues.push({
        path: [],
        message: `the document has more than ${limits.maxNodes} values; it is refused.`,
      });
    }
    return undefined;
  }
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") {
    if (Number.isFinite(value)) return value;
    issues.push({ path: [...path], message: `${value} is not a JSON number.` });
    return undefined;
  }
  if (typeof value !== "object" || (!Array.isArray(value) && !isPlainObject(value))) {
    issues.push({ path: [...path], message: `expected JSON data, got ${kindOf(value)}.` });
    return undefined;
  }
  if (depth >= limits.maxDepth) {
    issues.push({
      path: [...path],
      message: `nested deeper than ${limits.maxDepth} levels; the document is refused.`,
    });
    return undefined;
  }
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (let index = 0; index < value.length && !state.tooLarge; index++) {
      path.push(index);
      out.push(copyNode(value[index], path, issues, limits, state, depth + 1));
      path.pop();
    }
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (state.tooLarge) break;
    if (forbiddenKeys.has(key)) {
      issues.push({
        path: [...path, key],
        message: `the key "${excerpt(key)}" is not allowed in documents (it could change an object's prototype).`,
      });
      continue;
    }
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    if (descriptor === undefined || !("value" in descriptor)) {
      issues.push({ path: [...path, key], message: "expected a data property, got an accessor." });
      continue;
    }
    path.push(key);
    const copied = copyNode(descriptor.value, path, issues, limits, state, depth + 1);
    path.pop();
    out[key] = copied; // safe: "__proto__", the only setter on Object.prototype, was refused above
  }
  return out;
}
