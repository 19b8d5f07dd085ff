import type { z } from "zod";
import type { Issue } from "../errors/errors.js";
import { describeDepthLimit, maxValueDepth, snapshotStructureDepth } from "../json/value-limits.js";
import { snapshotLimits } from "../run/run-snapshot.js";
import { decodeNamedJSON } from "../sockets/named-json.js";

/**
 * Socket values in snapshots: written as JSON (class instances through their `toJSON`), read back through
 * the socket's schema (named types through the `fromJSON` given to `defineNamedType`).
 */

/**
 * The deepest nesting written: a run's values ({@link maxValueDepth}) plus the levels a component (the
 * Agent's State) wraps around them.
 */
const maxDepth = maxValueDepth + snapshotStructureDepth;

function isPlain(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** One write's bookkeeping: the objects being written (cycle check) and the values written so far. */
interface Walk {
  readonly issues: Issue[];
  readonly ancestors: Set<object>;
  count: number;
}

/**
 * The JSON form of a value, or `undefined` with an issue when it has none (a function, a class instance
 * without `toJSON`, a cycle, a non-finite number, nesting deeper than `maxValueDepth` plus the
 * snapshot's own levels, more values than a snapshot may hold).
 */
export function toSnapshotJSON(value: unknown, path: readonly (string | number)[], issues: Issue[]): unknown {
  const problems = issues.length;
  const out = write(value, [...path], { issues, ancestors: new Set(), count: 0 }, 0, true);
  return issues.length > problems ? undefined : out;
}

function write(
  value: unknown,
  path: (string | number)[],
  walk: Walk,
  depth: number,
  callToJSON: boolean,
): unknown {
  if (++walk.count > snapshotLimits.maxNodes) {
    if (walk.count === snapshotLimits.maxNodes + 1)
      walk.issues.push({ path: [...path], message: `more than ${snapshotLimits.maxNodes} values to write.` });
    return undefined;
  }
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") {
    if (Number.isFinite(value)) return value;
    walk.issues.push({ path: [...path], message: `${value} has no JSON form.` });
    return undefined;
  }
  if (typeof value !== "object") {
    walk.issues.push({
      path: [...path],
      message: `a ${typeof value} has no JSON form; supply it again on resume.`,
    });
    return undefined;
  }
  // As JSON.stringify: toJSON is called on the value, not again on what it returned.
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (callToJSON && typeof toJSON === "function") return write(toJSON.call(value), path, walk, depth, false);
  if (walk.ancestors.has(value)) {
    walk.issues.push({ path: [...path], message: "the value contains a cycle (it holds itself)." });
    return undefined;
  }
  if (depth >= maxDepth) {
    walk.issues.push({
      path: [...path.slice(0, 8), "…"],
      message: `nested deeper than ${describeDepthLimit(maxDepth)}.`,
    });
    return undefined;
  }
  if (!Array.isArray(value) && !isPlain(value)) {
    const name = (value as { constructor?: { name?: string } }).constructor?.name ?? "a class";
    walk.issues.push({
      path: [...path],
      message: callToJSON
        ? `an instance of ${name} without toJSON has no JSON form.`
        : `its toJSON returned an instance of ${name}, which has no JSON form; return plain data.`,
    });
    return undefined;
  }
  walk.ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      const out: unknown[] = new Array(value.length);
      for (let index = 0; index < value.length; index++) {
        path.push(index);
        out[index] = write(value[index], path, walk, depth + 1, true) ?? null;
        path.pop();
      }
      return out;
    }
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined) continue;
      path.push(key);
      const written = write(item, path, walk, depth + 1, true);
      path.pop();
      if (written === undefined) continue;
      if (key === "__proto__")
        Object.defineProperty(out, key, {
          value: written,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      else out[key] = written;
    }
    return out;
  } finally {
    walk.ancestors.delete(value);
  }
}

/**
 * Reads a value written by {@link toSnapshotJSON} back through `schema`: named types (also inside arrays,
 * objects and records) become instances again; everything else is returned as it is.
 *
 * @throws whatever a named type's `fromJSON` throws for a malformed value
 */
export function fromSnapshotJSON(schema: z.ZodType | undefined, value: unknown): unknown {
  if (schema === undefined) return value;
  return decodeNamedJSON(schema, value, { source: "fromJSON", onFailure: "throw" });
}
