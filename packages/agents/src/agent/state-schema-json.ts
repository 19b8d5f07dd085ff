import { type DeserializeContext, SerializationError, type SerializeContext } from "@junction/core";
import { schemaFromJSON, schemaToJSON } from "../state/schema-json.js";
import type { StateKeySpec, StateSchema } from "../state/state-schema.js";

/** Writes the Agent's state schema as `{ key: { type: JSONSchema, handler?: name } }`. */
export function stateSchemaToJSON(schema: StateSchema, context: SerializeContext): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const issues: { path: (string | number)[]; message: string }[] = [];
  for (const [key, spec] of Object.entries(schema)) {
    const entry: Record<string, unknown> = {
      type: schemaToJSON(spec.type, [...context.path, "stateSchema", key, "type"], issues),
    };
    if (spec.handler !== undefined) {
      entry.handler = context.functionName(spec.handler, ["stateSchema", key, "handler"]);
    }
    out[key] = entry;
  }
  if (issues.length > 0) {
    throw new SerializationError("Agent: the state schema cannot be written as JSON Schema.", { issues });
  }
  return out;
}

/** Reads the Agent's state schema back; problems are recorded in the context. */
export function stateSchemaFromJSON(doc: unknown, context: DeserializeContext): StateSchema | undefined {
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) {
    context.issues.push({
      path: [...context.path, "stateSchema"],
      message: "must be an object { key: { type, handler? } }.",
    });
    return undefined;
  }
  const out: Record<string, StateKeySpec> = {};
  for (const [key, entry] of Object.entries(doc)) {
    const spec = (typeof entry === "object" && entry !== null ? entry : {}) as {
      type?: unknown;
      handler?: unknown;
    };
    const type = schemaFromJSON(spec.type, [...context.path, "stateSchema", key, "type"], context.issues);
    if (spec.handler === undefined) {
      out[key] = { type };
      continue;
    }
    const handler = context.resolveFunction(spec.handler, ["stateSchema", key, "handler"]);
    out[key] = handler === undefined ? { type } : { type, handler: handler as StateKeySpec["handler"] };
  }
  return out;
}
