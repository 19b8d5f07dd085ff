import type { z } from "zod";
import type { Issue } from "../errors/errors.js";
import { decodeNamedJSON } from "../sockets/named-json.js";

/**
 * Socket values in snapshots: written as JSON (class instances through their `toJSON`), read back through
 * the socket's schema (named types through the `fromJSON` given to `defineNamedType`).
 */

const maxDepth = 64;

function isPlain(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * The JSON form of a value, or `undefined` with an issue when it has none (a function, a class instance
 * without `toJSON`, a cycle, a non-finite number).
 */
export function toSnapshotJSON(value: unknown, path: readonly (string | number)[], issues: Issue[]): unknown {
  const problems = issues.length;
  const out = write(value, [...path], issues, 0);
  return issues.length > problems ? undefined : out;
}

function write(value: unknown, path: (string | number)[], issues: Issue[], depth: number): unknown {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") {
    if (Number.isFinite(value)) return value;
    issues.push({ path: [...path], message: `${value} has no JSON form.` });
    return undefined;
  }
  if (typeof value !== "object") {
    issues.push({
      path: [...path],
      message: `a ${typeof value} has no JSON form; supply it again on resume.`,
    });
    return undefined;
  }
  if (depth >= maxDepth) {
    issues.push({ path: [...path], message: `nested deeper than ${maxDepth} levels.` });
    return undefined;
  }
  if (Array.isArray(value)) {
    return value.map((item, index) => {
      path.push(index);
      const out = write(item, path, issues, depth + 1);
      path.pop();
      return out === undefined ? null : out;
    });
  }
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === "function") return write(toJSON.call(value), path, issues, depth + 1);
  if (!isPlain(value)) {
    const name = (value as { constructor?: { name?: string } }).constructor?.name ?? "a class";
    issues.push({ path: [...path], message: `an instance of ${name} without toJSON has no JSON form.` });
    return undefined;
  }
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined) continue;
    path.push(key);
    const written = write(item, path, issues, depth + 1);
    path.pop();
    if (written !== undefined) out[key] = written;
  }
  return out;
}

/**
 * Reads a value written by {@link toSnapshotJSON} back through `schema`: named types (also inside arrays,
 * objects and records) become instances again; everything else is returned as it is.
 *
 * @throws whatever a named type's `fromJSON` throws for a malformed value
 */
export function fromSnapshotJSON(schema: z.ZodType | undefined, value: unknown, depth = 0): unknown {
  if (schema === undefined || depth > maxDepth) return value;
  return decodeNamedJSON(schema, value, { source: "fromJSON", onFailure: "throw" });
}
