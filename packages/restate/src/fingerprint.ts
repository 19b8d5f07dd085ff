import { createHash } from "node:crypto";
import { type AnyComponent, isComponent, Pipeline, serializeComponent } from "@junction/core";

/**
 * The definition fingerprint of a pipeline or a component: `sha256:` of its serialized document, or —
 * when it cannot be serialized (tools whose functions are not registered) — of a structural description
 * (component types, params, tool names, descriptions and parameter schemas, function names). Functions'
 * bodies are not part of it: pass `version` to mark a change that the structure does not show.
 *
 * A run records the fingerprint of the code that started it; code whose fingerprint differs refuses to
 * continue the run, so a changed deployment is reported up front instead of as a journal mismatch.
 *
 * @param target - the pipeline or component (an Agent) the workflow runs
 * @param version - an extra version label mixed into the hash
 */
export function definitionFingerprint(target: Pipeline | AnyComponent, version?: string): string {
  let document: unknown;
  try {
    document = target instanceof Pipeline ? target.toJSON() : serializeComponent(target);
  } catch {
    document = describe(target, new Set(), 0);
  }
  const hash = createHash("sha256").update(canonical({ document, version: version ?? null }));
  return `sha256:${hash.digest("hex")}`;
}

/** JSON text with object keys sorted, so equal documents hash equally. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (typeof item !== "object" || item === null || Array.isArray(item)) return item;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(item).sort()) sorted[key] = (item as Record<string, unknown>)[key];
    return sorted;
  });
}

function describe(value: unknown, seen: Set<unknown>, depth: number): unknown {
  if (value === null || typeof value !== "object") {
    if (typeof value === "function") return `function ${value.name}`;
    if (typeof value === "bigint" || typeof value === "symbol") return String(value);
    return value;
  }
  if (seen.has(value) || depth > 12) return "[seen]";
  seen.add(value);
  try {
    if (value instanceof Pipeline) {
      const components: Record<string, unknown> = {};
      for (const name of value.componentNames()) {
        components[name] = describe(value.getComponent(name), seen, depth + 1);
      }
      return { components, connections: value.connections() };
    }
    if (isComponent(value)) return { type: value.type, params: describe(value.params, seen, depth + 1) };
    if (Array.isArray(value)) return value.map((item) => describe(item, seen, depth + 1));
    if ("_zod" in value) return "schema";
    const out: Record<string, unknown> = {};
    const name = (value as { constructor?: { name?: string } }).constructor?.name;
    if (name !== undefined && name !== "Object") out["#class"] = name;
    for (const key of Object.keys(value)) {
      out[key] = describe((value as Record<string, unknown>)[key], seen, depth + 1);
    }
    return out;
  } finally {
    seen.delete(value);
  }
}
