import type { DeserializeContext, SerializeContext } from "@junction/core";
import type { StateSchema } from "../state/state-schema.js";

/** Writes a state schema as `{ key: { type: JSONSchema, handler?: name } }` (pending core's schema JSON). */
export function stateSchemaToJSON(schema: StateSchema, context: SerializeContext): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(schema)) {
    const entry: Record<string, unknown> = { type: {} };
    if (spec.handler !== undefined)
      entry.handler = context.functionName(spec.handler, ["stateSchema", key, "handler"]);
    out[key] = entry;
  }
  return out;
}

/** Reads a state schema back. */
export function stateSchemaFromJSON(doc: unknown, context: DeserializeContext): StateSchema | undefined {
  void doc;
  context.issues.push({ path: [...context.path, "stateSchema"], message: "not available yet." });
  return undefined;
}
