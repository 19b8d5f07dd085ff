import { isComponent } from "../component/internals.js";
import type { Issue } from "../errors/errors.js";
import { excerpt } from "../errors/excerpt.js";
import {
  defaultCopyLimits,
  forbiddenKeys,
  isPlainObject,
  kindOf,
  type Path,
} from "../json/untrusted-json.js";
import { Secret } from "../secret.js";

/** Writing params as JSON data (the reverse of `copyUntrusted`, in `json/`). */

/**
 * Writes params as JSON data: secrets become env-var references, `undefined` object properties are left
 * out (as `JSON.stringify` does), anything else that is not JSON data is recorded in `issues`.
 */
export function toJSONData(value: unknown, path: Path, issues: Issue[], depth = 0): unknown {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") {
    if (Number.isFinite(value)) return value;
    issues.push({ path, message: `${value} cannot be written as JSON; use a finite number or null.` });
    return undefined;
  }
  if (Secret.isInstance(value)) {
    if (value.type === "token") {
      issues.push({
        path,
        message:
          'a token secret (Secret.fromToken) cannot be serialized, so credentials never end up in documents. Use Secret.fromEnvVar("MY_API_KEY") for components you save.',
      });
      return undefined;
    }
    return value.toJSON();
  }
  if (depth >= defaultCopyLimits.maxDepth) {
    issues.push({ path, message: `nested deeper than ${defaultCopyLimits.maxDepth} levels (a cycle?).` });
    return undefined;
  }
  if (Array.isArray(value)) {
    return value.map((item, index) => {
      if (item === undefined) {
        issues.push({ path: [...path, index], message: "undefined cannot be written as JSON; use null." });
        return null;
      }
      return toJSONData(item, [...path, index], issues, depth + 1);
    });
  }
  if (typeof value === "object" && isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined) continue;
      if (forbiddenKeys.has(key)) {
        issues.push({
          path: [...path, key],
          message: `the key "${excerpt(key)}" cannot be written to a document.`,
        });
        continue;
      }
      out[key] = toJSONData(item, [...path, key], issues, depth + 1);
    }
    return out;
  }
  const hint = isComponent(value)
    ? " Nested components are written with context.serializeComponent: give the definition a `serializer`."
    : typeof value === "function"
      ? " Functions are written by registered name: give the component a serializer that calls context.functionName(fn, path)."
      : " Only JSON data and secrets are written by default; give the component definition a `serializer` for other values.";
  issues.push({ path, message: `${kindOf(value)} cannot be written as JSON.${hint}` });
  return undefined;
}
