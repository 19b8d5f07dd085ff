import { z } from "zod";
import type { AnyComponent } from "../component/contract.js";
import { isComponent } from "../component/internals.js";
import { hashJSON } from "../json/canonical-json.js";
import { Secret } from "../secret.js";
import { serializeComponent } from "../serialization/component-serialization.js";

/**
 * A definition's fingerprint: the hash of what a resume relies on being unchanged. It is the hash of the
 * component's serialized document when it can be written; otherwise (unregistered tool functions, token
 * secrets) the hash of a structural description: types, params, tool names and schemas, function names.
 */
export function componentFingerprint(component: AnyComponent): string {
  try {
    return hashJSON(serializeComponent(component));
  } catch {
    return hashJSON(describe(component, 0, new Set()));
  }
}

/** The fingerprint of any JSON-describable value (a pipeline document, a structural description). */
export function valueFingerprint(value: unknown): string {
  return hashJSON(describe(value, 0, new Set()));
}

function describe(value: unknown, depth: number, seen: Set<object>): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === "function") return `function:${value.name}`;
  if (typeof value === "number") return Number.isFinite(value) ? value : String(value);
  if (typeof value === "bigint" || typeof value === "symbol") return String(value);
  if (typeof value !== "object") return value;
  if (depth > 8) return "…";
  if (seen.has(value)) return "cycle";
  if (value instanceof Secret) return "secret";
  seen.add(value);
  try {
    if (isComponent(value)) return { type: value.type, params: describe(value.params, depth + 1, seen) };
    if ("_zod" in value) {
      try {
        return z.toJSONSchema(value as z.ZodType, { unrepresentable: "any" });
      } catch {
        return "zod";
      }
    }
    if (Array.isArray(value)) return value.map((item) => describe(item, depth + 1, seen));
    const out: Record<string, unknown> = {};
    const name = (Object.getPrototypeOf(value) as { constructor?: { name?: string } } | null)?.constructor
      ?.name;
    if (name !== undefined && name !== "Object") out["@class"] = name;
    for (const [key, item] of Object.entries(value)) out[key] = describe(item, depth + 1, seen);
    return out;
  } finally {
    seen.delete(value);
  }
}
